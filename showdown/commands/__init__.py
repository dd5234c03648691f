"""Subcommands of the showdown core: simulate, replay, run."""
