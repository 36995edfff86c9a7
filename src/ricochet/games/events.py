"""Events as values: the base class every game's events share, and their JSON codec.

An event is a frozen dataclass with a ``type`` string and ``at`` (seconds, the
time it happened).  ``to_dict`` is JSON-ready; :func:`event_from_dict` reads
it back given the game's table of event types.  Moves, paths and robots are
written as in the protocol (``docs/protocol.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, ClassVar

from ..geometry import Cell, Direction
from ..position import Move, Path, Robot, Step

__all__ = ["Event", "cell_of", "encode", "event_from_dict", "move_of", "path_of", "robots_of", "strs_of"]


def encode(value: Any) -> Any:
    """A JSON-ready form of moves, paths, robots and tuples of them."""
    if isinstance(value, Move):
        d: dict[str, Any] = {"robot": value.robot, "direction": value.direction.name}
        if value.stop is not None:
            d["stop"] = list(value.stop)
        return d
    if isinstance(value, Path):
        return value.to_dict()
    if isinstance(value, Robot):
        return {"color": value.color, "cell": list(value.cell)}
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    return value


def move_of(d: Mapping[str, Any]) -> Move:
    stop = d.get("stop")
    return Move(int(d["robot"]), Direction[d["direction"]], tuple(stop) if stop is not None else None)  # type: ignore[arg-type]


def path_of(d: Mapping[str, Any]) -> Path:
    steps = tuple(Step(tuple(s["cell"]), Direction[s["heading"]], s.get("event")) for s in d["steps"])  # type: ignore[arg-type]
    return Path(int(d["robot"]), tuple(d["start"]), Direction[d["direction"]], steps, int(d["cost"]))  # type: ignore[arg-type]


def cell_of(v: Any) -> Cell | None:
    return None if v is None else (int(v[0]), int(v[1]))


def strs_of(v: Any) -> tuple[str, ...] | None:
    return None if v is None else tuple(v)


def robots_of(v: Any) -> tuple[Robot, ...]:
    return tuple(Robot(r["color"], (int(r["cell"][0]), int(r["cell"][1]))) for r in v)


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
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = encode(getattr(self, f.name))
        return out


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
