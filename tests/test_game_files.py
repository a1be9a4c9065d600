"""Nothing of one game lands in another's files (issue 57, item 4): every file a study writes
names its game (`moaisim.files.GAME_KEY`), and every reader of it refuses a file of another
game with one line that names the file and both games, changing nothing.

The games played here are as few as each writer takes (a handful per study); the sheet, the
report and the field study play a few seconds each."""

from __future__ import annotations

import json
import pickle
import shutil
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from moaisim.analysis import verdicts
from moaisim.analysis.metagame import write_mixture
from moaisim.analysis.report import make_report
from moaisim.cli import main
from moaisim.errors import UnknownStrategyError, UserError
from moaisim.games import load_game
from moaisim.registry import load_strategy
from moaisim.studies import bench, learn, population, tune
from moaisim.studies import certificate_history as ch
from moaisim.studies import certify as cf
from moaisim.studies.experiment import run_experiment
from moaisim.studies.sheet import SheetSettings

ROOT = Path(__file__).resolve().parents[1]
MOAI = ROOT / "strategies" / "moai" / "weights"
RAPA = ROOT / "strategies" / "rapa_nui" / "weights"
#: A sheet's smallest settings (no search: a few seconds).
TINY_SHEET = ["-n", "10", "--skill-games", "10", "--search-games", "0", "--deals", "2",
              "--replays", "2", "--check-games", "0"]  # fmt: skip


def files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (what 'changing nothing' compares)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


def refused(capsys: pytest.CaptureFixture[str], *named: str) -> str:
    """The command's error: one line, naming each of `named` (the file and both games)."""
    err = capsys.readouterr().err.strip()
    assert err.startswith("moaisim: error: ") and len(err.splitlines()) == 1, err
    for name in named:
        assert name in err, (name, err)
    return err


def says_both(exc: pytest.ExceptionInfo[BaseException], path: Path | str, found: str,
              wanted: str) -> None:  # fmt: skip
    """A refusal names the file, the game it is of and the game it was read for."""
    said = str(exc.value)
    assert len(said.splitlines()) == 1, said
    assert str(path) in said and f"of the game {found}, not {wanted}" in said, said


