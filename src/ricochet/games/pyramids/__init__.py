"""Ricochet Pyramids (seed 003) as one package: :mod:`.setup` (its pieces and how a game
draws them from its seed), :mod:`.deal` (a puzzle dealt as a game deals its first
round), :mod:`.game` (the game on the platform: :data:`.game.PYRAMIDS`), :mod:`.trainer`
(its training puzzles), :mod:`.cli` (its command-line hooks) and ``web/`` (its module
of the web shell, strings and styles).  Its bots are the shared bidding bots
(:mod:`ricochet.games.bidding.bot`)."""
