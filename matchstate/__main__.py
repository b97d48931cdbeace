"""``python -m matchstate``: the ``matchstate`` command."""

import sys

from .cli import main

sys.exit(main())
