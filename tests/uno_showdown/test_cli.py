"""The CLI as a newcomer meets it: help, replay, simulate, and the guide's examples."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from uno_showdown.commands.cli import COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def run_cli(capsys, *argv: str, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_every_subcommand_has_help(capsys):
    parser = build_parser([])
    sub = next(a for a in parser._actions if a.dest == "command")
    assert {"simulate", "replay", "run"} <= set(sub.choices)
    for name in sub.choices:
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        assert exc.value.code == 0
        assert f"usage: uno-showdown {name}" in capsys.readouterr().out
    assert set(sub.choices) == set(COMMANDS)


def test_each_module_registers_the_commands_listed_for_it() -> None:
    """...and only those: a command a module adds but the list lacks would be missing
    from `uno-showdown --help`, which lists the table without importing the modules."""
    import argparse
    import importlib

    for module in {module for module, _summary in COMMANDS.values()}:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(sub)
        listed = {name for name, (m, _s) in COMMANDS.items() if m == module}
        assert set(sub.choices) == listed, module


def imported_by(*argv: str) -> set[str]:
    """The modules a fresh interpreter has imported after running `uno-showdown ARGV`."""
    code = ("import sys\nfrom uno_showdown.commands.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    return set(done.stderr.split())


HEAVY = {"sqlite3", "pygame", "gpiozero", "serial", "companion.app",
         "companion.store.games", "companion.table.game",
         "showdown.service.loop", "showdown.duel.engine",
         "showdown.contract.unit"}


def test_help_and_points_import_no_subcommands_code() -> None:
    """Starting fast on a Pi: only the chosen command's module, and only what it needs."""
    listed = imported_by("--help")
    assert not {module for module, _ in COMMANDS.values()} & listed
    assert not HEAVY & listed
    # dataclasses, enum...
    assert "showdown.contract.events" not in listed | imported_by("--version")
    points = imported_by("points", "--edition", "classic", "r5")
    assert "uno_showdown.commands.points" in points and not HEAVY & points
    assert "uno_showdown.commands.game" not in points
    duel_help = imported_by("duel", "--help")
    assert not HEAVY & duel_help
    # `game list` reads the games file, nothing of the score keeper's screen-side work.
    listing = imported_by("game", "list")
    assert "companion.app" not in listing
    assert not {"csv", "statistics", "companion.store.transfer"} & listing


def test_the_game_commands_typed_at_the_table_import_only_what_they_use(capsys, tmp_path) -> None:
    """`game list`, `show` and `round` start fast on a Pi: none of the duel event types, no
    logging, no shutil (argparse's own help formatter imports it), no statistics for a game
    without timed duels, no platformdirs when the games file is named, no duel recorder
    (none is heard), no fractions for a game that divides nothing, no parser or
    scoring-method help of another action, and no dataclasses (the game model's records are
    `showdown.contract.record`s: a dataclass compiles its methods at every start, and its import
    brings inspect)."""
    db = str(tmp_path / "games.db")
    assert main(["game", "new", "--edition", "showdown", "--method", "winner",
                 "--players", "Ann,Bob,Cid", "--db", db]) == 0
    capsys.readouterr()
    unused = {"showdown.contract.events", "logging", "shutil", "statistics", "platformdirs",
              "companion.store.duels", "fractions", "dataclasses", "inspect"}
    for argv in (("game", "list", "--db", db), ("game", "show", "--db", db),
                 ("game", "round", "--db", db, "--winner", "Ann", "--hand", "Bob: r1",
                  "--hand", "Cid: r1")):
        listed = imported_by(*argv)
        worker = "companion.store.game_list" if argv[1] == "list" else "companion.store.games"
        assert worker in listed, argv  # it did its work
        assert not unused & listed, (argv, unused & listed)
    assert "Ann" in run_cli(capsys, "game", "show", "--db", db, "--rounds")[1]


def test_game_list_reads_no_game_whole(capsys, tmp_path) -> None:
    """`game list` reads whether each game is over from what the file keeps, so it imports
    neither the games' repository nor the game model nor any of the seven scoring methods
    (reading each game whole brought them all), and still says which game is over."""
    db = str(tmp_path / "games.db")
    for target in ("100", "500"):
        assert main(["game", "new", "--edition", "showdown", "--method", "winner",
                     "--players", "Ann,Bob", "--target", target, "--db", db]) == 0
    assert main(["game", "round", "--game", "1", "--winner", "Ann", "--points", "Bob: 100",
                 "--db", db]) == 0
    capsys.readouterr()
    listed = imported_by("game", "list", "--db", db)
    model = {"companion.store.games", "companion.table.game", "companion.scoring.rules",
             "companion.scoring.registry"}
    methods = {f"companion.scoring.{m}" for m in ("winner", "own", "championship", "lazy",
                                                   "teams", "last", "seven")}
    assert "companion.store.game_list" in listed
    assert not (model | methods) & listed, (model | methods) & listed
    out = run_cli(capsys, "game", "list", "--db", db)[1].splitlines()
    assert out[1].endswith("over") and out[2].endswith("playing")


