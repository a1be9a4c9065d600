"""The command line: play, variants, strategies; one-line errors with exit code 2."""

from __future__ import annotations

import json

import pytest

import moaisim
from moaisim.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_prints_rounds_and_scores(capsys):
    code, out, err = run(
        capsys, "play", "--players", "5", "--seed", "11", "--variant", "short+fixed-disasters"
    )
    assert code == 0 and err == ""
    assert "variant short+fixed-disasters" in out
    for word in (
        "== Round 1 ==",
        "hill order",
        "Epoch:",
        "Work:",
        "Feeding:",
        "Review:",
        "Final scores",
        "Winner:",
    ):
        assert word in out


def test_play_is_reproducible_and_game_index_matters(capsys):
    a = run(capsys, "play", "--seed", "3", "--index", "2")[1]
    b = run(capsys, "play", "--seed", "3", "-i", "2", "--game", "moai")[1]
    c = run(capsys, "play", "--seed", "3", "--index", "1")[1]
    assert a and a == b and a != c


def test_play_index_replays_that_game_of_the_seed(capsys):
    code, out, err = run(capsys, "play", "--index", "2", "--seed", "1", "--json")
    assert code == 0 and err == ""
    header = json.loads(out.splitlines()[0])
    assert header["seed"] == 1 and header["game"] == 2
    record = moaisim.play(4, 1, game=2)
    assert out == record.jsonl()


def test_play_json_is_one_object_per_line(capsys):
    code, out, _ = run(
        capsys,
        "play",
        "--players",
        "3",
        "--seed",
        "9",
        "--json",
        "--strategies",
        "greedy,random,greedy",
    )
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["e"] == "game" and lines[0]["seed"] == 9 and lines[0]["players"] == 3
    assert lines[0]["strategies"] == ["greedy", "random", "greedy"]
    assert lines[1]["e"] == "setup" and lines[-1]["e"] == "end"
    assert any(line["e"] == "decision" for line in lines)


def test_rule_options_reach_the_game(capsys):
    out = run(
        capsys,
        "play",
        "--players",
        "3",
        "--seed",
        "4",
        "--json",
        "--turn-order",
        "clockwise",
        "--volcano-after-moai",
        "camp",
    )[1]
    header = json.loads(out.splitlines()[0])
    assert header["options"] == {
        "turn_order": "clockwise",
        "volcano_after_moai": "camp",
        "spent_wood": "supply",
    }


def test_variants_and_strategies_listed(capsys):
    out = run(capsys, "variants")[1]
    for name in (
        "base",
        "open-pawns",
        "open-bidding",
        "short",
        "open-bidding-strict",
        "fixed-disasters",
        "turn-order",
    ):
        assert name in out
    out = run(capsys, "strategies")[1]
    assert "greedy" in out and "random" in out


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--players", "6"],
        ["play", "--players", "1"],
        ["play", "--variant", "bogus"],
        ["play", "--strategies", "nobody"],
        ["play", "--strategies", "greedy,random,greedy,random,greedy"],
        ["play", "--components", "/no/such/file.toml"],
        ["play", "--turn-order", "sideways"],
        ["play", "--seed", "-3"],
        ["play", "--players", "four"],
        ["play", "--no-such-flag"],
        ["nonsense"],
    ],
)
def test_user_mistakes_one_line_exit_2(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("moaisim: error: ") and err.count("\n") == 1


def test_bad_rules_file_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[board]\nfields = 16\nmystery = 1\n")
    code, _, err = run(capsys, "play", "--components", str(bad))
    assert code == 2 and "unknown key board.mystery" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "6"],
        ["--players", "1,2"],
        ["--players", "2,x"],
        ["--lineups", "nobody"],
        ["--games", "0"],
        ["--reference-games", "-1"],
        ["--games", "5", "--reference-games", "10"],
        ["--memory-games", "0,100"],
        ["--memory-players", "9"],
        ["--games", "many"],
        ["--csv", "/no/such/dir/bench.csv"],
        ["--no-memory", "--games", "2", "--reference-games", "1", "--runner-games", "-1"],
        ["--no-memory", "--games", "2", "--reference-games", "1", "--runner-jobs", "0"],
    ],
)
def test_bench_mistakes_one_line_exit_2(capsys, args):
    code, out, err = run(capsys, "bench", *args)
    assert code == 2
    assert out == ""
    assert err.startswith("moaisim: error: ") and err.count("\n") == 1