@pytest.fixture(scope="module")
def rapa_certify(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Rapa Nui certify run (its library family, 2 games a rotation) kept in a folder."""
    out = tmp_path_factory.mktemp("rapa") / "certify"
    cf.certify(RAPA / "nash-3p.toml", out, ["library"], games=2, held_out_games=2,
               game="rapa-nui")  # fmt: skip
    return out


# --- sheets ------------------------------------------------------------------------------------
def test_a_rapa_nui_sheet_never_replaces_a_moai_sheet_of_the_same_settings(tmp_path, capsys):
    out = tmp_path / "sheets"
    assert main(["sheet", "-p", "2", "-o", str(out), *TINY_SHEET]) == 0
    held = json.loads((out / "sheet-2p" / "sheet.json").read_text())
    assert held["game"] == "moai" and held["settings"]["game"] == "moai"
    before = files(out)
    capsys.readouterr()
    assert main(["sheet", "--game", "rapa-nui", "-p", "2", "-o", str(out), *TINY_SHEET]) == 2
    refused(capsys, str(out / "sheet-2p"), "of the game moai, not rapa-nui")
    assert files(out) == before


def test_a_sheet_reads_no_field_study_of_the_other_game():
    for game, field, other in (("rapa-nui", "field", "moai"), ("moai", "rapa-nui-field",
                                                                "rapa-nui")):  # fmt: skip
        report = ROOT / "reports" / field
        with pytest.raises(UserError) as exc:
            SheetSettings(2, field=report, game=game).check()
        says_both(exc, report, other, game)


# --- certificate histories ---------------------------------------------------------------------
def test_a_rapa_nui_certify_run_is_never_recorded_in_a_moai_history(tmp_path, capsys,
                                                                     rapa_certify):  # fmt: skip
    state = json.loads((rapa_certify / "certificate-3p.json").read_text())
    assert state["game"] == "rapa-nui"
    table = pd.read_csv(rapa_certify / "certificate-3p.csv")
    assert len(table) == 7 and set(table["game"]) == {"rapa-nui"}
    home = tmp_path / "moai"
    home.mkdir()
    shutil.copy(MOAI / "nash-3p.toml", home / "nash-3p.toml")
    before = files(home)
    assert main(["certificate-history", str(home / "nash-3p.toml"), "--add",
                 str(rapa_certify)]) == 2  # fmt: skip
    refused(capsys, str(rapa_certify / "certificate-3p.csv"), "of the game rapa-nui, not moai")
    assert files(home) == before
    # the same run beside a mixture of its own game is recorded, and the history says its game
    own = tmp_path / "rapa"
    own.mkdir()
    shutil.copy(RAPA / "nash-3p.toml", own / "nash-3p.toml")
    assert main(["certificate-history", str(own / "nash-3p.toml"), "--game", "rapa-nui",
                 "--add", str(rapa_certify)]) == 0  # fmt: skip
    history = json.loads(ch.history_path(own / "nash-3p.toml").read_text())
    assert history["game"] == "rapa-nui" and len(history["runs"]) == 1


def test_a_history_beside_a_mixture_of_the_other_game_is_refused_when_read(tmp_path, capsys):
    rapa = tmp_path / "rapa" / "nash-3p.toml"
    rapa.parent.mkdir()
    shutil.copy(RAPA / "nash-3p.toml", rapa)
    history = ch.history_path(rapa)
    shipped = json.loads(ch.history_path(MOAI / "nash-3p.toml").read_text())
    assert shipped["game"] == "moai"
    unnamed = {k: v for k, v in shipped.items() if k != "game"}  # written before games had names
    for doc in (shipped, unnamed):
        history.write_text(json.dumps(doc))
        before = files(rapa.parent)
        assert main(["certificate-history", str(rapa), "--game", "rapa-nui"]) == 2
        refused(capsys, str(history), "of the game moai, not rapa-nui")
        with pytest.raises(UserError) as exc:
            ch.add(rapa, 3, game="rapa-nui")
        says_both(exc, history, "moai", "rapa-nui")
        assert files(rapa.parent) == before
    # and a Rapa Nui history beside Moai's mixture
    moai = tmp_path / "moai" / "nash-3p.toml"
    moai.parent.mkdir()
    shutil.copy(MOAI / "nash-3p.toml", moai)
    ch.save(moai, ch.History("nash-3p.toml", 3, [], game="rapa-nui"))
    assert json.loads(ch.history_path(moai).read_text())["game"] == "rapa-nui"
    assert main(["certificate-history", str(moai)]) == 2
    refused(capsys, str(ch.history_path(moai)), "of the game rapa-nui, not moai")


def test_the_l3_status_of_a_report_refuses_a_history_of_the_other_game(tmp_path, monkeypatch):
    shutil.copy(ch.history_path(MOAI / "nash-3p.toml"),
                tmp_path / "nash-3p.certificate-history.json")  # fmt: skip
    monkeypatch.setattr(load_game("rapa-nui"), "weights_path", lambda name: tmp_path / name)
    with pytest.raises(UserError) as exc:
        verdicts._history_statuses(3, "0123456789abcdef", "rapa-nui")
    says_both(exc, tmp_path / "nash-3p.certificate-history.json", "moai", "rapa-nui")


def test_certify_refuses_the_other_game_s_mixture_and_its_certificate(rapa_certify):
    with pytest.raises(UserError) as exc:
        cf.shipped_mixture(
            RAPA / "nash-3p.toml", game="moai"
        )  # Moai's members have the same file names
    says_both(exc, RAPA / "nash-3p.toml", "rapa-nui", "moai")
    before = files(rapa_certify)
    with pytest.raises(UserError) as exc:
        cf.certify(
            MOAI / "nash-3p.toml", rapa_certify, ["library"], games=2, held_out_games=2, game="moai"
        )
    says_both(exc, rapa_certify / "certificate-3p.json", "rapa-nui", "moai")
    assert files(rapa_certify) == before


# --- strategies' files: weights, mixtures, models ----------------------------------------------
def test_a_strategy_refuses_a_file_of_the_other_game(tmp_path):
    mix = cf.shipped_mixture(RAPA / "nash-3p.toml", "rapa-nui")
    made = cf.deviations(mix, tmp_path / "deviations", 0.5)
    weights = tmp_path / "deviations" / made[0].spec.split("'")[1].rsplit("/", 1)[1]
    assert tomllib.loads(weights.read_text())["game"] == "rapa-nui"
    assert load_strategy(made[0].spec, "rapa-nui").label == made[0].spec
    with pytest.raises(UnknownStrategyError) as exc:
        load_strategy(f"heuristic(weights={str(weights)!r})")
    says_both(exc, weights, "rapa-nui", "moai")
    with pytest.raises(UserError) as exc:
        tune.start_weights(weights, game="moai")
    says_both(exc, weights, "rapa-nui", "moai")
    # a shipped mixture of the other game: its members' names are Moai's too
    with pytest.raises(UnknownStrategyError) as exc:
        load_strategy(f"mixture(file={str(RAPA / 'nash-3p.toml')!r})")
    says_both(exc, RAPA / "nash-3p.toml", "rapa-nui", "moai")
    # a mixture a study writes names its game, and only its game's strategies play it
    path = write_mixture(tmp_path / "nash-2p.toml", ["greedy", "random"], [0.5, 0.5], 2,
                         game="rapa-nui")  # fmt: skip
    assert tomllib.loads(path.read_text())["game"] == "rapa-nui"
    assert load_strategy(f"mixture(file={str(path)!r})", "rapa-nui").label
    with pytest.raises(UnknownStrategyError) as exc:
        load_strategy(f"mixture(file={str(path)!r})")
    says_both(exc, path, "rapa-nui", "moai")
    with pytest.raises(UserError) as exc:  # nor is it replaced by another game's
        write_mixture(path, ["greedy"], [1.0], 2, game="moai")
    says_both(exc, path, "rapa-nui", "moai")
    # a learned policy's model names its game
    doc = learn.model_doc(3, ["greedy"], [{"constant": 0.0, "trees": []}], {}, game="moai")
    assert doc["game"] == "moai"


def test_tune_keeps_its_game_and_refuses_the_other_game_s_search(tmp_path):
    got = tune.tune(2, "greedy", 1, 1, 2, 3, tmp_path, held_out_games=1, names=["wood", "hg"],
                    game="rapa-nui")  # fmt: skip
    assert tomllib.loads(got.path.read_text())["game"] == "rapa-nui"
    assert got.log.read_text().splitlines()[1].startswith("# game rapa-nui; ")
    assert pickle.loads(got.state.read_bytes())["game"] == "rapa-nui"
    before = files(tmp_path)
    with pytest.raises(UserError) as exc:
        tune.tune(2, "greedy", 1, 2, 2, 3, tmp_path, held_out_games=1, game="moai")
    says_both(exc, got.state, "rapa-nui", "moai")
    assert files(tmp_path) == before


def test_a_population_loop_of_the_other_game_is_refused(tmp_path):
    path = population.state_path(tmp_path, 3)
    population._save(path, population.PopulationResult(3, game="rapa-nui"))
    assert json.loads(path.read_text())["game"] == "rapa-nui"
    before = files(tmp_path)
    with pytest.raises(UserError) as exc:
        population.population(3, ["greedy", "random"], tmp_path, game="moai")
    says_both(exc, path, "rapa-nui", "moai")
    assert files(tmp_path) == before


def test_metagame_names_its_game_and_never_replaces_the_other_game_s_mixture(tmp_path, capsys):
    out = tmp_path / "meta"
    args = ["metagame", "-p", "2", "--library", "greedy,random", "-n", "2", "--bootstrap", "0",
            "-o", str(out)]  # fmt: skip
    assert main([*args, "--game", "rapa-nui"]) == 0
    assert tomllib.loads((out / "nash-2p.toml").read_text())["game"] == "rapa-nui"
    for table in out.glob("*.csv"):
        assert set(pd.read_csv(table)["game"]) == {"rapa-nui"}, table
    assert "Game: `rapa-nui`" in (out / "metagame.md").read_text()
    before = files(out)
    capsys.readouterr()
    assert main(args) == 2
    refused(capsys, str(out / "nash-2p.toml"), "of the game rapa-nui, not moai")
    assert files(out) == before


# --- runs and their reports --------------------------------------------------------------------
def test_a_run_or_report_of_the_other_game_is_never_resumed_or_replaced(tmp_path, capsys):
    runs = {}
    for game in ("moai", "rapa-nui"):
        runs[game] = tmp_path / f"run-{game}"
        assert main(["simulate", "--game", game, "-p", "2", "-n", "4", "--strategies", "greedy",
                     "-o", str(runs[game]), "-q"]) == 0  # fmt: skip
        assert json.loads((runs[game] / "manifest.json").read_text())["game"] == game
    before = files(runs["moai"])
    capsys.readouterr()
    assert main(["simulate", "--game", "rapa-nui", "-p", "2", "-n", "4", "--strategies",
                 "greedy", "-o", str(runs["moai"]), "-q", "--resume"]) == 2  # fmt: skip
    refused(capsys, str(runs["moai"]), "of the game moai, not rapa-nui")
    assert files(runs["moai"]) == before
    report = tmp_path / "report"
    make_report(runs["moai"], report)
    assert json.loads((report / "report.json").read_text())["game"] == "moai"
    written = files(report)
    with pytest.raises(UserError) as exc:
        make_report(runs["rapa-nui"], report)
    says_both(exc, report, "moai", "rapa-nui")
    with pytest.raises(UserError) as exc:  # a check run of the other game
        make_report(runs["moai"], tmp_path / "checked", check=runs["rapa-nui"])
    says_both(exc, runs["rapa-nui"], "rapa-nui", "moai")
    with pytest.raises(UserError) as exc:  # a field study of the other game
        make_report(runs["moai"], tmp_path / "fielded", field=ROOT / "reports" / "rapa-nui-field")
    says_both(exc, ROOT / "reports" / "rapa-nui-field", "rapa-nui", "moai")
    assert files(report) == written
    assert not (tmp_path / "checked").exists() and not (tmp_path / "fielded").exists()


def test_a_field_study_never_replaces_the_other_game_s(tmp_path):
    body = """name = "f"
title = "A tiny field"
[field]
players = [2]
library = ["greedy", "random"]
games = 2
bootstrap = 0
"""
    rapa, moai = tmp_path / "rapa.toml", tmp_path / "moai.toml"
    rapa.write_text('game = "rapa-nui"\n' + body)
    moai.write_text(body)
    runs, reports = tmp_path / "runs", tmp_path / "reports"
    run_experiment(rapa, runs, reports)
    assert json.loads((reports / "f" / "report.json").read_text())["game"] == "rapa-nui"
    assert json.loads((runs / "f" / "field.json").read_text())["game"] == "rapa-nui"
    assert tomllib.loads((runs / "f" / "nash-2p.toml").read_text())["game"] == "rapa-nui"
    assert verdicts.field_report(reports / "f", "rapa-nui") == reports / "f"
    before = files(tmp_path)
    with pytest.raises(UserError) as exc:
        run_experiment(moai, runs, reports)
    says_both(exc, runs / "f", "rapa-nui", "moai")
    shutil.rmtree(runs / "f")  # the report alone is refused too
    before.update(files(tmp_path))
    before = {k: v for k, v in before.items() if not k.startswith("runs/")}
    with pytest.raises(UserError) as exc:
        run_experiment(moai, runs, reports)
    says_both(exc, reports / "f", "rapa-nui", "moai")
    assert files(tmp_path) == before


# --- every other writer names its game ---------------------------------------------------------
def test_versus_and_bench_tables_name_their_game(tmp_path):
    csv = tmp_path / "versus.csv"
    assert main(["versus", "greedy", "--field", "random", "-p", "2", "-n", "2", "--game",
                 "rapa-nui", "--csv", str(csv)]) == 0  # fmt: skip
    assert set(pd.read_csv(csv)["game"]) == {"rapa-nui"}
    cfg = bench.Config(players=(2,), lineups=("greedy",), games=4, reference_games=1,
                       memory=False, game="moai")  # fmt: skip
    bench.report(cfg, "moaisim bench", csv_path=str(tmp_path / "bench.csv"))
    assert set(pd.read_csv(tmp_path / "bench.csv")["game"]) == {"moai"}
    # its command line names another game than the default
    assert bench.Config(game="rapa-nui").args()[-2:] == ["--game", "rapa-nui"]
