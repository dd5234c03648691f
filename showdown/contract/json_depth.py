"""How deep parsed JSON nests, found without recursion.

`json.loads` parses a thousand nested brackets, but whatever walks the result recursively
next (`json.dumps` for a signature, a handler) can raise RecursionError on it. A message
from outside (the wire, the duel socket) is measured here first and refused if too deep.
"""

from __future__ import annotations


def nests_deeper_than(data: object, limit: int) -> bool:
    """Does `data` (dicts and lists, as `json.loads` makes them) nest more than `limit`
    levels deep? A scalar is one level."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False