def test_bench_prints_a_table_and_writes_files(capsys, tmp_path):
    md, csv = tmp_path / "bench.md", tmp_path / "bench.csv"
    code, out, err = run(
        capsys,
        "bench",
        "--players",
        "2,3",
        "--lineups",
        "random",
        "--games",
        "8",
        "--reference-games",
        "1",
        "--no-memory",
        "--markdown",
        str(md),
        "--csv",
        str(csv),
        "--runner-games",
        "0",
        "--runner-speedup-games",
        "0",
    )
    assert code == 0
    assert out.startswith("Command: `moaisim bench --players 2,3 --lineups random --games 8")
    assert "| 2 | random | 8 |" in out and "| 3 | random | 8 |" in out
    assert err.count("\n") == 2 and err.startswith("2p random: batch ")
    assert md.read_text() == out
    assert len(csv.read_text().splitlines()) == 3


@pytest.mark.slow
def test_bench_times_the_runner_in_fresh_processes(capsys, tmp_path):
    md = tmp_path / "bench.md"
    code, out, err = run(capsys, "bench", "--players", "2", "--lineups", "random", "--games",
                         "4", "--reference-games", "1", "--no-memory", "--runner-games", "30",
                         "--runner-speedup-games", "20", "--markdown", str(md))  # fmt: skip
    assert code == 0
    assert "runner: 20 games, --jobs 1" in err and "runner: 30 games, --jobs 2" in err
    rows = [line for line in out.splitlines() if line.startswith("| 20 |") or
            line.startswith("| 30 |")]  # fmt: skip
    assert [r.split("|")[2].strip() for r in rows] == ["1", "2", "2"]  # jobs of each run
    # one chunk per run here (default chunk size 5 000), so one worker plays it
    assert [r.split("|")[5].strip() for r in rows] == ["1", "1", "1"]
    assert "Speed-up from --jobs 1 to --jobs 2: " in out
    assert md.read_text() == out


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "3", "--seed", "5", "--index", "2", "--strategies", "greedy,random,greedy"],
        ["--players", "5", "--seed", "11", "--variant", "short+fixed-disasters"],
        ["--players", "2", "--seed", "4", "--json"],
    ],
)
def test_play_batch_engine_prints_the_reference_log(capsys, args):
    ref = run(capsys, "play", *args)
    same = run(capsys, "play", "--engine", "reference", *args)
    batch = run(capsys, "play", "--engine", "batch", *args)
    assert ref[0] == 0 and ref[1]
    assert batch == ref == same


def test_play_unknown_engine_one_line(capsys):
    code, out, err = run(capsys, "play", "--engine", "warp")
    assert code == 2 and out == "" and err.count("\n") == 1 and "unknown engine" in err


