"""Kaivai's learned ranker (moaisim/games/kaivai/engine/learned.py, strategies/kaivai/
learned.py) and its expert iteration (`moaisim learn --game kaivai --mode ranker`): with no
tree it plays its first expert's games, a planted tree makes it play another expert's, a kind
it does not rank is its first expert's, the machine, the machine asking it through views and
the reference engine play the same games, its rows read what the seat sees, bad files are one
line, it plays compiled in a mixture and a restriction, and a small iteration runs end to end
(issue 61)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from moaisim.errors import UnknownStrategyError
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.asked import ReferenceGame
from moaisim.games.kaivai.engine.batch import Batch
from moaisim.games.kaivai.engine.decisions import Kind
from moaisim.games.kaivai.engine.forward import Games
from moaisim.games.kaivai.engine.learned import RANK
from moaisim.games.kaivai.rules.model import Rules
from moaisim.learned_model import MAX_EXPERTS
from moaisim.registry import load_strategy
from moaisim.studies import rank as rk
from tests.test_ranker import refused_in_one_line, stump

GAME = "kaivai"
COL = {name: k for k, name in enumerate(RANK)}
FIELD = ["builder", "celebrant", "fisher-seller"]


def ranker(path: Path, experts: list[str], trees: list[dict], players: int = 3,
           kinds: list[str] | None = None) -> str:  # fmt: skip
    """A ranker's model file as `moaisim learn --mode ranker` writes it; its spec."""
    doc = rk.ranker_doc(players, experts, {"constant": 0.0, "trees": trees}, {}, GAME, kinds)
    return rk.write_model(path, doc)


def scores(lineup: list[str], players: int = 3, seed: int = 5, games: int = 12) -> np.ndarray:
    """The machine's final glory [games, P] of a lineup of specs."""
    b = Batch.new(Rules.make(players), seed, range(games))
    b.play([load_strategy(s, GAME)() for s in lineup])
    return b.finals()[:, :, 0]


def viewed(strategy: object) -> object:
    """The strategy asked through views (no compiled form: the machine pauses for it)."""
    strategy.compiled = lambda rules: None  # type: ignore[attr-defined]
    return strategy


def test_without_trees_the_ranker_plays_its_first_experts_games(tmp_path):
    """Every candidate valued alike: the first, the first expert's proposal."""
    spec = ranker(tmp_path / "blank.json", ["tuned", "pirate", "builder"], [], 4)
    field = FIELD
    got = scores([spec, *field], 4)
    assert np.array_equal(got, scores(["tuned", *field], 4))
    assert not np.array_equal(got, scores(["pirate", *field], 4))  # the test can fail


def test_a_planted_tree_makes_it_play_the_expert_it_favours(tmp_path):
    """A tree worth +1 on the pirate's proposals (by_1): the pirate's option wherever the two
    differ, so the pirate's games; the same tree on a model that ranks no kind: tuned's; on
    one that ranks the bids alone: neither's."""
    tree = [stump(COL["by_1"], 0.5, 0.0, 1.0)]
    field = FIELD[:2]
    favours = ranker(tmp_path / "pirate.json", ["tuned", "pirate"], tree)
    assert np.array_equal(scores([favours, *field]), scores(["pirate", *field]))
    idle = ranker(tmp_path / "idle.json", ["tuned", "pirate"], tree, kinds=[])
    assert np.array_equal(scores([idle, *field]), scores(["tuned", *field]))
    bids = ranker(tmp_path / "bids.json", ["tuned", "pirate"], tree, kinds=["bid"])
    mixed = scores([bids, *field])
    assert not np.array_equal(mixed, scores(["tuned", *field]))
    assert not np.array_equal(mixed, scores(["pirate", *field]))


def random_trees(seed: int, count: int = 12) -> list[dict]:
    """Stumps on random features of a candidate's row, half of them its own (so that every
    column may decide, and candidates differ)."""
    rng = np.random.default_rng(seed)
    own = [COL[name] for name in ("proposers", "action", "by_1", "margin_0", "margin_1",
                                  "option", "price")]  # fmt: skip
    return [stump(int(rng.integers(len(RANK))) if k % 2 else own[int(rng.integers(len(own)))],
                  float(rng.normal(0, 2)), float(rng.normal()), float(rng.normal()))
            for k in range(count)]  # fmt: skip


