"""Rapa Nui's learned ranker (moaisim/games/rapa_nui/engine/learned.py, strategies/rapa_nui/
learned.py) and its expert iteration (`moaisim learn --game rapa-nui --mode ranker`): with
no tree it plays its first expert's games, a planted tree makes it play another expert's, a
kind it does not rank is its first expert's, the reference engine (asking it through views)
and the machine play the same games, its rows read what the seat sees, bad files are one
line, and a small iteration runs end to end (issue 59)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moaisim.errors import UnknownStrategyError, UserError
from moaisim.games.rapa_nui.engine import machine as m
from moaisim.games.rapa_nui.engine.batch import Batch, lineup
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.learned import MAX_EXPERTS, RANK
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.registry import load_strategy
from moaisim.studies import rank as rk
from tests.test_ranker import refused_in_one_line, stump

GAME = "rapa-nui"
COL = {name: k for k, name in enumerate(RANK)}


def ranker(path: Path, experts: list[str], trees: list[dict], players: int = 3,
           kinds: list[str] | None = None, candidates: str = "proposals") -> str:  # fmt: skip
    """A ranker's model file as `moaisim learn --mode ranker` writes it; its spec."""
    doc = rk.ranker_doc(players, experts, {"constant": 0.0, "trees": trees}, {}, GAME, kinds,
                        candidates)  # fmt: skip
    return rk.write_model(path, doc)


def scores(lineup: list[str], players: int, seed: int = 5, games: int = 40) -> np.ndarray:
    """The machine's scores [games, P] of a lineup of specs."""
    seats = [load_strategy(s, GAME)() for s in lineup]
    return Batch(Rules.make(players), seed, range(games)).play(seats)["score"].to_numpy()


@pytest.mark.parametrize(("players", "candidates"), [(2, "proposals"), (3, "legal"),
                                                     (4, "proposals")])  # fmt: skip
def test_without_trees_the_ranker_plays_its_first_experts_games(tmp_path, players, candidates):
    """Every candidate valued alike: the first, the first expert's proposal (every legal
    action a candidate or not)."""
    spec = ranker(tmp_path / "blank.json", ["tuned", "greedy", "builder"], [], players,
                  candidates=candidates)  # fmt: skip
    field = ["priest"] * (players - 1)
    got = scores([spec, *field], players)
    assert np.array_equal(got, scores(["tuned", *field], players))
    assert not np.array_equal(got, scores(["greedy", *field], players))  # the test can fail


def test_a_planted_tree_makes_it_play_the_expert_it_favours(tmp_path):
    """A tree worth +1 on greedy's proposals (by_1): greedy's action wherever the two differ,
    so greedy's games; the same tree on a model that ranks no kind: tuned's games."""
    tree = [stump(COL["by_1"], 0.5, 0.0, 1.0)]
    favours = ranker(tmp_path / "greedy.json", ["tuned", "greedy"], tree)
    assert np.array_equal(scores([favours, "priest", "builder"], 3),
                          scores(["greedy", "priest", "builder"], 3))  # fmt: skip
    idle = ranker(tmp_path / "idle.json", ["tuned", "greedy"], tree, kinds=[])
    assert np.array_equal(scores([idle, "priest", "builder"], 3),
                          scores(["tuned", "priest", "builder"], 3))  # fmt: skip
    take = ranker(tmp_path / "take.json", ["tuned", "greedy"], tree, kinds=["take"])
    mixed = scores([take, "priest", "builder"], 3)
    assert not np.array_equal(mixed, scores(["tuned", "priest", "builder"], 3))
    assert not np.array_equal(mixed, scores(["greedy", "priest", "builder"], 3))


def test_every_legal_action_is_a_candidate_after_the_proposals(tmp_path):
    """With candidates "legal": at each decision the experts' proposals come first, then
    every other legal action once, with no proposer; a tree worth +1 where no expert
    proposed (proposers 0) plays such an action wherever there is one."""
    spec = ranker(tmp_path / "r.json", ["tuned", "greedy"],
                  [stump(COL["proposers"], 0.5, 1.0, 0.0)], candidates="legal")  # fmt: skip
    cls = load_strategy(spec, GAME).cls
    seen = [0, 0]

    def ask(self, view):  # noqa: ANN001, ANN202
        rows, cands, chosen = self.candidates(view)
        for i, (x, got, j) in enumerate(zip(rows, cands, chosen, strict=True)):
            legal = np.flatnonzero(view.legal[i]).tolist()
            assert sorted(got) == legal and len(set(got)) == len(got)
            proposed = x[:, COL["proposers"]] > 0
            assert proposed[0] and not proposed[proposed.argmin() :].any() or proposed.all()
            if not proposed.all():
                assert x[j, COL["proposers"]] == 0  # the tree's pick: no expert's
                seen[0] += 1
            seen[1] += 1
        return cls.by_policy(self, view)

    probe = type("Probe", (cls,), {k.value: ask for k in Kind})
    seats = [probe(model=str(tmp_path / "r.json")), load_strategy("tuned", GAME)(),
             load_strategy("builder", GAME)()]  # fmt: skip
    Batch(Rules.make(3), 6, range(4)).play(seats)
    assert seen[0] > 20 and seen[1] > seen[0]


