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
import functools
import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..names import name_key
from ..trainer.puzzles import TrainerError

__all__ = ["COOKIE", "CookieSigner", "LoginLimiter", "address_key", "check_name", "check_password", "dummy_hash",
           "hash_password", "legacy_key", "load_secret", "new_player_id", "verify_password"]

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
    """A name to claim, and its key: two names with the same key are one name (case, accents,
    compatibility forms and Unicode's look-alikes, :func:`ricochet.names.name_key`).  The key is
    a digest of that form (32 hex digits: a skeleton can be longer than the column).

    >>> check_name("  Ada L. ")[0], check_name("Ada")[1] == check_name("ADA")[1] == check_name("\u0410da")[1]
    ('Ada L.', True)
    """
    if not isinstance(name, str):
        raise TrainerError("name must be text")
    name = " ".join(name.split())
    if not _NAME.match(name):
        raise TrainerError("name must be 2 to 24 letters, digits, spaces or . ' _ -")
    return name, hashlib.sha256(name_key(name).encode()).hexdigest()[:32]


def legacy_key(name: str) -> str:
    """The key of names claimed before look-alikes were folded (migration ``0004``), kept for an
    account whose name became a look-alike of an older one."""
    return " ".join(name.split()).casefold()


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


@functools.cache
def dummy_hash() -> str:
    """A hash of a random password, made once: verified for a name nobody claimed, so that a
    login costs one argon2 verification whether the name exists or not (the time of the answer
    does not tell which names are claimed)."""
    return _HASHER.hash(secrets.token_urlsafe(24))


def address_key(host: str) -> str:
    """The client address as the limits count it: an IPv6 address by its /64 (one home or
    machine gets a whole /64, and would otherwise have 2**64 fresh addresses).

    >>> address_key("2001:db8::1") == address_key("2001:db8::ffff:1"), address_key("127.0.0.1")
    (True, '127.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass
class _Backoff:
    failures: int
    last: float


class LoginLimiter:
    """Failed logins slow down per (name, address) and per address, never per name alone.

    * **Per (name, address)**: ``free`` failures, then each further try waits twice as long
      as the one before (``base`` seconds, doubling, at most ``cap``) after the last failure.
      Guessing one account's password from one address is slow.
    * **Per address**: a budget of failed logins (``address_burst`` at once, then
      ``address_per_hour``), whatever the names: spraying one password over many names, or
      guessing at a few accounts in turn, is cut off at the address.
    * **No limit per name alone**: a flood of wrong passwords for a name, from one address or
      many, never refuses its owner's login from another address (what a per-name lock did:
      anyone could lock anyone out).  An attacker with many addresses gets a budget per
      address — the price of never locking the owner out; argon2 keeps each guess costly.

    A success clears the (name, address) count; a pair quiet for twice ``cap`` starts again.
    Memory is bounded: beyond ``max_entries`` pairs (or addresses) the least recently failed
    are forgotten."""

    def __init__(self, free: int = 5, base: float = 2.0, cap: float = 900.0, address_burst: int = 20,
                 address_per_hour: float = 60.0, max_entries: int = 100_000) -> None:
        self.free, self.base, self.cap = free, base, cap
        self.max_entries = max_entries
        self.address_burst, self.address_rate = address_burst, address_per_hour / 3600.0
        self._pairs: OrderedDict[tuple[str, str], _Backoff] = OrderedDict()
        self._addresses: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address: (tokens, at)

    def _tokens(self, address: str, now: float) -> float:
        tokens, at = self._addresses.get(address, (float(self.address_burst), now))
        return min(float(self.address_burst), tokens + max(0.0, now - at) * self.address_rate)

    def wait(self, name: str, address: str, now: float) -> float:
        """Seconds before a login for ``name`` from ``address`` is checked (0: now)."""
        pair = self._pairs.get((name, address))
        pair_wait = 0.0
        if pair is not None and pair.failures >= self.free:
            delay = min(self.cap, self.base * 2 ** (pair.failures - self.free))
            pair_wait = max(0.0, pair.last + delay - now)
        missing = 1.0 - self._tokens(address, now)
        address_wait = missing / self.address_rate if missing > 0 else 0.0
        return max(pair_wait, address_wait)

    def failed(self, name: str, address: str, now: float) -> None:
        key = (name, address)
        pair = self._pairs.pop(key, None) or _Backoff(0, now)
        if now - pair.last > 2 * self.cap:  # long quiet: start again
            pair = _Backoff(0, now)
        self._pairs[key] = _Backoff(pair.failures + 1, now)
        tokens = self._tokens(address, now) - 1.0
        self._addresses.pop(address, None)
        self._addresses[address] = (tokens, now)
        for table in (self._pairs, self._addresses):
            while len(table) > self.max_entries:
                table.popitem(last=False)  # type: ignore[attr-defined]

    def succeeded(self, name: str, address: str) -> None:
        self._pairs.pop((name, address), None)
