"""`python -m showdown` is `uno-showdown`."""

import sys

from showdown.cli import main

sys.exit(main())
