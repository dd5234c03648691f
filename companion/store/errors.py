"""What goes wrong with the games file, as the score keeper and the commands tell it apart."""

from __future__ import annotations

from showdown.contract.errors import CompanionError


class StoreError(CompanionError):
    """The store cannot be opened or does not hold what was asked for."""


class GameChangedError(StoreError):
    """The game in the file moved on since this copy was loaded (another screen or the CLI)."""


class StoreBusyError(StoreError):
    """The file cannot be written just now (locked by another program, disk full, I/O):
    the same change may well succeed later, unlike a change the data refuses."""
