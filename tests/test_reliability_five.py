"""Issue 57, item 5 ("Smaller ones"): each defect refused in one line, or gone, in every game it
can reach. One test per defect, named after it."""

from __future__ import annotations

import json
import math
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from moaisim.analysis import sheet as sheet_measures
from moaisim.cli import main
from moaisim.errors import RulesError, UserError
from moaisim.games import load_game
from moaisim.registry import load_strategy
from moaisim.studies import certify as cf
from moaisim.studies.balance_report import run_balance
from moaisim.studies.balance_space import load_space
from moaisim.studies.experiment import load_experiment
from moaisim.studies.sheet import SheetSettings, play_sheet

ROOT = Path(__file__).resolve().parents[1]
NASH3 = {
    "moai": ROOT / "strategies" / "moai" / "weights" / "nash-3p.toml",
    "rapa-nui": ROOT / "strategies" / "rapa_nui" / "weights" / "nash-3p.toml",
}
MODEL = ROOT / "reports" / "field-round3" / "learned" / "learned-3p.json"
MOAI_COMPONENTS = ROOT / "moaisim" / "games" / "moai" / "rules" / "default.toml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def listing(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (what a refused command must leave alone)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


# --- certify -o <a simulate run> ---------------------------------------------------------------
@pytest.mark.parametrize("game", ["moai", "rapa-nui"])
def test_certify_refuses_an_out_that_holds_another_kind_of_output(tmp_path, capsys, game):
    run_dir = tmp_path / "run"
    code, _, _ = run(capsys, "simulate", "--game", game, "-p", "3", "-n", "2", "--strategies",
                     "random", "--out", str(run_dir), "--quiet")  # fmt: skip
    assert code == 0
    report = tmp_path / "report"
    report.mkdir()
    (report / "report.md").write_text("# a report\n", encoding="utf-8")
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine\n", encoding="utf-8")
    cases = {
        run_dir: f"{run_dir} holds a run of moaisim simulate, not a certificate: choose "
        "another --out",
        report: f"{report} holds a report, not a certificate: choose another --out",
        other: f"{other} holds something other than a certificate: choose another --out or "
        "remove it",
    }
    for out, said in cases.items():
        before = listing(out)
        code, _, err = run(capsys, "certify", str(NASH3[game]), "--game", game, "-o", str(out),
                           "--families", "library", "-n", "1", "--held-out-games", "1")  # fmt: skip
        assert (code, err) == (2, f"moaisim: error: {said}\n")
        assert listing(out) == before  # nothing written into it


# --- a learned model with NaN thresholds; a broken model among --learned-files -----------------
def test_a_learned_model_with_a_number_that_is_not_finite_is_refused_on_load(tmp_path):
    doc = json.loads(MODEL.read_text(encoding="utf-8"))
    cases = [
        (("threshold", 0), float("nan"), "ensemble 0: tree 0's threshold is not a finite number "
         "(nan at node 0)"),
        (("value", 3), float("inf"), "ensemble 0: tree 0's value is not a finite number (inf at "
         "node 3)"),
        (("constant", None), float("-inf"), "ensemble 0: the constant is not a finite number "
         "(-inf)"),
    ]  # fmt: skip
    for (field, node), bad, said in cases:
        broken = json.loads(json.dumps(doc))
        if node is None:
            broken["ensembles"][0][field] = bad
        else:
            broken["ensembles"][0]["trees"][0][field][node] = bad
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps(broken), encoding="utf-8")  # JSON's NaN and Infinity
        with pytest.raises(UserError) as info:
            load_strategy(f"learned(model={str(path)!r})")()
        assert str(info.value) == f"strategy 'learned': model file {str(path)!r}: {said}"


