"""DriftingDroids' notation read into ours, and the identity of the two boards
of the published claims (BoardGameGeek thread 308557, quoted in
DriftingDroids' ``fotos/hardest_ricochet_robots_problem_25moves.txt`` and
``fotos/hard_ricochet_robots_problem_24moves.txt``).

The wall digests and target cells below were computed from OUR tile data;
``docs/tablebase.md`` records the cell-by-cell comparison with the boards
DriftingDroids' own code builds (every tile in every quadrant: equal).  They
pin the boards so that a change to the tile data cannot silently move the
claim onto another board."""

from __future__ import annotations

import hashlib

import pytest

from ricochet.notation import parse_solution, puzzle_code
from ricochet.puzzle import check_solution
from ricochet.tablebase import TablebaseError
from ricochet.tablebase.dd import format_layout, parse_game_id, parse_layout
from ricochet.tiles import assemble

CLAIM = {  # the 25-move claim
    "layout": "4B 3B / 1A 2B", "tiles": ("4B", "3B", "2B", "1A"), "game_id": "7650+42+E2302B12+C9",
    "walls_sha256": "6ffef0addf022577", "vortex": (3, 7), "blue_triangle": (9, 12),
    "robots": ((2, 14), (0, 3), (11, 2), (2, 1)),
    "solution": "GS GE GN GE GS GE BN BW BS BW BS BW BS BE GS GW GS GW GN BW GS GE BS BE BN",
}
CONTENDER = {  # the 24-move contender (its moves written out in words in the text file)
    "layout": "1A 4B / 2B 3B", "tiles": ("1A", "4B", "3B", "2B"), "game_id": "0765+42+2E21BD0F+93",
    "walls_sha256": "d8679673078e8a50", "vortex": (8, 3), "blue_triangle": (3, 9),
    "robots": ((14, 2), (1, 2), (13, 11), (15, 0)),
    "solution": "RE RS RW RS RE YS YW GS BS BW BN BE BS BW BS YS RW BN GN GW GS BW BS BE",
}


@pytest.mark.parametrize("claim", [CLAIM, CONTENDER], ids=["claim-25", "contender-24"])
def test_the_claims_boards_are_pinned(claim: dict) -> None:  # type: ignore[type-arg]
    tiles = parse_layout(claim["layout"])
    assert tiles == claim["tiles"] and format_layout(tiles) == claim["layout"]
    board = assemble(*tiles)
    assert hashlib.sha256(bytes(board.walls)).hexdigest()[:16] == claim["walls_sha256"]
    assert board.find_target("any", "vortex").cell == claim["vortex"]
    assert board.find_target("blue", "triangle").cell == claim["blue_triangle"]
    assert len(board.targets) == 17 and board.blocked == frozenset({(7, 7), (8, 7), (7, 8), (8, 8)})


@pytest.mark.parametrize("claim,moves", [(CLAIM, 25), (CONTENDER, 24)], ids=["claim-25", "contender-24"])
def test_the_published_solutions_replay_on_our_engine(claim: dict, moves: int) -> None:  # type: ignore[type-arg]
    pz = parse_game_id(claim["game_id"])
    assert pz.position.board is assemble(*claim["tiles"])
    assert pz.position.cells == claim["robots"] and pz.target == claim["blue_triangle"] and pz.active == 2
    assert [r.color for r in pz.position.robots] == ["red", "green", "blue", "yellow"]
    solution = parse_solution(claim["solution"], pz.position)
    assert len(solution) == moves and check_solution(pz, solution).ok
    assert not check_solution(pz, solution[:-1]).ok
    assert puzzle_code(pz).startswith("".join(claim["tiles"]) + ".")


def test_the_vortex_and_silver_in_game_ids() -> None:
    pz = parse_game_id("7650+5F+E2302B1200+73")  # five robots, any robot to the vortex
    assert pz.active is None and pz.target == (3, 7) and pz.position.robots[4].color == "silver"


