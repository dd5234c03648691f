"""Every view of the companion screen draws in every state a table can be in, in every language.

Each view is opened the way a finger would reach it, in each state of the game (no game, a
game with no rounds, with rounds, with one or many duels, game over, ten players, teams,
the lazy and championship methods, long names) and at each size the screen is used at
(the Pi's touch display, the emulator's panel at 1280x720 and at 800x480, a large
window). For each, the screen must draw without an exception and must look drawn: more
than the background, and some words. Then what a person would notice as broken:

* a button outside the screen, or two buttons on top of each other;
* the view's own words under one of its buttons, or off the edge of the screen;
* a notice covering a button.

The table's helpers are among the views: each page of the Table view (seats, a showdown
proposed, a Wild Showdown's opponent, the Item Box, the first card), the Rules view, the new
game's house rules and first dealer pages, and a round won on a showdown card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.deck.cards import parse_card
from companion.screen.screen import CompanionScreen
from companion.touch import theme
from showdown.contract.events import ReactionsTimed, Side, VerdictGiven
from showdown.contract.i18n import set_language
from showdown.duel.engine import DuelResult, Outcome

SIZES = {
    "pi": (800, 480),  # the Raspberry Pi touch display
    "panel": (704, 720),  # the emulator's companion panel at 1280x720
    "narrow": (440, 480),  # ... and at 800x480
    "large": (1280, 800),
}
LANGS = ("en", "ru", "uk", "hy")

Build = Callable[[CompanionApp], None]


def _duel(app: CompanionApp, number: int, left: str, right: str, outcome: Outcome,
          winner: Side | None, reactions: dict[Side, int | None]) -> None:
    loser = winner.other if winner is not None else None
    if outcome is Outcome.EARLY_PRESS:
        loser = Side.LEFT
        winner = Side.RIGHT
    result = DuelResult(outcome, winner, loser, None, (), reactions)
    players = {Side.LEFT: left, Side.RIGHT: right}
    app.on_service_event(VerdictGiven(number, result, Side.LEFT, Side.RIGHT, 2, players))
    app.on_service_event(ReactionsTimed(number, reactions, players))


def _rounds(app: CompanionApp, count: int) -> None:
    """`count` rounds, each player going out in turn; hands tapped as cards at a small
    table, counted as points at a big one (one deck has too few cards for ten hands)."""
    names = app.player_names()
    for i in range(count):
        winner = names[i % len(names)]
        others = [n for n in names if n != winner]
        if len(names) <= 4:
            app.record_round(winner, hands={n: ["r5", "gskip"] if j % 2 else ["b2"]
                                            for j, n in enumerate(others)})
        else:
            app.record_round(winner, points={n: 3 + j for j, n in enumerate(others)})


def no_game(app: CompanionApp) -> None:
    pass


def no_rounds(app: CompanionApp) -> None:
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cid"])


def rounds(app: CompanionApp) -> None:
    no_rounds(app)
    _rounds(app, 4)


def one_duel(app: CompanionApp) -> None:
    rounds(app)
    _duel(app, 1, "Ann", "Bob", Outcome.FASTER, Side.LEFT, {Side.LEFT: 181_000,
                                                           Side.RIGHT: 240_000})


def many_duels(app: CompanionApp) -> None:
    app.new_game("showdown", "winner", [f"Player {n}" for n in range(1, 11)])
    _rounds(app, 25)
    names = app.player_names()
    outcomes = (Outcome.FASTER, Outcome.EARLY_PRESS, Outcome.TIE, Outcome.TIMEOUT)
    for i in range(40):
        outcome = outcomes[i % len(outcomes)]
        winner = Side.LEFT if i % 3 else Side.RIGHT
        times: dict[Side, int | None] = {Side.LEFT: 150_000 + 997 * i, Side.RIGHT: None}
        if outcome is Outcome.EARLY_PRESS:
            times = {Side.LEFT: -20_000, Side.RIGHT: 300_000}
        _duel(app, i + 1, names[i % 10], names[(i + 3) % 10], outcome,
              winner if outcome is Outcome.FASTER else None, times)


def game_over(app: CompanionApp) -> None:
    app.new_game("classic", "winner", ["Ann", "Bob"], target=50)
    app.record_round("Bob", hands={"Ann": ["wild+4"]})
    _duel(app, 1, "Bob", "Ann", Outcome.EARLY_PRESS, None, {Side.LEFT: -5_000,
                                                           Side.RIGHT: None})


def own_hand_over(app: CompanionApp) -> None:
    app.new_game("showdown", "own", ["Ann", "Bob", "Cid", "Dan"], target=50)
    app.record_round("Ann", hands={"Bob": ["wild"], "Cid": ["r1"], "Dan": ["b2"]})


def teams(app: CompanionApp) -> None:
    app.new_game("teams", "teams", ["Ann+Cid", "Bob+Dan", "Eve+Fay"])
    app.record_round("Ann", hands={"Bob": ["r5"], "Dan": ["teamplay"], "Eve": ["g1"],
                                   "Fay": ["y2"], "Cid": []})


def lazy(app: CompanionApp) -> None:
    app.new_game("classic", "lazy", ["Ann", "Bob", "Cid"])
    _rounds(app, 3)


def championship(app: CompanionApp) -> None:
    app.new_game("showdown", "championship", ["Ann", "Bob", "Cid", "Dan"])
    _rounds(app, 3)


def long_names(app: CompanionApp) -> None:
    names = ["Alexandra-Marie", "Konstantinopolsky", "Ṁaximilian Ü", "Bob"]
    app.new_game("mario-kart", "winner", names)
    _rounds(app, 2)
    _duel(app, 1, names[0], names[1], Outcome.FASTER, Side.RIGHT, {Side.LEFT: 400_000,
                                                                  Side.RIGHT: 199_500})


def house_rules(app: CompanionApp) -> None:
    """Play under house rules, counter-clockwise, with a showdown proposed."""
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cid", "Dan", "Eve"],
                 house_rules=["jump_in", "stacking", "seven_zero"])
    _rounds(app, 2)
    app.reverse()
    app.propose_showdown("Cid", 2)


STATES: dict[str, Build] = {
    "no game": no_game,
    "no rounds": no_rounds,
    "rounds": rounds,
    "one duel": one_duel,
    "many duels": many_duels,
    "game over": game_over,
    "own hand over": own_hand_over,
    "teams": teams,
    "lazy": lazy,
    "championship": championship,
    "long names": long_names,
    "house rules": house_rules,
}


@dataclass
class Page:
    """One way of reaching a view: its name, and the steps from the standings."""

    name: str
    reach: Callable[[CompanionScreen], bool]  # False: not reachable in this state


def _go(view: str) -> Callable[[CompanionScreen], bool]:
    def reach(screen: CompanionScreen) -> bool:
        screen.go(view)
        return True
    return reach


def _round_entry(step: str) -> Callable[[CompanionScreen], bool]:
    def reach(screen: CompanionScreen) -> bool:
        game = screen.app.game
        if game is None or game.verdict.over:
            return False  # the standings offer "Game over" instead of "Enter round"
        screen.go("round_entry")
        entry: object = screen.current
        if step == "winner":
            return True
        names = screen.app.player_names()
        entry.choose_winner(names[-1])  # type: ignore[attr-defined]
        if step == "points":
            entry.toggle_points()  # type: ignore[attr-defined]
            entry.type_digit(4)  # type: ignore[attr-defined]
        if step == "cards":
            for code in ("r5", "gskip", "wild"):
                entry.add(parse_card(code))  # type: ignore[attr-defined]
        return True
    return reach


def _edit_round(screen: CompanionScreen) -> bool:
    game = screen.app.game
    if game is None or not game.rounds:
        return False
    screen.edit_round(1)
    return True


def _game_over(screen: CompanionScreen) -> bool:
    game = screen.app.game
    if game is None or not game.verdict.over:
        return False
    screen.go("game_over")
    return True


def _tap(screen: CompanionScreen, *keys: str) -> bool:
    """Tap the buttons named `keys` in turn, as a finger would (False: one is not there, or
    greyed out, in this state); a key ending in "*" is the first button it starts."""
    for key in keys:
        button = next((b for b in screen.buttons() if b.key == key or (
            key.endswith("*") and b.key.startswith(key[:-1]))), None)
        if button is None or not button.enabled:
            return False
        screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center,
                                               button=1))
        screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center,
                                               button=1))
        screen.update(16)
    return True


def _table(page: str, *keys: str) -> Callable[[CompanionScreen], bool]:
    """The Table view's `page` (the deck decides which it has), then `keys` tapped."""
    def reach(screen: CompanionScreen) -> bool:
        screen.go("table")
        if not page:
            return True
        return _tap(screen, f"page:{page}", *keys)
    return reach


