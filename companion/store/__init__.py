"""The games file (SQLite): one way to open and write it (`games_file`), the migration runner
every part of the file registers its steps with (`schema`), games and rounds, duels, time
boxes; a game as a file (JSON, CSV); the duels taken back from a duel log; the wall clock that
stored records are stamped with."""
