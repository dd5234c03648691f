"""The rules always in force, one table per seed, each rule with its source.

A deck's sheet is its seed's table: UNO and UNO H2O play seed 001 (the classic rules), UNO
Showdown seed 002, UNO Teams seed 003, UNO Mario Kart seed 004; the championship's
regulation is seed 000. A rule the seed does not give but the table needs (the first card
in UNO Showdown, the colour after an item) carries "our inference" and why; the docs list
every one (`docs/rule-sources.md`, checked by the tests against `INFERENCES`).

Where the seeds differ, the tables differ: a Draw Two can be escaped with another Draw Two
in seed 001 only, never in 002 ("they cannot play a card") or 004, and 000 says nothing of it
(only a Wild Draw Four is escaped, with a Draw Two of the named colour); a player may draw
instead of playing in 002, 003 and 004, but only when unable to play in 001.

Every rule citing a seed is held to its words: `tests/seeds/test_quotes.py` keeps, for each
one, a fragment of the cited clause in the seed's own language and finds it in that clause
of that seed; where only the official printed sheet says a thing, it is cited
(`OFFICIAL`); where nobody does, it is "our inference" with why.

Pure: values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from companion.table.rule_sources import OFFICIAL, Source, inferred, seed
from showdown.contract.i18n import N_
from showdown.contract.record import record


@record
class SheetRule:
    """A rule always in force for a deck (or under the championship's regulation).
    `source`: whose word it is. `unless`: a house rule that replaces it when chosen.
    `basic`: one of the basic rules the championship's regulation words for itself (left
    out under it)."""

    title: str
    text: str
    source: Source
    unless: str | None = None
    basic: bool = False


# -- seed 000: the bar championship's regulation, rule 2.3 to 3 ----------------------------

SEED_000 = (
    SheetRule(
        N_("2.3 The deal"),
        N_("Everyone is dealt 7 cards face down. The top card of the deck starts the discard "
           "pile and can only be a number card. Play goes clockwise and starts with the "
           "player after the dealer; whoever went out first in a round deals the next."),
        seed("000", "2.3")),
    SheetRule(
        N_("2.4 Jump-in"),
        N_("Beyond what follows, the game is played by the standard UNO rules with "
           "jumping in."), seed("000", "2.4")),
    SheetRule(
        N_("2.4.1 Skip"),
        N_("The next player misses their turn. They can escape it only by laying exactly "
           "the same Skip (same colour, same picture), that is, by jumping in."),
        seed("000", "2.4.1")),
    SheetRule(
        N_("2.4.2 Wild Draw Four"),
        N_("Laid only in one's own turn and only without a card of the current colour, "
           "naming any colour; the next player takes four and misses the turn, or escapes "
           "with a Draw Two of the named colour. Checked for honesty: if the suspicion is "
           "right, the player who laid it takes four and misses the turn; if not, the "
           "challenger takes four and two more for mistrust and misses the turn."),
        seed("000", "2.4.2")),
    SheetRule(
        N_("2.4.2 «Ready»"),
        N_("Play goes on only when the player has sorted their four new cards and said "
           "«Ready»."), seed("000", "2.4.2")),
    SheetRule(
        N_("2.4.3 «UNO!»"),
        N_("Laying the second-to-last card, before letting go of it, the player must say "
           "«UNO!». Whoever forgets and is reminded before the next player's move takes two "
           "cards. Players may not hide how many cards they hold."),
        seed("000", "2.4.3")),
    SheetRule(
        N_("2.4.4 Jumping in"),
        N_("A player may play out of turn with exactly the card on top of the discard pile "
           "(same colour; same number, picture or Wild); play goes on from them in the "
           "current direction. Not with a Wild Draw Four, and not on the first card of the "
           "discard pile."), seed("000", "2.4.4")),
    SheetRule(
        N_("2.4.5 Two identical cards"),
        N_("A player with two identical cards lays the first in their turn and at once "
           "jumps in with the second: one after the other, never in one movement."),
        seed("000", "2.4.5")),
    SheetRule(
        N_("2.4.6 Draw Two"),
        N_("A Draw Two cannot be jumped on, and the next player may not move until the "
           "player it is aimed at has taken the second card from the deck."),
        seed("000", "2.4.6")),
    SheetRule(
        N_("2.4.7 A card laid"),
        N_("A card counts as played when the player has taken every finger off it; from "
           "that moment it cannot be swapped for another. Before that moment, with one card "
           "left in hand, the player must say «UNO!»."), seed("000", "2.4.7")),
    SheetRule(
        N_("2.4.8 Nothing else"),
        N_("No rules apply other than those listed: the classic deck, no house rules."),
        seed("000", "2.4.8")),
    SheetRule(
        N_("3 Disputes"),
        N_("Disputes are settled by the staff on the basis of these rules and common "
           "sense."), seed("000", "3")),
)

# -- seed 001: the classic UNO rules -------------------------------------------------------

DRAW_ONLY_WHEN_UNABLE = SheetRule(
    N_("Drawing a card"),
    N_("Only a player with no card to lay draws one card. If it fits, they may lay it; if "
       "not, they keep it, say «Pass», and the turn passes."),
    seed("001", N_("Dealing")), basic=True)

CLASSIC_DRAW_TWO = SheetRule(
    N_("Draw Two"),
    N_("The next player takes two cards and misses the turn, unless they escape by laying "
       "a Draw Two of any colour. Draw Twos do not add up: the last player of the chain "
       "takes just two cards."), seed("001", N_("Draw Two")), unless="stacking", basic=True)

CLASSIC_REVERSE = SheetRule(
    N_("Reverse"),
    N_("Play changes direction. Reverses laid one on another add up: two change nothing, "
       "three change the direction."), seed("001", N_("Reverse")), basic=True)

CLASSIC_WILD_DRAW_FOUR = SheetRule(
    N_("Wild Draw Four"),
    N_("Laid only in one's own turn and only without a card of the current colour, naming "
       "any colour. The next player takes four cards and misses the turn, unless they "
       "escape with a Draw Two of the named colour."),
    seed("001", N_("Wild Draw Four")), basic=True)

CLASSIC_CHALLENGE = SheetRule(
    N_("The challenge"),
    N_("The next player may ask to see the hand of whoever laid a Wild Draw Four. If the "
       "suspicion is right, that player takes the Wild Draw Four back, takes four cards and "
       "misses the turn; if not, the challenger takes the four and two more for mistrust, "
       "and misses the turn."), seed("001", N_("Check for honesty")), basic=True)

CLASSIC_READY = SheetRule(
    N_("«Ready»"),
    N_("Play goes on only when the player has sorted their four new cards and said "
       "«Ready»."), seed("001", N_("Politeness rule")), basic=True)

CLASSIC_UNO_CALL = SheetRule(
    N_("«UNO!»"),
    N_("A player laying their second-to-last card must call «UNO!» before letting go of "
       "it. If another player calls it first, before the next player starts their turn "
       "(lays or draws a card), the player who forgot takes two cards. Nobody may hide how "
       "many cards they hold."), seed("001", N_("The «UNO!» rule")), basic=True)

CLASSIC_FIRST_CARD = SheetRule(
    N_("The first card"),
    N_("The first card of the discard pile can only be a number card; any other is put "
       "back into the deck and the next one turned. The player after the dealer starts, "
       "clockwise."), seed("001", N_("Dealing")), unless="first_card_action", basic=True)

SEED_001 = (DRAW_ONLY_WHEN_UNABLE, CLASSIC_DRAW_TWO, CLASSIC_REVERSE, CLASSIC_WILD_DRAW_FOUR,
            CLASSIC_CHALLENGE, CLASSIC_READY, CLASSIC_UNO_CALL, CLASSIC_FIRST_CARD)

# -- seed 002: UNO Showdown ----------------------------------------------------------------

#: Seeds 002, 003 and 004 let a player draw though they could play.
DRAW_INSTEAD = N_("Drawing instead of playing")

SEED_002 = (
    SheetRule(
        N_("Showdown cards"),
        N_("Whenever a card with the showdown symbol is played, a showdown starts between "
           "its player and the next player in turn. Put the unit between them, load as "
           "many cards as the symbol shows and press the timer button."),
        seed("002", N_("Showdowns"))),
    SheetRule(
        N_("Wild Showdown"),
        N_("Its player chooses the colour to follow, the opponent who goes into the "
           "showdown with them, and how many penalty cards go into the unit."),
        seed("002", N_("Wild cards"))),
    SheetRule(
        N_("The duel"),
        N_("Both players rest a hand on their paddle; when the countdown ends, both press "
           "as fast as they can and the faster sends the cards at the other. Whoever "
           "presses before the countdown ends loses at once (the red arrow points at them) "
           "and takes the cards. If it is hard to tell who lost, the unit's side lines "
           "decide: whoever has more cards on their side loses."),
        seed("002", N_("Showdowns"))),
    SheetRule(
        N_("A showdown card last"),
        N_("If a player's last card is a showdown card, the showdown must be played: they "
           "win the round only if they win it; if they lose, they take the cards and play "
           "goes on."), OFFICIAL),
    SheetRule(
        N_("Cards in a duel"),
        N_("A showdown puts 1, 2 or 3 cards in the unit: as many as the symbol shows, or as "
           "the Wild Showdown's player chose."), OFFICIAL),
    SheetRule(
        DRAW_INSTEAD,
        N_("A player who cannot play draws one card and may play it if it fits; if not, "
           "the turn passes. A player need not play even with a card that fits: they may "
           "draw instead."), seed("002", N_("Gameplay")), basic=True),
    SheetRule(
        N_("Draw Two"),
        N_("The next player draws two cards and misses the turn: they cannot play a card, "
           "not even another Draw Two."),
        seed("002", N_("Action cards")), unless="stacking", basic=True),
    SheetRule(
        N_("Wild Draw Four"),
        N_("Its player chooses the colour to follow; the next player draws four cards and "
           "misses the turn."), seed("002", N_("Contents")), basic=True),
    SheetRule(
        N_("The challenge"),
        N_("The next player may challenge a Wild Draw Four: if its player had a card of the "
           "current colour, they draw four instead; if not, the challenger draws six."),
        inferred(N_("seed 002 does not mention a challenge; the official sheet and the "
                    "classic rules (001) allow one, with the same count")), basic=True),
    SheetRule(
        N_("«UNO!»"),
        N_("A player laying their second-to-last card must say «UNO!»; if they do not and an "
           "opponent says it first, they draw two cards."),
        seed("002", N_("End of the round")), basic=True),
    SheetRule(
        N_("The first card"),
        N_("The first card of the discard pile can only be a number card; any other is put "
           "back into the deck and the next one turned. The player after the dealer starts, "
           "clockwise."),
        inferred(N_("seed 002 only says to turn the top card over; the table plays the first "
                    "card as the classic rules (001) do")),
        unless="first_card_action", basic=True),
)

# -- seed 003: UNO Teams -------------------------------------------------------------------

SEED_003 = (
    SheetRule(
        N_("Partners"),
        N_("Teams of two sit opposite each other and win or lose together. You may talk "
           "with your partner at any time, but never tell or hint what cards you hold or "
           "which colour to choose."), seed("003", N_("How to play"))),
    SheetRule(
        N_("The pass at the start"),
        N_("After the deal, each player chooses one card from their hand and passes it face "
           "down to their partner."), seed("003", N_("Setup"))),
    SheetRule(
        N_("The pass symbol"),
        N_("Whenever you or your partner play a card with the pass symbol, you and your "
           "partner pass each other one card."), seed("003", N_("How to play"))),
    SheetRule(
        DRAW_INSTEAD,
        N_("If you have no card to play, or choose not to play one, draw the top card. If "
           "it fits you may play it at once, unless you chose not to play before; then "
           "your turn ends."), seed("003", N_("Drawing a card"))),
    SheetRule(
        N_("Going out"),
        N_("When a player plays their last card, the partner gives them half of their "
           "cards, keeping the odd one; a partner with one card left gives none. The round "
           "ends when both players of a team have played all their cards."),
        seed("003", N_("Playing your last card"))),
    SheetRule(
        N_("Half again"),
        N_("While a player is out, whenever their partner has to take cards for any reason, "
           "the partner passes half of their cards to the player who is out, as before."),
        seed("003", N_("Playing your last card"))),
    SheetRule(
        N_("«UNO» for a partner"),
        N_("Your partner may call «UNO» for you. If neither does and a player of another "
           "team calls it first, before the next player's turn, you take two cards."),
        seed("003", N_("Calling UNO"))),
    SheetRule(
        N_("The first card"),
        N_("If the first card turned up is an action card, its effect is ignored and "
           "another card is turned."), seed("003", N_("Setup")), basic=True),
    SheetRule(
        N_("The last card that makes a player draw"),
        N_("The rules do not say what happens when the last card played makes a player "
           "take cards; as in most versions of UNO, that player draws them before the "
           "winners collect, and they count (`game round --last-draw`)."),
        seed("003", N_("Scoring: the author's assumption")), unless="last_draw_off"),
)

# -- seed 004: UNO Mario Kart --------------------------------------------------------------

SEED_004 = (
    SheetRule(
        N_("Wild Item Box"),
        N_("The top card of the draw pile is turned over at once onto the discard pile, "
           "and the item on it acts. If that card is an action card, its action does not "
           "happen: only the item acts."), seed("004", N_("Items"))),
    SheetRule(N_("Mushroom (red)"),
              N_("Whoever played the Wild Item Box takes another turn at once; if they have "
                 "no card to play, they draw as usual."), seed("004", N_("Items"))),
    SheetRule(N_("Banana peel (yellow)"),
              N_("The person who played directly before the Wild Item Box's player draws "
                 "two cards: after a card that makes the next player miss their turn (a "
                 "Skip, a Draw Two, a Wild Draw Four), whoever laid it, not the player who "
                 "missed the turn."), seed("004", N_("Items"))),
    SheetRule(N_("Green shell (green)"),
              N_("Whoever played the Wild Item Box chooses one opponent, who draws one "
                 "card."), seed("004", N_("Items"))),
    SheetRule(N_("Lightning (blue)"),
              N_("Everybody else at the table draws one card, and whoever played the Wild "
                 "Item Box takes another turn."), seed("004", N_("Items"))),
    SheetRule(N_("Bob-omb (wild)"),
              N_("Whoever played the Wild Item Box draws two cards and chooses the colour "
                 "to be played next."), seed("004", N_("Items"))),
    SheetRule(N_("The colour after an item"),
              N_("After a mushroom, a banana peel, a green shell or a lightning, the colour "
                 "to follow is the turned card's."),
              inferred(N_("seed 004 names the colour only for the Bob-omb; the turned card "
                          "lies on top of the discard pile, so its colour is followed"))),
    SheetRule(
        DRAW_INSTEAD,
        N_("A player who cannot play, or chooses not to, draws one card; if it can be "
           "played they may play it, otherwise their turn ends."),
        seed("004", N_("A player's turn")), basic=True),
    SheetRule(
        N_("Draw Two"),
        N_("The next player draws two cards and passes the turn: they get no chance to play "
           "a card."), seed("004", N_("Action cards")), unless="stacking", basic=True),
    SheetRule(
        N_("Wild Draw Four"),
        N_("Its player chooses the colour to follow; the next player draws four cards, "
           "unless they challenge it, and passes the turn without playing a card."),
        seed("004", N_("Action cards")), unless="stacking", basic=True),
    SheetRule(
        N_("Challenging a Wild Draw Four"),
        N_("The next player may challenge it: the player shows their hand to the "
           "challenger. With a card of the colour on top of the discard pile they draw four "
           "instead (and still choose the colour); without one, the challenger draws six "
           "for losing the challenge."), seed("004", N_("Challenging a Wild Draw Four")),
        basic=True),
    SheetRule(
        N_("The first dealer and the first card"),
        N_("Everyone draws a card; the highest rank deals first, action cards and wilds "
           "counting 0. A Wild Draw Four cannot start the game; after a Wild Item Box the "
           "dealer chooses the colour; after a Reverse the dealer plays first; after a "
           "Draw Two the player left of the dealer draws two and passes; after a Skip that "
           "player is skipped."), seed("004", N_("Setup; The play")), basic=True),
    SheetRule(
        N_("The last card"),
        N_("The round ends as soon as a player plays their last card; if it was a Draw Two "
           "or a Wild Draw Four, the next player still draws those cards, and they count in "
           "the round."), seed("004", N_("End of the round"))),
    SheetRule(
        N_("«UNO!»"),
        N_("A player laying their second-to-last card must say «UNO!»; if they do not and an "
           "opponent says it first, they draw two cards."),
        seed("004", N_("Saying UNO")), basic=True),
)

#: Each deck's seed table (UNO H2O is the classic deck with two more cards: seed 001).
DECK_RULES: Mapping[str, tuple[SheetRule, ...]] = MappingProxyType({
    "classic": SEED_001,
    "showdown": SEED_002,
    "mario-kart": SEED_004,
    "teams": SEED_003,
    "h2o": SEED_001,
})

#: Every seed's table, by seed number.
SEED_TABLES: Mapping[str, tuple[SheetRule, ...]] = MappingProxyType({
    "000": SEED_000, "001": SEED_001, "002": SEED_002, "003": SEED_003, "004": SEED_004})


#: Where each scoring method and option comes from (the first line of every sheet).
SCORING_SOURCES: Mapping[str, Source] = MappingProxyType({
    "winner": seed("001", N_("Winner or loser")),
    "own": seed("001", N_("Winner or loser")),
    "lazy": seed("001", N_("Lazy count")),
    "last": seed("001", N_("To the last")),
    "seven": seed("001", N_("UNO in 7 rounds")),
    "championship": seed("000", "2.1-2.2"),
    "teams": seed("003", N_("Scoring")),
    "lone_zero_50": seed("001", N_("Drop zero")),
    "h2o": seed("001", N_("UNO H2O")),
})


#: A deck whose own seed has a scoring clause for the winner-collects method: that clause is
#: the source of a game of that deck scored so (seed 002 and 004, "Scoring"), not seed 001's.
DECK_SCORING: Mapping[tuple[str, str], Source] = MappingProxyType({
    ("showdown", "winner"): seed("002", N_("Scoring")),
    ("mario-kart", "winner"): seed("004", N_("Scoring")),
})


def scoring_sources(method: str, options: Iterable[str],
                    edition: str = "classic") -> tuple[Source, ...]:
    """The sources of a game's scoring: its method's (the deck's own seed's where it words
    that method), then its options', each once."""
    found: list[Source] = []
    for key in (method, *options):
        source = DECK_SCORING.get((edition, key)) if key == method else None
        source = source or SCORING_SOURCES.get(key)
        if source is not None and source not in found:
            found.append(source)
    return tuple(found)


def inferences(extra: Iterable[Source] = ()) -> tuple[Source, ...]:
    """Every inference of the sheets (and `extra` ones from elsewhere), each once."""
    found: list[Source] = []
    for table in SEED_TABLES.values():
        for rule in table:
            if rule.source.is_inference and rule.source not in found:
                found.append(rule.source)
    for source in extra:
        if source not in found:
            found.append(source)
    return tuple(found)


__all__ = ["DECK_RULES", "OFFICIAL", "SEED_TABLES", "SheetRule", "inferences"]
