"""The edges of the program, each thin and each testable alone: Showdown Units (`units`), the
host's link to a Pico (`board`), the games file on SQLite (`store`) and the MQTT broker
(`broker`). An adapter does not lean on another; the applications compose them."""
