"""A real IMAP server for the tests: Debian's Dovecot (package dovecot-imapd, installed by
scripts/install-system-packages.sh), started in the foreground (`dovecot -F -c CONFIG`) with
its own configuration under a temporary directory: one IMAPS port with a certificate signed
by a test CA made here, one plain port (STARTTLS offered, or not at all with `ssl=False`),
users in a passwd-file and Maildirs the tests write messages into directly.

Run as root (containers), Dovecot refuses root for its login and mail processes: they run
as the unprivileged `dovenull` and `nobody` users then, and the mail directories are theirs."""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

DOVECOT = "/usr/sbin/dovecot"
MAX_USERS = 500
PASSWORD = "imap-secret-Pa55"  # the test users' password


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_NO_USAGE = dict.fromkeys(
    (
        "digital_signature", "content_commitment", "key_encipherment", "data_encipherment",
        "key_agreement", "key_cert_sign", "crl_sign", "encipher_only", "decipher_only",
    ),
    False,
)  # fmt: skip


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A test CA and a server certificate it signs for localhost and 127.0.0.1: (ca, cert, key)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("DMS test CA"))
        .issuer_name(_name("DMS test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name("localhost"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    paths = directory / "ca.pem", directory / "cert.pem", directory / "key.pem"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    paths[2].chmod(0o600)
    return paths


@dataclass
class User:
    server: Dovecot
    name: str
    home: Path

    @property
    def maildir(self) -> Path:
        return self.home / "Maildir"

    def deliver(self, message: bytes, folder: str | None = None, flags: str = "") -> Path:
        """Put a message into the Maildir (INBOX or `folder`), as a delivery agent would."""
        base = self.maildir if folder is None else self.maildir / f".{folder}"
        for sub in ("new", "cur", "tmp"):
            self.server.own(base / sub)
        name = f"{time.time_ns()}.M{next(self.server.counter)}P{os.getpid()}.dms,S={len(message)}"
        target = base / ("cur" if flags else "new") / (f"{name}:2,{flags}" if flags else name)
        target.write_bytes(message)
        self.server.own(target)
        return target


class Dovecot:
    """One Dovecot process; `add_user()` gives each test a mailbox of its own."""

    def __init__(self, root: Path, *, ssl: bool = True) -> None:
        self.root = root
        self.ssl = ssl
        self.counter = itertools.count(1)
        self.users = itertools.count(1)
        self.imaps_port = free_port()
        self.plain_port = free_port()
        self.run_dir = root / "run"
        self.run_dir.mkdir(parents=True)
        self.log = root / "dovecot.log"
        self.passwd = root / "passwd"
        self.ca, self.cert, self.key = make_certificates(root)
        if os.geteuid() == 0:
            self.mail_uid = pwd.getpwnam("nobody").pw_uid
            self.mail_gid = pwd.getpwnam("nobody").pw_gid
            login_user = "dovenull" if _user_exists("dovenull") else "nobody"
            # Root's temporary directories are private: the mail user needs a way in.
            self.homes = Path(tempfile.mkdtemp(prefix="dms-dovecot-"))
            self.homes.chmod(0o755)
        else:
            self.mail_uid, self.mail_gid = os.getuid(), os.getgid()
            login_user = pwd.getpwuid(os.getuid()).pw_name
            self.homes = root / "homes"
            self.homes.mkdir()
        me = pwd.getpwuid(os.getuid()).pw_name
        self.config = root / "dovecot.conf"
        self.config.write_text(
            _CONFIG.format(
                run=self.run_dir,
                log=self.log,
                internal=me,
                login=login_user,
                passwd=self.passwd,
                cert=self.cert,
                key=self.key,
                ssl="yes" if ssl else "no",
                plain=self.plain_port,
                imaps=self.imaps_port,
                imaps_listener=_IMAPS.format(imaps=self.imaps_port) if ssl else "",
            )
        )
        # Every user up front: Dovecot notices a changed passwd-file by its time stamp, which
        # two users added within one second would not change.
        self.passwd.write_text(
            "".join(
                f"user{n}:{{PLAIN}}{PASSWORD}:{self.mail_uid}:{self.mail_gid}::{self.homes}/user{n}\n"
                for n in range(1, MAX_USERS + 1)
            )
        )
        self.process: subprocess.Popen | None = None

    def own(self, path: Path) -> None:
        """Make `path` (a directory when it does not exist yet) and the directories above it
        up to the homes the mail user's."""
        if not path.exists():
            path.mkdir(parents=True)
        for part in [path, *path.parents]:
            if part == self.homes or self.homes not in part.parents:
                break
            os.chown(part, self.mail_uid, self.mail_gid)

    def start(self) -> None:
        with (self.root / "dovecot.out").open("wb") as out:
            self.process = subprocess.Popen(
                [DOVECOT, "-F", "-c", str(self.config)], stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 20
        ports = [self.plain_port] + ([self.imaps_port] if self.ssl else [])
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = (self.root / "dovecot.out").read_text()
                raise RuntimeError(f"dovecot exited: {output}")
            if all(_listening(port) for port in ports):
                return
            time.sleep(0.05)
        raise RuntimeError("dovecot did not start listening")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.homes.parent != self.root:
            shutil.rmtree(self.homes, ignore_errors=True)

    def add_user(self) -> User:
        name = f"user{next(self.users)}"
        home = self.homes / name
        self.own(home / "Maildir" / "new")
        self.own(home / "Maildir" / "cur")
        self.own(home / "Maildir" / "tmp")
        return User(self, name, home)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
        return True
    return False


_IMAPS = """
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps}
    ssl = yes
  }}"""

_CONFIG = """
base_dir = {run}
state_dir = {run}/state
log_path = {log}
protocols = imap
listen = 127.0.0.1
default_internal_user = {internal}
default_login_user = {login}
first_valid_uid = 1
ssl = {ssl}
ssl_cert = <{cert}
ssl_key = <{key}
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = no
auth_mechanisms = plain login
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {passwd}
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {passwd}
}}
mail_location = maildir:~/Maildir
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Archive {{
    auto = create
  }}
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {plain}
  }}{imaps_listener}
}}
service anvil {{
  chroot =
}}
service stats {{
  chroot =
}}
"""
