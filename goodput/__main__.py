"""``python -m goodput``: the same as the ``goodput`` command."""

import sys

from .cli import main

sys.exit(main())
