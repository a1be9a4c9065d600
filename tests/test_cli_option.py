"""`--option NAME=VALUE`: any game's rule options on every command that takes them, checked
against the game played, merged with the default game's own flags (`--turn-order`...)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

import moaisim
from moaisim.cli import main
from moaisim.cli import studies as cli_studies
from moaisim.cli.common import parse_options, rule_option_grid, rule_options
from moaisim.errors import UserError
from moaisim.games.rapa_nui.rules.options import OPTIONS as RAPA_NUI_OPTIONS

#: The commands that take rule options.
COMMANDS = ("play", "simulate", "versus", "sheet", "metagame", "tune")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`moaisim ARGS`: its exit code, standard output and standard error."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_option_reaches_the_rules_as_the_flag_does(capsys):
    base = ("play", "--players", "3", "--seed", "4", "--json")
    code, by_flag, err = run(capsys, *base, "--turn-order", "clockwise")
    assert code == 0 and err == ""
    code, by_option, err = run(capsys, *base, "--option", "turn_order=clockwise")
    assert code == 0 and err == ""
    header = json.loads(by_option.splitlines()[0])
    assert header["options"]["turn_order"] == "clockwise"
    assert by_option == by_flag  # the same rules (digest in the header), the same game
    plain = run(capsys, *base)[1]
    assert json.loads(plain.splitlines()[0]) != header
    # both ways at once, saying the same, and a name written with '-'
    code, both, _ = run(capsys, *base, "--turn-order", "clockwise", "--option",
                        "turn-order=clockwise")  # fmt: skip
    assert code == 0 and both == by_flag


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "--option", "bogus=1"], "'bogus' is not a rule option of moai (its options: "
                                          "turn_order, volcano_after_moai, spent_wood)"),
        (["play", "--option", "turn_order=sideways"], "turn_order = 'sideways' is not one of "
                                                      "hill, clockwise"),
        (["play", "--option", "turn_order"], "expected name=value"),
        (["play", "--option", "=clockwise"], "expected name=value"),
        (["play", "--option", "turn_order=clockwise", "--option", "turn_order=hill"],
         "--option turn_order is given twice"),
        (["play", "--option", "turn_order=clockwise", "--turn-order", "hill"],
         "--option turn_order=clockwise and --turn-order hill disagree"),
        (["play", "--option", "turn_order=hill,clockwise"], "give one value here"),
        (["metagame", "-p", "3", "--option", "spent_wood=supply,out"], "give one value here"),
        (["tune", "-p", "3", "--option", "spent_wood=nowhere"], "spent_wood = 'nowhere'"),
        (["tune", "-p", "3", "--population", "--option", "spent_wood=out"],
         "--population plays the game's default rule options"),
        (["versus", "random", "--option", "turn_order=hill,hill"], "a value is given twice"),
        (["simulate", "-p", "3", "-n", "2", "--option", "turn_order=clockwise",
          "--turn-order", "hill"], "disagree"),
    ],
)  # fmt: skip
def test_a_mistake_is_one_line_exit_2_and_no_traceback(capsys, args, said):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("moaisim: error: ") and err.count("\n") == 1, err
    assert said in err and "Traceback" not in err


def test_a_bad_option_on_sheet_writes_nothing(capsys, tmp_path):
    out = tmp_path / "sheets"
    code, _, err = run(capsys, "sheet", "-p", "3", "-o", str(out), "--option",
                       "turn_order=hill,clockwise")  # fmt: skip
    assert code == 2 and "give one value here" in err and err.count("\n") == 1
    assert not out.exists()


def test_simulate_writes_the_option_into_the_results(capsys, tmp_path):
    out = tmp_path / "run"
    code, _, err = run(capsys, "simulate", "-p", "2", "-n", "4", "--jobs", "1", "--option",
                       "spent_wood=out", "--out", str(out), "-q")  # fmt: skip
    assert code == 0, err
    results = moaisim.load_results(out)
    assert set(results["spent_wood"]) == {"out"} and set(results["setup"]) == {"spent_wood=out"}


def test_simulate_sweeps_a_list_as_the_repeated_flag_does(capsys, tmp_path):
    by_option, by_flag = tmp_path / "option", tmp_path / "flag"
    assert main(["simulate", "-p", "2", "-n", "4", "--option", "turn_order=hill,clockwise",
                 "--out", str(by_option), "-q"]) == 0  # fmt: skip
    assert main(["simulate", "-p", "2", "-n", "4", "--turn-order", "hill", "--turn-order",
                 "clockwise", "--out", str(by_flag), "-q"]) == 0  # fmt: skip
    a, b = moaisim.load_results(by_option), moaisim.load_results(by_flag)
    assert set(a["turn_order"]) == {"hill", "clockwise"}
    assert a.drop(columns="turn_order").equals(b.drop(columns="turn_order"))
    assert list(a["turn_order"].astype(str)) == list(b["turn_order"].astype(str))


def test_versus_and_metagame_play_the_option(capsys, monkeypatch):
    code, out, err = run(capsys, "versus", "random", "-p", "3", "-n", "3", "--option",
                         "turn_order=hill,clockwise")  # fmt: skip
    assert code == 0, err
    assert "3 players, base:" in out and "3 players, turn_order=clockwise:" in out
    from moaisim.studies import metagame

    played = []
    original = metagame.play

    def play(*args: object, **kwargs: object) -> object:
        played.append(kwargs.get("rules"))
        return original(*args, **kwargs)

    monkeypatch.setattr(metagame, "play", play)
    code, _, err = run(capsys, "metagame", "-p", "3", "--library", "greedy,random", "-n", "3",
                       "--bootstrap", "0", "--option", "spent_wood=out")  # fmt: skip
    assert code == 0, err
    assert [r.spent_wood for r in played] == ["out"] and played[0].players == 3


def test_the_parser_is_the_games_own_options():
    """Any game's options, read from its OPTIONS (Rapa Nui's here, before it is registered)."""
    got = parse_options(["end_timing=round", "majority-rule=shared", "hg_group_cost=0/1/3"],
                        RAPA_NUI_OPTIONS, "rapa-nui")  # fmt: skip
    assert got == {"end_timing": ["round"], "majority_rule": ["shared"],
                   "hg_group_cost": ["0/1/3"]}  # fmt: skip
    assert parse_options(["winner_tie=share", "winner_tie=share"], RAPA_NUI_OPTIONS,
                         "rapa-nui") == {"winner_tie": ["share"]}  # fmt: skip
    swept = parse_options(["sacrifice_tie=high,split"], RAPA_NUI_OPTIONS, "rapa-nui", sweep=True)
    assert swept == {"sacrifice_tie": ["high", "split"]}
    with pytest.raises(UserError, match=r"not a rule option of rapa-nui \(its options: "
                                        r"start_sacrifice, .*end_timing"):  # fmt: skip
        parse_options(["turn_order=clockwise"], RAPA_NUI_OPTIONS, "rapa-nui")
    with pytest.raises(UserError, match="sacrifice_tie = 'mean' is not one of high, low, split"):
        parse_options(["sacrifice_tie=mean"], RAPA_NUI_OPTIONS, "rapa-nui")
    with pytest.raises(UserError, match="give one value here"):
        parse_options(["sacrifice_tie=high,low"], RAPA_NUI_OPTIONS, "rapa-nui")
    with pytest.raises(UserError, match="expected name=value, e.g. start_sacrifice=one_choice"):
        parse_options(["end_timing"], RAPA_NUI_OPTIONS, "rapa-nui")
    with pytest.raises(UserError, match="end_timing is given twice, as turn and round"):
        parse_options(["end_timing=turn", "end_timing=round"], RAPA_NUI_OPTIONS, "rapa-nui")
    for message in (str(e) for e in _errors(["end_timing=soon", "x=1", "end_timing"])):
        assert "\n" not in message


def _errors(texts: list[str]) -> list[UserError]:
    """The error of each of `texts` parsed alone as Rapa Nui's options."""
    out = []
    for text in texts:
        with pytest.raises(UserError) as info:
            parse_options([text], RAPA_NUI_OPTIONS, "rapa-nui")
        out.append(info.value)
    return out


