"""The organiser's side of a bar championship (seed 000), pure: settings, the seat draw, the
stage clocks, standings across tables, the final and the awards; the event as it stands at
one moment (`snapshot`), the live page's state, and what tables and the director say to each
other through the broker (`messages`). It reads what the stores read; it never reads them."""
