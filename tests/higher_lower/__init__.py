"""Higher or Lower: a small game that lives only in the tests, to prove that a game plugs
into the site without a line changed outside its own files (``docs/new-game.md``).

:mod:`.game` is the game (it registers itself when imported: ``RICOCHET_GAMES=higher_lower.game``
plugs it into a server) and ``web/`` its module of the web shell."""
