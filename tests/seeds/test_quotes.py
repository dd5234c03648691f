"""Every rule that cites a seed is held to the seed's own words.

For each rule of every sheet (the seeds' tables, the house rules, the scoring methods and
options, the deck's own scoring clause) that names a seed's clause, this file keeps a
fragment of that clause in the seed's own language, copied from the seed texts in
`../shared/seeds/`, and finds it inside the cited clause of the cited seed: the stretch of
text from the clause's heading (or its number, in seed 000) to the next one. A rule that
cites the wrong seed or the wrong clause, or words a seed does not say, fails here; a rule
only the official sheet states cites `OFFICIAL`, a rule nobody states is "our inference"
with why, and neither may keep a quote. Citations written into the helpers' sentences
("(seed 004, Items)") must name a clause this file knows.

`test_a_planted_wrong_citation_fails` plants one and checks the check sees it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table.house_rules import HOUSE_RULES
from companion.table.rule_sources import Source, seed
from companion.table.seed_rules import DECK_SCORING, SCORING_SOURCES, SEED_TABLES

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"

#: Each clause a source may cite, by seed: where its text starts and where the next one
#: starts (None: the end of the text). Both are found at the start of a line, the end after
#: the start.
CLAUSES: dict[str, dict[str, tuple[str, str | None]]] = {
    "000": {
        "the regulation": ("Регламент чемпионата\nЧемпионат", "[Правила чемпионата]"),
        "1": ("1. Игра ведётся командами", "2. Правила игры"),
        "2.1-2.2": ("2.1 Игра ведётся", "2.3 Каждому"),
        "2.3": ("2.3 Каждому", "2.4 Далее"),
        "2.4": ("2.4 Далее", "2.4.1 "),
        "2.4.1": ("2.4.1 ", "2.4.2 "),
        "2.4.2": ("2.4.2 ", "2.4.3 "),
        "2.4.3": ("2.4.3 ", "2.4.4 "),
        "2.4.4": ("2.4.4 ", "2.4.5 "),
        "2.4.5": ("2.4.5 ", "2.4.6 "),
        "2.4.6": ("2.4.6 ", "2.4.7 "),
        "2.4.7": ("2.4.7 ", "2.4.8 "),
        "2.4.8": ("2.4.8 ", "3. "),
        "3": ("3. Все спорные", "❄"),
    },
    "001": {
        "Winner or loser": ("Визначення переможця або програв", "Різновиди карт"),
        "Card values": ("«Вартість» карт", "роздача карт"),
        "Dealing": ("роздача карт", "опис карт"),
        "Skip": ("«Пропуск ходу»", "«+2 карти»"),
        "Draw Two": ("«+2 карти»", "«Зміна напрямку»"),
        "Reverse": ("«Зміна напрямку»", "Чорні активні карти"),
        "Wild Draw Four": ("«Зміна кольору і +4 карти»", "Перевірка на чесність"),
        "Check for honesty": ("Перевірка на чесність", "Правило ввічливості"),
        "Politeness rule": ("Правило ввічливості", "Правило «UNO!»"),
        "The «UNO!» rule": ("Правило «UNO!»", "Спеціальні правила"),
        "Special rules": ("Спеціальні правила", None),
        "Lazy count": ("«Лінивий» підрахунок очок", "UNO в центр"),
        "To the last": ("До останнього", "UNO в 7 раундів"),
        "UNO in 7 rounds": ("UNO в 7 раундів", "Скинь нуль"),
        "Drop zero": ("Скинь нуль", "Для гри UNO H2O"),
        "UNO H2O": ("Для гри UNO H2O", None),
    },
    "002": {
        "Contents": ("ԲՈՎԱՆԴԱԿՈՒԹՅՈՒՆ\n", "SETUP"),
        "Setup": ("SETUP", "ԽԱՂԸ\n"),
        "Gameplay": ("ԽԱՂԸ\n", "ԳՈՐԾՈՂՈՒԹՅԱՆ ՔԱՐՏԵՐ"),
        "Action cards": ("ԳՈՐԾՈՂՈՒԹՅԱՆ ՔԱՐՏԵՐ", "WILD CARDS"),
        "Wild cards": ("WILD CARDS", "SHOWDOWNS"),
        "Showdowns": ("SHOWDOWNS", "ՌՈՒԼԻ ԱՎԱՐՏԸ"),
        "End of the round": ("ՌՈՒԼԻ ԱՎԱՐՏԸ", "ԳԱԿԱՀԱՐՈՒՄ"),
        "Scoring": ("ԳԱԿԱՀԱՐՈՒՄ", "ՀԱՂԹՈՒՄ"),
        "Winning": ("ՀԱՂԹՈՒՄ", None),
    },
    "003": {
        "Setup": ("Подготовка", "Как играть в UNO в команде!"),
        "How to play": ("Как играть в UNO в команде!", "Берёте карту"),
        "Drawing a card": ("Берёте карту", "Кричать «УНО»"),
        "Calling UNO": ("Кричать «УНО»", "Вы разыгрываете последнюю карту"),
        "Playing your last card": ("Вы разыгрываете последнюю карту", "Победа в игре"),
        "Winning": ("Победа в игре", "Подсчёт очков"),
        "Scoring": ("Подсчёт очков", None),
        "Scoring: the author's assumption": ("Подсчёт очков", None),
    },
    "004": {
        "Introduction": ("ВВЕДЕНИЕ МАРИО КАРТ", "МАТЕРИАЛЫ"),
        "Materials": ("МАТЕРИАЛЫ", "НАСТРОЙКА"),
        "Setup": ("НАСТРОЙКА", "СПЕКТАКЛЬ"),
        "The play": ("СПЕКТАКЛЬ", "ХОД ИГРОКА"),
        "Setup; The play": ("НАСТРОЙКА", "ХОД ИГРОКА"),
        "A player's turn": ("ХОД ИГРОКА", "КАРТОЧКИ ДЕЙСТВИЙ"),
        "Action cards": ("КАРТОЧКИ ДЕЙСТВИЙ", "АКТИВИРОВАННЫЕ СПОСОБНОСТИ ПРЕДМЕТОВ"),
        "Items": ("АКТИВИРОВАННЫЕ СПОСОБНОСТИ ПРЕДМЕТОВ", "БРОСАЯ ВЫЗОВ"),
        "Challenging a Wild Draw Four": ("БРОСАЯ ВЫЗОВ", "СКАЗАТЬ НЕЛЬЗЯ"),
        "Saying UNO": ("СКАЗАТЬ НЕЛЬЗЯ", "ЗАВЕРШЕНИЕ РАУНДА"),
        "End of the round": ("ЗАВЕРШЕНИЕ РАУНДА", "СБОР"),
        "Scoring": ("СБОР", "WINNING"),
        "Winning": ("WINNING", "Mario Reeves"),
    },
}

#: For each rule citing a seed, the seed's own words it rests on (one fragment, or several
#: when it rests on several sentences of the clause). Keyed by where the rule is: a seed's
#: table and the rule's title, a house rule's key, a scoring method's or option's key, or a
#: deck's own scoring clause.
QUOTES: dict[str, tuple[str, ...]] = {
    # -- seed 000, the championship's regulation ------------------------------------------
    "000:2.3 The deal": ("Первой картой может быть только цифровая карта",
                         "Раздающим становится игрок, первым закончившийся раунд"),
    "000:2.4 Jump-in": ("по стандартным правилам игры УНО с вмешательством",),
    "000:2.4.1 Skip": ("Игрок может «спастись» от действия этой карты только выложив точно "
                       "такую же карту «Пропусти ход»",),
    "000:2.4.2 Wild Draw Four": (
        "только в том случае, если у игрока (игрок-1) отсутствует текущий цвет",
        "только выложив карту «Возьми две» нового заказанного цвета",
        "а также ещё две карты за недоверие и пропускает ход"),
    "000:2.4.2 «Ready»": ("скажет «Готов»",),
    "000:2.4.3 «UNO!»": ("Игроки не имеют права скрывать количество карт в руке",),
    "000:2.4.4 Jumping in": ("Перехват хода не работает в начале игры",
                             "она выкладывается только в свой ход"),
    "000:2.4.5 Two identical cards": ("две одинаковые карты нельзя выкладывать сразу одним "
                                      "движением руки",),
    "000:2.4.6 Draw Two": ("не может быть перехвачена карта «Возьми две»",),
    "000:2.4.7 A card laid": ("В этот момент она не может быть заменена на другую",),
    "000:2.4.8 Nothing else": ("Никакие другие правила, кроме отмеченных, не "
                               "распространяются",),
    "000:3 Disputes": ("на основе настоящих правил и здравого смысла",),
    # -- seed 001, the classic rules ------------------------------------------------------
    "001:Drawing a card": ("При відсутності відповідний карти гравець бере одну карту з "
                           "колоди", "каже «Пас»"),
    "001:Draw Two": ("виклавши свою карту «+2 карти» будь-якого кольору",
                     "Дії карт «+2 карти» не сумуються"),
    "001:Reverse": ("їх дії підсумовуються",),
    "001:Wild Draw Four": ("головне відсутність поточного кольору",
                           "тільки виклавши карту «+2 карти» нового замовленого кольору"),
    "001:The challenge": ("гравець 1 забирає свою картку «Зміна кольору і +4 карти» собі "
                          "назад",),
    "001:«Ready»": ("скаже «Готовий»",),
    "001:«UNO!»": ("Гравці не мають права приховувати кількість карт в руці",),
    "001:The first card": ("Карта може бути тільки цифрова",),
    # -- seed 002, UNO Showdown -----------------------------------------------------------
    "002:Showdown cards": ("բեռնեք քարտերի քանակը, որոնք որոշվում են ցուցադրման նշանով",),
    "002:Wild Showdown": ("մրցակցին, ով իր հետ կմտնի շոու-դաուն և քանի քարտ է դրված "
                          "Showdown Unit-ում",),
    "002:The duel": ("Որ խաղացողը միավորի իր կողմում ավելի շատ խաղաթղթեր ունի, կորցնում է",
                     "Նրանք ինքնաբերաբար կորցնում են դիմակայությունը և վերցնում քարտերը"),
    "002:Drawing instead of playing": ("Խաղացողից չի պահանջվում, որ իր հերթին խաղաթղթեր "
                                       "խաղա",),
    "002:Draw Two": ("Նրանք չեն կարող թղթախաղ խաղալ",),
    "002:Wild Draw Four": ("չորս քարտ հանել և կորցնել իր հերթը",),
    "002:«UNO!»": ("Երբ խաղացողը խաղում է իր երկրորդից մինչև վերջին խաղաքարտը, նա պետք է "
                   "ասի UNO",),
    # -- seed 003, UNO Teams --------------------------------------------------------------
    "003:Partners": ("Ни в коем случае нельзя рассказывать товарищу по команде или намекать "
                     "ему, какие карты у вас на руках",),
    "003:The pass at the start": ("Каждый игрок выбирает одну карту из своей руки и передает "
                                  "ее партнеру рубашкой вверх",),
    "003:The pass symbol": ("вы и ваш товарищ по команде передаёте друг другу по одной "
                            "карте",),
    "003:Drawing instead of playing": ("или вы решили не разыгрывать карту, вы берёте "
                                       "верхнюю карту из колоды",
                                       "Если вы решили не разыгрывать карту ранее, вы не "
                                       "можете разыграть её сейчас"),
    "003:Going out": ("он выберет половину из них и передаст вам",
                      "раунд не заканчивается, пока оба игрока в команде не разыграют все "
                      "карты"),
    "003:Half again": ("он передаст половину своих карт товарищу по команде, у которого нет "
                       "карт",),
    "003:«UNO» for a partner": ("он тоже может выкрикивать UNO за вас",),
    "003:The first card": ("Если вы перевернули карту действия, проигнорируйте ее эффект и "
                           "переверните другую карту",),
    "003:The last card that makes a player draw": (
        "Поэтому я предполагаю, что это правило действует и в командной игре",),
    # -- seed 004, UNO Mario Kart ---------------------------------------------------------
    "004:Wild Item Box": ("то это действие не происходит. Активируется только предмет на "
                          "карте",),
    "004:Mushroom (red)": ("немедленно делает еще один ход",),
    "004:Banana peel (yellow)": ("человек, который шел прямо перед игроком, разыгравшим "
                                 "карту Wild Item Box, должен вытянуть две карты",),
    "004:Green shell (green)": ("выбирает одного противника, который должен вытянуть одну "
                                "карту",),
    "004:Lightning (blue)": ("все остальные за столом должны вытянуть одну карту",),
    "004:Bob-omb (wild)": ("должен вытянуть две карты и выбрать цвет, который должен быть "
                           "сыгран следующим",),
    "004:Drawing instead of playing": ("Если игрок не может (или решает не играть) карту из "
                                       "своей руки",),
    "004:Draw Two": ("он не получает возможность сыграть карту",),
    "004:Wild Draw Four": ("проходят свой ход, не сыграв ни одной карты",),
    "004:Challenging a Wild Draw Four": ("Претендент должен сделать розыгрыш ШЕСТЬ карты",),
    "004:The first dealer and the first card": (
        "Все карты действий, включая Wilds, считаются за 0",
        "дилер выбирает, какой цвет должен совпасть у первого игрока",
        "если карта, перевернутая дилером, является реверсом, дилер ходит первым"),
    "004:The last card": ("следующий игрок все равно должен вытянуть эти карты",),
    "004:«UNO!»": ("этот игрок должен взять две карты в качестве штрафа",),
    # -- the house rules ------------------------------------------------------------------
    "house:jump_in": ("Гравець може піти позачергово, якщо у нього є точно така ж карта",),
    "house:double_play": ("дві однакові карти не можна викладати відразу одним рухом руки",),
    "house:seven_zero": ("гравець, який поклав «7», обмінюється картами",),
    "house:stacking": ("третій за рахунком гравець повинен взяти чотири карти",),
    "house:silent_twos": ("всі повинні зберігати мовчання до тих пір, поки хід знову не "
                          "повернеться",),
    "house:silent_wilds": ("роль двійки можуть взяти на себе чорні карти",),
    "house:swap_on_five": ("Гравець, який поклав «5», може (за своїм бажанням) помінятися "
                           "однією картою",),
    "house:uno_to_centre": ("Інші гравці повинні встигнути покласти свої руки поверх руки",),
    "house:colour_rotation": ("зміна кольору відбувається автоматично на той колір",),
    "house:blank_plus_ten": ("можна присвоїти значення «+10 карт», відповідно, наступний "
                             "гравець повинен взяти 10 карт",),
    "house:reverse_bounce": ("Карта «Зміна напрямку» потрібного кольору повертає назад дію "
                             "активних карт",),
    "house:mistake_penalty": ("при будь-помилково викладеної карті, хибному крику і т.п. "
                              "гравець бере з колоди дві карти",),
    # -- scoring --------------------------------------------------------------------------
    "scoring:winner": ("Гравцеві, який першим позбувся своїх карт, нараховується сума очок",),
    "scoring:own": ("Тим, хто програв вважається той, хто за результатами декількох турів "
                    "набере 200 очок",),
    "scoring:lazy": ("Переможця і програв обчислюють при кожному турі гри",),
    "scoring:last": ("гра не закінчується, а продовжується до останнього гравця",),
    "scoring:seven": ("він бере в руку з колоди 6 нових карт",),
    "scoring:championship": ("Игра ведётся, пока хотя бы один из игроков не наберёт 500 "
                             "очков в сумме", "игрок, который первым избавился от своих "
                             "карт получает ноль очков"),
    "scoring:teams": ("победившая команда забирает все карты, оставшиеся у противника",),
    "scoring:lone_zero_50": ("її ціна не нуль очок, а 50",),
    "scoring:h2o": ("від загального рахунку у нього віднімається 20 очок",),
    "scoring:showdown/winner": ("Ձեռքը դատարկած խաղացողը միավորներ է վաստակում "
                                "հակառակորդի ձեռքում մնացած քարտերի հիման վրա",),
    "scoring:mario-kart/winner": ("получает очки, равные стоимости карт, оставшихся на руках "
                                  "у его оппонентов",),
}


def seed_text(number: str) -> str:
    found = sorted(SEEDS.glob(f"{number}_*.txt"))
    if not found:
        pytest.skip(f"the seed texts are not in {SEEDS} (the project's shared folder)")
    return found[0].read_text(encoding="utf-8")


def _at_line_start(text: str, words: str, start: int = 0) -> int:
    """Where `words` begin a line of `text` at or after `start`; -1 if nowhere."""
    for match in re.finditer(re.escape(words), text):
        at = match.start()
        if at >= start and (at == 0 or text[at - 1] == "\n"):
            return at
    return -1


def clause_text(source: Source) -> str:
    """The text of the clause `source` cites, from its start to the next clause's."""
    assert source.seed is not None
    clauses = CLAUSES[source.seed]
    assert source.clause in clauses, (
        f"seed {source.seed} has no clause {source.clause!r} known here: {sorted(clauses)}")
    start_words, end_words = clauses[source.clause]
    text = seed_text(source.seed)
    start = _at_line_start(text, start_words)
    assert start >= 0, (source.seed, start_words)
    end = len(text) if end_words is None else _at_line_start(text, end_words, start + 1)
    assert end > start, (source.seed, end_words)
    return " ".join(text[start:end].split())


