"""The one type of the server's refusals: a message it will not take, a request it
will not serve now, a connection it turns away.

A refusal carries what the client is told (``message``, ``code``) and how each
transport says it: ``status`` for an HTTP answer, ``close_code`` for a socket
that is closed after the error message (``None``: the socket stays open),
``retry_after`` seconds when waiting helps, and ``ref`` (the client's own
reference of the message refused, echoed in the error).  A game's refusal of an
action is the game's :class:`~ricochet.games.GameError`; the server reports both
the same way.

>>> r = Refused("too many rooms", "rate_limited", status=429, retry_after=12.5)
>>> r.code, r.status, r.message
('rate_limited', 429, 'too many rooms')
"""

from __future__ import annotations

from ..errors import RicochetError

__all__ = ["Refused"]


class Refused(RicochetError):
    """What the server will not do (see the module docstring).  The default code
    ``bad_message`` is a malformed client message."""

    default_code = "bad_message"

    def __init__(self, message: str, code: str | None = None, *, status: int = 400, close_code: int | None = None,
                 retry_after: float | None = None, ref: object = None) -> None:
        super().__init__(message, code)
        self.status = status
        self.close_code = close_code
        self.retry_after = retry_after
        self.ref = ref
