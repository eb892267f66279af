"""deploy/: .env.example names every setting the code reads, the systemd units pass
`systemd-analyze verify`, and the nginx example sends what the app expects."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from config import Config
from tests.server import ROOT

DEPLOY = ROOT / "deploy"
# Every way the settings files read a variable: os.environ.get("X"...), os.environ["X"],
# and config.py's helpers _bool/_int/_list("X", ...), possibly across lines.
_READ = re.compile(r'(?:os\.environ\.get|os\.environ\[|_bool|_int|_list)\(?\s*"([A-Z][A-Z0-9_]+)"')
SETTINGS_FILES = ["config.py", "gunicorn.conf.py", "app.py", "observability.py"]


def settings_read() -> set[str]:
    names = set()
    for name in SETTINGS_FILES:
        names |= set(_READ.findall((ROOT / name).read_text()))
    return names


def test_the_scan_finds_the_settings_it_should():
    found = settings_read()
    # One of each kind of read, so a change of style cannot silently empty the check.
    assert {"DATABASE_URL", "DMS_SECURE_COOKIES", "DMS_MAX_UPLOAD_BYTES"} <= found
    assert {"DMS_WEBAUTHN_ORIGINS", "WEB_CONCURRENCY", "DMS_ENV_FILE"} <= found
    assert len(found) > 50


def test_env_example_lists_every_setting():
    example = (DEPLOY / ".env.example").read_text()
    listed = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, flags=re.M))

    assert sorted(settings_read() - listed) == []


def test_env_example_parses_and_its_settings_load(tmp_path, monkeypatch):
    """The uncommented lines are valid settings (config.py accepts them)."""
    for line in (DEPLOY / ".env.example").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            monkeypatch.setenv(name, value)
    config = Config(tmp_path)
    assert config.DMS_TRUSTED_PROXY_COUNT == 1 and config.DMS_STORAGE == "local"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_units_verify(tmp_path):
    # The units name /opt/dms; verify checks that ExecStart exists, so point them here.
    for unit in DEPLOY.glob("*.service"):
        text = unit.read_text().replace("/opt/dms", str(ROOT))
        (tmp_path / unit.name.replace("@.", "@1.")).write_text(text)
    units = sorted(str(p) for p in tmp_path.glob("*.service"))
    assert len(units) == 3

    done = subprocess.run(["systemd-analyze", "verify", *units], capture_output=True, text=True,
                          check=False, timeout=60)  # fmt: skip

    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


def test_nginx_example_forwards_what_the_app_reads():
    conf = (DEPLOY / "nginx.conf").read_text()
    for header in ("Host $host", "X-Forwarded-For $proxy_add_x_forwarded_for",
                   "X-Forwarded-Proto $scheme"):  # fmt: skip
        assert f"proxy_set_header {header};" in conf
    body_mib = int(re.search(r"client_max_body_size (\d+)m;", conf).group(1))
    assert body_mib * 1024 * 1024 >= 50 * 1024 * 1024 + 1024 * 1024  # DMS_MAX_UPLOAD_BYTES + form
    assert "ssl_certificate " in conf and "listen 443 ssl;" in conf