def test_a_broken_model_file_among_the_learned_files_is_named(tmp_path, capsys):
    folder = tmp_path / "reports" / "round-x" / "learned"
    folder.mkdir(parents=True)
    shutil.copy(MODEL, folder / "a-3p.json")
    (folder / "notes.json").write_text('{"not": "a model"}', encoding="utf-8")  # left out
    pattern = str(tmp_path / "reports" / "*" / "learned" / "*.json")
    # the shipped 3-player ranker (the weights folder) and the one found by the pattern
    assert [p.name for p in cf.learned_files(3, pattern)] == ["a-3p.json", "ranker-3p.json"]
    doc = json.loads(MODEL.read_text(encoding="utf-8"))
    doc["ensembles"][2]["trees"][5]["threshold"][0] = float("nan")
    broken = folder / "b-3p.json"
    broken.write_text(json.dumps(doc), encoding="utf-8")
    said = (f"learned family: strategy 'learned': model file {str(broken.resolve())!r}: "
            "ensemble 2: tree 5's threshold is not a finite number (nan at node 0); fix or "
            "remove it, or narrow --learned-files")  # fmt: skip
    for players in (3, 4):  # named whatever the player count asked
        with pytest.raises(UserError) as info:
            cf.learned_files(players, pattern)
        assert str(info.value) == said
    broken.write_text('{"format": "moaisim learned policy 1", "players": ', encoding="utf-8")
    with pytest.raises(UserError, match=r"^learned family: .*b-3p\.json.* is not JSON"):
        cf.learned_files(3, pattern)
    # through certify: one line, and nothing written (the --out directory is not made)
    out = tmp_path / "cert"
    code, _, err = run(capsys, "certify", str(NASH3["moai"]), "-o", str(out), "--families",
                       "library,learned", "--learned-files", pattern, "-n", "1",
                       "--held-out-games", "1")  # fmt: skip
    assert code == 2 and err.startswith("moaisim: error: learned family: ") and "b-3p.json" in err
    assert err.count("\n") == 1 and not out.exists()


# --- --param start_wood_3=4 at 3 players ---------------------------------------------------------
def test_a_seat_s_parameter_at_a_player_count_without_that_seat_is_refused(capsys):
    spec = load_game("rapa-nui")
    said = {  # (the shipped set gives seats 2 and 3 4 and 5 wood, R1.6)
        ("start_wood_3", 3, 4): "rule parameter start_wood_3 (seat 3's starting wood) applies "
        "at 4 players only, not at 3: seat 3 does not play there",
        ("start_wood_2", 2, 6): "rule parameter start_wood_2 (seat 2's starting wood) applies "
        "at 3 and 4 players only, not at 2: seat 2 does not play there",
    }
    for (name, players, value), line in said.items():
        with pytest.raises(RulesError) as info:
            spec.make_rules(players, params={name: value})
        assert str(info.value) == line
        code, _, err = run(capsys, "simulate", "--game", "rapa-nui", "-p", str(players),
                           "--param", f"{name}={value}", "-n", "2", "--strategies",
                           "random")  # fmt: skip
        assert (code, err) == (2, f"moaisim: error: {line}\n")
    # a grid of player counts is refused at the first count without the seat
    code, _, err = run(capsys, "simulate", "--game", "rapa-nui", "-p", "3", "-p", "4", "--param",
                       "start_wood_3=4", "-n", "2", "--strategies", "random")  # fmt: skip
    assert (code, err) == (2, f"moaisim: error: {said['start_wood_3', 3, 4]}\n")
    # where the seat plays the parameter is taken
    assert spec.make_rules(4, params={"start_wood_3": 4}).components.start_wood == (2, 3, 4, 4)
    assert spec.make_rules(3, params={"start_wood_2": 7}).components.start_wood == (2, 3, 7, 5)
    # given at the value it has it changes nothing, not even the digest (a log's header
    # lists every parameter), and is taken
    assert spec.make_rules(3, params={"start_wood_3": 5}).digest() == spec.make_rules(3).digest()


# --- absurd component counts ----------------------------------------------------------------------
# (Rapa Nui's: tests/test_rapa_nui_components.py, beside the rule ids its messages cite.)
def test_a_component_count_the_engines_cannot_take_is_refused_in_moai(tmp_path):
    # Moai's component file bounds every count already (16-bit results, 127 location codes)
    moai = MOAI_COMPONENTS.read_text(encoding="utf-8")
    path = tmp_path / "m.toml"
    path.write_text(moai.replace("per_strength = 6 ", "per_strength = 1_000_000_000_000 "),
                    encoding="utf-8")  # fmt: skip
    with pytest.raises(RulesError, match=r"pawns.per_strength must be an integer from 1 to 10000"):
        load_game("moai").make_rules(3, components=path)


