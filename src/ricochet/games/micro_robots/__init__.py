"""Micro Robots (seed 002) as one package: :mod:`.engine` (the 6×6 board of colour and
number spaces, its sections, moves and routes), :mod:`.game` (the game on the platform:
:data:`.game.MICRO_ROBOTS`), :mod:`.bot` (its bots), :mod:`.trainer` (its training
puzzles), :mod:`.cli` (its command-line hooks) and ``web/`` (its module of the web
shell, strings and styles)."""
