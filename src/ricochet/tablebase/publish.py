"""A study's results as a page section: per board the longest optimal
solution of every target, the record positions drawn (SVG, the solution's
paths on the board) with their solutions, the histogram of lengths over all
tables (a table and a PNG), and the build times.

``ricochet tablebase publish FILE... --out-dir DIR [--doc docs/tablebase.md]``
writes the pictures into DIR and the Markdown between the markers
:data:`BEGIN` and :data:`END` of the document (or on stdout).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Sequence
from typing import Any

from .layout import TablebaseError
from .study import TARGETS, VORTEX, record_code

BEGIN = "<!-- study results: begin (written by ricochet tablebase publish) -->"
END = "<!-- study results: end -->"
CLAIM_BOARD = "4B,3B,2B,1A"
"""The board of the published 25-move claim (DriftingDroids ``4B 3B / 1A 2B``)."""
CLAIM = 25


def _boards(results: Sequence[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for r in results:
        seen.setdefault(str(r["board"]), None)
    return list(seen)


def _latest(results: Sequence[dict[str, Any]]) -> dict[tuple[str, str, int], dict[str, Any]]:
    """One result per (board, target, robots): the last one given."""
    out: dict[tuple[str, str, int], dict[str, Any]] = {}
    for r in results:
        out[(str(r["board"]), str(r["target"]), int(r["robots"]))] = r
    return out


def _fmt(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def _picture(record: Any, path: str) -> tuple[str, str | None]:
    """Draw a record (its solution's paths when it has one) into ``path``;
    returns its code and its solution text."""
    from ..notation import parse_code, parse_solution
    from ..puzzle import Puzzle, check_solution
    from ..svg import svg

    code = record_code(record)
    solution = record.get("solution") if isinstance(record, dict) else None
    pz = parse_code(code)
    if not isinstance(pz, Puzzle):
        raise TablebaseError(f"record {code!r} is not a puzzle code")
    paths = None
    if solution:
        moves = parse_solution(solution, pz.position)
        verdict = check_solution(pz, moves)
        if not verdict.ok:
            raise TablebaseError(f"record {code}: its solution {solution!r} does not solve it")
        paths = verdict.paths
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg(pz, size=360, path=paths, coordinates=True))
    return code, solution


def render(results: Sequence[dict[str, Any]], out_dir: str, link_dir: str, robots: int | None = None) -> str:
    """The Markdown section for the tables of ``robots`` robots (default:
    the most robots present); pictures are written into ``out_dir`` and
    linked as ``link_dir/NAME``."""
    from ..tiles import canonical, parse_arrangement
    from .dd import format_layout
    from .png import histogram_png

    if not results:
        raise TablebaseError("no study results to publish")
    present = sorted({int(r["robots"]) for r in results})
    robots = present[-1] if robots is None else robots
    if robots not in present:
        raise TablebaseError(f"--robots: no tables of {robots} robots in the results (they have {present})")
    os.makedirs(out_dir, exist_ok=True)
    table = _latest([r for r in results if int(r["robots"]) == robots])
    rows = list(table.values())
    boards = _boards(rows)
    top = max(int(r["longest"]) for r in rows)
    lines = [(f"{len(rows)} tables of {robots} robot{'s' if robots != 1 else ''} on {len(boards)} "
              f"board{'s' if len(boards) != 1 else ''}; "
             f"longest optimal solution over all of them: **{top} moves**."), ""]

    # -- per board, the longest per target
    shape = {b: canonical(parse_arrangement(b)) for b in boards}
    lines.append("| target | " + " | ".join(f"{b}<br>({format_layout(parse_arrangement(b))})" for b in boards) + " |")
    lines.append("|---|" + "---|" * len(boards))
    for target in TARGETS:
        cells = []
        for b in boards:
            got = [r for (bb, t, _n), r in table.items() if bb == b and t == target]
            cells.append(" / ".join(("**%d**" if r["longest"] == top else "%d") % r["longest"] for r in got) or "–")
        if any(c != "–" for c in cells):
            lines.append(f"| {target} | " + " | ".join(cells) + " |")
    best = []
    for b in boards:
        lengths = [int(r["longest"]) for (bb, _t, _n), r in table.items() if bb == b]
        best.append(f"**{max(lengths)}**" if lengths else "–")
    lines.append("| **longest** | " + " | ".join(best) + " |")
    twins = [(b, c) for i, b in enumerate(boards) for c in boards[:i] if shape[b] == shape[c]]
    for b, c in twins:
        same = all(table[(b, t, n)]["histogram"] == table[(c, t, n)]["histogram"]
                   for (bb, t, n) in table if bb == b and (c, t, n) in table)
        lines.append("")
        lines.append(f"{b} is {c} turned (the same board): its tables' histograms are "
                     f"{'identical, target by target' if same else '**not** identical (a bug)'}.")

    # -- the claim
    claim = [r for (b, _t, _n), r in table.items() if b == CLAIM_BOARD]
    if claim and robots == 4:
        longest = max(int(r["longest"]) for r in claim)
        verdict = ("confirmed" if longest == CLAIM else "beaten" if longest > CLAIM else "not reached")
        done = len(claim) == len(TARGETS)
        lines += ["", (f"**The claim** (\"25 moves is the maximum\", board {CLAIM_BOARD} = DriftingDroids "
                      f"`{format_layout(parse_arrangement(CLAIM_BOARD))}`, four robots): over "
                      f"{'all ' if done else ''}{len(claim)} of its {len(TARGETS)} tables the longest is "
                      f"**{longest}** — 25 is **{verdict}** on this board{'' if done else ' so far'}.")]

    # -- the record positions
    lines += ["", ("Record positions: each board's longest tables, the first record holder drawn with its "
                  "solution, the others listed:"), ""]
    for b in boards:
        mine = [r for (bb, _t, _n), r in table.items() if bb == b]
        longest = max(int(r["longest"]) for r in mine)
        for r in [r for r in mine if int(r["longest"]) == longest]:
            records = r.get("records") or []
            if not records:
                continue
            name = f"{b.replace(',', '')}-{r['target']}-{robots}r.svg"
            code, solution = _picture(records[0], os.path.join(out_dir, name))
            goal = "vortex (any robot)" if r["target"] == VORTEX else r["target"]
            lines.append(f"- **{b}, {goal}, {longest} moves** ({_fmt(int(r['at_longest']))} positions): "
                         f"`{code}` — `{solution or '(no solution kept)'}`  ")
            lines.append(f"  ![{code}]({link_dir}/{name})")
            for other in records[1:]:
                more = other.get("solution") if isinstance(other, dict) else None
                lines.append(f"  - `{record_code(other)}` — `{more or '(no solution kept)'}`")

    # -- the histogram over all tables
    total: dict[int, list[int]] = {}
    for r in rows:
        col = 1 if r["target"] == VORTEX else 0
        for k, v in r["histogram"].items():
            total.setdefault(int(k), [0, 0])[col] += int(v)
    with open(os.path.join(out_dir, "histogram.png"), "wb") as f:
        f.write(histogram_png({k: sum(v) for k, v in total.items()}))
    lines += ["", ("Positions by optimal length, over all tables "
                  f"(unreachable: {_fmt(sum(int(r.get('unreachable', 0)) for r in rows))}):"), "",
              "| moves | coloured targets | vortex | all |", "|---|---|---|---|"]
    for k in sorted(total):
        coloured, vortex = total[k]
        lines.append(f"| {k} | {_fmt(coloured)} | {_fmt(vortex)} | {_fmt(coloured + vortex)} |")
    lines += ["", f"![histogram of the optimal lengths over all tables]({link_dir}/histogram.png)"]

    # -- the times
    lines += ["", "| device | tables | median seconds | fastest | slowest |", "|---|---|---|---|---|"]
    for device in sorted({str(r.get("device", "cpu")) for r in rows}):
        secs = [float(r["seconds"]) for r in rows if str(r.get("device", "cpu")) == device]
        lines.append(f"| {device} | {len(secs)} | {statistics.median(secs):.2f} | {min(secs):.2f} | {max(secs):.2f} |")
    return "\n".join(lines) + "\n"


def into_doc(doc: str, section: str) -> str:
    """``doc`` with the text between :data:`BEGIN` and :data:`END` replaced."""
    if doc.count(BEGIN) != 1 or doc.count(END) != 1 or doc.index(BEGIN) > doc.index(END):
        raise TablebaseError(f"the document needs the two markers, once each, in order: {BEGIN!r} … {END!r}")
    head, rest = doc.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + section + END + tail