# --- --game given twice ---------------------------------------------------------------------------
def test_an_option_of_one_value_given_twice_is_refused(capsys):
    for args, option in (
        (("games", "--game", "moai", "--game", "rapa-nui"), "--game"),
        (("games", "--game", "moai", "--game", "moai"), "--game"),
        (("play", "--game=rapa-nui", "--game", "moai"), "--game"),
        (("simulate", "-p", "3", "-n", "2", "--games", "3", "--strategies", "random"), "--games"),
        (("play", "--seed", "1", "--seed", "2"), "--seed"),
    ):
        code, out, err = run(capsys, *args)
        assert (code, out, err) == (2, "", f"moaisim: error: {option} is given twice: give it "
                                    "once\n")  # fmt: skip
    # an option that takes several values is repeated as before
    code, _, err = run(capsys, "simulate", "-p", "2", "-p", "3", "-n", "2", "--strategies",
                       "random", "--quiet")  # fmt: skip
    assert (code, err) == (0, "")


# --- balance targets outside their measure's range ------------------------------------------------
BALANCE = """
{game}
name = "t"
[balance]
players = {players}
[space]
{space}
[objectives.x]
measure = "{measure}"
{target}
"""


def test_a_balance_target_outside_what_its_measure_can_be_is_refused(tmp_path):
    moai = ("", 'wood_points = { kind = "int", low = 1, high = 3 }')
    rapa = ('game = "rapa-nui"', 'moai_cost = { kind = "int", low = 6, high = 8 }')

    def load(measure: str, target: str, players: str = "[3]", game: tuple[str, str] = moai
             ) -> None:  # fmt: skip
        path = tmp_path / "b.toml"
        path.write_text(BALANCE.format(game=game[0], space=game[1], players=players,
                                       measure=measure, target=target),
                        encoding="utf-8")  # fmt: skip
        load_space(path)

    path = tmp_path / "b.toml"
    refused = [
        ("statues", "at_least = 101", "[3]", moai,
         "objectives.x.at_least = 101 is outside what statues can be: 0 to 100 %"),
        ("Moai", "at_least = 101", "[3]", rapa,
         "objectives.x.at_least = 101 is outside what Moai can be: 0 to 100 %"),
        ("statues", "at_most = -1", "[3]", moai,
         "objectives.x.at_most = -1 is outside what statues can be: 0 to 100 %"),
        ("decisive", "within = 150", "[3]", moai,
         "objectives.x.within = 150 is outside what decisive can be: 0 to 100 %"),
        ("seat0", "at_least = 60", "[2, 4]", moai,
         "objectives.x.at_least = 60 is outside what seat0 can be at 2 and 4 players: -50 to "
         "50 points"),
        ("seat0", "at_most = -30", "[2, 4]", moai,
         "objectives.x.at_most = -30 is outside what seat0 can be at 2 and 4 players: -25 to "
         "75 points"),
        ("seat_rms", "at_least = 48", "[3, 5]", moai,
         "objectives.x.at_least = 48 is outside what seat_rms can be at 3 and 5 players: 0 to "
         "40 points"),
        ("skill", "at_least = 90", "[3]", moai,
         "objectives.x.at_least = 90 is outside what skill can be at 3 players: -33.33 to "
         "66.67 points"),
        ("length", "at_most = 0.5", "[3]", moai,
         "objectives.x.at_most = 0.5 is outside what length can be: at least 1 rounds"),
        ("diversity", 'library = ["greedy", "tuned"]\nat_least = 3', "[3]", moai,
         "objectives.x.at_least = 3 is outside what diversity can be: 1 to 2 strategies"),
    ]  # fmt: skip
    for measure, target, players, game, said in refused:
        with pytest.raises(UserError) as info:
            load(measure, target, players, game)
        assert str(info.value) == f"{path}: {said}"
    # the ends of a range, and a bound that binds at one player count only, are taken
    for measure, target, players in (("statues", "at_least = 100", "[3]"),
                                     ("seat0", "at_least = -30", "[2, 4]"),
                                     ("seat0", "within = 50", "[2]"),
                                     ("length_change", "at_most = -40", "[3]")):  # fmt: skip
        load(measure, target, players)
    for shipped in sorted((ROOT / "experiments").glob("balance*.toml")):
        load_space(shipped)  # every shipped study's targets are in range