def random_trees(seed: int, count: int = 12) -> list[dict]:
    """Stumps on random features of a candidate's row (so that every column may decide)."""
    rng = np.random.default_rng(seed)
    return [stump(int(rng.integers(len(RANK))), float(rng.normal(0, 4)), float(rng.normal()),
                  float(rng.normal())) for _ in range(count)]  # fmt: skip


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**16),
       candidates=st.sampled_from(["proposals", "legal"]))  # fmt: skip
def test_the_reference_engine_and_the_machine_play_the_same_ranker_games(
    tmp_path_factory, players, seed, candidates
):
    folder = tmp_path_factory.mktemp("ranker")
    spec = ranker(folder / "r.json", ["tuned", "greedy", "builder", "sacrificer"],
                  random_trees(seed), players, candidates=candidates)  # fmt: skip
    lineup = [spec, "tuned", spec, "priest"][:players]
    rules = Rules.make(players)
    table = Batch(rules, seed, range(4)).play([load_strategy(s, GAME)() for s in lineup])
    for i in range(4):
        g = ReferenceGame(rules, [load_strategy(s, GAME)() for s in lineup], seed=seed, game=i)
        g.play()
        assert table[table["game"] == i]["score"].tolist() == g.scores


def test_candidate_rows_read_what_the_seat_sees(tmp_path):
    """At every decision of the ranker (seat 0) asked through views: its rows say the player
    count, the candidates' count, each candidate's action and proposers; an expert's margin
    on its own proposal is 0 and on another at most a hair above 0 (its proposal is its
    best); the context (the first columns) is the decision's, the same in every row."""
    spec = ranker(tmp_path / "r.json", ["tuned", "greedy", "lumberjack"], random_trees(3))
    cls = load_strategy(spec, GAME).cls
    checked = [0]

    def ask(self, view):  # noqa: ANN001, ANN202
        rows, cands, chosen = self.candidates(view)
        for x, got, j in zip(rows, cands, chosen, strict=True):
            assert len(x) == len(got) >= 1 and 0 <= j < len(got)
            assert (x[:, COL["players"]] == 3).all() and (x[:, COL["candidates"]] == len(got)).all()
            assert x[:, COL["action"]].tolist() == got
            bits = x[:, [COL[f"by_{e}"] for e in range(MAX_EXPERTS)]]
            assert (bits[:, 3:] == 0).all() and bits[:, :3].sum() == 3
            assert (x[:, COL["proposers"]] == bits.sum(axis=1)).all()
            for e in range(3):
                own = x[bits[:, e] == 1, COL[f"margin_{e}"]]
                assert own.tolist() == [0.0]
                assert (x[:, COL[f"margin_{e}"]] <= 1e-9).all()
            assert (x[:, : COL["proposers"]] == x[0, : COL["proposers"]]).all()
            checked[0] += len(got) > 1
        return cls.by_policy(self, view)

    probe = type("Probe", (cls,), {k.value: ask for k in Kind})
    made = load_strategy(spec, GAME)
    seats = [probe(**dict(made.params)), load_strategy("tuned", GAME)(),
             load_strategy("priest", GAME)()]  # fmt: skip
    Batch(Rules.make(3), 8, range(6)).play(seats)
    assert checked[0] > 20


