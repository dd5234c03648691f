"""The championship's part of the games file: the event's tables (`event_store`), the
standings' kept sums (`standings_sums`), a table's outbox of deals (`table_file`) and the
director's ledger of the sync (`ledger`)."""
