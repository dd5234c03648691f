"""The two sides of the unit, named as the table sees them."""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    """A paddle, an arrow and a launch direction all belong to one side."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def other(self) -> Side:
        return Side.RIGHT if self is Side.LEFT else Side.LEFT

    @classmethod
    def parse(cls, text: str) -> Side:
        """Accept `left`/`right` (any case) or `l`/`r`, the way people type them."""
        key = text.strip().lower()
        if key in ("l", "left"):
            return cls.LEFT
        if key in ("r", "right"):
            return cls.RIGHT
        raise ValueError(f"unknown side {text!r}: use 'left' or 'right'")

    def __str__(self) -> str:
        return self.value
