"""RAMbots (seed 001) as one package: :mod:`.engine` (the rules of the board: pieces,
instructions, pushes, RAMs, beams), :mod:`.game` (the game on the platform:
:data:`.game.RAMBOTS`), :mod:`.bot` (its bots) and ``web/`` (its module of the web shell,
strings and styles).  RAMbots has no solo puzzles, so no trainer spec."""
