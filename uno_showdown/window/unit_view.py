"""Drawing the emulated Showdown Unit: countdown lights and digits, paddles, arrows, cards.

Pure drawing: `draw_unit` paints a `UnitState` as it looks at `now_us` into a
surface, and `UnitLayout` says where every part sits so the window can hit-test
mouse and touch against the very shapes it drew (and tests can sample their
pixels). It reads no clock and owns no state besides a cache of rendered text.

Its words are translated when drawn, in the bundled font of the companion's screen (which
has the Cyrillic and Armenian letters pygame's own font lacks).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pygame

from companion.table.pairing import side_name
from companion.touch import theme
from hardware.emulated import Display, UnitState, Verdict
from showdown.contract.events import LaunchPart, Side
from showdown.contract.i18n import N_, _, ngettext

LIGHTS = 5

BACKGROUND = (22, 58, 44)
BODY = (34, 34, 40)
BODY_EDGE = (200, 30, 40)
LIGHT_OFF = (58, 58, 66)
LIGHT_COUNTING = (255, 176, 0)
LIGHT_GO = (40, 220, 80)
LIGHT_FROZEN = (235, 40, 40)
ARROW_ON = (255, 36, 36)
ARROW_OFF = (78, 40, 44)
PADDLE = (226, 226, 232)
PADDLE_HELD = (120, 200, 255)
PADDLE_WIN = (150, 236, 160)  # the winner's paddle face
WIN_GLOW = LIGHT_GO  # the ring around the winner's paddle and the "WIN" pointer
PADDLE_EDGE = (20, 20, 24)
TIMER = (250, 210, 40)
TIMER_HELD = (190, 140, 10)
TEXT = (245, 245, 245)
TEXT_DIM = (150, 160, 155)
CARD_COLOURS = ((220, 40, 40), (250, 200, 30), (40, 170, 70), (30, 110, 220))


@dataclass(frozen=True, slots=True)
class UnitLayout:
    """Where each part of the unit sits inside `area` (window coordinates)."""

    area: pygame.Rect
    body: pygame.Rect
    lights: tuple[tuple[tuple[int, int], int], ...]  # (centre, radius) per light, left to right
    digits: pygame.Rect
    cards: pygame.Rect
    timer: tuple[tuple[int, int], int]
    arrows: Mapping[Side, tuple[tuple[int, int], ...]]  # triangle points per side
    paddles: dict[Side, pygame.Rect]
    names: dict[Side, pygame.Rect]

    @classmethod
    def fit(cls, area: pygame.Rect) -> UnitLayout:
        area = pygame.Rect(area)
        w, h = area.w, area.h
        body = pygame.Rect(0, 0, int(w * 0.46), int(h * 0.62))
        body.midtop = (area.centerx, area.y + int(h * 0.08))
        radius = max(4, min(body.w // (LIGHTS * 3), int(h * 0.035)))
        gap = body.w / (LIGHTS + 1)
        light_y = body.y + radius + int(body.h * 0.07)
        lights = tuple(
            ((int(body.x + gap * (i + 1)), light_y), radius) for i in range(LIGHTS)
        )
        digits = pygame.Rect(body.x, light_y + radius + 4, body.w, int(body.h * 0.36))
        cards = pygame.Rect(body.x, digits.bottom, body.w, int(body.h * 0.13))
        timer_r = max(6, min(body.w // 7, int(body.h * 0.14)))
        timer = ((body.centerx, body.bottom - timer_r - int(body.h * 0.05)), timer_r)
        aw, ah = max(8, int(w * 0.07)), max(8, int(body.h * 0.34))
        cy = digits.centery
        arrows = {
            Side.LEFT: (
                (body.x - int(w * 0.015) - aw, cy),
                (body.x - int(w * 0.015), cy - ah // 2),
                (body.x - int(w * 0.015), cy + ah // 2),
            ),
            Side.RIGHT: (
                (body.right + int(w * 0.015) + aw, cy),
                (body.right + int(w * 0.015), cy - ah // 2),
                (body.right + int(w * 0.015), cy + ah // 2),
            ),
        }
        pw, ph = int(w * 0.36), int(h * 0.2)
        paddle_y = area.bottom - ph - int(h * 0.04)
        paddles = {
            Side.LEFT: pygame.Rect(area.x + int(w * 0.04), paddle_y, pw, ph),
            Side.RIGHT: pygame.Rect(area.right - int(w * 0.04) - pw, paddle_y, pw, ph),
        }
        names = {
            side: pygame.Rect(r.x, r.y - int(h * 0.075), r.w, int(h * 0.07))
            for side, r in paddles.items()
        }
        return cls(area, body, lights, digits, cards, timer, arrows, paddles, names)

    def hit(self, pos: tuple[int, int]) -> Side | str | None:
        """What a click or touch at `pos` presses: a paddle's Side, "timer", or nothing."""
        for side, rect in self.paddles.items():
            if rect.collidepoint(pos):
                return side
        (cx, cy), r = self.timer
        if (pos[0] - cx) ** 2 + (pos[1] - cy) ** 2 <= (r + 4) ** 2:
            return "timer"
        return None