@pytest.mark.parametrize("text,says", [
    ("4B 3B 1A 2B", "two rows"), ("4B 3B / 1A", "two tiles"), ("4B 3B / 1A 9Z", "unknown tile"),
    ("7650+42+E2302B12", "not a DriftingDroids game ID"), ("7650+42+E230+C9", "gives 2 cells"),
    ("7650+42+E2E22B12+C9", "both on 2,14"), ("7650+42+E2302B12+77", "blocked"), ("7650+24+E230+C9", "active robot 4 of 2"),
])
def test_bad_notation_is_refused_with_a_reason(text: str, says: str) -> None:
    read = parse_game_id if "+" in text else parse_layout
    with pytest.raises(TablebaseError, match=says):
        read(text)


def test_the_command_line_reads_driftingdroids_notation(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from test_cli import assert_input_error, run

    table = tmp_path / "claim-3r.rtb"
    status, out, err = run(capsys, "tablebase", "build", "--dd-layout", CLAIM["layout"], "--target", "blue-triangle",
                           "--robots", "3", "-o", str(table), "--quiet")
    assert status == 0, err
    status, out, err = run(capsys, "tablebase", "query", str(table), "--dd-game-id", "7650+32+E2302B+C9")
    answer = json.loads(out)
    pz = parse_game_id("7650+32+E2302B+C9")
    assert status == 0 and answer["code"] == puzzle_code(pz) and answer["robots"] == [[2, 14], [0, 3], [11, 2]]
    moves = parse_solution(answer["text"], pz.position)
    assert len(moves) == answer["moves"] > 0 and check_solution(pz, moves).ok
    assert_input_error(capsys, "tablebase", "query", str(table), "--dd-game-id", "7650+31+E2302B+C9",
                       says="its active robot is green")
    assert_input_error(capsys, "tablebase", "query", str(table), "--dd-game-id", "0765+32+2E21BD+93",
                       says="another board")
    assert_input_error(capsys, "tablebase", "query", str(table), "--dd-game-id", "7650+42+E2302B12+C9",
                       says="3 robots")
    assert_input_error(capsys, "tablebase", "build", "--dd-layout", "4B 3B 1A 2B", "--target", "blue-triangle",
                       says="two rows")


def test_publish_states_the_verdict_on_the_claims_board(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The verdict line of ``tablebase publish`` from results of the claim's board (made up but for the
    record: the claim's own position and its published solution, drawn)."""
    from ricochet.tablebase import publish
    from ricochet.tablebase.study import TARGETS

    record = {"code": puzzle_code(parse_game_id(CLAIM["game_id"])), "moves": 25, "solution": CLAIM["solution"]}

    def result(target: str, longest: int) -> dict:  # type: ignore[type-arg]
        return {"board": "4B,3B,2B,1A", "target": target, "robots": 4, "longest": longest, "at_longest": 2,
                "histogram": {"0": 1, str(longest): 2}, "unreachable": 0, "seconds": 1.5, "device": "gpu",
                "records": [record] if longest == 25 else []}

    results = [result(t, 25 if t == "blue-triangle" else 12) for t in TARGETS]
    text = publish.render(results, str(tmp_path), "pics")
    assert "over all 17 of its 17 tables the longest is **25** — 25 is **confirmed** on this board." in text
    assert "![4B3B2B1A.r2eg03bb2y21.b9c](pics/4B3B2B1A-blue-triangle-4r.svg)" in text
    assert (tmp_path / "4B3B2B1A-blue-triangle-4r.svg").read_text().count('class="path') >= 2
    assert "| blue-triangle | **25** |" in text and "| gpu | 17 | 1.50 |" in text
    beaten = publish.render(results[:3] + [result("vortex", 26)], str(tmp_path), "pics")
    assert "over 4 of its 17 tables the longest is **26** — 25 is **beaten** on this board so far." in beaten
    with pytest.raises(TablebaseError, match="does not solve it"):
        record["solution"] = CLAIM["solution"][:-3]
        publish.render(results, str(tmp_path), "pics")