HOUSE = [(3, 11, {}), (4, 12, {"influence_visibility": "hidden"}), (4, 13, {"edition": "second"})]


@pytest.mark.parametrize(("players", "seed", "options"), HOUSE)
def test_the_machine_its_views_and_the_reference_engine_play_the_same_ranker_games(
    tmp_path, players, seed, options
):
    spec = ranker(tmp_path / "r.json", ["tuned", "pirate", "builder", "celebrant"],
                  random_trees(seed), players)  # fmt: skip
    rules = Rules.make(players, **options)
    lineup = [spec, "tuned", spec, "fisher-seller"][:players]
    made = [load_strategy(s, GAME) for s in lineup]
    batch = Batch.new(rules, seed, range(3))
    batch.play([s() for s in made])
    floor = Games.new(rules, seed, range(3)).play([viewed(s()) for s in made]).scores()
    assert np.array_equal(floor, batch.finals()[:, :, 0])
    assert not np.array_equal(floor, scores(["tuned", *lineup[1:]], players, seed, 3))
    one = ReferenceGame(rules, [s() for s in made], seed, 0)
    one.play()
    assert one.final_scores() == floor[0].tolist()


def asked_rows(spec: str, seed: int, games: int) -> list[tuple[object, int, tuple]]:
    """Every decision the ranker (seat 0) is asked through views against the field: (view,
    game row, (rows, options, chosen)) per game."""
    cls = load_strategy(spec, GAME).cls
    seen: list[tuple[object, int, tuple]] = []

    def ask(self, view):  # noqa: ANN001, ANN202
        rows, cands, chosen = self.candidates(view)
        for i in range(len(view)):
            seen.append((view, i, (rows[i], cands[i], int(chosen[i]))))
        return cls.by_policy(self, view)

    probe = type("Probe", (cls,), {k.value: ask for k in Kind})
    made = load_strategy(spec, GAME)
    seats = [probe(**dict(made.params)), *(load_strategy(s, GAME)() for s in FIELD[:2])]
    Games.new(Rules.make(3), seed, range(games)).play(seats)
    return seen


def test_candidate_rows_read_what_the_seat_sees(tmp_path):
    """At every decision of the ranker asked through views: its rows say the player count,
    the options' and candidates' counts, each candidate's place and code among the options
    and its proposers; an expert's margin on its own proposal is 0 and on another at most 0
    (its proposal is its best); the context is the decision's, the same in every row; the
    points are glory + 2 a hut built (R10.1) and the lead those less the best rival's,
    worked from the view's own fields; an action's price is its space's tokens (R6.3)."""
    spec = ranker(tmp_path / "r.json", ["tuned", "pirate", "celebrant"], random_trees(3))
    seen = asked_rows(spec, 8, 2)
    huts = Rules.make(3).components.huts
    several = 0
    for view, i, (x, got, j) in seen:
        legal = np.flatnonzero(view.legal[i])
        assert len(x) == len(got) >= 1 and 0 <= j < len(got) and set(got) <= set(legal)
        assert (x[:, COL["players"]] == 3).all() and (x[:, COL["candidates"]] == len(got)).all()
        assert (x[:, COL["options"]] == len(legal)).all()
        assert x[:, COL["action"]].tolist() == got
        assert x[:, COL["option"]].tolist() == [view.info["options"][i][a] for a in got]
        bits = x[:, [COL[f"by_{e}"] for e in range(MAX_EXPERTS)]]
        assert (bits[:, 3:] == 0).all() and bits[:, :3].sum() == 3
        assert (x[:, COL["proposers"]] == bits.sum(axis=1)).all()
        for e in range(3):
            assert x[bits[:, e] == 1, COL[f"margin_{e}"]].tolist() == [0.0]
            assert (x[:, COL[f"margin_{e}"]] <= 0).all()
        assert (x[:, : COL["proposers"]] == x[0, : COL["proposers"]]).all()
        pts = [int(view.glory[i, q]) + 2 * (huts - int(view.huts[i, q])) for q in range(3)]
        assert x[0, COL["points"]] == pts[0] and x[0, COL["lead"]] == pts[0] - max(pts[1:])
        assert x[0, COL["round"]] == view.round[i] and x[0, COL["glory"]] == view.glory[i, 0]
        if view.kind is Kind.ACTION:
            for row in x:
                code = int(row[COL["option"]])
                want = int(view.spaces[i, code]) if code < m.N_ACTIONS else 0
                assert row[COL["price"]] == want
        several += len(got) > 1
    assert several > 50 and {v.kind for v, _, _ in seen} >= {Kind.BID, Kind.ACTION, Kind.BUILD}