class TextCache:
    """Rendered text by (text, size, colour): text rendering is the costliest part of a frame."""

    def __init__(self) -> None:
        self._fonts: dict[int, pygame.font.Font] = {}
        self._texts: dict[tuple[str, int, tuple[int, int, int]], pygame.Surface] = {}

    def font(self, size: int) -> pygame.font.Font:
        """The bundled bold font, as large as pygame's own at `size` (which it draws at
        11/16 of the size asked), so the unit keeps its proportions in every language."""
        size = max(8, size)
        if size not in self._fonts:
            self._fonts[size] = theme.font(max(6, size * 11 // 16), True)
        return self._fonts[size]

    def render(self, text: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        key = (text, max(8, size), colour)
        surf = self._texts.get(key)
        if surf is None:
            if len(self._texts) > 512:
                self._texts.clear()
            surf = self.font(size).render(text, True, colour)
            self._texts[key] = surf
        return surf

    def blit_centred(
        self, target: pygame.Surface, text: str, size: int, colour: tuple[int, int, int],
        centre: tuple[int, int],
    ) -> None:
        surf = self.render(text, size, colour)
        target.blit(surf, surf.get_rect(center=centre))


@dataclass(frozen=True, slots=True)
class UnitLabels:
    """Words drawn on and around the unit: the keys of each control and who sits where."""

    keys: dict[Side | str, str]
    names: dict[Side, str]


#: The digits once a duel is decided, and their colour (the words translated when drawn).
VERDICT_TEXT: dict[Verdict, tuple[str, tuple[int, int, int]]] = {
    Verdict.WIN: (N_("WIN"), LIGHT_GO),
    Verdict.EARLY: (N_("EARLY"), LIGHT_FROZEN),
    Verdict.TIE: (N_("TIE"), LIGHT_COUNTING),
    Verdict.TIME: (N_("TIME"), LIGHT_COUNTING),
    Verdict.OFF: ("--", TEXT_DIM),
}


def lit_lights(state: UnitState, now_us: int) -> int:
    """How many countdown lights are on: they go out one by one as the countdown runs.

    Once a duel is decided they are off, except after an early press, where the
    red ones still show how far the countdown had come.
    """
    if state.verdict is not None and state.verdict is not Verdict.EARLY:
        return 0
    if state.display is Display.GO:
        return LIGHTS
    if state.display in (Display.COUNTING, Display.FROZEN) and state.countdown_total_us > 0:
        left = state.remaining_at(now_us)
        return min(LIGHTS, math.ceil(left * LIGHTS / state.countdown_total_us))
    return 0


def digits_text(state: UnitState, now_us: int) -> str:
    """The unit's digits: seconds left while counting, GO, STOP after an early press,
    then the verdict."""
    if state.verdict is not None:
        word = VERDICT_TEXT[state.verdict][0]
        return _(word) if word != "--" else word
    if state.display is Display.COUNTING:
        return str(math.ceil(state.remaining_at(now_us) / 1_000_000))
    if state.display is Display.GO:
        return _("GO!")
    if state.display is Display.FROZEN:
        return _("STOP")
    if state.display is Display.LOADED:
        return _("READY")
    return "--"


def draw_unit(
    surface: pygame.Surface, layout: UnitLayout, state: UnitState, now_us: int,
    labels: UnitLabels, text: TextCache,
) -> None:
    """Paint the whole unit area as `state` looks at `now_us`."""
    surface.fill(BACKGROUND, layout.area)
    h = layout.area.h
    body = layout.body
    pygame.draw.rect(surface, BODY, body, border_radius=body.h // 8)
    pygame.draw.rect(surface, BODY_EDGE, body, width=max(2, h // 120), border_radius=body.h // 8)

    lit = lit_lights(state, now_us)
    colour = {
        Display.GO: LIGHT_GO, Display.FROZEN: LIGHT_FROZEN,
    }.get(state.display, LIGHT_COUNTING)
    for i, (centre, radius) in enumerate(layout.lights):
        # Lights go out from the right: the leftmost stays on longest.
        pygame.draw.circle(surface, colour if i < lit else LIGHT_OFF, centre, radius)

    digit_colour = {
        Display.GO: LIGHT_GO, Display.FROZEN: LIGHT_FROZEN, Display.COUNTING: LIGHT_COUNTING,
    }.get(state.display, TEXT_DIM)
    if state.verdict is not None:
        digit_colour = VERDICT_TEXT[state.verdict][1]
    if state.verdict is Verdict.WIN and state.winner is not None:
        _draw_win(surface, layout, state.winner, text)
    else:
        digits = _fitted(text, digits_text(state, now_us), int(layout.digits.h * 0.9),
                         digit_colour, layout.digits.w * 92 // 100)
        surface.blit(digits, digits.get_rect(center=layout.digits.center))

    _draw_loaded_cards(surface, layout, state, text)

    for side, points in layout.arrows.items():
        pygame.draw.polygon(surface, ARROW_ON if state.arrow is side else ARROW_OFF, points)

    (tc, tr) = layout.timer
    pygame.draw.circle(surface, TIMER_HELD if state.timer_held else TIMER, tc, tr)
    pygame.draw.circle(surface, PADDLE_EDGE, tc, tr, width=max(2, tr // 10))
    size = max(10, tr * 2 // 3)
    caption = key_caption(text, labels.keys.get("timer", ""), size, timer_label_width(tr, size),
                          PADDLE_EDGE)
    surface.blit(caption, caption.get_rect(center=tc))

    captions: list[tuple[pygame.Surface, tuple[int, int]]] = []
    for side, rect in layout.paddles.items():
        held = side in state.held
        won = state.verdict is Verdict.WIN and state.winner is side
        face = rect.move(0, max(2, rect.h // 12)) if held else rect
        if won:
            ring = max(3, h // 60)
            pygame.draw.rect(surface, WIN_GLOW, rect.inflate(ring * 2, ring * 2),
                             border_radius=rect.h // 3 + ring)
        if held:
            pygame.draw.rect(surface, PADDLE_EDGE, rect, border_radius=rect.h // 3)
        face_colour = PADDLE_WIN if won else PADDLE_HELD if held else PADDLE
        pygame.draw.rect(surface, face_colour, face, border_radius=rect.h // 3)
        pygame.draw.rect(surface, PADDLE_EDGE, face, width=max(2, h // 160),
                         border_radius=rect.h // 3)
        caption = key_caption(text, labels.keys.get(side, ""), int(rect.h * 0.45),
                              rect.w * 85 // 100, PADDLE_EDGE)
        surface.blit(caption, caption.get_rect(center=face.center))
        captions.append((caption, face.center))
        name_rect = layout.names[side]
        name = name_caption(text, labels.names.get(side) or side_name(side),
                            int(name_rect.h * 0.9), WIN_GLOW if won else TEXT, name_rect.w)
        surface.blit(name, name.get_rect(center=name_rect.center))

    _draw_launch(surface, layout, state, now_us)
    for caption, centre in captions:  # cards that landed on a paddle never hide its key
        surface.blit(caption, caption.get_rect(center=centre))


def win_pointer(layout: UnitLayout, winner: Side) -> tuple[tuple[int, int], ...]:
    """The green triangle before "WIN", at the winner's edge of the digits, pointing out."""
    box = layout.digits
    size = max(6, box.h // 4)
    margin = max(4, box.w // 20)
    tip_x = box.x + margin if winner is Side.LEFT else box.right - margin
    base_x = tip_x + size if winner is Side.LEFT else tip_x - size
    return ((tip_x, box.centery), (base_x, box.centery - size), (base_x, box.centery + size))


def _draw_win(surface: pygame.Surface, layout: UnitLayout, winner: Side, text: TextCache) -> None:
    """The pointer at the winner's edge, then "WIN" beside it: the word leans their way."""
    box = layout.digits
    pointer = win_pointer(layout, winner)
    pygame.draw.polygon(surface, WIN_GLOW, pointer)
    gap = max(3, box.h // 12)
    base_x = pointer[1][0]
    room = (box.right - gap - base_x) if winner is Side.LEFT else (base_x - gap - box.x)
    word = _fitted(text, _(VERDICT_TEXT[Verdict.WIN][0]), int(box.h * 0.9), WIN_GLOW,
                   room - max(4, box.w // 20))
    if winner is Side.LEFT:
        surface.blit(word, word.get_rect(midleft=(base_x + gap, box.centery)))
    else:
        surface.blit(word, word.get_rect(midright=(base_x - gap, box.centery)))


#: Short forms of pygame's longer key names, for a label that must fit a small button.
KEY_ABBREVIATIONS: dict[str, str] = {
    "RETURN": "RET", "SPACE": "SPC", "BACKSPACE": "BKSP", "ESCAPE": "ESC", "DELETE": "DEL",
    "INSERT": "INS", "ENTER": "ENT", "PAGE UP": "PGUP", "PAGE DOWN": "PGDN", "CAPS LOCK": "CAPS",
    "LEFT SHIFT": "LSHFT", "RIGHT SHIFT": "RSHFT", "LEFT CTRL": "LCTRL", "RIGHT CTRL": "RCTRL",
    "LEFT ALT": "LALT", "RIGHT ALT": "RALT", "LEFT META": "LMETA", "RIGHT META": "RMETA",
    "LEFT GUI": "LGUI", "RIGHT GUI": "RGUI", "NUMLOCK": "NUM", "SCROLL LOCK": "SCRL",
    "PRINT SCREEN": "PRSC",
}


def timer_label_width(radius: int, size: int) -> int:
    """How wide a label of font `size` may be inside the round timer button of `radius`:
    the disc's chord at the text's top and bottom, inside its rim, with 2 px to spare."""
    inner = radius - max(2, radius // 10) - 2
    half = size // 3  # about half the height of capitals at this size
    return int(2 * math.sqrt(max(0, inner * inner - half * half)))


def key_caption(text: TextCache, name: str, size: int, width: int,
                colour: tuple[int, int, int]) -> pygame.Surface:
    """A key's name as drawn on its button: in full when it fits at `size`, otherwise its
    short form ("RETURN" -> "RET"), made smaller still if even that is too wide."""
    surf = text.render(name, size, colour)
    if surf.get_width() <= width:
        return surf
    return _fitted(text, KEY_ABBREVIATIONS.get(name, name), size, colour, width)


def name_caption(text: TextCache, name: str, size: int, colour: tuple[int, int, int],
                 width: int) -> pygame.Surface:
    """A player's name over their paddle: smaller down to 3/4 of `size`, then cut with "…"
    ("Alexandra Konst…"), so a long name stays readable and never runs past its paddle."""
    floor = max(8, size * 3 // 4)
    while size > floor and text.font(size).size(name)[0] > width:
        size -= 1
    font = text.font(size)
    if font.size(name)[0] > width:
        cut = name.rstrip()
        while cut and font.size(cut + "…")[0] > width:
            cut = cut[:-1].rstrip()
        name = cut + "…" if cut else ""
    return text.render(name, size, colour)


def _fitted(text: TextCache, words: str, size: int, colour: tuple[int, int, int],
            width: int) -> pygame.Surface:
    """`words` rendered at `size`, or smaller so that it fits in `width`."""
    surf = text.render(words, size, colour)
    while surf.get_width() > width > 0 and size > 8:
        size = min(size - 1, size * width // surf.get_width())
        surf = text.render(words, size, colour)
    return surf


def card_size(layout: UnitLayout) -> tuple[int, int]:
    ch = max(10, layout.area.h // 9)
    return int(ch * 0.66), ch


def _draw_card(surface: pygame.Surface, rect: pygame.Rect, index: int) -> None:
    pygame.draw.rect(surface, (250, 250, 250), rect, border_radius=max(2, rect.w // 6))
    inner = rect.inflate(-max(2, rect.w // 6), -max(2, rect.w // 6))
    pygame.draw.rect(surface, CARD_COLOURS[index % 4], inner, border_radius=max(2, rect.w // 8))
    pygame.draw.ellipse(surface, (250, 250, 250), inner.inflate(-inner.w // 4, -inner.h // 3))


def _draw_loaded_cards(
    surface: pygame.Surface, layout: UnitLayout, state: UnitState, text: TextCache
) -> None:
    if state.cards <= 0 or state.verdict is Verdict.OFF:
        return
    cw, ch = card_size(layout)
    cw, ch = cw * 2 // 3, ch * 2 // 3
    box = layout.cards
    total = state.cards * (cw + 4)
    x = box.centerx - total // 2 - box.h
    for i in range(state.cards):
        _draw_card(surface, pygame.Rect(x + i * (cw + 4), box.centery - ch // 2, cw, ch), i)
    label = ngettext("{n} card", "{n} cards", state.cards).format(n=state.cards)
    # beside the cards, inside the unit's body: smaller where a language's words are longer
    surf = _fitted(text, label, int(box.h * 0.7), TEXT, box.right - (x + total + 6) - 4)
    surface.blit(surf, surf.get_rect(midleft=(x + total + 6, box.centery)))


def card_positions(
    layout: UnitLayout, parts: tuple[LaunchPart, ...], start_us: int, end_us: int, now_us: int
) -> list[tuple[int, int, int]]:
    """Centre (x, y) and colour index of every launched card at `now_us`.

    Cards leave the slot one after another along an arc and land in a fan in
    front of the paddle of the side they were fired at.
    """
    cards = [(part.side, i - (part.cards - 1) / 2) for part in parts for i in range(part.cards)]
    if not cards:
        return []
    duration = max(1, end_us - start_us)
    step = duration / (len(cards) + 1)
    sx, sy = layout.body.centerx, layout.cards.centery
    out = []
    for n, (side, offset) in enumerate(cards):
        paddle = layout.paddles[side]
        tx = paddle.centerx + int(offset * paddle.w / 4.5)
        ty = paddle.centery - paddle.h // 8
        progress = min(1.0, max(0.0, (now_us - start_us - n * step) / (2 * step)))
        if progress <= 0.0:
            continue
        x = sx + (tx - sx) * progress
        y = sy + (ty - sy) * progress - math.sin(progress * math.pi) * layout.area.h * 0.18
        out.append((int(x), int(y), n))
    return out


def _draw_launch(surface: pygame.Surface, layout: UnitLayout, state: UnitState,
                 now_us: int) -> None:
    if not state.launch:
        return
    cw, ch = card_size(layout)
    for x, y, n in card_positions(layout, state.launch, state.launch_start_us,
                                  state.launch_end_us, now_us):
        _draw_card(surface, pygame.Rect(x - cw // 2, y - ch // 2, cw, ch), n)
