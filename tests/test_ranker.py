"""The learned ranker (engine/compiled/learned.py `RANKER`, strategies/moai/learned.py mode
"ranker") and its expert iteration (moaisim/studies/rank.py): every expert proposes once, a
planted ensemble's choice is the candidate its trees say, both engines play the same games,
scikit-learn's trees are copied exactly, the study's check catches a ranker that plays
otherwise than its trees, and a small expert iteration runs end to end (issue 59)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from moaisim.errors import UnknownStrategyError, UserError
from moaisim.games.moai.engine.compiled.answer import context_features
from moaisim.games.moai.engine.compiled.learned import CONTEXT, MAX_EXPERTS, N_CONTEXT, RANK
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.rules import Rules
from moaisim.registry import load_strategy
from moaisim.strategies.moai.learned import LearnedStrategy
from moaisim.studies import learn as ln
from moaisim.studies import rank as rk
from tests.test_batch_equivalence import assert_same_games

COL = {name: k for k, name in enumerate(RANK)}
BY = [COL[f"by_{e}"] for e in range(MAX_EXPERTS)]
BIDS = [COL[f"bid_{t}"] for t in range(6)]
MARGINS = [COL[f"margin_{e}"] for e in range(MAX_EXPERTS)]


def ranker(path: Path, experts: list[str], trees: list[dict], players: int = 3,
           constant: float = 0.0, kinds: list[str] | None = None) -> str:  # fmt: skip
    """A ranker's model file (as `moaisim learn --mode ranker` writes it; `kinds` None: the
    kinds search searches); its spec."""
    doc = rk.ranker_doc(players, experts, {"constant": constant, "trees": trees}, {}, "moai",
                        kinds)  # fmt: skip
    return rk.write_model(path, doc)


def stump(feature: int, threshold: float, low: float, high: float) -> dict:
    """One tree: x[feature] <= threshold -> low, else high."""
    return {"feature": [feature, -1, -1], "threshold": [threshold, 0.0, 0.0],
            "left": [1, -1, -1], "right": [2, -1, -1], "value": [0.0, low, high]}  # fmt: skip


def asked(spec: str, players: int, seed: int, games: int, field: str = "greedy") -> list:
    """Every decision the ranker (seat 0) is asked through views in games against the field:
    (kind, the view's context, its candidates' rows, the row chosen) per game; the
    candidates themselves are checked against their rows' columns."""
    cls = load_strategy(spec).cls
    seen: list[tuple[Kind, np.ndarray, list[np.ndarray], np.ndarray]] = []

    def ask(self: Any, view: Any) -> Any:
        rows, cands, chosen = self.candidates(view)
        for x, got in zip(rows, cands, strict=True):
            want = x[:, BIDS] if view.kind is Kind.BID else x[:, COL["action"]]
            assert np.array_equal(np.asarray(got, dtype=float).reshape(want.shape), want)
        seen.append((view.kind, context_features(view), rows, chosen))
        return cls.by_policy(self, view)

    probe = type("Probe", (cls,), {k.value: ask for k in Kind})
    made = load_strategy(spec)
    seats = [probe(**dict(made.params))] + [load_strategy(field)() for _ in range(players - 1)]
    Games.new(Rules.make(players), seed, np.arange(games)).play(seats)
    return seen


