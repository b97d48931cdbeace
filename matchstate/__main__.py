"""``python -m matchstate``: the ``matchstate`` command."""

import sys

from .commands import main

sys.exit(main())