def test_play_summary_is_a_line_per_round_and_agrees_with_the_results(capsys):
    assert main(["play", "-p", "4", "-s", "1", "--strategies", "greedy,greedy,random,greedy",
                 "--summary"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    rec = moaisim.play(4, seed=1, strategies="greedy,greedy,random,greedy")
    rounds = [line for line in out.splitlines() if line.startswith("Round ")]
    assert len(rounds) == int(rec.result["rounds"].iloc[0])
    assert all(line.startswith(f"Round {k}: bird-man P") for k, line in enumerate(rounds, 1))
    carved = sum(line.count(" carves ") for line in rounds)
    assert carved == int(rec.result["moai_finished"].sum())
    births = sum(int(b) for line in rounds for b in _counts(line, "births"))
    assert births == int(rec.result["births"].sum())
    assert "Final scores" in out and len(out.splitlines()) < 25
    assert out.count("\n") < rec.text().count("\n") / 5


def _counts(line: str, label: str) -> list[int]:
    """The counts a summary line gives after `label` ('births P0, P2 x2' -> [1, 2])."""
    part = next((p for p in line.split("; ") if p.startswith(label + " ")), "")
    items = part[len(label) + 1 :].split(", ") if part else []
    return [int(x.split(" x")[1]) if " x" in x else 1 for x in items]


def test_report_takes_a_field_study_and_margins_and_refuses_bad_ones(tmp_path, capsys):
    import pandas as pd

    run = tmp_path / "run"
    moaisim.simulate(3, 60, variants=["base", "short"], lineups=["greedy"], seed=3,
                     out=run)  # fmt: skip
    field = tmp_path / "field"
    field.mkdir()
    (field / "report.md").write_text("# field\n")
    pd.DataFrame([{"invader": "tuned", "resident": "greedy", "share": 0.9, "lo": 0.85,
                   "fair": 1 / 3}]).to_csv(field / "invasion-3p.csv", index=False)  # fmt: skip
    out = tmp_path / "rep"
    args = ["report", str(run), "--out", str(out), "--field", str(field), "--margin", "share=0.05"]
    assert main(args) == 0
    found = pd.read_csv(out / "tables" / "verdicts.csv")
    assert found["flags"].str.contains("exploitable: tuned gains").all()
    assert "exploitable: tuned gains" in (out / "report.md").read_text()
    variants = pd.read_csv(out / "tables" / "variants.csv").set_index("metric")
    assert variants.loc["first bird-man win share", "margin"] == 0.05
    assert "--field" in (out / "report.md").read_text()
    capsys.readouterr()
    for bad in (["--margin", "share"], ["--margin", "share=-1"], ["--field", str(tmp_path)]):
        assert main(["report", str(run), "--out", str(tmp_path / "other"), *bad]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("moaisim: error:") and len(err.splitlines()) == 1
        assert not (tmp_path / "other").exists()


# --- the games and --game ---------------------------------------------------------------------


def _commands() -> list[str]:
    """Every command of the app, by name."""
    import typer

    from moaisim.cli import app

    return sorted(typer.main.get_command(app).commands)


def test_games_lists_moai_with_its_title(capsys):
    code, out, err = run(capsys, "games")
    assert code == 0 and err == ""
    first = out.splitlines()[0]
    assert first.startswith("moai") and "Moai" in first and "2-5 players" in first
    code, out, _ = run(capsys, "games", "--json")
    rows = json.loads(out)
    moai = next(r for r in rows if r["name"] == "moai")
    assert code == 0 and moai["title"] == "Moai" and moai["players"] == [2, 3, 4, 5]
    assert moai["strategies"] > 0 and moai["summary"]


@pytest.mark.parametrize("command", _commands())
def test_every_command_takes_game(command):
    """--game is on every command; moai is the default where the command plays a game."""
    import typer

    from moaisim.cli import app

    cmd = typer.main.get_command(app).commands[command]
    options = {o: p for p in cmd.params for o in p.opts}
    assert "--game" in options, f"{command} has no --game"
    default = options["--game"].default
    if callable(default):  # a default_factory: the command line applies moai here
        default = default()
    assert default in ("moai", None)
    assert "-g" not in options


@pytest.mark.parametrize(
    "args",
    [["play"], ["variants"], ["rules", "--path"], ["events"], ["strategies"]],
)
def test_game_moai_is_accepted(capsys, args):
    plain = run(capsys, *args)
    named = run(capsys, *args, "--game", "moai")
    assert plain[0] == 0 and named == plain


def test_games_lists_every_game_and_with_game_only_that_one(capsys):
    code, every, _ = run(capsys, "games")
    names = [line.split()[0] for line in every.splitlines() if not line.startswith(" ")]
    assert code == 0 and names == ["moai", "rapa-nui", "kaivai"]
    code, one, _ = run(capsys, "games", "--game", "rapa-nui")
    assert code == 0 and one.splitlines()[0].startswith("rapa-nui") and "moai " not in one


@pytest.mark.parametrize("command", _commands())
@pytest.mark.parametrize("value, said", [("3", "--index 3"), ("nosuch", "unknown game 'nosuch'")])
def test_game_number_or_unknown_name_one_line(capsys, tmp_path, monkeypatch, command, value,
                                              said):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    args = {"replay": ["-"], "report": ["run", "--out", "r"], "experiment": ["x.toml"],
            "balance": ["x.toml"], "certify": ["nash-3p.toml", "--out", "c"],
            "tune": ["--players", "3"], "distill": ["--players", "3", "--out", "d"],
            "tune-search": ["--out", "t"], "simulate": ["-p", "3", "-n", "10"]}  # fmt: skip
    code, out, err = run(capsys, command, *args.get(command, []), "--game", value)
    assert code == 2 and out == "" and err.count("\n") == 1, (command, err)
    assert err.startswith("moaisim: error: ") and said in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_replay_checks_the_logs_game(capsys, tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_text(moaisim.play(3, 2).jsonl())
    code, out, err = run(capsys, "replay", str(log), "--game", "moai", "--summary")
    assert code == 0 and "Winner" in out


def test_rule_option_of_the_game(capsys):
    code, out, err = run(capsys, "play", "--turn-order", "sideways")
    assert code == 2 and out == "" and err.count("\n") == 1
