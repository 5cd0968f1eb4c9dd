"""``python -m goodput``: the same as the ``goodput`` command."""

import sys

from goodput.cli import main

sys.exit(main())
