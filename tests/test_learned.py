"""The learned policy (strategies/moai/learned.py, engine/compiled/learned.py) and its
training (moaisim/studies/learn.py): scikit-learn's trees copied exactly, a planted gate
obeyed decision by decision, both engines playing the same games, a bad model file refused in
one line, and a small expert iteration end to end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.ensemble import GradientBoostingClassifier

from moaisim.errors import UnknownStrategyError, UserError
from moaisim.games.moai.engine.compiled.learned import CONTEXT
from moaisim.games.moai.rules import Rules
from moaisim.registry import load_strategy
from moaisim.studies import distill
from moaisim.studies import learn as ln
from tests.test_batch_equivalence import assert_same_games

ROUND = CONTEXT.index("round")


def write_model(path: Path, experts: list[str], ensembles: list[dict], players: int = 3) -> str:
    """A model file (the document `moaisim learn` writes); its spec."""
    doc = ln.model_doc(players, experts, ensembles, {"note": "a test's"}, game="moai")
    path.write_text(json.dumps(doc), encoding="utf-8")
    return f"learned(model={str(path)!r})"


def stump(feature: int, threshold: float, low: float, high: float) -> dict:
    """One tree: x[feature] <= threshold -> low, else high."""
    return {"feature": [feature, -1, -1], "threshold": [threshold, 0.0, 0.0],
            "left": [1, -1, -1], "right": [2, -1, -1], "value": [0.0, low, high]}  # fmt: skip


def test_the_exported_trees_give_scikit_learns_log_odds():
    rng = np.random.default_rng(4)
    x = rng.integers(-5, 30, size=(600, len(CONTEXT))).astype(float)
    x[:, 3] = rng.normal(size=600)  # a float feature too: compared as scikit-learn does
    y = (x[:, 1] > 10) ^ (x[:, 7] < 0) ^ (rng.random(600) < 0.1)
    ens = ln.ensemble(x, y, trees=30, depth=3, rate=0.2, seed=0)
    model = GradientBoostingClassifier(n_estimators=30, max_depth=3, learning_rate=0.2,
                                       random_state=0).fit(x, y)  # fmt: skip
    assert np.allclose(ln.log_odds(ens, x), model.decision_function(x), atol=1e-9)
    # an expert that always (never) agrees needs no tree
    assert ln.ensemble(x, np.ones(600, bool), 5, 2, 0.1, 0) == {"constant": ln.SURE, "trees": []}
    assert ln.log_odds({"constant": -ln.SURE, "trees": []}, x[:2]).tolist() == [-ln.SURE] * 2


def test_a_planted_gate_asks_the_expert_it_names_in_every_context(tmp_path):
    # greedy decides in rounds 1-2, tuned from round 3 on: the policy's own decisions, kept
    # as positions, are each expert's alone exactly where the gate names it
    spec = write_model(tmp_path / "planted.json", ["greedy", "tuned"],
                       [{"constant": 0.0, "trees": [stump(ROUND, 2.5, 1.0, -1.0)]},
                        {"constant": 0.0, "trees": []}])  # fmt: skip
    pos = distill.collect(3, spec, "greedy", games=6, seed=11, game="moai")
    asked = [ln.alone(e, 3, tmp_path, game="moai") for e in ("greedy", "tuned")]
    t = ln.table(pos, asked)
    early = t.x[:, ROUND] <= 2
    assert early.any() and (~early).any()
    assert t.agree[early, 0].all() and t.agree[~early, 1].all()
    # ...and the gate learned from them names the same experts
    ens = [ln.ensemble(t.x, t.agree[:, k], 20, 2, 0.3, 0) for k in range(2)]
    assert (ln.gate(ens, t.x) == np.where(early, 0, 1))[t.agree.sum(axis=1) == 1].all()


def test_the_context_at_the_first_bid_is_the_games_start(tmp_path):
    spec = write_model(tmp_path / "m.json", ["greedy", "tuned"],
                       [{"constant": 0.0, "trees": []}] * 2)  # fmt: skip
    pos = distill.collect(3, spec, "greedy", games=3, seed=2, kinds=["bid"], game="moai")
    t = ln.table(pos, [ln.alone("greedy", 3, tmp_path, game="moai")])
    first = t.x[t.x[:, ROUND] == 1]
    col = {name: first[:, k] for k, name in enumerate(CONTEXT)}
    assert (col["kind"] == 0).all() and (col["players"] == 3).all()  # K_BID; 3 players
    assert (col["last_round"] == 0).all() and (col["statues"] == 0).all()
    assert (col["rival_statues"] == 0).all() and (col["lead"] == 0).all()  # nobody scored
    assert set(col["position"].tolist()) <= {0, 1, 2} and (col["hand"] > 0).all()


@pytest.mark.parametrize("players", [2, 4])
def test_both_engines_play_the_same_learned_games(tmp_path, players):
    ens = [{"constant": 0.0, "trees": [stump(ROUND, 3.5, 0.5, -0.5),
                                       stump(CONTEXT.index("lead"), 0.0, -0.2, 0.3)]},
           {"constant": 0.1, "trees": [stump(CONTEXT.index("wood"), 1.5, 0.0, -0.4)]},
           {"constant": -0.1, "trees": []}]  # fmt: skip
    spec = write_model(tmp_path / "m.json", ["tuned", "greedy", "forester"], ens, players)
    lineup = [spec, "greedy", "tuned", "forester"][:players]
    assert_same_games(Rules.make(players), lineup, 77, [3, 8, 21], [3])


def test_bad_model_files_are_refused_in_one_line(tmp_path):
    good = ln.model_doc(3, ["greedy", "tuned"], [{"constant": 0, "trees": []}] * 2, {}, game="moai")
    cases = [
        ("not json {", "is not JSON"),
        (json.dumps({**good, "format": "other"}), "is not a learned policy"),
        (json.dumps({**good, "experts": []}), "give 1 to 16 experts"),
        (json.dumps({**good, "ensembles": good["ensembles"][:1]}), "one ensemble per expert"),
        (json.dumps({**good, "context": ["round"]}), "another context"),
        (json.dumps({**good, "players": 7}), "player count"),
        (json.dumps({**good, "ensembles": [{"constant": 0, "trees": [
            {**stump(0, 1.0, 0, 0), "left": [0, -1, -1]}]}] * 2}), "a child it does not have"),
        (json.dumps({**good, "experts": ["search", "tuned"]}), "is not one compiled"),
    ]  # fmt: skip
    for k, (text, said) in enumerate(cases):
        path = tmp_path / f"bad-{k}.json"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(UnknownStrategyError, match=said) as info:
            load_strategy(f"learned(model={str(path)!r})")().own_policy(Rules.make(3))
        assert "\n" not in str(info.value)
    with pytest.raises(UnknownStrategyError, match="give its model file"):
        load_strategy("learned")
    (tmp_path / "two.json").write_text(json.dumps(good), encoding="utf-8")
    with pytest.raises(UnknownStrategyError, match="for 3 players, not 4"):
        load_strategy(f"learned(model={str(tmp_path / 'two.json')!r})")().check_players(4)


def test_a_small_expert_iteration_writes_a_model_that_plays_as_trained(tmp_path):
    # learn() checks that the policy as it plays (compiled, through views) agrees with the
    # teacher exactly as its trees predicted; round 1's teacher searches with round 0's policy
    got = ln.learn(3, tmp_path, ["tuned", "greedy", "forester"], teacher="tuned", field_="L1",
                   games=4, held_out_games=2, iterations=2, trees=10, strength_games=2,
                   game="moai")  # fmt: skip
    assert [r.teacher for r in got.rounds][0] == "tuned"
    assert got.rounds[1].teacher.startswith('search(rollout="learned(model=')
    assert got.path == tmp_path / "learned-3p.json"
    doc = json.loads(got.path.read_text())
    assert doc["experts"] == ["tuned", "greedy", "forester"] and doc["context"] == list(CONTEXT)
    first = got.rounds[0]
    # tuned teaches: tuned alone agrees wherever its own sub-stream's draws do not matter
    assert first.experts["tuned"] >= max(first.experts.values()) - 1e-12
    assert first.ceiling >= first.agreement >= 0
    assert first.strength is not None and first.strength.games == 6
    with pytest.raises(UserError, match="at least two distinct experts"):
        ln.learn(3, tmp_path / "x", ["tuned"], game="moai")
    with pytest.raises(UserError, match="rapa-nui's learned policy is a ranker only"):
        ln.learn(3, tmp_path / "y", ["tuned", "greedy"], game="rapa-nui")
