"""The tuner (`moaisim.studies.tune`): seat rotation, win shares and their intervals, the
search, its files, and interrupt-safe resume. Searches here are tiny (2 players, a few games and
generations) so that they take seconds."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from moaisim.errors import UserError
from moaisim.registry import load_strategy
from moaisim.strategies.moai import heuristic as h
from moaisim.studies.tune import lineups, rotated, strength, tune


def test_lineups_put_the_candidate_in_every_seat_and_keep_the_field_in_order():
    got = [
        [s.label for s in lineup]
        for lineup in lineups(4, "random", ["greedy", "moai"], game="moai")
    ]
    text = [
        [s.label for s in lineup] for lineup in lineups(4, "random", "greedy, moai", game="moai")
    ]
    assert (
        text
        == got
        == [
            ["random", "greedy", "moai", "greedy"],
            ["greedy", "random", "moai", "greedy"],
            ["greedy", "moai", "random", "greedy"],
            ["greedy", "moai", "greedy", "random"],
        ]
    )


def test_rotated_games_are_the_same_deals_in_every_rotation():
    df = rotated(3, "random", "greedy", [5, 9], seed=4, game="moai")
    assert sorted(df["rotation"].unique()) == [0, 1, 2]
    assert (df[df.seat == df.rotation]["strategy"] == "random").all()
    assert (df[df.seat != df.rotation]["strategy"] == "greedy").all()
    assert df.groupby("rotation")["game"].apply(sorted).map(tuple).nunique() == 1


def test_a_strategy_against_copies_of_itself_wins_exactly_one_in_p():
    """Seats rotated over the same deals, every seat playing greedy: each game is played
    P times identically, so the share is 1/P with shared wins split (common random
    numbers leave no noise)."""
    for players in (2, 3, 5):
        s = strength(players, "greedy", "greedy", 40, seed=3, game="moai")
        assert s.share == pytest.approx(1 / players)
        assert s.games == 40 * players and s.low < 1 / players < s.high


def test_shares_split_shared_wins():
    # random against random at 2 players ties now and then (scores of a starving clan)
    got = rotated(2, "random", "random", 30, seed=8, table=False, game="moai")
    assert isinstance(got, np.ndarray) and got.shape == (2, 2, 30)
    share = got[0]
    assert set(np.unique(share)) == {0.0, 0.5, 1.0}  # losses, shared wins and wins all occur
    df = rotated(2, "random", "random", 30, seed=8, game="moai")
    tied = df.groupby(["rotation", "game"])["win"].sum() == 2
    assert tied.any() and (share[tuple(np.array(tied[tied].index.tolist()).T)] == 0.5).all()
    mine = df[df.seat == df.rotation].sort_values(["rotation", "game"])
    winners = (
        df.groupby(["rotation", "game"])["win"]
        .sum()
        .loc[list(zip(mine.rotation, mine.game, strict=True))]
    )
    np.testing.assert_allclose(share.ravel(), mine["win"].to_numpy() / winners.to_numpy())


# --- the search ----------------------------------------------------------------------------

TINY = dict(
    games=4, popsize=4, seed=5, held_out_games=4, names=["wood", "starve", "bid_base"], game="moai"
)


def test_tune_writes_weights_that_record_how_they_were_made(tmp_path):
    seen = []
    r = tune(2, "greedy", generations=2, out=tmp_path, progress=seen.append, **TINY)
    assert [p.phase for p in seen] == ["search", "search", "held-out", "done"]
    assert [p.generation for p in seen[:2]] == [1, 2] and seen[0].evaluations == 5
    assert seen[-1].held_out == r.held_out and seen[0].held_out is None
    doc = tomllib.loads(r.path.read_text())
    assert r.path == tmp_path / "tuned-2p.toml" and list(doc["weights"]) == list(h.NAMES)
    notes = doc["tuned"]
    said = "moaisim tune --game moai --players 2 --field greedy --games 4 "
    assert notes["command"].startswith(said)
    assert notes["field"] == ["greedy"] and notes["seed"] == 5 and notes["generations"] == 2
    assert notes["held_out_seed"] == 6 and notes["held_out_games"] == 8
    assert notes["held_out_win_share"] == pytest.approx(r.held_out.share, abs=1e-4)
    low, high = notes["held_out_interval"]
    assert low <= r.held_out.share <= high
    # only the named weights moved; the file plays as heuristic(weights=file)
    for name in h.NAMES:
        if name not in TINY["names"]:
            assert doc["weights"][name] == pytest.approx(h.defaults()[name], rel=1e-3)
    spec = load_strategy(f"heuristic(weights={r.path})")
    np.testing.assert_allclose(spec().w, [r.weights[k] for k in h.NAMES])
    log = r.log.read_text().splitlines()
    assert log[0] == "# " + notes["command"]
    assert [line.split()[0] for line in log[2:4]] == ["1", "2"]
    assert log[-1].startswith("# held-out (seed 6, 8 games)")


def test_an_interrupted_search_resumes_to_the_same_result(tmp_path):
    whole = tune(2, "greedy", generations=2, out=tmp_path / "whole", **TINY)

    def stop_after_first(p):  # the user presses ctrl-C during generation 2
        if p.generation == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tune(2, "greedy", generations=2, out=tmp_path / "cut", progress=stop_after_first, **TINY)
    assert not (tmp_path / "cut" / "tuned-2p.toml").exists()
    assert (tmp_path / "cut" / "tuned-2p.state").exists()
    resumed_at = []

    def note(p):
        resumed_at.append((p.generation, p.resumed))

    again = tune(2, "greedy", generations=2, out=tmp_path / "cut", progress=note, **TINY)
    assert resumed_at[0] == (2, True)
    assert again.weights == whole.weights
    strip = [{k: v for k, v in row.items() if k != "seconds"} for row in whole.history]
    assert [{k: v for k, v in row.items() if k != "seconds"} for row in again.history] == strip
    assert again.held_out == whole.held_out
    # a finished search resumed with more generations goes on from where it ended
    more = tune(2, "greedy", generations=3, out=tmp_path / "cut", **TINY)
    assert len(more.history) == 3 and more.history[:2] == again.history


def test_resume_refuses_another_search_and_bad_arguments(tmp_path):
    tune(2, "greedy", generations=1, out=tmp_path, **TINY)
    with pytest.raises(UserError, match="holds another search"):
        tune(2, "random", generations=1, out=tmp_path, **TINY)
    tune(2, "random", generations=1, out=tmp_path, resume=False, **TINY)  # starts again
    with pytest.raises(UserError, match="objective must be one of"):
        tune(2, "greedy", objective="score", out=tmp_path, **TINY)
    with pytest.raises(UserError, match="unknown weights"):
        tune(2, "greedy", out=tmp_path, **{**TINY, "names": ["wod"]})
    with pytest.raises(UserError, match="held_out_seed must differ"):
        tune(2, "greedy", out=tmp_path, held_out_seed=5, **{**TINY})


def test_the_tune_command_runs_a_search_and_refuses_mistakes_in_one_line(tmp_path, capsys):
    from moaisim.cli import main

    out = tmp_path / "w"
    args = ["tune", "-p", "2", "--games", "4", "--generations", "1", "--popsize", "4",
            "--held-out-games", "4", "--seed", "5", "--names", "wood,starve",
            "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    said = capsys.readouterr()
    assert "generation 1/1: best" in said.err and "held-out win share: tuned" in said.out
    doc = tomllib.loads((out / "tuned-2p.toml").read_text())
    assert doc["tuned"]["command"] == "moaisim " + " ".join(args)
    assert doc["tuned"]["generations"] == 1 and doc["tuned"]["held_out_games"] == 8
    again = [*args]
    again[again.index("--generations") + 1] = "2"  # an option is given once
    assert main([*again, "-q"]) == 0  # resumes: one more generation
    log = (out / "tuned-2p.log").read_text().splitlines()
    assert [line.split()[0] for line in log[2:4]] == ["1", "2"]
    assert capsys.readouterr().err == ""
    bad = [
        (["--players", "7"], "players must be from 2 to 5"),
        (["--names", "wod"], "unknown weights wod"),
        (["--objective", "score"], "objective must be one of win, rank"),
        (["--field", "nobody"], "nobody"),
        (["--games", "0"], "games must be a positive integer"),
    ]
    for extra, message in bad:
        where = tmp_path / "bad"
        players = [] if extra[0] == "--players" else ["-p", "3"]  # an option is given once
        assert main(["tune", *players, "--out", str(where), *extra]) == 2
        err = capsys.readouterr().err
        assert err.startswith("moaisim: error: ") and message in err and err.count("\n") == 1
        assert not where.exists()


def test_a_weights_file_names_shipped_files_by_their_path_in_the_checkout(tmp_path):
    """A weights file may be shipped: the mixture it was tuned against is named as a checkout
    has it (strategies/moai/weights/nash-4p.toml), never by this machine's absolute path."""
    from moaisim.files import CHECKOUT
    from moaisim.studies.tune import write_weights_file

    mixture = f"mixture(file='{CHECKOUT}/strategies/moai/weights/nash-4p.toml')"
    path = tmp_path / "w.toml"
    write_weights_file(path, {"wood": 1.0}, "tuned",
                       {"command": f"moaisim certify {CHECKOUT}/strategies/moai/weights/"
                                   "nash-4p.toml",
                        "field": [mixture], "games": 4},
                       [f"# Held-out strength against {mixture}"], game="moai")  # fmt: skip
    said = path.read_text()
    assert str(CHECKOUT) not in said
    assert "mixture(file='strategies/moai/weights/nash-4p.toml')" in said
    assert 'command = "moaisim certify strategies/moai/weights/nash-4p.toml"' in said
