"""Options every command that judges duels shares, so they mean the same everywhere."""

from __future__ import annotations

import argparse
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from showdown.contract.events import ConfigError, TiePolicy
from showdown.contract.i18n import _
from showdown.duel.engine import MAX_CARDS as MAX_CARDS
from showdown.duel.engine import DuelConfig, DuelError

if TYPE_CHECKING:
    from showdown.service.duel_log import DuelLog

_DEFAULTS = DuelConfig()


def check_range(option: str, value: float, low: float, high: float) -> None:
    """Refuse an option's value outside [low, high] (nan is outside), naming the range."""
    if not low <= value <= high:
        raise ConfigError(_("{option} must be from {low} to {high}, not {value}").format(
            option=option, low=_shown(low), high=_shown(high), value=_shown(value)))


def _shown(value: float) -> str:
    """A number as a person wrote it: 1000000 as is, 1e308 or a 300-digit int short."""
    if abs(value) < 1e15 and float(value).is_integer():
        return str(int(value))
    return f"{value:.6g}"


def add_duel_options(parser: argparse.ArgumentParser) -> None:
    """Add the judging options; each defaults to None so 'not given' can be told apart."""
    group = parser.add_argument_group(_("judging"))
    group.add_argument(
        "--tie-window-us", type=int, metavar="US",
        help=_("presses closer than this are a tie (default {us})").format(
            us=_DEFAULTS.tie_window_us),
    )
    group.add_argument(
        "--tie-policy", choices=[p.value for p in TiePolicy],
        help=_("after a tie: rematch (no launch, start again) or split the cards "
               "(default rematch)"),
    )
    group.add_argument(
        "--response-timeout-us", type=int, metavar="US",
        help=_("nobody pressed this long after go: a timeout (default {us})").format(
            us=_DEFAULTS.response_timeout_us),
    )
    group.add_argument(
        "--settle-us", type=int, metavar="US",
        help=_("how long the verdict waits for late edges after the decisive press "
               "(default: what the unit's measured delivery needs, else {us})").format(
            us=_DEFAULTS.settle_us),
    )


def duel_overrides(args: argparse.Namespace) -> dict[str, object]:
    names = {f.name for f in fields(DuelConfig)}
    return {k: v for k, v in vars(args).items() if k in names and v is not None}


def duel_config(args: argparse.Namespace, **extra: object) -> DuelConfig:
    """The DuelConfig the options ask for; a bad value is a one-line usage error."""
    try:
        return DuelConfig(**(extra | duel_overrides(args)))  # type: ignore[arg-type]
    except DuelError as exc:
        raise ConfigError(str(exc)) from exc


def fit_to_unit(config: DuelConfig, args: argparse.Namespace, unit: object) -> DuelConfig:
    """Use the unit's own settle time (from its measured delivery delay) unless told one."""
    settle = getattr(unit, "settle_us", None)
    if args.settle_us is None and settle is not None:
        return replace(config, settle_us=settle)
    return config


def open_duel_log(path: str | Path | None, option: str = "--duel-log", *,
                  warn: bool = True) -> DuelLog:
    """The duel log at `path` (default: the user's), or a one-line error saying why not.

    `warn=False` for a command that reports a failed write itself (see `DuelLog`).
    """
    from showdown.service.duel_log import DuelLog

    target = Path(path) if path else default_duel_log()
    try:
        if not path:  # the user's data folder is ours to make; a folder given never is
            target.parent.mkdir(parents=True, exist_ok=True)
        return DuelLog(target, warn=warn)
    except (OSError, ValueError) as exc:  # ValueError: a path with a NUL in it
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ConfigError(
            _("cannot write the duel log {path}: {reason}; give another file with {option}")
            .format(path=target, reason=reason, option=option)
        ) from None


def default_duel_log() -> Path:
    """Where the table appends every duel, for replay."""
    import platformdirs

    return Path(platformdirs.user_data_dir("uno-showdown")) / "duels.jsonl"