def test_every_game_action_still_has_its_help(capsys) -> None:
    """`game` builds only the parser of the action named; each still shows its own help,
    and `game --help` lists them all."""
    with pytest.raises(SystemExit):
        main(["game", "--help"])
    listing = capsys.readouterr().out
    names = re.findall(r"^    ([a-z-]+)(?:  |$)", listing, re.M)
    assert {"new", "round", "show", "list", "house-rules", "first-card"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as exc:
            main(["game", name, "--help"])
        assert exc.value.code == 0
        assert f"usage: uno-showdown game {name}" in capsys.readouterr().out, name


def test_version_is_the_packages(capsys) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"uno-showdown {version('uno-showdown')}\n"


def test_replay_reads_stdin_and_prints_one_json_object(capsys, monkeypatch):
    lines = "\n".join([
        '{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 2}',
        '{"t_us": 1000, "input": "start", "countdown_us": 3000000}',
        '{"t_us": 3150000, "input": "press", "side": "right"}',
    ])
    status, out, _ = run_cli(capsys, "replay", "-", stdin=lines, monkeypatch=monkeypatch)
    assert status == 0
    assert json.loads(out) == {
        "outcome": "faster", "winner": "right", "loser": "left", "arrow": None,
        "launch": {"side": "left", "cards": 2}, "reaction_us": {"left": None, "right": 149000},
    }


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('{"t_us": 5, "input": "press", "side": "middle"}', 'line 2: "side" must be'),
        ("not json", "line 2: not JSON"),
        ('{"input": "press", "side": "left"}', 'line 2: missing "t_us"'),
        ('{"t_us": 1.5, "input": "start"}', 'line 2: "t_us" must be an integer'),
        ('{"t_us": 1, "input": "jump"}', 'line 2: unknown "input"'),
    ],
)
def test_replay_names_the_malformed_line_and_exits_2(capsys, monkeypatch, bad, message):
    text = '{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right"}\n' + bad
    status, out, err = run_cli(capsys, "replay", stdin=text, monkeypatch=monkeypatch)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_replay_of_a_press_before_any_load_is_an_error(capsys, monkeypatch):
    status, _, err = run_cli(
        capsys, "replay", stdin='{"t_us": 5, "input": "press", "side": "left"}',
        monkeypatch=monkeypatch,
    )
    assert status == 2 and 'line 1: a "press" before any "load"' in err


def test_replay_of_a_missing_file_is_one_line(capsys, tmp_path):
    status, _, err = run_cli(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert status == 2 and "cannot read" in err and "Traceback" not in err


def test_replay_options_change_the_judgement(capsys):
    example = str(ROOT / "examples" / "late-delivery.jsonl")
    _status, out, _ = run_cli(capsys, "replay", example, "--tie-window-us", "10000",
                             "--tie-policy", "split")
    verdict = json.loads(out)
    assert verdict["outcome"] == "tie"
    assert verdict["launch"] == [{"side": "left", "cards": 1}]


def test_replay_check_flags_a_doctored_verdict(capsys, tmp_path):
    log = tmp_path / "duels.jsonl"
    log.write_text((ROOT / "examples" / "faster.jsonl").read_text() + json.dumps(
        {"input": "verdict", "duel": 1, "result": {"outcome": "faster", "winner": "left"}}
    ) + "\n")
    status, _, err = run_cli(capsys, "replay", "--check", str(log))
    assert status == 1 and "recorded as" in err


def test_simulate_prints_a_summary_table(capsys, tmp_path):
    log = tmp_path / "sim.jsonl"
    status, out, _ = run_cli(capsys, "simulate", "--duels", "40", "--seed", "4",
                             "--log", str(log))
    assert status == 0
    rows = dict(re.findall(r"^(\S[^\d]*?)\s{2,}(\d+)", out, re.M))
    assert rows["duels"] == "40"
    assert rows["most launches in one duel"] == "1"
    # What the table decided is what the log replays to.
    replayed = [json.loads(line) for line in _replay_lines(capsys, log)]
    assert len(replayed) >= 40
    # The guide shows every row the program prints, in its order.
    guide = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
    shown = guide[guide.index("$ uno-showdown simulate --duels"):]
    shown = shown[:shown.index("```")].splitlines()[1:]

    def labels(lines: list[str]) -> list[str]:
        return [re.split(r"\s{2,}", line.strip())[0] for line in lines if line.strip()]

    assert labels(shown) == labels(out.splitlines())


def _replay_lines(capsys, log: Path) -> list[str]:
    status, out, _ = run_cli(capsys, "replay", "--check", str(log))
    assert status == 0
    return out.splitlines()


def test_simulated_reaction_times_match_the_players_including_the_slower_one(capsys):
    status, out, _ = run_cli(capsys, "simulate", "--duels", "200", "--left-ms", "200",
                             "--right-ms", "320", "--early-rate", "0")
    assert status == 0
    medians = dict(re.findall(r"^reaction (left|right) \(median/best\)\s+(\d+) ms", out, re.M))
    assert abs(int(medians["left"]) - 200) < 15
    assert abs(int(medians["right"]) - 320) < 25  # the usual loser is timed too
    wins = dict(re.findall(r"^wins (left|right)\s+(\d+)", out, re.M))
    assert int(wins["left"]) > 3 * int(wins["right"])


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["--duels", "0"], "--duels"),
        (["--jitter-ms", "nan"], "--jitter-ms"),
        (["--left-ms", "inf"], "--left-ms"),
        (["--tie-window-us", "99999999999"], "tie_window_us"),
        (["--settle-us", "99999999999999999999"], "settle_us"),
    ],
)
def test_simulate_rejects_nonsense(capsys, args, word):
    try:
        status = main(["simulate", *args])
    except SystemExit as exc:  # argparse refuses a malformed number itself
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2
    assert word in err and "Traceback" not in err


