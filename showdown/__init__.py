"""The Showdown Unit's brain and the service that drives it: standard library only.

* `contract`: what every part speaks: sides, unit inputs, verdicts, the service's events,
  the unit's interface and its input queue, errors, the one worker thread, records, the
  catalogs' lookup and the silencer of what C libraries print. It imports nothing of ours.
* `duel`: pure: the engine that judges a duel from when each paddle edge happened, the duel
  log's format and the replay that judges a log again.
* `service`: the one loop that owns time, its dispatch to listeners and its duel log.
"""
