"""Light accounts for the trainer: signed session cookies and argon2 passwords.

A visitor plays at once under a random anonymous id kept in a cookie; a name
with a password (hashed with argon2id, ``argon2-cffi``) lets the same ratings
follow them to another browser.  The cookie is ``<player id>.<issued>.<mac>``
where the MAC is HMAC-SHA256 with the server's secret: nothing else about the
person is stored, in the cookie or the database.

The secret comes from ``$RICOCHET_SECRET`` or, failing that, a file ``secret``
made once in the data directory (mode 0600), so cookies outlive restarts.

>>> signer = CookieSigner(b"k" * 32)
>>> signer.read(signer.sign("abc", 1700000000)) == "abc"
True
>>> signer.read("abc.1700000000.forged") is None
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import time
from collections import deque
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..trainer.puzzles import TrainerError

__all__ = ["COOKIE", "CookieSigner", "LoginLimiter", "check_name", "check_password", "hash_password",
           "load_secret", "new_player_id", "verify_password"]

COOKIE = "ricochet_trainer"
COOKIE_MAX_AGE = 400 * 24 * 3600
"""About a year (browsers cap cookie lifetimes at 400 days)."""
_HASHER = PasswordHasher()  # argon2id with the library's current RFC 9106 "low memory" defaults
_NAME = re.compile(r"^[\w .'-]{2,24}$")


def data_dir() -> Path:
    """The server's data directory: ``$RICOCHET_DATA_DIR``, else ``$XDG_DATA_HOME/ricochet``,
    else ``~/.local/share/ricochet`` (where the default SQLite database lives too)."""
    base = os.environ.get("RICOCHET_DATA_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(xdg) / "ricochet"


def load_secret(directory: Path | None = None) -> bytes:
    """The signing secret: ``$RICOCHET_SECRET`` (at least 16 characters), else the
    data directory's ``secret`` file, made with 32 random bytes on first use."""
    env = os.environ.get("RICOCHET_SECRET")
    if env:
        if len(env) < 16:
            raise ValueError("RICOCHET_SECRET must be at least 16 characters long")
        return env.encode()
    path = (directory or data_dir()) / "secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return path.read_text().strip().encode()


def new_player_id() -> str:
    """A random id for a new (anonymous) player: 128 bits, URL-safe."""
    return secrets.token_urlsafe(16)


class CookieSigner:
    """Signs and checks session cookies with HMAC-SHA256."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the cookie secret must be at least 16 bytes")
        self._key = hashlib.sha256(b"ricochet-trainer-session:" + secret).digest()

    def _mac(self, body: str) -> str:
        digest = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def sign(self, player_id: str, issued: float | None = None) -> str:
        body = f"{player_id}.{int(time.time() if issued is None else issued)}"
        return f"{body}.{self._mac(body)}"

    def read(self, value: str | None) -> str | None:
        """The player id of a genuine cookie, else ``None``."""
        if not value or len(value) > 200:
            return None
        parts = value.rsplit(".", 2)
        if len(parts) != 3:
            return None
        body = f"{parts[0]}.{parts[1]}"
        if not hmac.compare_digest(self._mac(body), parts[2]):
            return None
        return parts[0]


def check_name(name: object) -> tuple[str, str]:
    """A name to claim, and its case-insensitive key.

    >>> check_name("  Ada L. ")
    ('Ada L.', 'ada l.')
    """
    if not isinstance(name, str):
        raise TrainerError("name must be text")
    name = " ".join(name.split())
    if not _NAME.match(name):
        raise TrainerError("name must be 2 to 24 letters, digits, spaces or . ' _ -")
    return name, name.casefold()


def check_password(password: object) -> str:
    if not isinstance(password, str):
        raise TrainerError("password must be text")
    if not 8 <= len(password) <= 200:
        raise TrainerError(f"password must be 8 to 200 characters long, got {len(password)}")
    return password


def hash_password(password: str) -> str:
    """An argon2id hash (CPU- and memory-hard: call it off the event loop)."""
    return _HASHER.hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


class LoginLimiter:
    """At most ``limit`` failed logins per name in ``window`` seconds (guessing passwords is slow)."""

    def __init__(self, limit: int = 10, window: float = 600.0) -> None:
        self.limit, self.window = limit, window
        self._failures: dict[str, deque[float]] = {}

    def allowed(self, key: str, now: float) -> bool:
        q = self._failures.get(key)
        while q and q[0] < now - self.window:
            q.popleft()
        return not q or len(q) < self.limit

    def failed(self, key: str, now: float) -> None:
        self._failures.setdefault(key, deque()).append(now)
        if len(self._failures) > 10_000:  # forget the oldest names rather than grow without end
            self._failures.pop(next(iter(self._failures)))
