"""The rule sheet of a game: the optional house rules a table chose, and the rules of its deck.

Every optional rule the rules name is here, worded as they word it (the catalogs carry the
same wording in Russian, Ukrainian and Armenian, following the source text where it is in
that language):

* the classic UNO rules' "special rules, additions to the basic rules, not obligatory"
  (jump-in, two identical cards, seven-zero, stacking, silent twos and its black-card
  variant, swapping on a 5, UNO to the centre, the colour by the circle, blank cards as
  +10, the Reverse that sends an action back, two cards for a mistake). Their scoring
  rules (a lone 0, H2O, the lazy count, playing to the last player, seven-round UNO) are
  the scoring method's and its options (`companion.scoring`), shown on the same sheet;
* UNO Teams: leaving out the text's own assumption that a last card which makes a player
  draw is drawn before the winners collect (the assumption is the deck's rule by default,
  as the text's author adopts it: «Поэтому я предполагаю, что это правило действует и в
  командной игре»);
* the first card's action applying in the classic decks as it does in UNO Mario Kart (the
  rules digest lists it as a table's choice).

The bar championship's regulation fixes its rules (2.4.1-2.4.7) and allows no other
(2.4.8): under the championship method no house rule can be chosen, and the sheet shows the
regulation's instead.

A deck's own rules (UNO Showdown's duels, UNO Mario Kart's items and challenge, UNO Teams'
passing) are always in force and shown on the sheet too, so a dispute is settled by
looking.

Pure: keys in, checked keys or a one-sentence `RulesError` out, and the sheet as values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from companion.deck.editions import BLANK_VALUE
from companion.scoring import RulesError, registry
from companion.scoring.base import check_regulation
from companion.table.rule_sources import Source, inferred, seed
from companion.table.seed_rules import DECK_RULES, SEED_000, SheetRule
from showdown.contract.i18n import N_, _
from showdown.contract.record import record

CLASSIC_DECKS = frozenset({"classic", "showdown", "h2o"})


@record
class HouseRule:
    """An optional rule: its key (stored, typed after `--house-rule`), a short title, the
    rules' wording, where it comes from (`Source`), the decks it fits (None: every deck),
    and the rules it needs or cannot go with."""

    key: str
    title: str
    text: str
    source: Source
    editions: frozenset[str] | None = None
    requires: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()

    def fits(self, edition: str) -> bool:
        return self.editions is None or edition in self.editions


CLASSIC = seed("001", N_("Special rules"))
MISTAKES = seed("001", N_("The «UNO!» rule"))
TEAMS_CHOICE = inferred(N_("seed 003 says its rules are silent and its author assumes the "
                          "draw counts; a table that does not share the assumption chooses "
                          "this"))

#: Keys a table could once choose that are now a deck's own rule: still read from an older
#: games file or export, and dropped (UNO Teams' last draw is on unless `last_draw_off`).
RETIRED = frozenset({"last_draw_counts"})
DIGEST = inferred(N_("the seeds do not offer it; a table that wants the first card's action "
                     "in the classic decks plays it as seed 004 words it"))

HOUSE_RULES: Mapping[str, HouseRule] = MappingProxyType({r.key: r for r in (
    HouseRule(
        "jump_in", N_("Jump-in"),
        N_("A player may play out of turn if they have exactly the card on top of the "
           "discard pile: the same colour and the same number, the same picture, or a Wild. "
           "Play then goes on in the current direction from the player who jumped in. Not "
           "with a Wild Draw Four, which is laid only in one's own turn, and not on the "
           "first card of a deal: then only the player after the dealer may play."),
        CLASSIC),
    HouseRule(
        "double_play", N_("Two identical cards"),
        N_("A player with two identical cards may lay the first in their turn and at once "
           "jump in with the second. Never both in one movement, only one after the other, "
           "so the next player has the chance to lay a card in their turn first."),
        CLASSIC, requires=("jump_in",)),
    HouseRule(
        "seven_zero", N_("Seven-zero"),
        N_("Whenever a 0 is laid, all players pass their cards to their neighbours in the "
           "direction of play. Whenever a 7 is laid, its player swaps cards with one player "
           "of their choice."),
        CLASSIC),
    HouseRule(
        "stacking", N_("Stacking"),
        N_("When a player lays a Draw Two, the next player may lay a Draw Two too, and then "
           "the third player must take four cards. The same with Wild Draw Fours: the third "
           "player takes eight, and the last to lay one names the colour; one laid against "
           "the rules and caught is punished as usual, the penalty growing with the cards "
           "laid. Players may go on laying them while they have them (four Draw Twos in a "
           "row: the next player takes eight), but each only one per turn."),
        CLASSIC),
    HouseRule(
        "silent_twos", N_("Silent twos"),
        N_("Whenever a 2 is laid, everybody must keep silent until the turn comes back to "
           "the player who laid it. Whoever breaks the silence takes two cards, and with "
           "that the silence is over."),
        CLASSIC, excludes=("silent_wilds",)),
    HouseRule(
        "silent_wilds", N_("Silent black cards"),
        N_("The black cards take the role of the twos: whenever a player lays a Wild or a "
           "Wild Draw Four and names the colour, everybody keeps silent until someone "
           "changes that colour, or breaks the silence and takes two penalty cards. "
           "Coughing, laughing, calling «UNO!» and challenging a +4 do not break it."),
        CLASSIC, excludes=("silent_twos",)),
    HouseRule(
        "swap_on_five", N_("Swap on a 5"),
        N_("A player who lays a 5 may, if they wish, swap one card with any player; each of "
           "the two chooses which card to give."),
        CLASSIC),
    HouseRule(
        "uno_to_centre", N_("UNO to the centre"),
        N_("Whoever lays their second-to-last card and calls «UNO!» keeps their hand on the "
           "card laid. The other players must put their hands on top of it in time; the "
           "last to do so takes 2 cards."),
        CLASSIC),
    HouseRule(
        "colour_rotation", N_("Colour by the circle"),
        N_("When a black card is laid (a Wild or a Wild Draw Four), the colour changes by "
           "itself to the next colour round the circle drawn on the card. For example, "
           "play goes clockwise and the colour is red: after the black card it is blue. "
           "Play goes counter-clockwise and the colour is yellow: after it, green."),
        CLASSIC),
    HouseRule(
        "blank_plus_ten", N_("Blank cards: +10"),
        N_("The spare blank cards (the deck has 4) can be given the value «+10 cards»: the "
           "next player must take 10 cards. Whoever takes 10 very likely finds a +2, a +4 "
           "or another +10 among them and makes someone else take many, and so round the "
           "table; finishing a game like this is nearly impossible."),
        CLASSIC, editions=frozenset({"classic"})),
    HouseRule(
        "reverse_bounce", N_("Reverse sends it back"),
        N_("A Reverse of the right colour turns back the action of the action cards, even "
           "of a Wild Draw Four. For example, player 1 lays a Draw Two, player 2 turns its "
           "action back onto player 1 with a Reverse, and player 1 must take the 2 cards "
           "(or escape them somehow)."),
        CLASSIC),
    HouseRule(
        "mistake_penalty", N_("Two cards for a mistake"),
        N_("Where there are many mistakes, blunders, cheating and inattention: for any "
           "card laid by mistake, a false call and the like, the player takes two cards from "
           "the deck."),
        MISTAKES),
    HouseRule(
        "last_draw_off", N_("A last card makes nobody draw"),
        N_("The author's assumption is left out: when the last card played would make a "
           "player take cards, nobody draws them and the winners collect the hands as they "
           "are."),
        TEAMS_CHOICE, editions=frozenset({"teams"})),
    HouseRule(
        "first_card_action", N_("The first card's action applies"),
        N_("The first card turned up may be an action card, and its action applies: a "
           "Reverse lets the dealer play first and play goes to the right; a Draw Two makes "
           "the first player draw two and miss the turn; a Skip skips them; after a wild "
           "the dealer names the colour; a Wild Draw Four is shuffled back."),
        DIGEST, editions=CLASSIC_DECKS),
)})

# -- a house rule's setting: what a blank card left in a hand is worth ---------------------

#: The `blank_plus_ten` house rule's setting, typed `--house-rule blank_worth=N` and stored as
#: that key: what a blank card left in a hand is worth. The seed words what a blank does in
#: play (the next player takes 10), not its worth in a hand, so the worth is ours to choose.
BLANK_WORTH = "blank_worth"
#: The highest worth a table may give a blank (more than any card of a deck, by far).
BLANK_WORTH_MAX = 500
BLANK_WORTH_SOURCE = inferred(N_("seed 001 gives a blank card no value in a hand; 50 by "
                                 "default, as it values the black action cards, which a +10 "
                                 "card is"))
BLANK_WORTH_TITLE = N_("A blank card left in a hand")
BLANK_WORTH_TEXT = N_("It is worth {points} points when the hands are counted (our choice, "
                      "{default} unless the table sets --house-rule blank_worth=N).")


def blank_worth(keys: Iterable[str]) -> int:
    """What a blank card left in a hand is worth under the house rules `keys`."""
    for key in keys:
        name, sep, value = key.partition("=")
        if sep and name == BLANK_WORTH:
            return int(value)
    return BLANK_VALUE


def _setting(name: str) -> str | None:
    """`blank_worth=N` as typed (any case, spaces), checked: the stored key, or None when
    `name` is no setting."""
    key, sep, value = name.strip().lower().replace("-", "_").partition("=")
    if not sep or key.strip() != BLANK_WORTH:
        return None
    text = value.strip()
    if not text.isdecimal() or int(text) > BLANK_WORTH_MAX:
        raise RulesError(
            _("blank_worth takes the points a blank card left in a hand is worth, 0 to {most}, "
              "not {value!r}").format(most=BLANK_WORTH_MAX, value=value.strip()))
    return f"{BLANK_WORTH}={int(text)}"


# -- the rules always in force: one table per seed (`seed_rules`) ------------------------

#: The championship's regulation, rules 2.3 to 3: the rules it plays by, fixed (2.4.8).
REGULATION = SEED_000

#: Said under the regulation when the deck is not the classic one: rule 2.4.8 alone plays
#: the classic deck, so another deck (and its own rules) is the director's explicit choice.
DIRECTORS_DECK = N_("Rule 2.4.8 plays the classic deck: the {deck} deck and its own rules "
                    "above are the director's choice.")


# -- choosing ------------------------------------------------------------------------------


def regulated(method: str) -> bool:
    """Whether the method's regulation fixes the rules (no house rule can be chosen)."""
    found = registry.METHODS.get(method)
    return found is not None and found.regulated


