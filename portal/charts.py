"""Chart geometry for the portal's server-drawn SVG (no script, no CDN): bar charts, sparklines
and quota meters. Templates in templates/portal/_charts.html turn these into markup."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    value: int
    label: str


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bars: list[Bar]
    peak: int
    total: int
    guide_y: float | None  # a dashed line at the limit, when it is within reach of the bars
    guide_label: str | None
    scale_max: int
    first_label: str
    last_label: str
    plot_top: int
    plot_bottom: int


def bar_chart(
    series: list[tuple[datetime, int]],
    *,
    width: int = 720,
    height: int = 170,
    guide: int | None = None,
    guide_label: str | None = None,
    time_format: str = "%H:%M",
) -> BarChart:
    """One bar per bucket, scaled to the larger of the peak and the guide line."""
    top, bottom = 16, height - 22
    plot_height = bottom - top
    peak = max((count for _, count in series), default=0)
    # Scale to the traffic; draw the guide (a limit) only when it is near enough to read
    # against the bars, otherwise a tall limit would flatten every bar to nothing.
    scale_max = max(peak, 1)
    if guide and guide <= max(peak, 1) * 2:
        scale_max = max(scale_max, guide)
    guide_visible = bool(guide) and guide <= scale_max
    step = width / max(len(series), 1)
    gap = min(2.0, step * 0.2)
    bars = []
    for i, (start, count) in enumerate(series):
        bar_height = plot_height * count / scale_max
        if count and bar_height < 1.5:
            bar_height = 1.5  # one request stays visible
        bars.append(
            Bar(
                x=round(i * step + gap / 2, 2),
                y=round(bottom - bar_height, 2),
                width=round(step - gap, 2),
                height=round(bar_height, 2),
                value=count,
                label=f"{start:{time_format}} UTC: {count} request{'s' if count != 1 else ''}",
            )
        )
    guide_y = round(bottom - plot_height * guide / scale_max, 2) if guide_visible else None
    return BarChart(
        width=width,
        height=height,
        bars=bars,
        peak=peak,
        total=sum(count for _, count in series),
        guide_y=guide_y,
        guide_label=guide_label,
        scale_max=scale_max,
        first_label=f"{series[0][0]:{time_format}}" if series else "",
        last_label=f"{series[-1][0]:{time_format}}" if series else "",
        plot_top=top,
        plot_bottom=bottom,
    )


@dataclass(frozen=True)
class Sparkline:
    width: int
    height: int
    points: str
    total: int
    peak: int
    title: str


def sparkline(series: list[tuple[datetime, int]], *, width: int = 72, height: int = 22):
    """A polyline over the buckets; flat along the bottom when there was no traffic."""
    peak = max((count for _, count in series), default=0)
    n = max(len(series) - 1, 1)
    pad = 2
    points = " ".join(
        f"{round(i * (width - 2 * pad) / n + pad, 1)},"
        f"{round(height - pad - (height - 2 * pad) * count / max(peak, 1), 1)}"
        for i, (_, count) in enumerate(series)
    )
    total = sum(count for _, count in series)
    return Sparkline(
        width, height, points, total, peak, f"{total} requests in the last {len(series)} hours"
    )


@dataclass(frozen=True)
class Meter:
    value: int
    limit: int
    percent: float  # 0-100, clamped, for the bar's width
    level: str  # "ok" | "warn" | "over"

    @property
    def label(self) -> str:
        return f"{self.value:,} of {self.limit:,}"


def meter(value: int, limit: int) -> Meter:
    share = value / limit if limit else 0.0
    level = "over" if share >= 1 else "warn" if share >= 0.8 else "ok"
    return Meter(value, limit, round(min(share, 1.0) * 100, 1), level)


@dataclass(frozen=True)
class TimelineMark:
    x: float
    kind: str  # "ok" | "fail" | "next"
    label: str


@dataclass(frozen=True)
class Timeline:
    width: int
    height: int
    axis_y: int
    marks: list[TimelineMark]
    end_label: str
    title: str


def _elapsed(seconds: float) -> str:
    if seconds < 90:
        return f"{round(seconds)} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h".replace(".0 h", " h")


def timeline(
    start: datetime,
    points: list[tuple[datetime, str, str]],
    *,
    width: int = 360,
    height: int = 30,
) -> Timeline:
    """Marks along one axis from `start` (the event) for (time, kind, label) points. The axis
    is square-root scaled, so attempts seconds apart and those hours later both stay legible
    (the retry schedule runs from 0 to 48 hours)."""
    pad, axis_y = 8, height // 2
    offsets = [max((at - start).total_seconds(), 0.0) for at, _, _ in points]
    span = max(max(offsets, default=0.0), 60.0)
    marks = [
        TimelineMark(
            x=round(pad + (width - 2 * pad) * (offset / span) ** 0.5, 2),
            kind=kind,
            label=f"+{_elapsed(offset)}: {label}",
        )
        for offset, (_, kind, label) in zip(offsets, points, strict=True)
    ]
    failed = sum(1 for m in marks if m.kind == "fail")
    done = sum(1 for m in marks if m.kind != "next")
    return Timeline(
        width,
        height,
        axis_y,
        marks,
        f"+{_elapsed(span)}",
        f"{done} attempt{'s' if done != 1 else ''}, {failed} failed",
    )


# --- analytics: lines over days, with the table that says the same ------------------------------


@dataclass(frozen=True)
class Line:
    name: str
    segments: list[str]  # polyline points of each run of periods with a figure
    dots: list[tuple[float, float]]  # a lone period with a figure between two without
    index: int  # picks the line's colour class (chart-line-0 …)


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    lines: list[Line]
    scale_label: str
    first_label: str
    last_label: str
    plot_top: int
    plot_bottom: int
    gaps: list[tuple[float, float]]  # x from, width: periods no series has a figure for
    columns: list[str]  # the table view: one column per line …
    rows: list[tuple[str, list[str]]]  # … and one row per period
    summary: str


NO_DATA = "—"


def _number(value: float | None) -> str:
    return NO_DATA if value is None else f"{value:,.0f}"


def line_chart(
    buckets: list[datetime],
    series: dict[str, list[float | None]],
    *,
    fmt=_number,
    width: int = 720,
    height: int = 170,
    time_format: str = "%b %d",
) -> LineChart:
    """One line per named series over the same buckets, on one scale from zero. None is a
    period without a figure (a rate with nothing to divide, no workflow decided): the line
    breaks there and the period is drawn as "no data", never as a zero."""
    top, bottom, pad = 16, height - 22, 4
    peak = max((max((v or 0 for v in values), default=0) for values in series.values()), default=0)
    scale_max = peak if peak > 0 else 1
    n = max(len(buckets) - 1, 1)

    def x(i: int) -> float:
        return round(pad + i * (width - 2 * pad) / n, 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - top) * value / scale_max, 1)

    lines = []
    for index, (name, values) in enumerate(series.items()):
        runs: list[list[tuple[float, float]]] = [[]]
        for i, value in enumerate(values):
            if value is None:
                runs.append([])
            else:
                runs[-1].append((x(i), y(value)))
        segments = [" ".join(f"{a},{b}" for a, b in run) for run in runs if len(run) > 1]
        dots = [run[0] for run in runs if len(run) == 1]
        lines.append(Line(name, segments, dots, index % 6))
    step = (width - 2 * pad) / n
    gaps = [
        (round(max(x(i) - step / 2, 0), 1), round(step, 1))
        for i in range(len(buckets))
        if series and all(i < len(v) and v[i] is None for v in series.values())
    ]
    rows = [
        (f"{at:%Y-%m-%d}", [fmt(values[i]) for values in series.values()])
        for i, at in enumerate(buckets)
    ]
    lasts = ", ".join(f"{name} {fmt(values[-1])}" for name, values in series.items() if values)
    return LineChart(
        width=width,
        height=height,
        lines=lines,
        scale_label=fmt(scale_max) if peak > 0 else "0",
        first_label=f"{buckets[0]:{time_format}}" if buckets else "",
        last_label=f"{buckets[-1]:{time_format}}" if buckets else "",
        plot_top=top,
        plot_bottom=bottom,
        gaps=gaps,
        columns=list(series),
        rows=rows,
        summary=f"latest: {lasts}" if lasts else "no data",
    )


def duration_hours(value: float | None) -> str:
    """A time in hours as a person reads it: `—` when nothing was measured, minutes below an
    hour, days from two days up."""
    if value is None:
        return NO_DATA
    if value < 1:
        minutes = round(value * 60)
        return "under a minute" if minutes < 1 else f"{minutes} min"
    if value < 48:
        return f"{value:,.1f} h"
    return f"{value / 24:,.1f} days"


def byte_size(value: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(value) < 1024 or unit == "TB":
            return f"{value:,.0f} {unit}" if unit == "B" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{value}"
