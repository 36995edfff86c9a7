"""RAMbots (seed 001, Kory Heath): the pure rules engine — pieces, the board,
and what one instruction does.  No I/O, no clock, no randomness.

Icehouse pieces come in three sizes (1 small, 2 medium, 3 large) and, here,
four colours.  On the 8×8 board stand the **RAMbots** (large pieces, one per
player) and four **beacons** (small pieces), each upright or lying on its side
pointing one way.  An **instruction** is a piece of a player's code pool laid
out lying (pointing N, E, S or W) or upright.

Seed 001, "Executing Individual Instructions": the RAMbot moves, then fires a
beam of the instruction's colour in front of itself.

* Lying instruction: move 1/2/3 spaces that way; the first unit turns the
  RAMbot (or tips it down, if upright) when it does not face that way.
* Upright instruction: reverse 1/2/3 spaces (nothing if the RAMbot is upright).
* Moving into objects pushes them, with whatever is behind them; a chain that
  cannot move leaves the RAMbot where it is (contact is still made).  Contact
  made with the RAMbot's nose is a RAM — only the first such contact of an
  instruction counts (RULINGS).  RAMing another RAMbot steals the smallest
  piece of its owner's code pool (ties: the colour highest on the precedence
  stack); RAMing an upright object tips it down facing away from the impact,
  and if its colour is on top of the rammer's goal stack, that goal is tagged.
* Beams hit the first object in front: blue pushes it 1/2/3 away, yellow pulls
  it 1/2/3 closer (stopping at the nose: no RAM), red slides it 1/2/3 sideways
  toward the board's centre line parallel to the beam (RULINGS: the direction
  is fixed when the beam hits), green sets it upright.  A beam into a wall, or
  from an upright RAMbot (straight up), does nothing.

Cells are ``(x, y)``, x east and y south, 0–7.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "COLORS",
    "SIZE",
    "Effect",
    "Instruction",
    "Obj",
    "Piece",
    "Step",
    "Table",
    "execute",
]

SIZE = 8
COLORS = ("red", "yellow", "green", "blue")
SIZES = (1, 2, 3)
SIZE_NAMES = {1: "small", 2: "medium", 3: "large"}
DIRS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
Cell = tuple[int, int]


@dataclass(frozen=True, order=True)
class Piece:
    """An Icehouse piece: size 1–3 and colour."""

    size: int
    color: str

    @property
    def name(self) -> str:
        return f"{SIZE_NAMES[self.size]} {self.color}"

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size, "color": self.color}

    @staticmethod
    def from_dict(d: Any) -> Piece:
        return Piece(int(d["size"]), d["color"])


@dataclass(frozen=True)
class Instruction:
    """A piece laid out in a program: lying and pointing ``N``/``E``/``S``/``W``, or upright (``up``)."""

    piece: Piece
    orientation: str

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.piece.size, "color": self.piece.color, "orientation": self.orientation}

    @staticmethod
    def from_dict(d: Any) -> Instruction:
        return Instruction(Piece(int(d["size"]), d["color"]), d["orientation"])

    @property
    def name(self) -> str:
        how = "upright" if self.orientation == "up" else f"pointing {self.orientation}"
        return f"{self.piece.name} {how}"


@dataclass(frozen=True)
class Obj:
    """An object on the board: a RAMbot (``kind="bot"``, large) or a beacon (small).
    ``facing`` is ``None`` while it stands upright."""

    kind: str
    color: str
    cell: Cell
    facing: str | None = None

    @property
    def upright(self) -> bool:
        return self.facing is None

    @property
    def key(self) -> str:
        """``bot:red``, ``beacon:blue``: how events name an object."""
        return f"{self.kind}:{self.color}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "color": self.color, "cell": list(self.cell), "facing": self.facing}

    @staticmethod
    def from_dict(d: Any) -> Obj:
        return Obj(d["kind"], d["color"], (int(d["cell"][0]), int(d["cell"][1])), d.get("facing"))


@dataclass(frozen=True)
class Table:
    """Everything an instruction can change: the objects on the board, the
    players' code pools (pieces not laid out in a program), their goal stacks
    (top first) and the precedence stack (top first).  Players are named by
    their RAMbot's colour here."""

    objects: tuple[Obj, ...]
    pools: tuple[tuple[str, tuple[Piece, ...]], ...]
    goals: tuple[tuple[str, tuple[Piece, ...]], ...]
    precedence: tuple[str, ...]

    def at(self, cell: Cell) -> Obj | None:
        return next((o for o in self.objects if o.cell == cell), None)

    def obj(self, key: str) -> Obj:
        return next(o for o in self.objects if o.key == key)

    def pool(self, player: str) -> tuple[Piece, ...]:
        return dict(self.pools).get(player, ())

    def goal_stack(self, player: str) -> tuple[Piece, ...]:
        return dict(self.goals).get(player, ())

    def rank(self, color: str) -> int:
        """0 for the colour on top of the precedence stack."""
        return self.precedence.index(color)

    def _with_objects(self, objects: list[Obj]) -> Table:
        return replace(self, objects=tuple(sorted(objects, key=lambda o: (o.kind, o.color))))

    def _with(self, pools: dict[str, tuple[Piece, ...]] | None = None,
              goals: dict[str, tuple[Piece, ...]] | None = None) -> Table:
        t = self
        if pools is not None:
            t = replace(t, pools=tuple(sorted((k, tuple(sorted(v))) for k, v in pools.items())))
        if goals is not None:
            t = replace(t, goals=tuple(sorted(goals.items())))
        return t


