"""Which optional rules are on: a small immutable value with named presets.

>>> Rules.preset("game").must_ricochet
True
>>> Rules.preset("plain") == Rules()
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace


@dataclass(frozen=True)
class Rules:
    """Rule switches (see ``RULINGS.md``).  Board features (diagonals, openings,
    towers) are used when the board has them unless switched off here."""

    must_ricochet: bool = False
    """The robot that reaches the target must have turned 90° at least once (ruling 2)."""
    no_straight_back: bool = False
    """A robot may not reverse its last heading until another robot has moved (ruling 3)."""
    diagonals: bool = True
    """Coloured diagonal walls deflect robots; off: diagonals are ignored."""
    openings: bool = True
    """Wall openings let robots wrap around; off: openings are closed walls."""
    silver: bool = False
    """A silver robot is in play (random positions and games place one)."""
    transparent: bool = False
    """The transparent robot is in play (seed 002 variant)."""
    goal_tower_passthrough: bool = True
    """A board's towers block robots except the goal tower of the round, which robots slide
    across (Ricochet Pyramids' rule; plain play: boards with towers are played by it)."""

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named preset: ``plain``, ``game`` or ``game+transparent``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown rules preset {name!r}; choose one of {', '.join(PRESETS)}") from None

    def with_options(self, **options: bool) -> Rules:
        """A copy with some switches changed; unknown or non-boolean options are refused."""
        names = {f.name for f in fields(self)}
        for key, value in options.items():
            if key not in names:
                raise ValueError(f"unknown rule option {key!r}; known: {', '.join(sorted(names))}")
            if not isinstance(value, bool):
                raise ValueError(f"rule option {key!r} must be true or false, got {value!r}")  # noqa: TRY004 (one error type for bad input)
        return replace(self, **options)

    def to_dict(self) -> dict[str, bool]:
        return asdict(self)

    @property
    def name(self) -> str | None:
        """The preset name when these rules equal a preset."""
        for key, value in PRESETS.items():
            if value == self:
                return key
        return None


PRESETS: dict[str, Rules] = {
    "plain": Rules(),
    "game": Rules(must_ricochet=True, no_straight_back=True, silver=True),
    "game+transparent": Rules(must_ricochet=True, no_straight_back=True, silver=True, transparent=True),
}
PLAIN = PRESETS["plain"]
GAME = PRESETS["game"]
