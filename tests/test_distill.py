"""Distillation (moaisim.studies.distill, `moaisim distill`): kept positions replay the
teacher's decisions exactly, the fit recovers planted weights from their own decisions, and
bad settings get one line."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from moaisim.cli import main
from moaisim.errors import UserError
from moaisim.registry import load_strategy
from moaisim.strategies.moai import heuristic as h
from moaisim.strategies.moai.heuristic import HeuristicStrategy
from moaisim.studies import distill as d

#: The decisions Moai's `search` searches (bids, epoch picks, work placements, feeding): the
#: kinds these tests imitate (distill itself names no game's kinds).
SEARCHED = ("bid", "pick_epoch", "work", "feed")
#: Four weights moved far from heuristic's defaults (bids, epoch picks, the forest's wood,
#: strength in the fields): the planted teacher.
PLANTED = {"bid_base": -0.5, "pick_draw": 2.5, "wood": 2.0, "field_str": 1.5}


@pytest.fixture(scope="module")
def planted() -> tuple[d.Positions, d.Positions]:
    """A planted heuristic's kept decisions at 3 players against greedy: fitting and
    held-out positions."""
    teacher = load_strategy(HeuristicStrategy, weights=PLANTED)
    return (d.collect(3, teacher, "greedy", 15, 5, kinds=SEARCHED, game="moai"),
            d.collect(3, teacher, "greedy", 15, 6, kinds=SEARCHED, game="moai"))  # fmt: skip


def test_kept_positions_cover_the_searched_kinds_and_only_real_choices(planted):
    pos, _ = planted
    counts = pos.counts()
    assert set(counts) == set(SEARCHED)  # bids, epoch picks, work placements, feeding
    assert sum(counts.values()) == len(pos) > 500
    for seat, games, _answers in pos.parts:
        for pend in games.pending():  # each copy waits for the teacher's decision
            mine = pend.seat == seat
            if pend.kind.value == "bid":
                assert pend.legal[mine].any(axis=1).all()  # a hand to bid from
            else:
                assert (pend.legal[mine].sum(axis=1) > 1).all()  # two legal actions or more
    assert {seat for seat, _, _ in pos.parts} == {0, 1, 2}  # the teacher's seat rotates


def test_a_teacher_agrees_with_itself_on_every_kept_decision(planted):
    # the copies are taken before the teacher answers: the same view, the same stream
    pos, held = planted
    for p in (pos, held):
        share, by_kind = d.agreement(p, {**h.defaults(), **PLANTED})
        assert share == 1.0 and set(by_kind.values()) == {1.0}


def test_every_kind_is_kept_by_default_and_only_the_kinds_asked_for_otherwise():
    every = d.collect(2, "greedy", "random", 2, 1, game="moai").counts()
    # the searched kinds, and births, rests, statues... (a weight only they use is anchored)
    assert {"bid", "pick_epoch", "work", "birth", "rest", "finish_moai"} <= set(every)
    some = d.collect(2, "greedy", "random", 2, 1, kinds=["bid", "feed"], game="moai").counts()
    assert set(some) <= {"bid", "feed"} and some["bid"] == every["bid"]


def test_another_strategy_agrees_less(planted):
    pos, _ = planted
    share, by_kind = d.agreement(pos, h.defaults())
    assert share < 0.8
    assert by_kind["bid"] == 0.0  # bid_base -2.5 against -0.5: never the same cards
    assert d.agreement(pos, load_strategy("greedy"))[0] < 0.8


def test_distillation_recovers_planted_weights_from_their_decisions(planted):
    pos, held = planted
    got = d.fit(pos, None, list(PLANTED), generations=12, popsize=10, seed=1)
    assert got.start_agreement < 0.8 and got.agreement >= 0.97
    share, _ = d.agreement(held, got.weights)  # decisions of other games
    assert share >= 0.97
    scales = np.array([h.SCALES[h.INDEX[k]] for k in PLANTED])
    want = np.array(list(PLANTED.values())) / scales
    start = np.array([h.defaults()[k] for k in PLANTED]) / scales
    fitted = np.array([got.weights[k] for k in PLANTED]) / scales
    # every weight moved towards its planted value, and the whole at least half the way
    assert (np.sign(fitted - start) == np.sign(want - start)).all()
    assert np.linalg.norm(fitted - want) <= 0.5 * np.linalg.norm(start - want)
    # weights not named stay at the start
    assert all(got.weights[k] == h.defaults()[k] for k in h.NAMES if k not in PLANTED)


def test_distill_writes_a_weights_file_that_plays_and_reuses_its_positions(tmp_path):
    said: list[str] = []
    got = d.distill(2, tmp_path, teacher="heuristic(weights={'bid_base': -0.5})",
                    field_="L1", games=4, held_out_games=2, names=["bid_base", "bid_hand"],
                    generations=2, popsize=4, seed=3, strength_games=5, progress=said.append,
                    command="moaisim distill (test)", game="moai")  # fmt: skip
    assert got.path == tmp_path / "distilled-2p.toml"
    doc = tomllib.loads(got.path.read_text(encoding="utf-8"))
    notes = doc["distilled"]
    assert notes["teacher"] == "heuristic(weights={'bid_base': -0.5})"
    assert notes["field"] == "greedy"  # L1 at 2 players
    assert notes["held_out_seed"] == 4 and notes["decisions"] == got.decisions > 0
    assert notes["strength_games"] == 10  # 5 a seat rotation, 2 seats
    assert 0 <= notes["win_share"] <= 1
    assert doc["weights"]["bid_base"] == got.fit.weights["bid_base"]
    load_strategy(f"heuristic(weights={got.path})")  # plays as a weights file
    kept = sorted(tmp_path.glob("positions-*.pkl"))
    assert len(kept) == 2  # fitting and held-out positions
    said.clear()
    again = d.distill(2, tmp_path, teacher="heuristic(weights={'bid_base': -0.5})",
                      field_="L1", games=4, held_out_games=2, names=["bid_base", "bid_hand"],
                      generations=2, popsize=4, seed=3, strength_games=0,
                      progress=said.append, game="moai")  # fmt: skip
    assert sum("reused" in m for m in said) == 2
    assert again.fit.weights == got.fit.weights and again.strength is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games must be a positive whole number"),
        ({"held_out_games": -1}, "held-out games must be a positive whole number"),
        ({"kinds": ["work", "dance"]}, "unknown decision kinds dance"),
        ({"names": ["bid_base", "nope"]}, "unknown weights nope"),
        ({"generations": 0}, "generations must be a whole number of at least 1"),
        ({"teacher": "nobody"}, "nobody"),
        ({"strength_games": -2}, "strength games must be a whole number"),
    ],
)
def test_bad_settings_are_one_line_and_write_nothing(tmp_path, kwargs, message):
    out = tmp_path / "d"
    settings = {"games": 2, "held_out_games": 1, "generations": 1, "strength_games": 0,
                **kwargs}  # fmt: skip
    with pytest.raises(UserError, match=message) as err:
        d.distill(2, out, **settings, game="moai")
    assert "\n" not in str(err.value)
    assert not list(out.glob("*.toml"))


def test_cli_distill_prints_the_agreement_and_refuses_bad_input(tmp_path, capsys):
    code = main(["distill", "-p", "2", "--out", str(tmp_path), "--teacher", "greedy",
                 "--field", "random", "-n", "3", "--held-out-games", "2", "--weights",
                 "bid_base,bid_hand", "--generations", "1", "--popsize", "3",
                 "--strength-games", "0"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "agreement with the teacher" in out and "distilled-2p.toml" in out
    code = main(["distill", "-p", "2", "--out", str(tmp_path / "x"), "--kinds", "nap"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "unknown decision kinds nap" in err