def offered(edition: str, method: str) -> tuple[HouseRule, ...]:
    """The house rules a table playing `edition` scored by `method` can choose, in order."""
    if regulated(method):
        return ()
    return tuple(r for r in HOUSE_RULES.values() if r.fits(edition))


def parse_house_rule(name: str) -> str:
    """A house rule's key as typed: any case, dashes or spaces for underscores."""
    key = "_".join(name.strip().lower().replace("-", " ").split())
    if key not in HOUSE_RULES:
        raise RulesError(
            _("unknown house rule {name!r}: see `uno-showdown game house-rules` for the "
              "keys").format(name=name.strip())
        )
    return key


#: Decks played only by one scoring method: UNO Teams is played by teams of two (seed 003).
DECK_METHODS: Mapping[str, str] = MappingProxyType({"teams": "teams"})


def check_deck(edition: str, method: str) -> None:
    """Refuse a deck whose rules need another scoring method (UNO Teams: the teams one)."""
    needed = DECK_METHODS.get(edition)
    if needed is not None and method != needed:
        raise RulesError(
            _("the {edition} deck is played by teams of two: score it with --method {needed}, "
              "or choose another deck").format(edition=edition, needed=needed)
        )


def check(edition: str, method: str, keys: Iterable[str]) -> frozenset[str]:
    """The house rules chosen, checked against the deck, the method and each other."""
    chosen: list[str] = []
    settings: list[str] = []
    for name in keys:
        if name.strip().lower().replace("-", "_") in RETIRED:
            continue
        setting = _setting(name)
        if setting is not None:
            settings = [s for s in settings if not s.startswith(BLANK_WORTH + "=")]
            settings.append(setting)
            continue
        key = parse_house_rule(name)
        if key not in chosen:
            chosen.append(key)
    if settings and "blank_plus_ten" not in chosen:
        raise RulesError(_("blank_worth is a setting of the blank_plus_ten house rule: choose "
                           "blank_plus_ten too"))
    if not chosen:
        return frozenset()
    found = registry.METHODS.get(method)
    if found is not None:
        check_regulation(found, chosen)
    for key in chosen:
        rule = HOUSE_RULES[key]
        if not rule.fits(edition):
            raise RulesError(
                _("the {rule} house rule is not for the {edition} deck: it is played with "
                  "{editions}").format(rule=key, edition=edition,
                                       editions=", ".join(sorted(rule.editions or ())))
            )
        for needed in rule.requires:
            if needed not in chosen:
                raise RulesError(
                    _("the {rule} house rule needs {needed}: choose {needed} too").format(
                        rule=key, needed=needed)
                )
        for other in rule.excludes:
            if other in chosen:
                raise RulesError(
                    _("{rule} and {other} cannot both be in force: choose one of them").format(
                        rule=key, other=other)
                )
    return frozenset(chosen) | frozenset(settings)


