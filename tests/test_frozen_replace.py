"""``ricochet.games.frozen.replace``: the same copies as :func:`dataclasses.replace`, faster."""

from __future__ import annotations

import dataclasses
from functools import cached_property

import pytest

from ricochet.games.bidding.round import BiddingPhase, RoundState
from ricochet.games.frozen import replace
from ricochet.games.ricochet_robots.game import RicochetRobots
from ricochet.games.table import TablePhase, TableState


@dataclasses.dataclass(frozen=True)
class _Cached:
    a: int
    b: tuple[int, ...] = ()

    @cached_property
    def total(self) -> int:
        return self.a + sum(self.b)


def test_a_game_state_and_its_round_copy_as_dataclasses_replace_does() -> None:
    game = RicochetRobots()
    state = game.new(game.config(game.normalize_options({}), seed=3))
    for player, name in (("p1", "Ann"), ("p2", "Bob")):
        state, _ = game.apply(state, game.join(player, name), 1.0)
    state, _ = game.apply(state, game.start("p1"), 2.0)
    rnd = state.round
    assert isinstance(rnd, RoundState)
    for phase in ("over", BiddingPhase.DEMONSTRATION):
        fast, slow = replace(state, phase=phase, version=7), dataclasses.replace(state, phase=phase, version=7)
        assert fast == slow and type(fast) is type(slow)
        assert type(fast.phase) is type(slow.phase)  # __post_init__ made the text the game's enum
    assert replace(state) == state and replace(state) is not state
    assert replace(rnd, cost=3, moves=()) == dataclasses.replace(rnd, cost=3, moves=())


def test_an_unknown_field_is_refused_as_dataclasses_replace_refuses_it() -> None:
    with pytest.raises(TypeError, match="TableState has no field colour"):
        replace(TableState(config=None), colour="red")


def test_a_cached_value_is_not_carried_to_the_copy() -> None:
    x = _Cached(1, (2, 3))
    assert x.total == 6
    y = replace(x, a=10)
    assert y.total == 15 and y == _Cached(10, (2, 3))


def test_a_class_with_an_init_of_its_own_goes_to_dataclasses_replace() -> None:
    @dataclasses.dataclass(frozen=True)
    class Derived:
        a: int
        twice: int = dataclasses.field(init=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "twice", 2 * self.a)

    assert replace(Derived(2), a=5).twice == 10
    assert replace(TableState(config=None), phase="over").phase is TablePhase.OVER


def test_a_class_with_an_init_var_goes_to_dataclasses_replace() -> None:
    @dataclasses.dataclass(frozen=True)
    class Scaled:
        a: int
        factor: dataclasses.InitVar[int] = 1

        def __post_init__(self, factor: int) -> None:
            object.__setattr__(self, "a", self.a * factor)

    assert replace(Scaled(2, 3), a=5) == dataclasses.replace(Scaled(2, 3), a=5) == Scaled(5)  # the default factor
    assert replace(Scaled(2, 3), a=5, factor=2).a == 10