def test_same_seed_same_summary(capsys):
    _, first, _ = run_cli(capsys, "simulate", "--duels", "30", "--seed", "9")
    _, second, _ = run_cli(capsys, "simulate", "--duels", "30", "--seed", "9")
    assert first == second


def guide_replay_examples() -> list[tuple[str, list[str]]]:
    """Each `$ uno-showdown replay ...` in docs/command-line.md with the lines under it."""
    text = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ uno-showdown replay"):
                out = []
                for follow in lines[i + 1 :]:
                    if follow.startswith("$"):
                        break
                    out.append(follow)
                examples.append((line[2:], out))
    return examples


def test_the_guide_has_replay_examples():
    assert len(guide_replay_examples()) >= 3


@pytest.mark.parametrize(("command", "expected"), guide_replay_examples())
def test_the_guides_replay_examples_print_what_it_says(capsys, monkeypatch, command, expected):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)[1:]
    status, out, _ = run_cli(capsys, *argv)
    assert status == 0
    assert [json.loads(x) for x in out.splitlines()] == [json.loads(x) for x in expected]


def test_a_log_from_a_looser_table_replays_once_its_options_are_given(capsys, tmp_path):
    log = tmp_path / "old.jsonl"
    log.write_text("\n".join([
        '{"input": "config", "tie_window_us": 60000, "settle_us": 25000.0}',
        '{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right"}',
        '{"t_us": 1000, "input": "start", "countdown_us": 3000000}',
        '{"t_us": 3200000, "input": "press", "side": "left"}',
    ]) + "\n")
    status, _, err = run_cli(capsys, "replay", str(log))
    assert status == 2 and "line 1: bad config: tie_window_us" in err
    status, out, _ = run_cli(capsys, "replay", "--tie-window-us", "100", str(log))
    assert status == 0 and json.loads(out)["winner"] == "left"


def test_simulate_logs_a_late_press_when_it_arrives_and_counts_contested(capsys, tmp_path):
    """A press delivered after its verdict is read the moment it arrives (at most the
    jitter after its stamp), not when the simulation next jumps its clock; the summary
    counts the contested verdicts the log holds."""
    log = tmp_path / "sim.jsonl"
    status, out, _ = run_cli(capsys, "simulate", "--duels", "300", "--jitter-ms", "40",
                             "--log", str(log))
    assert status == 0
    contested = [line for line in map(json.loads, log.read_text().splitlines())
                 if line.get("input") == "contested"]
    assert contested  # this seed and jitter do make some
    for line in contested:
        assert 0 <= line["arrived_us"] - line["t_us"] <= 40_000
    rows = dict(re.findall(r"^(\S[^\d]*?)\s{2,}(\d+)", out, re.M))
    assert rows["contested (a late press)"] == str(len(contested))


def test_no_arguments_print_the_help(capsys) -> None:
    status, out, err = run_cli(capsys)
    assert status == 0 and not err
    assert out.startswith("usage: uno-showdown") and "game" in out and "emulator" in out