def test_every_expert_proposes_once_and_no_tree_plays_the_first(tmp_path):
    every = [k.value for k in Kind]  # every kind ranked: every expert asked at each
    spec = ranker(tmp_path / "r.json", ["greedy", "tuned", "forester"], [], kinds=every)
    seen = asked(spec, 3, 5, 4)
    kinds = {k for k, *_ in seen}
    assert Kind.BID in kinds and Kind.WORK in kinds and Kind.FEED in kinds
    several, margins = 0, {}
    for kind, ctx, rows, chosen in seen:
        assert (chosen == 0).all()  # no tree: every candidate worth the constant, the first
        for r, x in enumerate(rows):
            m = len(x)
            assert 1 <= m <= 3
            several += m > 1
            bits = x[:, BY]
            assert (bits.sum(axis=0) == [1, 1, 1] + [0] * (MAX_EXPERTS - 3)).all()
            assert x[0, BY[0]] == 1  # the first expert's proposal comes first
            assert (x[:, COL["proposers"]] == bits.sum(axis=1)).all()
            assert (x[:, COL["candidates"]] == m).all()
            assert (x[:, :N_CONTEXT] == ctx[r]).all()  # the seat's context, every row
            assert (x[:, MARGINS[3:]] == 0).all()  # no expert 3...
            if kind is Kind.BID:  # R3.3: a bid's cards, its count
                assert (x[:, MARGINS] == 0).all()
                assert (x[:, COL["action"]] == -1).all()
                assert (x[:, COL["bid_cards"]] == x[:, BIDS].sum(axis=1)).all()
                assert len({tuple(v) for v in x[:, BIDS].tolist()}) == m  # distinct
            else:
                assert (x[:, BIDS] == 0).all()
                assert len(set(x[:, COL["action"]].tolist())) == m
                # an expert's own proposal is worth its own score: margin 0; the others at
                # most a tie's width above it (an expert takes the best up to ties)
                for e in range(3):
                    assert x[x[:, BY[e]] == 1, MARGINS[e]].tolist() == [0.0]
                    margins[kind] = min(margins.get(kind, 0.0), x[:, MARGINS[e]].min())
                assert (x[:, MARGINS[:3]] <= 1e-3 * np.maximum(1, np.abs(x[:, MARGINS[:3]]))).all()
    assert several > 20  # the experts often disagree
    assert margins[Kind.WORK] < 0 and margins[Kind.FEED] < 0  # and score others' choices lower


def test_a_planted_ranker_plays_the_candidate_its_trees_value_most(tmp_path):
    # worth 1 when tuned (expert 1) proposed it; among bids, one more per card spent
    trees = [stump(BY[1], 0.5, 0.0, 1.0)]
    trees += [stump(COL["bid_cards"], k + 0.5, 0.0, 0.01) for k in range(12)]
    spec = ranker(tmp_path / "r.json", ["greedy", "tuned", "moai"], trees)
    ranked = {Kind.BID, Kind.PICK_EPOCH, Kind.WORK, Kind.FEED}  # search's kinds, by default
    unranked = 0
    for kind, _, rows, chosen in asked(spec, 3, 9, 4):
        for x, c in zip(rows, chosen, strict=True):
            if kind not in ranked:  # only the first expert asked, whatever the trees say
                assert c == 0 and len(x) == 1 and x[0, BY[0]] == 1
                assert x[0, COL["proposers"]] == 1
                unranked += 1
            elif kind is Kind.BID:
                worth = x[:, BY[1]] + 0.01 * np.minimum(x[:, COL["bid_cards"]], 12)
                assert c == int(np.argmax(worth))
            else:
                assert x[c, BY[1]] == 1
    assert unranked > 0


@pytest.mark.parametrize("players", [2, 4])
def test_both_engines_play_the_same_ranker_games(tmp_path, players):
    trees = [stump(BY[1], 0.5, 0.0, 0.3), stump(COL["round"], 3.5, 0.2, -0.1),
             stump(COL["bid_cards"], 1.5, 0.1, -0.2), stump(BY[2], 0.5, 0.0, 0.25)]  # fmt: skip
    spec = ranker(tmp_path / "r.json", ["greedy", "tuned", "forester"], trees, players)
    lineup = [spec, "tuned", "greedy", spec][:players]
    assert_same_games(Rules.make(players), lineup, 31, [2, 7, 40], [7])


