"""The organiser's side of a bar championship (seed 000): registration, the seat draw, the
stage clocks, results across tables, the final and the awards.

It uses the companion for games and scoring (every table is a companion game under the
championship method, recorded with `uno-showdown game round` or the table's screen) and
drives each table's recording through the companion's time boxes; the companion never
imports anything from here.

Pure cores, no I/O and no clock: `settings`, `draw`, `clock`, `standings`, `results`; and
`snapshot`, the event at one moment built from what was read. Edges: `store` (the tables in
the games file), `event` (the organiser's operations, one transaction each), `commands`
(`uno-showdown event ...`), `text` (how results read), `sheet` (the printable results),
`screen` and `views/` (the director's screen).
"""