def _new_game_page(*keys: str) -> Callable[[CompanionScreen], bool]:
    def reach(screen: CompanionScreen) -> bool:
        screen.go("new_game")
        return _tap(screen, *keys)
    return reach


def _showdown_last(screen: CompanionScreen) -> bool:
    """Round entry with the winner gone out on a showdown card (a deck that has them)."""
    game = screen.app.game
    if game is None or game.verdict.over:
        return False
    screen.go("round_entry")
    return _tap(screen, "winner:*", "showdown")


def _keyboard(screen: CompanionScreen) -> bool:
    screen.go("new_game")
    screen.current.start_edit(0)  # type: ignore[attr-defined]
    return True


PAGES = (
    Page("standings", _go("standings")),
    Page("round entry: who went out", _round_entry("winner")),
    Page("round entry: cards", _round_entry("cards")),
    Page("round entry: points", _round_entry("points")),
    Page("round entry: correcting a round", _edit_round),
    Page("history", _go("history")),
    Page("chart", _go("chart")),
    Page("duels", _go("duels")),
    Page("game over", _game_over),
    Page("new game", _go("new_game")),
    Page("new game: naming a player", _keyboard),
    Page("new game: house rules", _new_game_page("house_rules")),
    Page("new game: house rules chosen", _new_game_page("house_rules", "house:*")),
    Page("new game: first dealer by the draw", _new_game_page("first_dealer", "rank:9")),
    Page("new game: first dealer by hand", _new_game_page("first_dealer", "dealer:hand")),
    Page("round entry: a showdown card last", _showdown_last),
    Page("table", _table("")),
    Page("table: seats", _table("seats")),
    Page("table: showdown proposed", _table("showdown", "showdown:*")),
    Page("table: a Wild Showdown's opponent", _table("showdown", "wild:*")),
    Page("table: Item Box", _table("items", "item_by:*", "colour:yellow")),
    Page("table: first card", _table("first_card", "first:rrev")),
    Page("rules", _go("rules")),
    Page("rules: scrolled", lambda screen: _go("rules")(screen) and _tap(screen, "down")),
)


