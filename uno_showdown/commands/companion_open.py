"""What the `game` commands share: the companion opened on the games file for one command
(its app, or the file alone), and a game's rules in one line."""

from __future__ import annotations

import argparse

from showdown.contract.errors import CompanionError, ConfigError
from showdown.contract.i18n import _

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager
    from typing import Any

    from companion.app import CompanionApp
    from companion.store.games_file import GamesFile
    from companion.table.game import Game


def open_app(args: argparse.Namespace, need_game: bool = True, lazy: bool = False
          ) -> CompanionApp:
    from companion.app import CompanionApp
    from companion.store.games import Store

    try:
        if not need_game:  # no game is read: do not load one
            app = CompanionApp(Store(args.db), None)
        else:
            app = CompanionApp.open(args.db, getattr(args, "game", None), lang=args.lang,
                                    unfinished_only=False, follow=False, lazy=lazy)
        if need_game and app.game is None:
            app.close()
            raise ConfigError(_("there is no game yet: start one with `uno-showdown game new`"))
        return app
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None


def opened_file(args: argparse.Namespace) -> AbstractContextManager[GamesFile]:
    """The games file alone, for a command that only reads it (`game list`): no score keeper,
    no duel recorder, not even the games' repository (nor the game model and the scoring
    methods it brings), so the command starts as fast as a Pi allows. Errors as `opened`."""

    def open_file() -> GamesFile:
        from companion.store.games_file import GamesFile

        try:
            return GamesFile(args.db)
        except CompanionError as exc:
            raise ConfigError(str(exc)) from None

    return _ForOneCommand(open_file)


def opened(args: argparse.Namespace, need_game: bool = True, lazy: bool = False
           ) -> AbstractContextManager[CompanionApp]:
    """The app for one command: a companion error becomes a one-line usage error, and the
    store is closed whatever happens. `lazy`: the game's past rounds are read only if the
    command looks at them."""
    return _ForOneCommand(lambda: open_app(args, need_game, lazy))


class _ForOneCommand:
    """What `opened` and `opened_file` give: opened on entering (`open_it`), closed on
    leaving whatever happens, a companion error inside made a one-line usage error. A class,
    not a `contextlib.contextmanager`: every `game` command would import contextlib for it
    (`companion.store.games_file` says what that costs)."""

    __slots__ = ("_open_it", "_opened")

    def __init__(self, open_it: Callable[[], Any]) -> None:
        self._open_it = open_it
        self._opened: Any = None

    def __enter__(self) -> Any:
        self._opened = self._open_it()
        return self._opened

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: object) -> None:
        try:
            if isinstance(exc, CompanionError):
                raise ConfigError(str(exc)) from None
        finally:
            self._opened.close()


def rules_line(game: Game) -> str:
    from companion.scoring import OPTIONS  # loaded with the game already, not with `game list`

    rules = game.rules
    title = _(rules.method.title)
    if rules.target is not None and rules.method.takes_target:
        title = _("{method}, to {target}").format(method=title, target=rules.target)
    for key in rules.modifiers:
        title += "; " + _(OPTIONS[key].title)
    return title
