"""RAMbots (seed 001): the rules engine (:mod:`.engine`), the game on the
platform (:mod:`.game`) and its bots (:mod:`.bot`)."""

from .engine import COLORS, Effect, Instruction, Obj, Piece, Step, Table, execute
from .game import RAMBOTS, Compile, RamConfig, RamState, SetGoals, SetProgram

__all__ = ["COLORS", "RAMBOTS", "Compile", "Effect", "Instruction", "Obj", "Piece", "RamConfig", "RamState",
           "SetGoals", "SetProgram", "Step", "Table", "execute"]