def cited() -> Iterator[tuple[str, Source]]:
    """Every rule of every sheet that names a source, keyed as `QUOTES` keys it."""
    for number, table in SEED_TABLES.items():
        for rule in table:
            yield f"{number}:{rule.title}", rule.source
    for key, house_rule in HOUSE_RULES.items():
        yield f"house:{key}", house_rule.source
    for key, source in SCORING_SOURCES.items():
        yield f"scoring:{key}", source
    for (edition, method), source in DECK_SCORING.items():
        yield f"scoring:{edition}/{method}", source


def wrong(key: str, source: Source) -> str | None:
    """What is wrong with the citation of the rule `key`, or None."""
    quotes = QUOTES.get(key)
    if source.is_inference or source.official:
        return f"{key}: cites no seed, yet keeps a quote" if quotes else None
    if not quotes:
        return f"{key}: cites seed {source.seed}, {source.clause} with no quote of it here"
    text = clause_text(source)
    for quote in quotes:
        if " ".join(quote.split()) not in text:
            return (f"{key}: seed {source.seed}, {source.clause} does not say "
                    f"«{quote}»")
    return None


def test_every_cited_rule_is_in_the_words_of_the_clause_it_cites() -> None:
    problems = [p for key, source in cited() if (p := wrong(key, source)) is not None]
    assert not problems, "\n".join(problems)