# --- Rapa Nui's Game.apply([[a]]) -----------------------------------------------------------------
@pytest.mark.parametrize("game", ["moai", "rapa-nui"])
def test_game_apply_refuses_a_nested_list_for_one_action(game):
    spec = load_game(game)
    g = spec.Game.new(spec.make_rules(3), 5, 0)
    kind, seats, masks = g.legal()
    while kind.value == "bid":  # Moai's bids are card counts: go to a decision of one int
        g.apply(np.zeros((len(seats), masks.shape[-1]), dtype=np.int64))
        kind, seats, masks = g.legal()
    action = int(np.flatnonzero(masks[0])[0])
    said = (
        rf"^{kind.value}: got an array of shape \(1, 1\); expected an integer array of "
        r"shape \(1,\) in game 0$"
    )  # the floor's check, the same words in every game
    with pytest.raises(UserError, match=said):
        g.apply([[action]])
    after_kind, after_seats, after_masks = g.legal()
    assert after_kind is kind and (after_seats == seats).all() and (after_masks == masks).all()
    g.apply(action)  # an int is one action, and so is a list of one
    kind, seats, masks = g.legal()
    g.apply([int(np.flatnonzero(masks[0])[0])])


# --- numpy/scipy warnings from tiny sheets --------------------------------------------------------
TINY_BALANCE = """
game = "rapa-nui"
name = "tiny"
[balance]
players = [3]
trials = 2
population = 2
games = 10
rungs = 1
seed = 5
finalists = 1
jobs = 1
[verify]
games = 10
[adapt]
generations = 1
games = 2
held_out_games = 2
field_games = 10
search_games = 0
[sheet]
games = 10
skill_games = 10
search_games = 0
deals = 2
replays = 2
check_games = 0
[space]
moai_cost = { kind = "int", low = 6, high = 8 }
[objectives.seats]
measure = "seat_rms"
[objectives.seat0]
measure = "seat0"
within = 2
[objectives.moai]
measure = "Moai"
at_least = 5
"""


def test_tiny_rapa_nui_sheets_and_balances_raise_no_numpy_or_scipy_warning(tmp_path):
    # every replay of a deal won by the same seat: the deal's share of the variance is 0 / 0,
    # not computable, in every resample
    y = np.zeros((2, 2, 3))
    y[:, :, 0] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = sheet_measures.luck(y)
        assert got["same_winner"] == 1.0 and got["independent"] == 1.0
        assert all(math.isnan(got[k]) for k in ("deal_share", "deal_share_lo", "deal_share_hi"))
        m = sheet_measures.compared_luck("L3")[1]
        diff = sheet_measures.paired_difference({"y": y}, {"y": y}, m)
        assert math.isnan(diff["diff"]) and math.isnan(diff["lo"]) and math.isnan(diff["hi"])
        for game in ("rapa-nui", "moai"):  # every game: the measures are the toolkit's
            spec = load_game(game)
            settings = SheetSettings(2, 10, 10, 0, 2, 2, 1, against=spec.make_rules(2),
                                     game=game).check()  # fmt: skip
            sh = play_sheet(settings)
            assert sh.compare is not None and len(sh.compare) and len(sh.luck)
        path = tmp_path / "tiny.toml"
        path.write_text(TINY_BALANCE, encoding="utf-8")
        got = run_balance(path, tmp_path / "runs", tmp_path / "reports")
        assert got.report.is_file()


# --- a TOML `game = 3` answered in command-line words ---------------------------------------------
def test_a_file_s_game_key_is_answered_in_the_file_s_words(tmp_path):
    experiment = 'name = "x"\n{game}\n[study]\nplayers = [3]\nstrategies = ["random"]\n'
    balance = BALANCE.format(game="{game}", players="[3]", space='moai_cost = { kind = "int", '
                             'low = 6, high = 8 }', measure="seat0", target="")  # fmt: skip
    for value, said in (("3", "3"), ('"3"', "'3'"), ('"chess"', "'chess'"), ("true", "True")):
        for loader, text in ((load_experiment, experiment), (load_space, balance)):
            path = tmp_path / "f.toml"
            path.write_text(text.replace("{game}", f"game = {value}"), encoding="utf-8")
            with pytest.raises(UserError) as info:
                loader(path)
            assert str(info.value) == (f"{path}: game must be a game's name, one of moai, "
                                       f"rapa-nui, kaivai, got {said}")  # fmt: skip