def test_bad_ranker_files_are_refused_in_one_line(tmp_path):
    good = rk.ranker_doc(3, ["tuned", "pirate"], {"constant": 0, "trees": []}, {}, GAME)
    cases = [
        ({**good, "mode": "gate"}, "mode is 'ranker', not 'gate'"),
        ({**good, "kinds": ["bid", "take"]}, "kinds are decision kinds"),
        ({**good, "experts": ["tuned"] * (MAX_EXPERTS + 1)}, f"give 1 to {MAX_EXPERTS} experts"),
        ({**good, "experts": ["tuned", "greedy"]}, "expert 'greedy' is not a strategy of the "
         "heuristic family"),
        ({**good, "players": 2}, "players = 3-4"),
        ({**good, "candidates": "legal"}, "candidates are 'proposals', not 'legal'"),
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
    """Half the games the ranker (no trees: tuned's), half the pirate: each game as its
    component plays it alone; a restriction narrows its choices (never a Celebrate, R6)."""
    spec = ranker(tmp_path / "r.json", ["tuned", "pirate"], [])
    mix = f"mixture(weights={{{spec!r}: 0.5, 'pirate': 0.5}})"
    field = FIELD[:2]
    b = Batch.new(Rules.make(3), 4, range(20))
    seats = [load_strategy(s, GAME)() for s in (mix, *field)]
    pol = b.lineup(seats)
    assert (pol.family != m.PAUSE).all() and 3 < (pol.family[:, 0] == m.LEARNED).sum() < 17
    b.play(seats)
    got = b.finals()[:, :, 0]
    tuned, pirate = scores(["tuned", *field], 3, 4, 20), scores(["pirate", *field], 3, 4, 20)
    as_tuned = (got == tuned).all(axis=1)
    assert (as_tuned | (got == pirate).all(axis=1)).all() and 3 < as_tuned.sum() < 17
    never = f"restrict(strategy={spec!r}, forbid='celebrate')"
    r = Batch.new(Rules.make(3), 4, range(10))
    r.play([load_strategy(s, GAME)() for s in (never, *field)])
    celebrated = r.finals()[:, :, -1]
    assert (celebrated[:, 0] == 0).all() and (celebrated[:, 1:] > 0).any()


def test_a_small_kaivai_ranker_iteration_runs_end_to_end(tmp_path):
    got = rk.rank(3, tmp_path, ["tuned", "pirate", "builder"], field_="L1", games=3,
                  held_out_games=3, iterations=2, worlds=2, trees=5, leaves=4,
                  strength_games=1, check_games=2, history=2, game=GAME)  # fmt: skip
    first, second = got.rounds
    assert first.decisions > 20 and first.checked > 0 and second.checked > 0
    assert 0 <= first.agreement <= 1 and first.regret >= 0
    doc = json.loads(got.path.read_text())
    assert doc["game"] == GAME and doc["mode"] == "ranker" and doc["context"] == list(RANK)
    assert doc["kinds"] == [k.value for k in Kind]
    assert len(doc["ensembles"][0]["trees"]) == 5


@pytest.mark.parametrize("players", [3, 4])
def test_the_shipped_rankers_play_their_player_count(players):
    """ranker-<P>p.json: seven experts of the heuristic family, every kind ranked, trees that
    decide (its games differ from its first expert's)."""
    spec = f"learned(model='ranker-{players}p.json')"
    made = load_strategy(spec, GAME)()
    made.check_players(players)
    assert len(made.experts) == 7 and made.doc["kinds"] == [k.value for k in Kind]
    with pytest.raises(UnknownStrategyError, match=f"is for {players} players"):
        made.check_players(7 - players)
    field = FIELD[: players - 1]
    first = made.doc["experts"][0]
    assert not np.array_equal(scores([spec, *field], players), scores([first, *field], players))
    assert load_strategy(spec, GAME).label == spec  # results name it by its spec
