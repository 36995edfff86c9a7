"""The one base of every error the library raises for input it refuses.

Every error is a value with a message a person can act on (which input, what is
wrong, what is allowed) and a stable ``code`` keyword for programs, always in
that order: ``SomeError(message, code)``.  They are :class:`ValueError`\\ s, so
``except ValueError`` keeps working.

>>> from ricochet import Board, BoardError, RicochetError
>>> try:
...     Board.build(2, 2)
... except RicochetError as e:
...     print(type(e).__name__, e.code, "-", e.message)
BoardError board - size must be from 3×3 to 32×32, got 2×2
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["RicochetError"]


class RicochetError(ValueError):
    """Input the library refuses: ``message`` for people, ``code`` for programs.

    Subclasses set a default ``code`` (``board``, ``position``, ``notation`` …);
    some pass a finer one per instance (:class:`~ricochet.IllegalMove`'s
    ``blocked``, ``reversal`` …, :class:`~ricochet.games.GameError`'s ``phase``,
    ``bid`` …)."""

    default_code: ClassVar[str] = "invalid"

    def __init__(self, message: str = "", code: str | None = None) -> None:
        super().__init__(message)
        self.code: str = self.default_code if code is None else code

    @property
    def message(self) -> str:
        """The sentence for people (``str(error)``)."""
        return str(self)
