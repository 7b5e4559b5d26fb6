"""``python -m pymoo_fs``: the same as the ``pymoo-fs`` command."""

import sys

from pymoo_fs.cli import main

sys.exit(main())
