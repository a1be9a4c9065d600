"""Property tests of the batch engine over whole batches (hypothesis).

The foundation's invariants (tests/invariants.py, for one reference game) checked for every
game of a batch after setup (R1) and at every decision of every round (R3-R7, `steps.Step`:
every seat asked every decision, forced ones included, so the kernels stop the game after
each decision and the steps that run by themselves before the next): conservation of
the 18 pawns per colour, 15 wood, 40 Rapa Nui cards, 21 Moai tiles and the disaster tokens;
face states (R5.4-R5.7, V1); boats (R5.7, R7.4). Every legal mask is the one the rules book
gives (docs/rules.md section D; `invariants.expected_legal`, written apart from the engines),
games that have ended sit idle (docs/design.md, "The two engines"), every game ends (R8.1), the
results are the scores counted from each game's event log (R8.2; rank 1 wins) and the checks
observe only (the same games played unchecked give the same results).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_legal, scores_from_events

from moaisim.games.moai.engine.batch.machine import Machine
from moaisim.games.moai.engine.batch.state import BatchState
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.seats import Seats
from moaisim.games.moai.engine.state import State
from moaisim.games.moai.engine.steps import STEP, Pending, Step
from moaisim.games.moai.rules import CAMP, RESERVE, VARIANTS, Rules
from moaisim.registry import load_strategy

#: Decisions every round of every game asks (R2: bids, epoch cards, work), every seat asked
#: every decision.
EVERY_ROUND = {Step.BID, Step.PICK, Step.WORK}


def check_batch(s: BatchState, rules: Rules, where: str) -> None:
    """The invariants of `invariants.check_state`, for every game of the batch at once."""
    c, lay, p = rules.components, rules.layout, rules.players
    b = s.b
    loc, up = s.loc, s.up
    # 18 pawns per colour (camp + board + reserve), every location code valid
    assert loc.shape == (b, p, c.pawns), where
    assert ((loc >= RESERVE) & (loc < lay.size)).all(), f"{where}: bad location code"
    assert not up[loc < 0].any(), f"{where}: a pawn off the board is face up"
    # R5.5, R5.3: a pawn in the fields is face up; V1: every board pawn is
    assert up[lay.zones(loc) == 1].all(), f"{where}: a face-down pawn in the fields"
    if rules.has("open-pawns"):
        assert up[loc >= 0].all(), f"{where}: a face-down pawn under open-pawns"
    # R5.7: one pawn per boat, and only on a built boat
    on_boat = loc[:, :, :, None] == lay.ocean0 + np.arange(lay.boats)  # [B, P, N, K]
    per_boat = on_boat.sum(axis=2)  # [B, P, K]
    assert (per_boat <= 1).all(), f"{where}: two pawns on one boat"
    assert (s.boats[per_boat > 0] >= 0).all(), f"{where}: a pawn on an unbuilt boat"
    # R5.5: fields pawns + covered fields <= fields
    assert ((loc == lay.fields).sum(axis=(1, 2)) + s.covered <= c.fields).all(), where
    # 15 wood: supply + forest + clans + out of the game (spent_wood = out, R3.1)
    wood = s.wood_supply + s.forest_wood.sum(axis=1) + s.wood.sum(axis=1) + s.wood_out
    assert (wood == c.wood).all(), where
    assert rules.spent_wood == "out" or not s.wood_out.any(), where
    assert (s.wood >= 0).all() and (s.wood_supply >= 0).all(), where
    # 40 cards per type: the deck's remaining part + discard + hands (bids are discarded)
    assert ((s.deck_pos >= 0) & (s.deck_pos <= s.deck_len)).all(), where
    assert (s.deck_len <= s.deck.shape[1]).all(), where
    remaining = np.arange(s.deck.shape[1]) >= s.deck_pos[:, None]
    remaining &= np.arange(s.deck.shape[1]) < s.deck_len[:, None]
    in_deck = ((s.deck[:, :, None] == np.arange(6)) & remaining[:, :, None]).sum(axis=1)
    per_type = in_deck + s.discard + s.hand.sum(axis=1)
    assert (per_type == np.asarray(c.cards)).all(), f"{where}: cards not conserved"
    assert (s.hand >= 0).all() and (s.discard >= 0).all(), where
    # 21 Moai tiles: supply (-1), out of the game (-2) or a clan's
    assert s.moai_owner.shape == (b, c.n_tiles), where
    assert ((s.moai_owner >= -2) & (s.moai_owner < p)).all(), where
    # disaster tokens: supply + covered fields
    assert (s.disaster_supply + s.covered == c.disaster_tokens).all(), where
    assert (s.disaster_supply >= 0).all(), where
    # boats are boat cards, each held once per game; none is still in the epoch deck
    is_boat = np.array([card.is_boat for card in c.epoch_cards])
    held = s.boats.reshape(b, -1)
    assert is_boat[held[held >= 0]].all(), f"{where}: a boat that is no boat card"
    ordered = np.sort(held, axis=1)
    assert not ((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)).any(), where
    for r in range(b):
        deck = s.epoch_deck[r, s.epoch_pos[r] : s.epoch_len[r]]
        assert len(set(deck.tolist())) == len(deck), where
        assert not set(deck.tolist()) & set(held[r][held[r] >= 0].tolist()), where
    for name, counts in s.counters.items():
        assert (counts >= 0).all(), f"{where}: negative counter {name}"


def snapshot(g: Machine, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Copies of every array of the state and every random stream counter, at `rows`."""
    s = g.state
    out = {k: v[rows].copy() for k, v in vars(s).items() if isinstance(v, np.ndarray)}
    out |= {f"counter {k}": v[rows].copy() for k, v in s.counters.items()}
    out |= {f"stream {i}": c[rows].copy() for i, c in enumerate(g.streams.counters)}
    return out