def test_the_flags_merge_with_option():
    assert rule_options("moai", ["spent_wood=out"], turn_order="clockwise",
                        volcano_after_moai=None) == {"spent_wood": "out",
                                                     "turn_order": "clockwise"}  # fmt: skip
    assert rule_option_grid("moai", ["turn_order=hill,clockwise"],
                            turn_order=["clockwise", "hill"]) == {
        "turn_order": ["hill", "clockwise"]}  # fmt: skip
    assert rule_options("moai", None) == {} and rule_option_grid("moai", []) == {}


def test_a_sheets_reproduce_line_gives_another_games_options_as_option(monkeypatch):
    fake = SimpleNamespace(OPTIONS=RAPA_NUI_OPTIONS)
    monkeypatch.setattr(cli_studies, "load_game", lambda name: fake)
    line = cli_studies._setup_args("rapa-nui", None, None, None, None, end_timing="round",
                                   majority_rule="sole")  # fmt: skip
    assert line == " --game rapa-nui --option end_timing=round"


def test_variants_and_the_help_name_option(capsys):
    code, out, _ = run(capsys, "variants")
    assert code == 0
    assert "rule options (--option name=value; the first value is the default):" in out
    assert "turn_order            hill | clockwise (or --turn-order)" in out
    for command in COMMANDS:
        code, out, _ = run(capsys, command, "--help")
        assert code == 0
        text = " ".join(out.split())
        assert "--option NAME=VALUE A rule option of the game, name=value" in text, command
        assert "`moaisim variants --game NAME` lists them." in text, command


def test_simulate_with_search_seats_says_their_cpu_before_it_starts(capsys):
    """Issue 60: `simulate` with search seats prints the CPU estimate up front, as `versus`
    and `sheet` do, from the measured cost: here L4 in one seat of two lineups' cells, two
    variants, 2 games a cell at 2 players (4 searching seat-games) and none for L3 alone."""
    import importlib

    cost = importlib.import_module("moaisim.studies.versus").search_seconds("moai", 2)
    args = ["simulate", "-p", "2", "--strategies", "L4,L3", "--strategies", "L3", "-v", "base",
            "-v", "short", "-n", "2", "-q"]  # fmt: skip
    assert main(args) == 0
    err = capsys.readouterr().err
    assert (
        f"search (L4) plays about {cost:g} s at 2 players of CPU a game per searching seat" in err
    )
    assert f"about {2 * 2 * cost:.1f} s of CPU for the searching seats" in err
    assert main(["simulate", "-p", "2", "--strategies", "L3", "-n", "2", "-q"]) == 0
    assert "search (L4)" not in capsys.readouterr().err
