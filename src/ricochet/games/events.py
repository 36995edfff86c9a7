"""Events as values: the base class every game's events share, and their JSON codec.

An event is a frozen dataclass with a ``type`` string and ``at`` (seconds, the
time it happened).  ``to_dict`` is JSON-ready; :func:`event_from_dict` reads
it back given the game's table of event types.  Moves, paths and robots are
written by :mod:`ricochet.notation.wire` (``docs/protocol.md``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, ClassVar

from ..geometry import Cell
from ..notation.wire import cell_from_wire, move_from_wire, path_from_wire, robots_from_wire, to_wire

__all__ = ["Event", "cell_of", "encode", "event_from_dict", "move_of", "path_of", "robots_of", "strs_of"]

# The events' fields are written with the one wire codec of ricochet.notation.wire.
encode = to_wire
move_of = move_from_wire
path_of = path_from_wire
robots_of = robots_from_wire


def cell_of(v: Any) -> Cell | None:
    return None if v is None else cell_from_wire(v)


def strs_of(v: Any) -> tuple[str, ...] | None:
    return None if v is None else tuple(v)


class Event:
    """Base of every event: a frozen dataclass with a ``type`` string and ``at``
    (seconds, the time it happened).  ``to_dict`` is JSON-ready and
    :func:`event_from_dict` reads it back; ``_decode`` names the converters of
    fields that are not plain JSON values."""

    type: ClassVar[str]
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {}
    at: float

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            out[name] = encode(getattr(self, name))
        return out


@functools.cache
def _field_names(cls: type[Event]) -> tuple[str, ...]:
    """An event class's field names, in order (``dataclasses.fields`` builds its answer at every call)."""
    return tuple(f.name for f in fields(cls))  # type: ignore[arg-type]


def event_from_dict(types: Mapping[str, type[Event]], data: Mapping[str, Any]) -> Event:
    """Read an event back from its :meth:`Event.to_dict` form, given the game's event types."""
    kind = data.get("type")
    cls = types.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event type {kind!r}; known: {', '.join(types)}")
    kwargs = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name not in data:
            raise ValueError(f"{kind} event lacks {f.name!r}")
        conv = cls._decode.get(f.name)
        kwargs[f.name] = conv(data[f.name]) if conv else data[f.name]
    return cls(**kwargs)
