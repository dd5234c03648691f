"""`python -m uno_showdown` is `uno-showdown`."""

import sys

from uno_showdown.commands.cli import main

sys.exit(main())