class CheckedSeats(Seats):
    """Seats whose questions are checked (`CheckedBatch.check_question`) before they are
    asked, and the whole batch at every decision (`CheckedBatch.check_pause`)."""

    def __init__(self, batch: CheckedBatch, strategies: list[Any], names: list[str]) -> None:
        super().__init__(batch.rules, strategies, names)
        self.batch = batch

    def answer(self, machine: Machine, pend: Pending, seats: Any = None) -> np.ndarray:
        self.batch.check_pause(pend)
        return super().answer(machine, pend, seats)

    def ask(self, machine: Machine, kind: Kind, seat: Any, rows: np.ndarray, legal: np.ndarray,
            **info: np.ndarray) -> np.ndarray:  # fmt: skip
        self.batch.check_question(kind, seat, rows, legal, info)
        return super().ask(machine, kind, seat, rows, legal, **info)


class CheckedBatch:
    """A batch that checks the invariants after setup and at each decision (the real play
    loop, `Machine.play`, every seat asked every decision: every game is logged), the legal
    masks against the rules book's, that games over do not change any more, and that counts
    the rounds each game plays (each round asks for bids)."""

    def __init__(self, rules: Rules, strategies: list[Any], seed: int, games: np.ndarray,
                 names: list[str], log: list[int]) -> None:  # fmt: skip
        self.rules, self.strategies, self.names = rules, strategies, names
        self.games = Games.new(rules, seed, games, log=log)
        self.machine = self.games.machine
        self.b = self.machine.b

    @property
    def state(self) -> Any:
        return self.machine.state

    def results(self) -> pd.DataFrame:
        return self.games.results()

    def play(self) -> CheckedBatch:
        self.one = State.empty(self.rules)  # one game of the batch, copied out to check it
        self.rounds: set[tuple[int, int]] = set()  # (row, round) of every bid asked
        self.steps_run: set[Step] = set()
        self.ended: dict[str, np.ndarray] | None = None
        self.over = np.zeros(self.b, dtype=bool)
        self.told: list[tuple[int, int, State, int, Kind, np.ndarray, dict]] = []
        check_batch(self.state, self.rules, "after setup")
        seats = CheckedSeats(self, self.strategies, self.names)
        seats.start(self.machine)
        self.games.seats = seats  # the results name the strategies as seated
        assert self.machine.log_mask is not None and self.machine.log_mask.all()
        self.machine.play([None] * self.rules.players, partial(seats.answer, self.machine))
        self.check_over()
        # every game's log, narrated once by the reference engine from its decisions (which
        # checks that it replays them to the same game and the same scores)
        self.events = self.machine.events
        self.check_told()
        self.rounds_played = np.zeros(self.b, dtype=np.int64)
        for row, _ in self.rounds:
            self.rounds_played[row] += 1
        return self

    def check_pause(self, pend: Pending) -> None:
        """The invariants at a decision; the games over stay as they ended."""
        self.steps_run.add(STEP[pend.kind])
        if pend.kind is Kind.BID:
            rounds = self.state.round[pend.rows]
            self.rounds |= set(zip(pend.rows.tolist(), rounds.tolist(), strict=True))
        check_batch(self.state, self.rules, f"at {STEP[pend.kind].name}")
        self.check_over()

    def check_over(self) -> None:
        over = np.flatnonzero(self.over)
        if len(over):
            now = snapshot(self.machine, over)
            for key, value in self.ended.items():  # type: ignore[union-attr]
                assert np.array_equal(value, now[key]), f"a game over changed: {key}"
        self.over = self.machine.over().copy()
        self.ended = snapshot(self.machine, np.flatnonzero(self.over))

    def check_question(self, kind: Kind, seat: Any, rows: np.ndarray, legal: np.ndarray,
                       info: dict[str, np.ndarray]) -> None:  # fmt: skip
        """Section D: the legal masks are the rules book's (`invariants.expected_legal`,
        written apart from both engines), checked for the first game of each question (every
        game would take too long). The masks that read the events so far (ties, finishing a
        Moai, rest) are checked once the game's log is narrated (`check_told`): the reference
        engine replays a game from its deal, and replaying it at each such question cost more
        than all the rest. (The answers themselves are checked against these masks by the
        engine.)"""
        assert len(np.unique(rows)) == len(rows)
        if not len(rows):
            return
        row, who = int(rows[0]), int(np.asarray(seat).ravel()[0])
        here = {k: np.copy(v[0]) for k, v in info.items()}
        if kind not in (Kind.ORDER_TIES, Kind.FINISH_MOAI, Kind.REST):
            self.state.write_back(row, self.one)
            check_legal(self.one, who, kind, legal[0], here, [])
            return
        one = State.empty(self.rules)
        self.state.write_back(row, one)
        game = int(self.machine.games[row])
        made = len(self.machine.decisions[game])  # the decisions taken before this one
        self.told.append((game, made, one, who, kind, legal[0].copy(), here))

    def check_told(self) -> None:
        """The masks that read the events, against the events up to their decision: the
        prefix of the game's narrated log before its decision number `made` (what narrating
        the game at that question gives: the reference engine replays the same decisions)."""
        at = {
            g: [k for k, e in enumerate(ev) if e["e"] == "decision"]
            for g, ev in self.events.items()
        }
        for game, made, one, seat, kind, legal, info in self.told:
            ev, d = self.events[game], at[game]
            check_legal(one, seat, kind, legal, info, ev[: d[made]] if len(d) > made else ev)


