"""Owns what bounds one extraction: the budgets of the text (characters, PDF pages, OCR pages,
DOCX elements), and the process limits of the work horse (memory ceiling, CPU budget) as seen
from inside the job: the exceptions they raise and the reason each one leaves on the document.

The process limits are set by the worker in the forked work horse only (jobs/worker.py); here
nothing changes a limit, so calling extract_text in a test or a CLI command is unaffected."""

from __future__ import annotations

import resource
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

LIMIT_EXCEEDED = "limit_exceeded"

DEFAULT_MAX_CHARS = 5_000_000
DEFAULT_MAX_PAGES = 2_000
DEFAULT_OCR_MAX_PAGES = 20
DEFAULT_OCR_TIMEOUT = 120.0  # seconds per tesseract/pdftoppm call
# Word writes several elements per run of text (properties, fonts, sizes); 10 million is far
# beyond what 5 million characters take, and streams in about 10 s (DOCX bombs: 1 million a second).
DEFAULT_MAX_ELEMENTS = 10_000_000


@dataclass(frozen=True)
class Budgets:
    """How much one extraction may produce and read; past a budget the text is cut there."""

    max_chars: int = DEFAULT_MAX_CHARS
    max_pages: int = DEFAULT_MAX_PAGES  # PDF pages read for their text layer
    ocr_max_pages: int = DEFAULT_OCR_MAX_PAGES  # PDF pages rendered and OCRed
    ocr_timeout: float = DEFAULT_OCR_TIMEOUT
    max_elements: int = DEFAULT_MAX_ELEMENTS  # XML elements of a DOCX's document.xml

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Budgets:
        return cls(
            max_chars=config.get("DMS_EXTRACT_MAX_CHARS", DEFAULT_MAX_CHARS),
            max_pages=config.get("DMS_EXTRACT_MAX_PAGES", DEFAULT_MAX_PAGES),
            ocr_max_pages=config.get("DMS_OCR_MAX_PAGES", DEFAULT_OCR_MAX_PAGES),
        )


class BudgetReached(Exception):
    """Raised by an extractor's text collector to stop reading: the text so far is kept."""


class LimitExceeded(Exception):
    """The input needs more than we allow (a DOCX declaring gigabytes): extraction fails."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{LIMIT_EXCEEDED}: {what}")


class CpuBudgetExceeded(BaseException):
    """Raised in the work horse when its CPU budget is spent (SIGXCPU, or the OCR programs'
    time added up). A BaseException, so the `except Exception` of a library cannot swallow it
    and keep burning the budget."""

    def __init__(self, seconds: int) -> None:
        super().__init__(f"{LIMIT_EXCEEDED}: CPU budget of {seconds} s")


PROCESS_LIMIT_ERRORS = (MemoryError, CpuBudgetExceeded)

# Set in the forked work horse by jobs/worker.py (the horse runs one job, then exits), so the
# reason names the configured figure rather than the address space it was added to.
_memory_ceiling_mb: int | None = None


def note_memory_ceiling(megabytes: int) -> None:
    global _memory_ceiling_mb
    _memory_ceiling_mb = megabytes


def reason(exc: BaseException) -> str:
    """The document's `text_error` for a process limit that stopped its extraction."""
    if isinstance(exc, MemoryError):
        if _memory_ceiling_mb is None:
            return f"{LIMIT_EXCEEDED}: out of memory"
        return f"{LIMIT_EXCEEDED}: memory ceiling of {_memory_ceiling_mb} MiB"
    return str(exc)


class CpuAlarm:
    """The work horse's SIGXCPU handler (installed by jobs/worker.py with the budget it set).
    The kernel repeats the signal every CPU second until the hard limit, so a raise that is
    swallowed somewhere gets another chance."""

    def __init__(self, seconds: int, since: float = 0.0) -> None:
        self.seconds = seconds
        self.since = since  # the CPU time (this process and its programs) the budget starts at

    def __call__(self, signum: int, frame: object) -> None:
        raise CpuBudgetExceeded(self.seconds)


def check_cpu_budget() -> None:
    """Between OCR pages: the kernel counts only this process, so add the time of the
    programs it ran (pdftoppm, tesseract) and stop once the sum is over the budget."""
    alarm = signal.getsignal(signal.SIGXCPU)
    if not isinstance(alarm, CpuAlarm):
        return  # not in a limited work horse
    if _cpu_spent(resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN) - alarm.since > alarm.seconds:
        raise CpuBudgetExceeded(alarm.seconds)


def next_document() -> None:
    """In a work horse that works a batch of documents, before each one: the document gets a
    CPU budget of its own. The kernel's soft limit moves to this process's CPU time so far
    plus the budget (the hard limit, the whole batch's, stays), and the OCR programs' time is
    counted from here. Nothing happens outside a limited horse."""
    alarm = signal.getsignal(signal.SIGXCPU)
    if not isinstance(alarm, CpuAlarm):
        return
    own = _cpu_spent(resource.RUSAGE_SELF)
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = int(own) + 1 + alarm.seconds
    unlimited = hard == resource.RLIM_INFINITY
    resource.setrlimit(resource.RLIMIT_CPU, (soft if unlimited else min(soft, hard), hard))
    since = _cpu_spent(resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    signal.signal(signal.SIGXCPU, CpuAlarm(alarm.seconds, since))


def _cpu_spent(*who: int) -> float:
    total = 0.0
    for whose in who:
        usage = resource.getrusage(whose)
        total += usage.ru_utime + usage.ru_stime
    return total


def cpu_budget_exceeded(returncode: int) -> CpuBudgetExceeded | None:
    """The error for a program we ran that the kernel stopped at the CPU budget it inherited."""
    alarm = signal.getsignal(signal.SIGXCPU)
    if returncode == -signal.SIGXCPU and isinstance(alarm, CpuAlarm):
        return CpuBudgetExceeded(alarm.seconds)
    return None


def stand_down() -> None:
    """Once a process limit has been caught: no further SIGXCPU while the failure is recorded
    (the hard limit still kills a horse that keeps going)."""
    if isinstance(signal.getsignal(signal.SIGXCPU), CpuAlarm):
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)


class BatchAttempt(Protocol):
    died_before: bool  # an earlier attempt on the same content began and never finished


A = TypeVar("A", bound=BatchAttempt)
R = TypeVar("R")


def work_batch(
    begun: Sequence[A], work: Callable[[A], R], on_limit: Callable[[A, str], R]
) -> tuple[list[tuple[A, R]], list[list[A]]]:
    """A batch job's documents worked one after another in this work horse, each under its
    own CPU budget (`next_document`): the (attempt, result)s, and the attempts to enqueue
    again, each list a job. A suspect (its earlier attempt killed the process) goes to a job
    of its own, so that it can stop only itself; a document that hits a process limit gets
    `on_limit(attempt, reason)` and the ones after it go to a job in a fresh process, as
    this one may be in a poor state."""
    suspects = [a for a in begun if a.died_before] if len(begun) > 1 else []
    rest = [a for a in begun if a not in suspects]
    done: list[tuple[A, R]] = []
    while rest:
        attempt = rest.pop(0)
        next_document()
        try:
            done.append((attempt, work(attempt)))
        except PROCESS_LIMIT_ERRORS as exc:
            stand_down()
            done.append((attempt, on_limit(attempt, reason(exc))))
            break
    return done, [[a] for a in suspects] + ([rest] if rest else [])
