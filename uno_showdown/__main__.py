"""`python -m uno_showdown` is `uno-showdown`."""

from uno_showdown.commands.console import run

run()