def ordered(keys: Iterable[str]) -> tuple[str, ...]:
    """House rule keys in the order they are listed (a setting such as blank_worth=N left
    out: `stored` keeps it)."""
    wanted = set(keys)
    return tuple(k for k in HOUSE_RULES if k in wanted)


def stored(keys: Iterable[str]) -> tuple[str, ...]:
    """The house rules as stored and exported: the rules in order, then their settings."""
    wanted = set(keys)
    return ordered(wanted) + tuple(sorted(k for k in wanted if k.startswith(BLANK_WORTH + "=")))


def toggle(edition: str, method: str, chosen: Iterable[str], key: str) -> frozenset[str]:
    """`chosen` with `key` turned on or off the way a tap does it: turning a rule on brings
    the rules it needs and drops the ones it cannot go with; turning one off drops the
    rules that need it."""
    keys = set(chosen)
    rule = HOUSE_RULES[key]
    if key in keys:
        keys.discard(key)
        keys -= {k for k in keys if k in HOUSE_RULES and key in HOUSE_RULES[k].requires}
        if key == "blank_plus_ten":
            keys -= {k for k in keys if k.startswith(BLANK_WORTH + "=")}
    elif rule in offered(edition, method):
        keys.add(key)
        keys |= set(rule.requires)
        keys -= set(rule.excludes)
    return frozenset(keys)