def test_the_seats_points_and_lead_are_the_public_score_but_the_stock(tmp_path):
    """The context's points: glory + Moai in the village x moai_glory + wood //
    wood_per_glory (R9.1, the stock left out), worked by hand from the view's fields."""
    spec = ranker(tmp_path / "r.json", ["tuned", "greedy"], [])
    cls = load_strategy(spec, GAME).cls
    seen: list[tuple[float, float, list[int]]] = []

    def ask(self, view):  # noqa: ANN001, ANN202
        rows, _, _ = self.candidates(view)
        rules = view.rules
        for i, x in enumerate(rows):
            pts = [int(view.glory[i, q] + view.village[i, q, 2] * rules.components.moai_glory
                       + view.wood[i, q] // rules.components.wood_per_glory)
                   for q in range(3)]  # fmt: skip
            seen.append((x[0, COL["points"]], x[0, COL["lead"]], pts))
        return cls.by_policy(self, view)

    probe = type("Probe", (cls,), {k.value: ask for k in Kind})
    seats = [probe(model=str(tmp_path / "r.json")), load_strategy("tuned", GAME)(),
             load_strategy("builder", GAME)()]  # fmt: skip
    Batch(Rules.make(3), 2, range(3)).play(seats)
    assert len(seen) > 30 and any(p[0] > 0 for _, _, p in seen)
    for points, lead, pts in seen:
        assert points == pts[0] and lead == pts[0] - max(pts[1:])


def test_bad_ranker_files_are_refused_in_one_line(tmp_path):
    good = rk.ranker_doc(3, ["tuned", "greedy"], {"constant": 0, "trees": []}, {}, GAME)
    cases = [
        ({**good, "mode": "gate"}, "mode is 'ranker', not 'gate'"),
        ({**good, "kinds": ["take", "auction"]}, "kinds are decision kinds"),
        ({**good, "experts": ["tuned"] * (MAX_EXPERTS + 1)}, f"give 1 to {MAX_EXPERTS} experts"),
        ({**good, "experts": ["tuned", "random"]}, "expert 'random' is not a strategy of the "
         "heuristic family"),
        ({**good, "players": 5}, "players = 2-4"),
        ({**good, "candidates": "all"}, "candidates are 'proposals' or 'legal', not 'all'"),
        ({**good, "context": list(RANK[:-1])}, "another context than this version's ranker"),
        ({**good, "ensembles": [{"constant": 0, "trees": [stump(len(RANK), 1, 0, 0)]}]},
         "names a feature"),
    ]  # fmt: skip
    refused_in_one_line(tmp_path, cases, lambda spec: load_strategy(spec, GAME)())
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    with pytest.raises(UnknownStrategyError, match="is for 3 players, not 4"):
        load_strategy(f"learned(model={str(path)!r})", GAME)().check_players(4)


def test_a_ranker_in_a_mixture_and_a_restriction_plays_compiled(tmp_path):
    """Half the games the ranker (no trees: tuned's), half greedy: each game as its
    component plays it alone; a restriction narrows its choices (never a Moai)."""
    spec = ranker(tmp_path / "r.json", ["tuned", "greedy"], [])
    mix = f"mixture(weights={{{spec!r}: 0.5, 'greedy': 0.5}})"
    rules = Rules.make(3)
    b = Batch(rules, 4, range(30))
    seats = [load_strategy(s, GAME)() for s in (mix, "priest", "builder")]
    pol, _, _ = lineup(rules, seats, np.arange(30), b.g.seat_keys)
    assert (pol.family != m.PAUSE).all() and 5 < (pol.family[:, 0] == m.LEARNED).sum() < 25
    table = b.play(seats)
    tuned = scores(["tuned", "priest", "builder"], 3, 4, 30).reshape(30, 3)
    greedy = scores(["greedy", "priest", "builder"], 3, 4, 30).reshape(30, 3)
    got = table["score"].to_numpy().reshape(30, 3)
    as_tuned = (got == tuned).all(axis=1)
    assert ((got == tuned).all(axis=1) | (got == greedy).all(axis=1)).all()
    assert 5 < as_tuned.sum() < 25
    never = f"restrict(strategy={spec!r}, forbid='moai')"
    t = Batch(rules, 4, range(30)).play([load_strategy(s, GAME)() for s in (never, "priest",
                                                                         "builder")])  # fmt: skip
    assert (t[t["seat"] == 0]["moai"] == 0).all() and (t[t["seat"] != 0]["moai"] > 0).any()


def test_a_small_rapa_nui_ranker_iteration_runs_end_to_end(tmp_path):
    got = rk.rank(3, tmp_path, ["tuned", "greedy", "builder"], field_="L1", games=6,
                  held_out_games=3, iterations=2, worlds=2, trees=5, leaves=4,
                  strength_games=2, check_games=2, history=2, game=GAME)  # fmt: skip
    first, second = got.rounds
    assert first.decisions > 20 and first.checked > 0 and second.checked > 0
    assert 0 <= first.agreement <= 1 and first.regret >= 0
    doc = json.loads(got.path.read_text())
    assert doc["game"] == GAME and doc["mode"] == "ranker" and doc["context"] == list(RANK)
    assert doc["kinds"] == [k.value for k in Kind]
    assert len(doc["ensembles"][0]["trees"]) == 5
    with pytest.raises(UserError, match="a ranker only"):
        from moaisim.studies import learn as ln

        ln.learn(3, tmp_path / "gate", ["tuned", "greedy"], game=GAME)


def test_the_results_table_names_the_ranker(tmp_path):
    spec = ranker(tmp_path / "r.json", ["tuned", "greedy"], [])
    t = Batch(Rules.make(2), 1, range(2)).play([load_strategy(spec, GAME)(),
                                               load_strategy("tuned", GAME)()])  # fmt: skip
    assert isinstance(t, pd.DataFrame) and t["strategy"].iloc[0] == "learned"
