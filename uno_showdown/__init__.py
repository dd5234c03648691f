"""uno-showdown: a Raspberry Pi as the electronics of an UNO Showdown table, its score keeper,
and the organiser's desk of a bar championship.

The package is built in layers, bottom to top (`layers.toml` at the top of the repository
says which module is in which, and a test holds every import to it; docs/architecture.md
says it in words):

* `contract`: what everybody speaks: sides, unit inputs, verdicts, the service's events,
  the unit's interface, the errors, the catalogs' lookup. Standard library only.
* `core`: the pure cores: the duel engine, the codecs, the cards, scoring, the table's rules
  and the championship's sums. No I/O and no clock.
* `firmware`: the Pico's own program (MicroPython), beside the codec it shares.
* `service`: the one loop that owns time, its dispatch and its duel log.
* `adapters`: the edges: units, the Pico's link, the stores on SQLite, the broker.
* `apps`: what a person runs: the commands, the windows and screens, the headless table,
  the director, the live page.
"""

#: The version of uno-showdown, read by the packaging (pyproject.toml) and `--version`.
__version__ = "0.1.0"