# -- the sheet -----------------------------------------------------------------------------


@record
class Sheet:
    """The rules in force at a table, for the Rules view and `game rules`.

    `deck`: the deck's own rules (those a chosen house rule replaces left out).
    `regulation`: the championship's rules, when it is the method. `chosen`: the house
    rules in force; `not_chosen`: the ones the table could have chosen but did not.
    """

    deck: tuple[SheetRule, ...]
    regulation: tuple[SheetRule, ...]
    chosen: tuple[HouseRule, ...]
    not_chosen: tuple[HouseRule, ...]
    #: Under blank_plus_ten: what a blank left in a hand is worth here (else None).
    blank_worth: int | None = None

    def settings(self) -> tuple[tuple[str, str, Source], ...]:
        """The chosen rules' settings as sheet lines: (title, text, source), translated."""
        if self.blank_worth is None:
            return ()
        return ((_(BLANK_WORTH_TITLE), _(BLANK_WORTH_TEXT).format(
            points=self.blank_worth, default=BLANK_VALUE), BLANK_WORTH_SOURCE),)


def sheet(edition: str, method: str, chosen: Iterable[str]) -> Sheet:
    keys = set(chosen)
    deck = tuple(r for r in DECK_RULES.get(edition, ())
                 if r.unless not in keys and not (r.basic and regulated(method)))
    offer = offered(edition, method)
    return Sheet(
        deck=deck,
        regulation=REGULATION if regulated(method) else (),
        chosen=tuple(r for r in HOUSE_RULES.values() if r.key in keys),
        not_chosen=tuple(r for r in offer if r.key not in keys),
        blank_worth=blank_worth(keys) if "blank_plus_ten" in keys else None,
    )
