"""Moves and solutions as text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ricochet import Board, Direction, Move, Position, Robot
from ricochet.notation import NotationError, format_move, format_solution, parse_move, parse_solution

POS = Position(Board.build(6, 6), (Robot("red", (0, 0)), Robot("green", (5, 0)), Robot("blue", (0, 5)),
                                   Robot("yellow", (5, 5)), Robot("silver", (2, 2)), Robot("transparent", (3, 3))))
N, E, S, W = Direction.N, Direction.E, Direction.S, Direction.W


@pytest.mark.parametrize("text, move", [
    ("RN", Move(0, N)), ("rn", Move(0, N)), ("G←", Move(1, W)), ("b s", Move(2, S)), ("Y→", Move(3, E)),
    ("SS", Move(4, S)), ("s↑", Move(4, N)), (" TN@3,4 ", Move(5, N, (3, 4))), ("t e @ 1 , 2", Move(5, E, (1, 2))),
])
def test_parse_move(text: str, move: Move) -> None:
    assert parse_move(text, POS) == move


def test_format_move() -> None:
    assert format_move(Move(0, N), POS) == "RN"
    assert format_move(Move(1, W), POS, arrows=True) == "G←"
    assert format_move(Move(5, N, (3, 4)), POS) == "TN@3,4"


@pytest.mark.parametrize("text", ["RN GE BS", "rn,ge,bs", "RNGEBS", "R↑ G→ B↓", "r n; g e; b s", "  RN  GE\nBS "])
def test_parse_solution_forms(text: str) -> None:
    assert parse_solution(text, POS) == [Move(0, N), Move(1, E), Move(2, S)]


def test_s_is_read_alternating() -> None:
    # silver south, then silver west: S is the robot in odd places and the direction in even ones.
    assert parse_solution("SSSW", POS) == [Move(4, S), Move(4, W)]
    assert parse_solution("", POS) == []


def test_transparent_stops_in_a_run() -> None:
    assert parse_solution("TN@3,4,RN TE@0,0GW", POS) == [Move(5, N, (3, 4)), Move(0, N), Move(5, E, (0, 0)),
                                                         Move(1, W)]


moves = st.lists(st.builds(Move, st.integers(0, 5), st.sampled_from(list(Direction)),
                           st.none() | st.tuples(st.integers(0, 5), st.integers(0, 5))), max_size=8)


@settings(max_examples=200, deadline=None)
@given(moves, st.booleans())
def test_solution_round_trips(ms: list[Move], arrows: bool) -> None:
    text = format_solution(ms, POS, arrows=arrows)
    assert parse_solution(text, POS) == ms
    assert parse_solution(text.replace(" ", ""), POS) == ms


@pytest.mark.parametrize("text, match, column", [
    ("XN", "move 1 \\('XN'\\): 'X' is not a robot letter; use R, G, B, Y, S, T", 1),
    ("RN QE", "move 2 \\('QE'\\): 'Q' is not a robot letter", 4),
    ("RN GQ", "move 2 \\('GQ'\\): after robot G expected a direction", 5),
    ("RN G  Q", "move 2 \\('G  Q'\\): after robot G expected a direction", 7),
    ("R", "got nothing", 2),
    ("TN@3", "after '@' expected the stop cell", 3),
    ("TN@9,9", "off the 6×6 board", 1),
])
def test_errors(text: str, match: str, column: int) -> None:
    with pytest.raises(NotationError, match=match) as e:
        parse_solution(text, POS)
    assert e.value.column == column
    assert f"column {column}" in str(e.value)


def test_robot_not_in_position() -> None:
    pos = Position(Board.build(4, 4), (Robot("red", (0, 0)), Robot("green", (1, 1))))
    with pytest.raises(NotationError, match=r"move 2 \('BS'\): there is no blue robot \(B\) in this position; its robots are R G"):
        parse_solution("RN BS", pos)


def test_parse_move_wants_one_move() -> None:
    with pytest.raises(NotationError, match="exactly one move"):
        parse_move("RN GE", POS)
    with pytest.raises(NotationError, match="exactly one move"):
        parse_move("", POS)


def test_format_move_checks_the_robot() -> None:
    with pytest.raises(NotationError, match="robots 0..5"):
        format_move(Move(6, N), POS)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3), st.sampled_from(list(Direction))), max_size=30))
def test_a_growing_tuple_of_moves_encodes_as_a_fresh_one(steps: list[tuple[bool, int, Direction]]) -> None:
    """``to_wire`` reuses the list of a tuple that a longer one extends (a demonstration grows a move
    at a time): grown or rebuilt, each tuple's form is that of its moves encoded one by one."""
    from ricochet.notation.wire import move_to_wire, to_wire

    moves: tuple[Move, ...] = ()
    for grow, robot, direction in steps:
        move = Move(robot, direction)
        # grow: the same objects and one more; else a new tuple of equal moves (no object shared)
        moves = moves + (move,) if grow else tuple(Move(m.robot, m.direction) for m in moves) + (move,)
        assert to_wire(moves) == [move_to_wire(m) for m in moves]
        assert to_wire(moves[:-1] or (move,)) == [move_to_wire(m) for m in (moves[:-1] or (move,))]


def test_a_tuple_that_only_looks_like_an_extension_is_encoded_whole() -> None:
    from ricochet.notation.wire import to_wire

    m0, m1, m2, m3, other = (Move(0, Direction.N), Move(1, Direction.E), Move(2, Direction.S), Move(3, Direction.W),
                             Move(2, Direction.W))
    assert to_wire((m0, m1, m2))[1] == {"robot": 1, "direction": "E"}
    # the same first and last objects and the length before the new move, but another move between
    assert to_wire((m0, other, m2, m3))[1] == {"robot": 2, "direction": "W"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3), st.sampled_from(list(Direction))), max_size=30))
def test_a_growing_tuple_pre_encoded_is_the_json_of_its_moves(steps: list[tuple[bool, int, Direction]]) -> None:
    """``wire_text`` (the text a broadcast embeds) extends the text of the tuple a longer one grows
    from: grown or rebuilt, it is the JSON of the moves' forms, as the server encodes them."""
    from ricochet.notation.wire import move_to_wire, wire_text
    from ricochet.server.protocol import dumpb

    moves: tuple[Move, ...] = ()
    assert dumpb({"moves": wire_text(moves)}) == b'{"moves":[]}'
    for grow, robot, direction in steps:
        move = Move(robot, direction)
        moves = moves + (move,) if grow else tuple(Move(m.robot, m.direction) for m in moves) + (move,)
        assert dumpb({"moves": wire_text(moves)}) == dumpb({"moves": [move_to_wire(m) for m in moves]})


def test_a_pre_encoded_look_alike_is_encoded_whole_and_paths_too() -> None:
    import json

    from ricochet.notation.wire import to_wire, wire_text
    from ricochet.server.protocol import dumpb

    def text(value: tuple) -> object:  # type: ignore[type-arg]
        return json.loads(dumpb(wire_text(value)))

    m0, m1, m2, m3, other = (Move(0, Direction.N), Move(1, Direction.E), Move(2, Direction.S), Move(3, Direction.W),
                             Move(2, Direction.W))
    wire_text((m0, m1, m2))
    assert text((m0, other, m2, m3))[1] == {"robot": 2, "direction": "W"}
    first = POS.paths(0, Direction.E)[0]
    after = POS.paths(1, Direction.S)[0]
    assert text((first,)) == to_wire((first,))
    assert text((first, after)) == to_wire((first, after))
