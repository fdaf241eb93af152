"""``python -m tf1clip.upgrade``."""

import sys

from tf1clip.upgrade._cli import main

sys.exit(main())