@pytest.mark.parametrize("argv, suggestion", [
    (["gam"], "'game'"),
    (["game", "lst"], "'list'"),
    (["game", "list", "--dbb", "x.db"], "'--db'"),
    (["simulate", "--dules", "3"], "'--duels'"),
])
def test_a_typo_gets_a_did_you_mean(capsys, argv, suggestion) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1
    assert f"did you mean {suggestion}?" in err


@pytest.mark.parametrize("argv, other", [
    (["game", "show", "--winer", "Ann"], "'--winner'"),  # `game round`'s
    (["event", "list", "--tabel", "2"], "'--table'"),  # `event done`'s, built alongside
])
def test_an_option_is_guessed_only_among_its_own_commands(capsys, argv, other) -> None:
    """A guess comes from the options of the (sub)command typed, never from another's: `game
    show` takes no `--winner`, though `game round --winer` is offered it."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "unrecognized arguments" in err
    assert other not in err and "did you mean '--help'" not in err  # --tabel is no --help
    # the help it points to is that of the command typed, where the right option is listed
    assert f"(see uno-showdown {argv[0]} {argv[1]} --help)" in err
    with pytest.raises(SystemExit):
        main(["game", "round", "--winer", "Ann"])
    assert "did you mean '--winner'?" in capsys.readouterr().err


def test_a_word_like_no_command_gets_no_guess(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["xyzzy"])
    assert "did you mean" not in capsys.readouterr().err


def test_every_commands_help_says_what_it_is_for(capsys) -> None:
    for name in COMMANDS:
        with pytest.raises(SystemExit):
            main([name, "--help"])
        out = capsys.readouterr().out
        paragraphs = out.split("\n\n")
        assert len(paragraphs) > 2 and not paragraphs[1].startswith(("positional", "options")), (
            name, paragraphs[1])


def test_replay_of_an_empty_log_says_it_is_empty(capsys, tmp_path) -> None:
    empty = tmp_path / "duels.log"
    empty.write_text("\n")
    status, out, err = run_cli(capsys, "replay", str(empty))
    assert status == 2 and not out
    assert "is empty" in err and "load" not in err


def test_limits_md_shows_the_seat_refusal_the_program_prints(capsys, tmp_path) -> None:
    db = str(tmp_path / "games.db")
    assert main(["game", "new", "--edition", "classic", "--method", "winner", "--db", db,
                 "--players", "Ann,Bob,Cid,Dee"]) == 0
    capsys.readouterr()
    status, _out, err = run_cli(capsys, "game", "join", "Zed", "--seat", "0", "--db", db)
    assert status == 2
    assert err.strip() in (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")


#: Every command line, as typed: `virtual-mcu` and `firmware install` stand for the commands
#: whose options live in a sub-action.
EVERY_COMMAND = [[name] for name in COMMANDS] + [["firmware", "install"], ["game", "list"],
                                                  ["event", "list"]]


@pytest.mark.parametrize("words", EVERY_COMMAND, ids=" ".join)
def test_every_command_takes_lang_and_its_help_is_in_that_language(capsys, words) -> None:
    """One rule for every command: `--lang` wherever it is typed, chosen before the help is
    built, so the shared `--lang` help (and every other translated line) reads in Russian."""
    from showdown.contract import i18n

    try:
        for argv in ([*words, "--lang", "ru", "--help"], ["--lang=ru", *words, "--help"]):
            with pytest.raises(SystemExit) as exc:
                main(argv)
            assert exc.value.code == 0
            out = capsys.readouterr().out
            assert "--lang LANG" in out, argv
            assert re.search("[а-яА-ЯёЁ]{4}", out), (argv, out)  # words in Russian
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("words", EVERY_COMMAND, ids=" ".join)
def test_an_unknown_language_is_one_line_for_every_command(capsys, words) -> None:
    for argv in ([*words, "--lang", "xx"], [*words, "--lang=xx", "--help"]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, argv
        assert err.startswith(f"uno-showdown {words[0]}: unknown language 'xx'"), err


def test_the_language_is_chosen_once_whatever_sys_argv_says(capsys, monkeypatch) -> None:
    """`main(argv)` reads its own words: a command's `register` does not choose again from
    `sys.argv` (which, under a test runner or a wrapper, is not the command line)."""
    from showdown.contract import i18n

    monkeypatch.setattr("sys.argv", ["uno-showdown", "--lang", "en"])
    try:
        with pytest.raises(SystemExit):
            main(["points", "--lang", "ru", "--help"])
        assert i18n.current_language() == "ru"
        lang_help = i18n.gettext_("language of the output: en, ru, uk or hy (default: the "
                                  "system's)")
        assert re.search("[а-яА-ЯёЁ]{4}", lang_help)  # the shared `--lang`'s, translated
        assert lang_help.split()[0] in capsys.readouterr().out
    finally:
        i18n.set_language("en")
