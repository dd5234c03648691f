"""A game's rules: its scoring method, its target and its options, checked when made."""

from __future__ import annotations

from collections.abc import Iterable

from companion.scoring import registry
from companion.scoring.base import RulesError, ScoringMethod, check_regulation
from companion.scoring.options import OPTIONS, parse_option
from showdown.contract.i18n import _
from showdown.contract.record import record

__all__ = ["MAX_TARGET", "Rules", "RulesError", "parse_method", "parse_option"]

#: The highest target a game takes; more would be a typing slip, and must fit the games file.
MAX_TARGET = 1_000_000


def parse_method(name: str) -> ScoringMethod:
    """The method a person typed: its key or an alias, any case, spaces and dashes ignored
    (only that method's module is loaded: `registry.find`)."""
    method = registry.find(name)
    if method is None:
        raise RulesError(
            _("unknown scoring method {name!r}: choose one of {choices}").format(
                name=name, choices=", ".join(registry.LINES))
        )
    return method


@record
class Rules:
    """A game's scoring method, target and options (house rules, by key)."""

    method: ScoringMethod
    target: int | None = None
    options: frozenset[str] = frozenset()

    @classmethod
    def make(
        cls, method: ScoringMethod | str, target: int | None = None,
        modifiers: Iterable[str] = (), *, stored: bool = False,
    ) -> Rules:
        """Check and complete what a table chose; RulesError says what to change. `stored`:
        rules read back from a games file, where a game an older version let take options
        under a regulated method keeps the scoring it was played with."""
        method = method if isinstance(method, ScoringMethod) else parse_method(method)
        if method.default_target is None or method.fixed_target:
            if target is not None and target != method.default_target:
                raise RulesError(
                    _("«{method}» takes no target: leave the target out").format(
                        method=_(method.label))
                )
            target = method.default_target
        elif target is None:
            target = method.default_target
        elif not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise RulesError(_("the target must be a positive number of points"))
        elif target > MAX_TARGET:
            raise RulesError(
                _("the target cannot be more than {max} points").format(max=MAX_TARGET)
            )
        keys = [parse_option(name) for name in modifiers]
        if stored and method.regulated:
            return cls(method, target, frozenset(keys))
        check_regulation(method, keys)
        options = set()
        for key in keys:
            if key not in method.options:
                if method.options:
                    raise RulesError(
                        _("the {option} option does not fit «{method}»: choose from "
                          "{choices}").format(option=key, method=_(method.label),
                                              choices=", ".join(method.options))
                    )
                raise RulesError(
                    _("«{method}» takes no options: leave {option} out").format(
                        method=_(method.label), option=key)
                )
            options.add(key)
        return cls(method, target, frozenset(options))

    @property
    def modifiers(self) -> tuple[str, ...]:
        """The options in force, in the order they are listed (stored and exported so)."""
        return tuple(key for key in OPTIONS if key in self.options)

    @property
    def lone_zero_50(self) -> bool:
        return "lone_zero_50" in self.options

    @property
    def h2o(self) -> bool:
        return "h2o" in self.options

    @property
    def lower_is_better(self) -> bool:
        return self.method.lower_is_better

    @property
    def keeps_totals(self) -> bool:
        return self.method.keeps_totals