def test_every_quote_belongs_to_a_rule() -> None:
    keys = {key for key, _source in cited()}
    assert not set(QUOTES) - keys, sorted(set(QUOTES) - keys)


@pytest.mark.parametrize(("key", "planted"), [
    # seed 002 does not word Mario Kart's last card
    ("004:The last card", seed("002", "End of the round")),
    # the UNO Showdown duel's side lines are in Showdowns, not in Action cards
    ("002:The duel", seed("002", "Action cards")),
    # 2.4.7 is not 2.4.6
    ("000:2.4.7 A card laid", seed("000", "2.4.6")),
    # the author's assumption is in seed 003's Scoring, not its Setup
    ("003:The last card that makes a player draw", seed("003", "Setup")),
])
def test_a_planted_wrong_citation_fails(key: str, planted: Source) -> None:
    assert wrong(key, dict(cited())[key]) is None
    assert wrong(key, planted) is not None


#: A seed's clause written into a sentence the program shows: "(seed 004, Items)".
IN_A_SENTENCE = re.compile(r"\bseed (\d{3}), ([^)\]\"]+?)[)\]]")


def test_every_citation_written_into_a_sentence_names_a_known_clause() -> None:
    """Every string shown to people is in the English catalogs (tests/test_catalog_coverage.py
    holds that), so their citations are all read here."""
    found = 0
    for catalog in ROOT.glob("*/locale/en/LC_MESSAGES/*.po"):
        for number, clause in IN_A_SENTENCE.findall(catalog.read_text(encoding="utf-8")):
            found += 1
            assert clause in CLAUSES.get(number, {}), (catalog.name, number, clause)
    assert found