VARIANT_SETS = st.sets(st.sampled_from(sorted(VARIANTS)), max_size=4).filter(
    lambda v: not {"open-bidding", "open-bidding-strict"} <= v
)


@st.composite
def batches(draw: st.DrawFn) -> tuple[Rules, list[str], int, list[int]]:
    players = draw(st.integers(2, 5))
    rules = Rules.make(
        players,
        sorted(draw(VARIANT_SETS)) or "base",
        turn_order=draw(st.sampled_from(["hill", "clockwise"])),
        volcano_after_moai=draw(st.sampled_from(["stay", "camp"])),
        spent_wood=draw(st.sampled_from(["supply", "out"])),
    )
    lineup = draw(
        st.lists(st.sampled_from(["random", "greedy"]), min_size=players, max_size=players)
    )
    seed = draw(st.integers(0, 2**64 - 1))
    games = draw(st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=24, unique=True))
    return rules, lineup, seed, games


def play_checked(rules: Rules, lineup: list[str], seed: int, games: list[int]) -> CheckedBatch:
    """Every game is logged: the checks read the events (masks, scores)."""
    strategies = [load_strategy(n)() for n in lineup]
    return CheckedBatch(rules, strategies, seed, np.array(games), lineup, games).play()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batches())
def test_conservation_legality_and_scores_over_whole_batches(config):
    """Invariants after every phase; legal actions; every game ends; R8.2 scores and ranks;
    and the checks observe only: the checked batch gives the plain batch's results."""
    rules, lineup, seed, games = config
    g = play_checked(rules, lineup, seed, games)
    s, p, b = g.state, rules.players, len(games)
    # every round asked for bids, epoch cards and work (R2)
    assert g.steps_run >= EVERY_ROUND
    # every game ends (R8.1); `rounds` is the number of rounds it played
    assert s.last_round.all() and (s.step == Step.OVER).all()
    assert (s.round == g.rounds_played).all() and (s.round >= 1).all()
    df = g.results()
    # the same games played by the plain batch (no checks, no log) end the same
    plain = Games.new(rules, seed, np.array(games))
    plain.play([load_strategy(n)() for n in lineup], names=lineup)
    assert df.equals(plain.results())
    assert len(df) == b * p
    assert df["game"].tolist() == np.repeat(games, p).tolist()
    assert df["seat"].tolist() == list(range(p)) * b
    assert df["strategy"].tolist() == lineup * b
    assert (df["rounds"].to_numpy() == np.repeat(s.round, p)).all()
    # R8.2: the scores and their parts are those counted from each game's event log, and
    # the parts are what the table shows at the end (tiles held, pawns alive, wood held)
    counted = [c for game in games for c in scores_from_events(rules, g.events[game])]
    for col in ("score", "moai_height", "pawns", "wood"):
        assert df[col].tolist() == [c[col] for c in counted], col
    heights = np.asarray(rules.components.moai_heights)
    mine = s.moai_owner[:, None, :] == np.arange(p)[None, :, None]
    assert (df["moai_height"].to_numpy() == (mine * heights).sum(axis=2).ravel()).all()
    assert (df["moai_count"].to_numpy() == mine.sum(axis=2).ravel()).all()
    assert (df["pawns"].to_numpy() == (s.loc >= CAMP).sum(axis=2).ravel()).all()
    assert (df["wood"].to_numpy() == s.wood.ravel()).all()
    for k, game in enumerate(games):
        assert g.events[game][-1]["scores"] == df["score"].tolist()[k * p : (k + 1) * p]
    # ranks: 1 + seats strictly better; win == rank 1; the winners have the best score
    score = df["score"].to_numpy().reshape(b, p)
    rank = df["rank"].to_numpy().reshape(b, p)
    assert (rank == 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)).all()
    assert (df["win"] == (df["rank"] == 1)).all()
    win = df["win"].to_numpy().reshape(b, p)
    assert win.any(axis=1).all()
    assert (win == (score == score.max(axis=1, keepdims=True))).all()
    # counters are the state's, seat by seat
    for name, counts in s.counters.items():
        assert (df[name].to_numpy() == counts.ravel()).all()
    assert (s.counters["birdman_rounds"].sum(axis=1) == s.round).all()