@contextmanager
def recorded_text(view: object) -> Iterator[list[tuple[str, pygame.Rect, bool]]]:
    """Every line `theme.text` draws: its words, where, and whether the view drew it as its
    own content (`draw_content`, under the buttons) rather than as a button's label or on
    top of a button."""
    drawn: list[tuple[str, pygame.Rect, bool]] = []
    original = theme.text
    in_content = [False]
    original_content = view.draw_content  # type: ignore[attr-defined]

    def text(surface: pygame.Surface, content: str, *args: object, **kwargs: object
             ) -> pygame.Rect:
        rect = original(surface, content, *args, **kwargs)  # type: ignore[arg-type]
        visible = rect.clip(surface.get_clip())  # a scrolled list clips its rows
        if content.strip() and visible.width and visible.height:
            drawn.append((content, visible.move(surface.get_abs_offset()), in_content[0]))
        return rect

    def draw_content(surface: pygame.Surface) -> None:
        in_content[0] = True
        try:
            original_content(surface)
        finally:
            in_content[0] = False

    theme.text = text  # type: ignore[assignment]
    view.draw_content = draw_content  # type: ignore[attr-defined]
    try:
        yield drawn
    finally:
        theme.text = original  # type: ignore[assignment]
        del view.draw_content  # type: ignore[attr-defined]


def problems_with(screen: CompanionScreen, surface: pygame.Surface, where: str) -> list[str]:
    """Draw the screen and say what looks broken (an empty list when nothing does)."""
    bounds = surface.get_rect()
    found: list[str] = []
    with recorded_text(screen.current) as drawn:
        try:
            screen.draw(surface)
        except Exception as exc:  # the point is to report it
            return [f"{where}: drawing raised {exc!r}"]
    buttons = screen.buttons()
    view_area = screen.current.rect
    colours = {surface.get_at((x, y))[:3] for x in range(view_area.x, view_area.right, 7)
               for y in range(view_area.y, view_area.bottom, 7)}
    if len(colours) < 3 or not drawn:
        found.append(f"{where}: the view looks empty")
    for i, a in enumerate(buttons):
        if not bounds.contains(a.rect):
            found.append(f"{where}: button {a.key} {a.rect} is off the screen {bounds}")
        for b in buttons[i + 1:]:
            if a.rect.colliderect(b.rect):
                found.append(f"{where}: buttons {a.key} and {b.key} overlap")
    for words, rect, own in drawn:
        if not own:
            continue
        if not bounds.contains(rect):
            found.append(f"{where}: {words!r} at {rect} runs off the screen")
        for b in buttons:
            if rect.colliderect(b.rect):
                found.append(f"{where}: {words!r} lies under the button {b.key}")
    return found


def notice_problems(screen: CompanionScreen, where: str) -> list[str]:
    screen.notify("Round 12 saved: Konstantinopolsky went out")
    box = screen.notice_rect()
    return [f"{where}: the notice covers the button {b.key}" for b in screen.buttons()
            if box is not None and box.colliderect(b.rect)]


def check_state(tmp_path: Path, state: str, lang: str, sizes: dict[str, tuple[int, int]]
                ) -> list[str]:
    set_language(lang)
    found: list[str] = []
    app = CompanionApp.open(tmp_path / f"{state}-{lang}.db", lang=lang)
    try:
        STATES[state](app)
        assert app.flush_duels(5.0)  # the duels are stored by the recorder's own thread
        for size_name, size in sizes.items():
            for page in PAGES:
                screen = CompanionScreen(app, size)
                screen.update(0)
                if not page.reach(screen):
                    continue
                screen.update(16)
                surface = pygame.Surface(size)
                where = f"{state} / {lang} / {size_name} {size} / {page.name}"
                found += problems_with(screen, surface, where)
                found += notice_problems(screen, where)
    finally:
        app.close()
    return found


@pytest.mark.parametrize("state", list(STATES))
def test_every_view_draws_in_every_state_and_size(tmp_path: Path, state: str) -> None:
    assert check_state(tmp_path, state, "en", SIZES) == []


@pytest.mark.parametrize("lang", LANGS[1:])
@pytest.mark.parametrize("state", ["no game", "rounds", "many duels", "game over", "teams"])
def test_every_view_draws_in_every_language(tmp_path: Path, state: str, lang: str) -> None:
    sizes = {name: SIZES[name] for name in ("pi", "narrow")}
    assert check_state(tmp_path, state, lang, sizes) == []
