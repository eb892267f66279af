"""DMS_AUDIT_KEYS: parsed and checked at start-up, or one random key kept in instance/."""

from __future__ import annotations

import stat

import pytest

from config import Config, parse_audit_keys

SECRET = "s" * 32


def test_keys_keep_their_order_and_the_first_seals():
    keys = parse_audit_keys(f" k2:{SECRET}x , k1:{SECRET} ,")
    assert list(keys) == ["k2", "k1"]
    assert keys["k1"] == SECRET.encode()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "holds no key"),
        (SECRET, "entry 1 is not key_id:secret"),
        (f"k1:{SECRET},bad id:{SECRET}", "entry 2 is not key_id:secret"),
        (f"{'k' * 41}:{SECRET}", "entry 1 is not key_id:secret"),
        ("k1:" + "s" * 31, "shorter than 32 bytes"),
        (f"k1:{SECRET},k1:{SECRET}x", "names 'k1' twice"),
    ],
)
def test_bad_keys_are_refused_without_showing_a_secret(raw, message):
    with pytest.raises(ValueError, match=message) as refused:
        parse_audit_keys(raw)
    assert "sss" not in str(refused.value)


def test_without_the_setting_one_key_is_generated_into_the_instance(tmp_path, monkeypatch):
    monkeypatch.delenv("DMS_AUDIT_KEYS", raising=False)
    first = Config(tmp_path).DMS_AUDIT_KEYS
    path = tmp_path / "audit_keys"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    (key_id, secret), *others = first.items()
    assert others == [] and len(secret) >= 32 and path.read_text().startswith(f"{key_id}:")
    restarted = Config(tmp_path).DMS_AUDIT_KEYS
    assert restarted == first
    assert [p.name for p in tmp_path.iterdir() if "audit" in p.name] == ["audit_keys"]


def test_the_setting_wins_and_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("DMS_AUDIT_KEYS", f"prod-2026:{SECRET}")
    assert list(Config(tmp_path).DMS_AUDIT_KEYS) == ["prod-2026"]
    assert not (tmp_path / "audit_keys").exists()
