"""DMS_STORAGE and the S3 settings: a wrong choice stops the app at start, not at an upload."""

from __future__ import annotations

import pytest

from config import Config


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DMS_STORAGE": "ftp"}, "DMS_STORAGE must be 'local' or 's3'"),
        ({"DMS_STORAGE": "s3"}, "DMS_STORAGE=s3 needs DMS_S3_BUCKET"),
    ],
)
def test_bad_storage_settings_are_refused(tmp_path, monkeypatch, env, message):
    monkeypatch.delenv("DMS_S3_BUCKET", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=message):
        Config(tmp_path)


def test_s3_settings_are_read(tmp_path, monkeypatch):
    monkeypatch.setenv("DMS_STORAGE", " S3 ")
    monkeypatch.setenv("DMS_S3_BUCKET", "dms-files")
    monkeypatch.setenv("DMS_S3_ENDPOINT_URL", "http://minio:9000")
    monkeypatch.setenv("DMS_S3_REGION", "eu-central-1")
    config = Config(tmp_path)
    assert (config.DMS_STORAGE, config.DMS_S3_BUCKET) == ("s3", "dms-files")
    assert (config.DMS_S3_ENDPOINT_URL, config.DMS_S3_REGION) == (
        "http://minio:9000",
        "eu-central-1",
    )
