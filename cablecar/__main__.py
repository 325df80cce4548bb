"""``python -m cablecar`` is the ``cablecar`` command."""

import sys

from cablecar.cli import main

sys.exit(main())
