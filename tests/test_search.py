"""The `search` strategy (strategies/moai/search.py): legal, reproducible, batch-invariant play in
both engines; its successive-halving plan and mixed bid rule; it out-plays its own rollout
policy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from moaisim.engine.search import halving, proposer_stream, strongest_below
from moaisim.errors import UnknownStrategyError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.rules import Rules
from moaisim.mixture_parts import sub_view
from moaisim.registry import level_spec, load_strategy
from moaisim.rng import Draws
from moaisim.strategies.moai.mixture import MixtureStrategy
from moaisim.strategies.moai.search import SearchStrategy
from moaisim.strategies.moai.tuned import TunedStrategy

WEIGHTS = Path(__file__).resolve().parents[1] / "strategies" / "moai" / "weights"

SMALL = "search(worlds=4,candidates=4)"


def lineup(players: int, spec: str = SMALL, seat: int = 0) -> list:
    return [load_strategy(spec if q == seat else "greedy")() for q in range(players)]


def test_search_is_a_known_strategy_with_checked_parameters():
    s = load_strategy("search(worlds=8,opponents=forester)")()
    assert isinstance(s, SearchStrategy) and s.worlds == 8
    with pytest.raises(UnknownStrategyError, match="not decision kinds"):
        load_strategy("search(search='bid,fly')")()
    with pytest.raises(UnknownStrategyError, match="rollouts cannot search"):
        load_strategy("search(opponents=search)")()
    with pytest.raises(UnknownStrategyError, match="worlds must be from 1"):
        load_strategy("search(worlds=0)")()


def test_a_game_with_search_is_the_same_alone_in_a_batch_and_in_either_engine():
    """Every draw comes from the seat's stream of the game: game 3 plays the same alone,
    beside other games, and in the reference engine."""
    rules = Rules.make(3)
    batch = Games.new(rules, 5, [1, 3, 4]).play(lineup(3, seat=1))
    alone = Games.new(rules, 5, [3]).play(lineup(3, seat=1))
    ref = ReferenceGame(rules, lineup(3, seat=1), seed=5, game=3)
    end = ref.play()[-1]
    assert batch.scores()[1].tolist() == alone.scores()[0].tolist()
    assert alone.scores()[0].tolist() == end["scores"]
    assert batch.strategies[1].searched > 0


def test_search_play_is_reproducible():
    rules = Rules.make(4)
    a = Games.new(rules, 9, [0, 1]).play(lineup(4, seat=2))
    b = Games.new(rules, 9, [0, 1]).play(lineup(4, seat=2))
    assert a.scores().tolist() == b.scores().tolist()
    assert a.strategies[2].rollouts == b.strategies[2].rollouts > 0


def test_halving_plan():
    # 8 candidates, 128 worlds: 8 on 32 worlds, the best 4 on 64, the best 2 on all 128
    assert halving(8, 128) == [32, 64, 128]
    assert halving(2, 50) == [50]
    assert halving(5, 8) == [2, 4, 8]
    assert halving(16, 3) == [1, 1, 2, 3]


def test_sealed_bids_are_drawn_by_softmax_other_decisions_take_the_best():
    s = SearchStrategy(temperature=0.05)
    values = np.array([0.5, 0.6, -np.inf])
    picks = [s._choose(Kind.BID, values, Draws(seed)) for seed in range(2000)]  # noqa: SLF001
    # p(second) = e^2 / (1 + e^2) = 0.8808; never the candidate halving dropped
    assert 2 not in picks
    share = np.mean(np.asarray(picks) == 1)
    assert stats.binomtest(int(share * 2000), 2000, 0.8808).pvalue > 0.001
    assert {s._choose(Kind.WORK, values, Draws(k)) for k in range(50)} == {1}  # noqa: SLF001
    argmax = SearchStrategy(temperature=0.0)
    assert {argmax._choose(Kind.BID, values, Draws(k)) for k in range(50)} == {1}  # noqa: SLF001


def test_decisions_not_searched_are_the_rollout_policys():
    """With nothing to search, search plays exactly as its rollout policy: a named one, or
    by default (`auto`) the L3 mixture where one ships for the player count."""
    rules = Rules.make(3)
    for rollout, spec in (("greedy", "greedy"), ("auto", level_spec("L3", 3, game="moai"))):
        plain = Games.new(rules, 2, [0, 1]).play(lineup(3, spec))
        idle = Games.new(rules, 2, [0, 1]).play(lineup(3, f"search(search='',rollout={rollout})"))
        assert plain.scores().tolist() == idle.scores().tolist()
        assert idle.strategies[0].rollouts == 0


def test_auto_rollouts_and_opponents_are_the_strongest_shipped_field_below_search():
    """L3 (the shipped Nash mixture of that player count) where it ships, else tuned; a
    named policy stays what it names."""
    s = SearchStrategy()
    assert s.rollout == s.opponents == "auto"
    for players in (2, 3, 4, 5):
        shipped = (WEIGHTS / f"nash-{players}p.toml").is_file()
        own, rivals = s._specs_for(players)  # noqa: SLF001
        want = MixtureStrategy if shipped else TunedStrategy
        assert own.cls is rivals.cls is want, players
        if shipped:
            assert dict(own.params)["file"].endswith(f"nash-{players}p.toml")
    assert strongest_below(5, "moai") == ("tuned" if not (WEIGHTS / "nash-5p.toml").is_file()
                                  else level_spec("L3", 5, game="moai"))  # fmt: skip
    named = SearchStrategy(rollout="forester", opponents="greedy")
    assert [x.label for x in named._specs_for(4)] == ["forester", "greedy"]  # noqa: SLF001
    rules = Rules.make(4)  # the rollout policy follows the player count it is started at
    s.start(rules, 0, np.arange(2))
    assert type(s.policy) is (MixtureStrategy if (WEIGHTS / "nash-4p.toml").is_file()
                              else TunedStrategy)  # fmt: skip


@pytest.mark.slow
def test_search_beats_its_rollout_policy():
    """One search seat (8 worlds) among greedy copies at 3 players, seats rotated: its win
    share is above the fair 1/3 (95 % Wilson interval)."""
    rules = Rules.make(3)
    wins = 0.0
    games = 0
    for seat in range(3):
        spec = "search(worlds=8,rollout=greedy,opponents=greedy)"
        g = Games.new(rules, 77, np.arange(20)).play(lineup(3, spec, seat))
        wins += g.returns()[:, seat].sum()
        games += 20
    low = stats.binomtest(round(wins), games).proportion_ci(method="wilson").low
    assert low > 1 / 3, (wins, games)


PROPOSED = "search(worlds=4,propose='tuned,forester,greedy')"


def test_proposed_search_is_the_same_alone_in_a_batch_and_in_either_engine():
    rules = Rules.make(3)
    batch = Games.new(rules, 5, [1, 3, 4]).play(lineup(3, PROPOSED, seat=1))
    alone = Games.new(rules, 5, [3]).play(lineup(3, PROPOSED, seat=1))
    ref = ReferenceGame(rules, lineup(3, PROPOSED, seat=1), seed=5, game=3)
    assert batch.scores()[1].tolist() == alone.scores()[0].tolist() == ref.play()[-1]["scores"]
    s = batch.strategies[1]
    assert s.searched > 0 and s.agreed > 0


def test_proposed_candidates_are_the_rollout_policys_and_the_proposers_answers(monkeypatch):
    """propose: each searched decision's candidates are the rollout policy's answer, then
    the proposers' answers on the seat's view, each once; a decision where they all agree is
    taken unsearched."""
    seen: list[tuple[list, list]] = []
    real_search, real_proposals = SearchStrategy._search, SearchStrategy._proposals
    asked: dict[str, list] = {}

    def proposals(self, view):  # noqa: ANN001, ANN202
        got = real_proposals(self, view)
        asked["last"] = got
        # what each proposer answers on the seat's view (its own stream: the same answers)
        for k, spec in enumerate(self.proposers):
            again = getattr(spec(), view.kind.value)(
                sub_view(view, np.arange(len(view)), proposer_stream(view, k))
            )
            assert [np.ravel(a).tolist() for a in again] == [np.ravel(g[k]).tolist() for g in got]
        return got

    def search(self, view, tasks, seeds):  # noqa: ANN001, ANN202
        for row, cands, _ in tasks:
            seen.append(([np.ravel(c).tolist() for c in cands],
                         [np.ravel(a).tolist() for a in asked["last"][row]]))  # fmt: skip
        return real_search(self, view, tasks, seeds)

    monkeypatch.setattr(SearchStrategy, "_proposals", proposals)
    monkeypatch.setattr(SearchStrategy, "_search", search)
    g = Games.new(Rules.make(3), 8, [0, 1]).play(lineup(3, PROPOSED))
    assert seen and len(seen) == g.strategies[0].searched
    for cands, props in seen:
        assert 2 <= len(cands) <= 4  # the rollout policy's, then at most 3 others
        assert len({tuple(c) for c in cands}) == len(cands)
        assert all(c in props for c in cands[1:])  # every other candidate was proposed
        assert all(p in cands for p in props)  # every proposal is tried (room for 8)


def test_propose_takes_a_learned_policys_experts_and_refuses_search(tmp_path):
    import json

    from moaisim.studies.learn import model_doc

    path = tmp_path / "m.json"
    path.write_text(json.dumps(model_doc(3, ["tuned", "moai"],
                                         [{"constant": 0, "trees": []}] * 2, {},
                                         game="moai")))  # fmt: skip
    s = load_strategy(f"search(propose=\"greedy,learned(model='{path}')\")")()
    assert [p.label for p in s.proposers] == ["greedy", "tuned", "moai"]
    with pytest.raises(UnknownStrategyError, match="rollouts cannot search"):
        load_strategy("search(propose='greedy,search')")()


def test_each_game_plays_the_same_alone_whatever_its_batch_s_candidate_counts():
    """Successive halving plans each game's own candidates: a decision with 2 candidates in
    one game and 3 in another (an epoch pick, a bid) halves each as it would alone."""
    rules = Rules.make(3)
    spec = "search(worlds=8,candidates=3)"  # (games 2 and 3 differed when the batch planned)
    batch = Games.new(rules, 12, list(range(5))).play(lineup(3, spec, seat=2))
    for k in range(5):
        alone = Games.new(rules, 12, [k]).play(lineup(3, spec, seat=2))
        assert alone.scores()[0].tolist() == batch.scores()[k].tolist(), k


def test_a_recording_search_keeps_each_searched_decision_and_plays_the_same_games():
    """`Search.record`: one `Searched` per game-decision searched, the candidate played the
    one that survived every halving round (the most worlds), candidate 0 the rollout
    policy's and every candidate proposed by someone; recording changes no game."""
    rules = Rules.make(3)
    spec = "search(worlds=4,candidates=4,propose='tuned,greedy')"
    plain = lineup(3, spec, seat=1)
    Games.new(rules, 5, [0, 1]).play(plain)
    recorded = lineup(3, spec, seat=1)
    recorded[1].record = []
    scores = Games.new(rules, 5, [0, 1]).play(recorded).results()["score"]
    assert (
        scores.tolist()
        == Games.new(rules, 5, [0, 1]).play(lineup(3, spec, seat=1)).results()["score"].tolist()
    )
    got = recorded[1].record
    assert len(got) == recorded[1].searched == plain[1].searched > 10
    kinds = {k.value for k in Kind}
    for d in got:
        n = len(d.candidates)
        assert d.game in (0, 1) and d.kind in kinds and 2 <= n <= 4
        assert d.worlds[d.chosen] == d.worlds.max() and d.worlds.min() >= 1
        assert d.worlds.sum() >= 4 * 2  # halving: every candidate in the first round's worlds
        assert [b & 1 for b in d.proposed_by] == [1] + [0] * (n - 1)
        assert all(b > 0 for b in d.proposed_by) and all(b < 8 for b in d.proposed_by)
        assert len(set(map(tuple, d.candidates))) == n and np.isfinite(d.means).all()


def test_a_search_without_proposers_records_its_rollout_policys_candidate_first():
    rules = Rules.make(3)
    seats = lineup(3, "search(worlds=2,candidates=3,search='work',propose='')", seat=0)
    seats[0].record = []
    Games.new(rules, 8, [0]).play(seats)
    assert seats[0].record and all(
        d.kind == "work" and d.proposed_by == [1] + [0] * (len(d.candidates) - 1)
        for d in seats[0].record
    )
