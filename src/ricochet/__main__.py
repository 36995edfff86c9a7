"""``python -m ricochet``: the same program as the ``ricochet`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