def test_the_exported_trees_are_scikit_learns_predictions():
    rng = np.random.default_rng(8)
    n = 900
    x = rng.integers(-3, 12, size=(n, len(RANK))).astype(float)
    value = np.where(x[:, BY[0]] > 4, 0.2, -0.1) + 0.03 * x[:, COL["round"]]
    group = np.repeat(np.arange(n // 3), 3)
    d = rk.Decisions(x, value + rng.normal(0, 0.05, n), group, np.zeros(n, bool))
    model, ens = rk.fit(d, trees=25, leaves=8, rate=0.2, seed=0)
    walked = ln.log_odds(ens, x)  # the model file's trees walked by another implementation
    assert np.array_equal(walked, model.predict(x))
    assert len(ens["trees"]) == 25


def test_the_check_catches_a_ranker_that_plays_otherwise_than_its_trees(tmp_path):
    spec = ranker(tmp_path / "r.json", ["greedy", "tuned"], [stump(BY[1], 0.5, 0.0, 1.0)])

    class Trees:  # what the trees predict...
        @staticmethod
        def predict(x: np.ndarray) -> np.ndarray:
            return x[:, BY[1]]

    class Other:  # ...and a model that would choose otherwise
        @staticmethod
        def predict(x: np.ndarray) -> np.ndarray:
            return -x[:, BY[1]]

    field = load_strategy("greedy")
    assert rk.verify(3, spec, Trees(), field, 3, 4, game="moai") > 10
    with pytest.raises(RuntimeError, match="the ranker as it plays chose candidate"):
        rk.verify(3, spec, Other(), field, 3, 4, game="moai")


def refused_in_one_line(tmp_path: Path, cases: list[tuple[dict, str]], make: Any) -> None:
    """Each (model document, message) written to a file and made into a strategy (`make`
    of its spec): refused with an `UnknownStrategyError` matching the message, in one line."""
    for k, (doc, said) in enumerate(cases):
        path = tmp_path / f"bad-{k}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(UnknownStrategyError, match=said) as info:
            make(f"learned(model={str(path)!r})")
        assert "\n" not in str(info.value)


def test_bad_ranker_files_are_refused_in_one_line(tmp_path):
    good = rk.ranker_doc(3, ["greedy", "tuned"], {"constant": 0, "trees": []}, {}, "moai")
    cases = [
        ({**good, "mode": "forest"}, "mode is 'gate' or 'ranker'"),
        ({**good, "kinds": ["bid", "auction"]}, "kinds are decision kinds"),
        ({**good, "ensembles": good["ensembles"] * 2}, "a ranker has one ensemble"),
        ({**good, "context": list(CONTEXT)}, "another context than this version's ranker"),
        ({**good, "ensembles": [{"constant": 0, "trees": [stump(len(RANK), 1, 0, 0)]}]},
         "names a feature"),
    ]  # fmt: skip
    refused_in_one_line(tmp_path, cases,
                        lambda spec: load_strategy(spec)().own_policy(Rules.make(3)))  # fmt: skip
    gate = tmp_path / "gate.json"
    gate.write_text(json.dumps(ln.model_doc(3, ["greedy"], [{"constant": 0, "trees": []}], {},
                                            game="moai")), encoding="utf-8")  # fmt: skip
    made = load_strategy(f"learned(model={str(gate)!r})")()
    assert isinstance(made, LearnedStrategy)
    with pytest.raises(UnknownStrategyError, match="is a gate, not a ranker"):
        made.candidates(None)


def test_a_small_ranker_iteration_runs_end_to_end(tmp_path):
    got = rk.rank(3, tmp_path, ["tuned", "greedy", "forester"], field_="L1", games=6,
                  held_out_games=3, iterations=2, worlds=2, trees=5, leaves=4,
                  strength_games=2, check_games=2, history=2, game="moai")  # fmt: skip
    first, second = got.rounds
    assert "learned-3p-start.json" in first.teacher and "learned-3p-0.json" in second.teacher
    assert first.decisions > 20 and first.checked > 0 and second.checked > 0
    assert 0 <= first.agreement <= 1 and first.regret >= 0
    assert first.strength is not None and first.strength.games == 6
    doc = json.loads(got.path.read_text())
    # round 1 learned from both rounds' decisions (history=2), round 0 from its own
    first_doc = json.loads((tmp_path / "learned-3p-0.json").read_text())
    assert first_doc["made"]["rounds_learned_from"] == 1
    assert doc["made"]["rounds_learned_from"] == 2 and second.decisions > first.decisions
    assert doc["mode"] == "ranker" and doc["context"] == list(RANK)
    assert doc["experts"] == ["tuned", "greedy", "forester"] and len(doc["ensembles"]) == 1
    assert got.path.read_bytes() == (tmp_path / "learned-3p-1.json").read_bytes()
    said: list[str] = []  # the same settings again: search's decisions are reused
    again = rk.rank(3, tmp_path, ["tuned", "greedy", "forester"], field_="L1", games=6,
                    held_out_games=3, worlds=2, trees=5, leaves=4, strength_games=0,
                    check_games=1, progress=said.append, game="moai")  # fmt: skip
    assert sum("reused" in m for m in said) == 2 and again.rounds[0].decisions == first.decisions
    with pytest.raises(UserError, match="distinct experts"):
        rk.rank(3, tmp_path / "x", ["tuned", "tuned"], game="moai")
    with pytest.raises(UserError, match="worlds must be a whole number"):
        rk.rank(3, tmp_path / "x", ["tuned"], worlds=0, game="moai")


def test_rounds_of_decisions_join_one_after_another():
    def part(groups: list[int], value: float) -> rk.Decisions:
        n = len(groups)
        return rk.Decisions(np.full((n, 2), value), np.full(n, value), np.array(groups),
                            np.zeros(n, bool))  # fmt: skip

    both = rk.joined([part([0, 0, 1], 1.0), part([0, 1, 1], 2.0)])
    assert both.group.tolist() == [0, 0, 1, 2, 3, 3] and len(both) == 4
    assert both.value.tolist() == [1.0, 1.0, 1.0, 2.0, 2.0, 2.0] and both.x.shape == (6, 2)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_shipped_rankers_are_rankers_of_search_kinds_and_play(players):
    spec = load_strategy(f"learned(model='ranker-{players}p.json')")
    made = spec()
    assert made.doc["mode"] == "ranker" and made.doc["players"] == players
    assert made.doc["kinds"] == ["bid", "pick_epoch", "work", "feed"]
    assert made.doc["made"]["command"].startswith(f"moaisim learn -p {players} --mode ranker")
    assert made.doc["made"]["field"] == "L3" and "/" not in made.doc["made"]["field"]
    g = Games.new(Rules.make(players), 12, np.arange(6))
    g.play([spec(), load_strategy("tuned")()] + [load_strategy("greedy")()] * (players - 2))
    assert g.over().all()


def test_learn_refuses_a_bad_mode_and_a_zero_count_in_one_line(tmp_path, capsys):
    from moaisim.cli import main

    base = ["learn", "-p", "3", "-o", str(tmp_path / "out"), "--experts", "tuned,greedy"]
    zero = "games must be a whole number of at least 1, got 0"
    gate = "--candidates is proposals or legal, and only a ranker's (--mode ranker), not 'legal'"
    moai = "moai's ranker takes its candidates from proposals, not 'legal'"
    for extra, said in ((["--mode", "forest"], "--mode is gate or ranker, not 'forest'"),
                        (["--mode", "ranker", "-n", "0"], zero), (["-n", "0"], zero),
                        (["--candidates", "legal"], gate),
                        (["--mode", "ranker", "--candidates", "legal"], moai)):  # fmt: skip
        assert main([*base, *extra]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [f"moaisim: error: {said}"]
    assert not (tmp_path / "out").exists()