@dataclass(frozen=True)
class Effect:
    """One thing that happened, for the story of an instruction (``kind``:
    ``turn``, ``tip_down``, ``move``, ``push``, ``blocked``, ``wall``, ``ram``,
    ``steal``, ``knock_over``, ``tag``, ``beam``, ``beam_push``, ``pull``,
    ``slide``, ``upright``, ``nothing``)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


@dataclass(frozen=True)
class Step:
    """The outcome of one instruction: the new table, what happened, and
    whether the player tagged their last goal (they win at once)."""

    table: Table
    effects: tuple[Effect, ...]
    won: bool


def _on_board(c: Cell) -> bool:
    return 0 <= c[0] < SIZE and 0 <= c[1] < SIZE


def _add(c: Cell, d: str, k: int = 1) -> Cell:
    dx, dy = DIRS[d]
    return (c[0] + dx * k, c[1] + dy * k)


def _shove(objs: dict[Cell, Obj], first: Cell, d: str) -> list[Obj] | None:
    """Push the chain that starts at ``first`` one space ``d``: the chain's
    objects (near to far), or ``None`` when it is against the wall."""
    chain = []
    c = first
    while c in objs:
        chain.append(objs[c])
        c = _add(c, d)
    if not _on_board(c):
        return None
    for o in reversed(chain):
        del objs[o.cell]
        moved = replace(o, cell=_add(o.cell, d))
        objs[moved.cell] = moved
    return chain


def _steal(table: Table, thief: str, victim: str) -> tuple[Table, Piece | None]:
    """Damage: the thief takes the smallest piece of the victim's pool, ties by the
    colour highest on the precedence stack; nothing from an empty pool."""
    pool = list(table.pool(victim))
    if not pool:
        return table, None
    piece = min(pool, key=lambda p: (p.size, table.rank(p.color)))
    pool.remove(piece)
    pools = dict(table.pools)
    pools[victim] = tuple(pool)
    pools[thief] = tuple(pools.get(thief, ())) + (piece,)
    return table._with(pools=pools), piece


def execute(table: Table, player: str, ins: Instruction) -> Step:
    """Run one instruction of ``player`` (a RAMbot colour): movement, then the beam."""
    effects: list[Effect] = []
    objs = {o.cell: o for o in table.objects}
    me = next(o for o in table.objects if o.kind == "bot" and o.color == player)
    size, orient = ins.piece.size, ins.orientation
    rammed: Obj | None = None

    def contact(o: Obj, nose: bool) -> None:
        nonlocal rammed
        if nose and rammed is None:
            rammed = o

    # -- movement ------------------------------------------------------------------------------
    if orient == "up":
        if me.upright:
            effects.append(Effect("nothing", {"why": "upright"}))
            steps, d = 0, None
        else:
            steps, d = size, OPPOSITE[me.facing]  # type: ignore[index]
        nose = False
    else:
        d, steps = orient, size
        if me.upright:
            effects.append(Effect("tip_down", {"facing": d}))
            steps -= 1
        elif me.facing != d:
            effects.append(Effect("turn", {"from": me.facing, "facing": d}))
            steps -= 1
        del objs[me.cell]
        me = replace(me, facing=d)
        objs[me.cell] = me
        nose = True
    for _ in range(steps):
        assert d is not None
        nxt = _add(me.cell, d)
        if not _on_board(nxt):
            effects.append(Effect("wall", {"cell": list(me.cell)}))
            break
        if nxt in objs:
            hit = objs[nxt]
            chain = _shove(objs, nxt, d)
            contact(hit, nose)
            if chain is None:
                effects.append(Effect("blocked", {"by": hit.key}))
                break
            effects.append(Effect("push", {"objects": [o.key for o in chain], "direction": d}))
        del objs[me.cell]
        me = replace(me, cell=nxt)
        objs[nxt] = me
        effects.append(Effect("move", {"to": list(nxt)}))
    table = table._with_objects(list(objs.values()))

    # -- the RAM ---------------------------------------------------------------------------------
    won = False
    if rammed is not None:
        target = table.obj(rammed.key)
        effects.append(Effect("ram", {"object": target.key}))
        if target.kind == "bot" and target.color != player:
            table, piece = _steal(table, player, target.color)
            effects.append(Effect("steal", {"from": target.color, "piece": piece.to_dict() if piece else None}))
        if target.upright:
            tipped = replace(target, facing=me.facing)  # facing away from the point of impact
            table = table._with_objects([tipped if o.key == target.key else o for o in table.objects])
            effects.append(Effect("knock_over", {"object": target.key, "facing": me.facing}))
            goals = list(table.goal_stack(player))
            if goals and goals[0].color == target.color:
                tag = goals.pop(0)
                pools = dict(table.pools)
                pools[player] = tuple(pools.get(player, ())) + (tag,)
                table = table._with(pools=pools, goals={**dict(table.goals), player: tuple(goals)})
                effects.append(Effect("tag", {"object": target.key, "piece": tag.to_dict(), "left": len(goals)}))
                won = not goals

    # -- the beam ---------------------------------------------------------------------------------
    me = table.obj(me.key)
    color = ins.piece.color
    if me.upright:
        effects.append(Effect("beam", {"color": color, "hit": None, "why": "upright"}))
        return Step(table, tuple(effects), won)
    beam_dir = me.facing
    assert beam_dir is not None
    c = _add(me.cell, beam_dir)
    while _on_board(c) and table.at(c) is None:
        c = _add(c, beam_dir)
    if not _on_board(c):
        effects.append(Effect("beam", {"color": color, "hit": None, "why": "wall"}))
        return Step(table, tuple(effects), won)
    hit = table.at(c)
    assert hit is not None
    effects.append(Effect("beam", {"color": color, "hit": hit.key, "direction": beam_dir}))
    objs = {o.cell: o for o in table.objects}
    if color == "blue":
        moved = 0
        for _ in range(size):
            if _shove(objs, objs_cell(objs, hit.key), beam_dir) is None:
                break
            moved += 1
        effects.append(Effect("beam_push", {"object": hit.key, "spaces": moved, "direction": beam_dir}))
    elif color == "yellow":
        back = OPPOSITE[beam_dir]
        moved = 0
        for _ in range(size):
            at = objs_cell(objs, hit.key)
            nxt = _add(at, back)
            if nxt == me.cell or nxt in objs:
                break  # pulled all the way to the nose: it stays next to the RAMbot (no RAM)
            o = objs.pop(at)
            objs[nxt] = replace(o, cell=nxt)
            moved += 1
        effects.append(Effect("pull", {"object": hit.key, "spaces": moved, "direction": back}))
    elif color == "red":
        side = _toward_centre(c, beam_dir)
        moved = 0
        for _ in range(size):
            if _shove(objs, objs_cell(objs, hit.key), side) is None:
                break
            moved += 1
        effects.append(Effect("slide", {"object": hit.key, "spaces": moved, "direction": side}))
    else:  # green
        o = objs[c]
        if o.upright:
            effects.append(Effect("upright", {"object": hit.key, "already": True}))
        else:
            objs[c] = replace(o, facing=None)
            effects.append(Effect("upright", {"object": hit.key, "already": False}))
    return Step(table._with_objects(list(objs.values())), tuple(effects), won)


def objs_cell(objs: dict[Cell, Obj], key: str) -> Cell:
    return next(c for c, o in objs.items() if o.key == key)


def _toward_centre(cell: Cell, beam: str) -> str:
    """Red beam: the side toward the board's centre line parallel to the beam
    (between rows 3 and 4 for an east–west beam, columns 3 and 4 for north–south)."""
    if beam in ("E", "W"):
        return "S" if cell[1] <= (SIZE - 1) / 2 else "N"
    return "E" if cell[0] <= (SIZE - 1) / 2 else "W"


def order_key(table: Table, player: str, ins: Instruction) -> tuple[int, int, int]:
    """Which loaded instruction runs first (smallest first): size, then the
    piece's colour on the precedence stack, then the owner's RAMbot colour."""
    return (ins.piece.size, table.rank(ins.piece.color), table.rank(player))


def why_first(table: Table, loaded: Sequence[tuple[str, Instruction]]) -> str:
    """Why the first of ``loaded`` (sorted by :func:`order_key`) runs: ``alone``,
    ``size``, ``color`` or ``rambot`` — the rule that decided."""
    if len(loaded) == 1:
        return "alone"
    (_, i0), (_, i1) = loaded[0], loaded[1]
    if i0.piece.size != i1.piece.size:
        return "size"
    if i0.piece.color != i1.piece.color:
        return "color"
    return "rambot"


def pieces_available(pool: Sequence[Piece], program: Sequence[Instruction]) -> Piece | None:
    """The first piece of ``program`` that ``pool`` does not have (``None``: all there)."""
    have = Counter(pool)
    for ins in program:
        if have[ins.piece] <= 0:
            return ins.piece
        have[ins.piece] -= 1
    return None
