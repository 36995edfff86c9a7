"""The one error type of the text formats."""

from __future__ import annotations

from ..errors import RicochetError


class NotationError(RicochetError):
    """Text that cannot be read in a notation.

    The message says where (``line``, ``column``, ``field`` when known) and
    what is allowed, e.g. ``line 3: field 'robots[2]': x must be an integer``.
    The parts are also kept as attributes so callers can point at the spot,
    and ``puzzle_id``, the ``id`` of the puzzle being read where the text
    gave one, so that an answer to a bad line can still name its puzzle.

    >>> str(NotationError("must be an integer", field="robots[2]", line=3))
    "line 3: field 'robots[2]': must be an integer"
    """

    default_code = "notation"

    def __init__(self, detail: str, *, field: str | None = None, line: int | None = None,
                 column: int | None = None, puzzle_id: str | None = None) -> None:
        self.detail = detail
        self.field = field
        self.line = line
        self.column = column
        self.puzzle_id = puzzle_id
        super().__init__(self._text())

    def _text(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        parts = [", ".join(where)] if where else []
        if self.field is not None:
            parts.append(f"field '{self.field}'")
        return ": ".join(parts + [self.detail])

    def located(self, *, line: int | None = None, column: int | None = None,
                field: str | None = None, puzzle_id: str | None = None) -> NotationError:
        """A copy with the given location parts (and puzzle id) filled in (existing parts are kept)."""
        return NotationError(
            self.detail,
            field=self.field if self.field is not None else field,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
            puzzle_id=self.puzzle_id if self.puzzle_id is not None else puzzle_id,
        )
