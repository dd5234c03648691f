"""The one error family the screen and the CLI catch: bad input, said in one sentence."""

from __future__ import annotations


class ConfigError(ValueError):
    """Bad input or configuration from the user: printed as one line, exit status 2.

    The message says what was wrong and what to do, in one sentence. Also named by
    `showdown.contract.events`; defined here so the commands that read the games file need none of
    the event types.
    """


class CompanionError(ValueError):
    """Something the person at the table typed or chose cannot be done; the message says why."""


class GameError(CompanionError):
    """An operation the rules or the table's state do not allow; the message says what to do.

    Defined here rather than in `companion.table.game` (which re-exports it) so that the small
    modules the model uses, such as `companion.table.names`, can raise it too.
    """


class RulesError(CompanionError):
    """A method, target or option that does not exist or does not fit.

    Defined here (and re-exported by `companion.scoring.base`) so that checking an option,
    which `uno-showdown points` does, needs none of the scoring methods' code.
    """
