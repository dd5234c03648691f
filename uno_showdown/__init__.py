"""uno-showdown: a Raspberry Pi as the electronics of an UNO Showdown table, its score keeper,
and the organiser's desk of a bar championship.

This package is the thin composition on top of the parts, which sit beside it at the top of
the repository (docs/architecture.md draws them and their arrows; `layers.toml` holds every
import to them):

* `showdown`: the unit's brain and the service that drives it;
* `firmware_host`: the Pico's firmware and the host's side of its wire;
* `hardware`: the units (gpiozero, the Pico on serial, the emulated unit, the fake);
* `companion`: the table's score keeper;
* `championship`: the organiser's side of a bar championship.

Here: the `uno-showdown` command line (`commands`), the desktop window that shows the unit
beside the companion (`window`) and the headless table (`headless`).
"""

from championship import keep_standings

#: The version of uno-showdown, read by the packaging (pyproject.toml) and `--version`.
__version__ = "0.1.0"

# Every process of the composition (each command, the window, the headless table) keeps an
# event's standings moving with every game it writes, even one that imports nothing else of
# the championship (`uno-showdown game round` at a championship's table): see
# `companion.store.game_watchers`. Cheap: the sums' module is imported only if written.
keep_standings()
