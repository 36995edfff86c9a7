"""The one error type of the text formats."""

from __future__ import annotations


class NotationError(ValueError):
    """Text that cannot be read in a notation.

    The message says where (``line``, ``column``, ``field`` when known) and
    what is allowed, e.g. ``line 3: field 'robots[2]': x must be an integer``.
    The parts are also kept as attributes so callers can point at the spot.

    >>> str(NotationError("must be an integer", field="robots[2]", line=3))
    "line 3: field 'robots[2]': must be an integer"
    """

    def __init__(self, detail: str, *, field: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.detail = detail
        self.field = field
        self.line = line
        self.column = column
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
                field: str | None = None) -> NotationError:
        """A copy with the given location parts filled in (existing parts are kept)."""
        return NotationError(
            self.detail,
            field=self.field if self.field is not None else field,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
        )
