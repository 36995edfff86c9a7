"""Ricochet Robots (seeds 000 and 004) as one package: :mod:`.game` (the game on the
platform: :data:`.game.RICOCHET_ROBOTS`), :mod:`.trainer` (its training puzzles),
:mod:`.cli` (its command-line hooks) and ``web/`` (its module of the web shell, strings
and styles).  Its rules engine is the library's own (:mod:`ricochet.position`) and its
bots are the shared bidding bots (:mod:`ricochet.games.bidding.bot`)."""
