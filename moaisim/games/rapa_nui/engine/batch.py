"""Rapa Nui's batch of games on the fast machine (`machine`): set up from a seed like the
reference engine's games (R1), played by compiled seats and Python seats (a Python seat's
decisions are handed to its strategy through views of the games waiting, `SeatView`), and
read back as the results table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from moaisim.errors import GameLengthError, StrategyError
from moaisim.games.rapa_nui.engine import machine as m
from moaisim.games.rapa_nui.engine import warm
from moaisim.games.rapa_nui.engine.chance import Chance
from moaisim.games.rapa_nui.engine.decisions import Kind, action_size
from moaisim.games.rapa_nui.engine.learned import N_RANK, Model, most_candidates
from moaisim.games.rapa_nui.engine.policy import NW
from moaisim.games.rapa_nui.engine.reference import deck, turn_bound
from moaisim.games.rapa_nui.engine.results import (
    PARTS,
    ROUND_DTYPES,
    TRACKED,
    frame,
    provenance,
    ranked,
    rounds_of,
)
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.games.rapa_nui.rules.codes import HG, LUMBERJACK, MOAI, N_FOODS, N_KINDS, PRIEST
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.games.rapa_nui.rules.scoring import TIES
from moaisim.learned_model import model_tables as shared_tables
from moaisim.mixture_parts import Choice, drawn_by_views
from moaisim.rng import SeatRandom, Streams

#: The decision kinds in the machine's order (`machine.K_START`...).
KINDS: tuple[Kind, ...] = tuple(Kind)


def consts(rules: Rules, keep_rounds: bool = False) -> m.Consts:
    """The rules' figures and options for the kernels (`keep_rounds`: record the per-round
    table)."""
    c = rules.components
    bonus = np.zeros(N_KINDS, dtype=np.int64)
    bonus[LUMBERJACK], bonus[PRIEST], bonus[MOAI] = c.bonus_lumberjack, c.bonus_priest, c.bonus_moai
    bonus[HG:] = c.bonus_hg
    return m.Consts(
        players=rules.players,
        columns=c.columns,
        depth=c.depth,
        hand=c.hand,
        group=np.array([0, *(rules.group_cost(k) for k in (1, 2, 3))], dtype=np.int64),
        price=c.sacrifice_price,
        bonus=bonus,
        one_choice=rules.start_sacrifice == "one_choice",
        stuck_pass=rules.stuck_hand == "pass",
        refill_same=rules.refill_columns == "same",
        per_card=rules.hg_income == "per_card",
        shared=rules.majority_rule == "shared",
        end_round=rules.end_timing == "round",
        refill_first=rules.refill_bottom == "first",
        values=np.array(c.sacrifice_values, dtype=np.int64),
        tie=TIES[rules.sacrifice_tie],
        pile0=c.n_cards - c.display_cards,
        deck=np.bincount(np.array(deck(rules), dtype=np.int64), minlength=N_KINDS),
        keep_rounds=keep_rounds,
        max_turns=turn_bound(rules),
        **dict(c.settings),  # each simple rule parameter, by its name (`parameters.SIMPLE`)
    )


def most_rounds(rules: Rules) -> int:
    """The rounds the per-round table has room for: more than a game can last (each round
    of turns without passes takes at least a card of each seat from the display, R6.1)."""
    c = rules.components
    return (c.n_cards + rules.players * (c.hand + 2)) // rules.players + 4


def widest(rules: Rules) -> int:
    """The widest legal mask of any decision."""
    return max(action_size(rules, k) for k in Kind)


def setup(rules: Rules, streams: Streams, rounds: bool = False) -> m.Arrays:
    """R1: the games' state at the start, each deal drawn as the reference engine draws it
    (`reference.shuffled`, `reference.deal`)."""
    c, p = rules.components, rules.players
    b = len(streams.games)
    cards = np.array(deck(rules), dtype=np.int64)
    keys = streams.chance(Chance.DEAL, np.arange(b), len(cards))
    order = cards[np.argsort(keys, axis=1, kind="stable")]
    n, cols, depth = c.display_cards, c.columns, c.depth
    if rules.display_deal == "by_column":
        columns = order[:, :n].reshape(b, cols, depth)
    else:  # by_row: row r of column k is card cols * r + k
        columns = order[:, :n].reshape(b, depth, cols).transpose(0, 2, 1)
    z = lambda *shape: np.zeros((b, *shape), dtype=np.int64)  # noqa: E731
    hand = z(p, N_KINDS)
    hand[:] = np.array([rules.start_hand(q) for q in range(p)])
    village = z(p, N_KINDS)
    village[:, :, LUMBERJACK] = c.start_lumberjacks
    stock, supply = z(p, N_FOODS), np.full((b, N_FOODS), c.supply, dtype=np.int64)
    if rules.start_sacrifice == "one_each":  # R1.4
        stock[:] = c.start_stock
        supply -= p * c.start_stock
    cur = z(6)
    cur[:, m.C_STEP] = m.START if rules.start_sacrifice == "one_choice" else m.BUY
    cur[:, m.C_FIRST] = -1
    return m.Arrays(
        hand=hand, village=village, taken=z(p, N_KINDS), played=z(p, N_KINDS),
        discarded=z(p, N_KINDS), stock=stock, down=z(p, N_FOODS), bought=z(p, N_FOODS),
        gained=z(p, N_FOODS), given=z(p, N_FOODS),
        wood=np.tile(np.array([rules.start_wood(q) for q in range(p)], dtype=np.int64), (b, 1)),
        glory=z(p), turns=z(p), supply=supply, stone=z(N_FOODS), out=z(N_KINDS),
        columns=np.ascontiguousarray(columns), col_size=np.full((b, cols), depth, np.int64),
        pile=np.ascontiguousarray(order[:, n:]) if len(cards) > n else z(1),
        pile_pos=z(), pile_len=np.full(b, len(cards) - n, dtype=np.int64), turn=z(),
        active=z(), revealed=np.full(b, -1, dtype=np.int64), passes=z(),
        pile_out=np.zeros(b, dtype=bool), cur=cur,
        seat_keys=np.ascontiguousarray(streams.seat_keys),
        seat_pos=np.zeros((b, p), dtype=np.uint64),
        wait=np.zeros((b, p), dtype=bool), slot=z(p), filled=np.zeros((b, p), dtype=bool),
        pend_legal=np.zeros((b, widest(rules)), dtype=bool), pend_kind=z(),
        paused=np.zeros(b, dtype=bool),
        track=np.zeros((b, most_rounds(rules) if rounds else 1, p, 5), dtype=np.int64),
        track_rounds=z(),
        down_sum=z(N_FOODS),
    )  # fmt: skip


#: A strategy's compiled form (`Strategy.compiled(rules)`) -> the machine's policy family.
FAMILIES: dict[str, int] = {"random": m.RANDOM, "heuristic": m.HEURISTIC}


def compiled_forms(rules: Rules, strategies: Sequence[Any]) -> list[Any] | None:
    """Each strategy's compiled form under these rules, or None unless every one has one
    (no user code runs in their games: the runner's compiled path)."""
    forms = [getattr(s, "compiled", lambda rules: None)(rules) for s in strategies]
    return None if any(f is None for f in forms) else forms


class Forbid(NamedTuple):
    """A restriction's compiled form (`restrict`): the inner strategy's form, and the forbid
    bits (`policy.FORBID`) the machine narrows its legal masks by (`policy.narrow`)."""

    form: Any
    bits: int


def compiled_family(strategy: Any, rules: Rules) -> tuple[int, Any, int]:
    """The machine's policy family of a strategy, its weights and its forbid bits: its
    compiled form's (`Strategy.compiled`; a "heuristic" form plays the strategy's
    `vector(rules)`, a ranker's form (`learned.Model`) stands in for the weights; a `Forbid`
    its inner form's, narrowed), or `PAUSE` (its answers come from Python) when it has none,
    or one the machine plays game by game (a `Choice`)."""
    form = getattr(strategy, "compiled", lambda rules: None)(rules)
    bits = 0
    if isinstance(form, Forbid):
        form, bits = form.form, form.bits
    if isinstance(form, Model):
        return m.LEARNED, form, bits
    family = FAMILIES.get(form, m.PAUSE) if isinstance(form, str) else m.PAUSE
    weights = np.zeros(NW, dtype=np.float64)
    if family == m.HEURISTIC:
        weights[:] = strategy.vector(rules)
    return family, weights, bits if family != m.PAUSE else 0


def model_tables(models: Sequence[Model], actions: int) -> dict[str, np.ndarray]:
    """The `Lineup`'s tables of the learned models (`Lineup.model` numbers them in this
    order) and the ranker's scratch arrays, for decisions of at most `actions` actions
    (`learned_model.model_tables`)."""
    return shared_tables(models, NW, actions, most_candidates(actions), N_RANK)


def lineup(rules: Rules, strategies: Sequence[Any], games: np.ndarray,
           seat_keys: np.ndarray) -> tuple[m.Lineup, np.ndarray, list[Any]]:  # fmt: skip
    """The machine's `Lineup` of `strategies` (seat q plays strategies[q]) in the games
    `games` whose seats' stream keys are `seat_keys` [B, P]: a seat compiled game by game (a
    `Choice`: a mixture, a dispatch) gets each game's component's family, weights and bits;
    a restriction's bits narrow the compiled choices (a seat asked through views narrows its
    own answers). Also returns the values [B, P] (uint64) each seat's stream has drawn
    already that its position does not count (a `Choice`'s components answering through
    views before: `Choice.pick`), to add to the positions before the play goes on, and
    each seat's compiled form (a restriction's inner one)."""
    p, b = rules.players, len(seat_keys)
    family = np.zeros((b, p), dtype=np.int64)
    weights = np.zeros((b, p, NW), dtype=np.float64)
    forbid = np.zeros((b, p), dtype=np.int64)
    model = np.full((b, p), -1, dtype=np.int64)
    drawn = np.zeros((b, p), dtype=np.uint64)
    models: dict[Model, int] = {}
    forms: list[Any] = []

    def put(at: Any, q: int, f: int, w: Any, bits: int) -> None:
        family[at, q], forbid[at, q] = f, bits
        if isinstance(w, Model):
            model[at, q] = models.setdefault(w, len(models))
        else:
            weights[at, q] = w

    for q, s in enumerate(strategies):
        form = getattr(s, "compiled", lambda rules: None)(rules)
        outer = form.bits if isinstance(form, Forbid) else 0
        form = form.form if isinstance(form, Forbid) else form
        forms.append(form)
        if isinstance(form, Choice):
            comp, used = form.pick(games, seat_keys[:, q])
            drawn[:, q] = used
            for k, (f, w, bits) in form.forms.items():
                put(comp == k, q, f, w, bits | outer)
        else:
            put(slice(None), q, *compiled_family(s, rules))
    pol = m.Lineup(family=family, weights=weights, forbid=forbid,
                   seen=np.zeros((p, N_FOODS), dtype=np.int64),
                   scratch=np.zeros(N_FOODS, dtype=np.int64), model=model,
                   **model_tables(list(models), widest(rules)))  # fmt: skip
    return pol, drawn, forms


class Batch:
    """B games of root seed `seed` (numbers `games`) on the fast machine."""

    def __init__(self, rules: Rules, seed: int, games: Sequence[int] | np.ndarray,
                 rounds: bool = False) -> None:  # fmt: skip
        self.rules, self.seed = rules, int(seed)
        self.games = np.asarray(games, dtype=np.int64)
        self.streams = Streams(self.seed, self.games, rules.players)
        self.g = setup(rules, self.streams, rounds)
        self.c = consts(rules, rounds)
        self.legal = np.zeros(widest(rules), dtype=bool)
        self.due = np.zeros(rules.players, dtype=np.int64)
        self.strategies: list[Any] = []

    def nbytes(self) -> int:
        """Memory held by the games' arrays (what `moaisim bench` reports a game's state as)."""
        return sum(a.nbytes for a in self.g)

    def __len__(self) -> int:
        return len(self.games)

    def over(self) -> np.ndarray:
        """[B] the game is over."""
        return self.g.cur[:, m.C_STEP] == m.OVER

    def play(self, strategies: Sequence[Any], results: bool = True) -> pd.DataFrame | None:
        """Play every game to its end, seat q by strategies[q], and return the results (None
        with `results=False`: the forward model, whose look-ahead plays many short batches
        and reads only their scores, builds its table when asked)."""
        p = self.rules.players
        if len(strategies) != p:
            raise ValueError(f"{p} players need {p} strategies")
        self.seat(strategies)
        g = self.g
        pol, drawn, forms = lineup(self.rules, strategies, self.games, g.seat_keys)
        g.seat_pos[:] += drawn  # what a choice's components drew through views: streams go on
        choices = any(isinstance(f, Choice) for f in forms)
        path = "compiled" if (pol.family != m.PAUSE).all() else "view"
        todo = np.flatnonzero(~self.over())
        with warm.compiling(path):
            while len(todo):
                m.play_rows(g, self.c, pol, todo, self.legal, self.due)
                waiting = todo[g.paused[todo]]
                for rows, seat, kind in self.groups(waiting):
                    self.ask(rows, seat, kind)
                if choices and len(waiting):  # a choice's components that answered by views
                    g.seat_pos[:] += drawn_by_views(forms, self.games, g.seat_keys)
                todo = waiting
        return self.results() if results else None

    def seat(self, strategies: Sequence[Any]) -> None:
        """Seat these strategy instances (one per seat): their `start` hooks are called once
        per seating, so a play that goes on from decisions answered outside it (`answer`,
        `apply`) keeps what the strategies know of the games (a mixture's draws)."""
        if len(self.strategies) == len(strategies) and all(
            a is b for a, b in zip(self.strategies, strategies, strict=True)
        ):
            return
        self.strategies = list(strategies)
        for q, s in enumerate(strategies):
            hook = getattr(s, "start", None)
            if hook is not None:
                hook(self.rules, q, self.games)

    def check_length(self) -> None:
        """A game the machine stopped past its rules' bound on a game's length (TOO_LONG,
        `reference.turn_bound`) is a `GameLengthError` naming the first such game."""
        long = np.flatnonzero(self.g.cur[:, m.C_STEP] == m.TOO_LONG)
        if len(long):
            raise GameLengthError(int(self.games[long[0]]), self.seed, self.c.max_turns, "turns")

    def groups(self, rows: np.ndarray) -> list[tuple[np.ndarray, int, Kind]]:
        """The paused games' questions, one group per (seat, kind). Every play of the kernels
        is followed by this call (here and in the forward model), so it first raises for a
        game stopped past the bound on its length (`check_length`)."""
        self.check_length()
        g = self.g
        seat = np.argmax(g.wait[rows], axis=1)
        kind = g.pend_kind[rows]
        out = []
        for q, k in sorted(set(zip(seat.tolist(), kind.tolist(), strict=True))):
            out.append((rows[(seat == q) & (kind == k)], q, KINDS[k]))
        return out

    def ask(self, rows: np.ndarray, seat: int, kind: Kind) -> None:
        """Seat `seat`'s strategy answers the games `rows` through a view; the answers go to
        the seat's slots and the games play on."""
        g = self.g
        size = action_size(self.rules, kind)
        legal = g.pend_legal[rows, :size].copy()
        rng = SeatRandom(g.seat_keys[rows, seat].copy(), g.seat_pos[rows, seat].copy())
        view = SeatView(self.rules, seat, kind, legal, self.info(rows, kind),
                        rng, self.fields(rows, seat), self.games[rows])  # fmt: skip
        strategy = self.strategies[seat]
        name = getattr(strategy, "name", type(strategy).__name__)
        try:
            actions = np.asarray(getattr(strategy, kind.value)(view))
        except Exception as exc:
            raise StrategyError(str(name), kind.value, int(self.games[rows[0]]), self.seed, seat,
                                f"raised {type(exc).__name__}: {exc}") from exc  # fmt: skip
        actions = actions.reshape(-1)
        ok = len(actions) == len(rows) and np.issubdtype(actions.dtype, np.integer)
        if ok:
            inside = (actions >= 0) & (actions < size)
            ok = bool(inside.all()) and bool(legal[np.arange(len(rows)), actions].all())
        if not ok:
            raise StrategyError(str(name), kind.value, int(self.games[rows[0]]), self.seed, seat,
                                f"answered {actions.tolist()[:8]}: not one legal action per "
                                "game of the view")  # fmt: skip
        g.seat_pos[rows, seat] += np.uint64(view.rng.drawn)
        g.slot[rows, seat] = actions
        g.filled[rows, seat] = True
        g.wait[rows, seat] = False
        g.paused[rows] = False

    def info(self, rows: np.ndarray, kind: Kind) -> dict[str, np.ndarray]:
        """What a question is about, as the reference engine says it."""
        g, a = self.g, self.g.active[rows]
        if kind is Kind.SACRIFICE:
            return {"active": a.copy()}
        if kind is Kind.OFFERING:
            own = g.stock[rows, a].sum(axis=1) > 0
            return {"own": own.astype(np.int64), "supply": (g.supply[rows].sum(axis=1) > 0)
                    .astype(np.int64)}  # fmt: skip
        if kind in (Kind.MOAI_INCOME, Kind.BONUS):
            return {"units": g.pend_legal[rows].sum(axis=1) - 1}
        return {}

    def fields(self, rows: np.ndarray, seat: int) -> dict[str, np.ndarray]:
        """A view's fields (`views.FIELDS`) of the games `rows` for seat `seat`."""
        g = self.g
        return {
            "turn": g.turn[rows], "active": g.active[rows], "hand": g.hand[rows, seat],
            "stock": g.stock[rows, seat], "own_down": g.down[rows, seat],
            "village": g.village[rows], "wood": g.wood[rows], "glory": g.glory[rows],
            "hand_size": g.hand[rows].sum(axis=2), "stock_size": g.stock[rows].sum(axis=2),
            "down": g.down[rows].sum(axis=2), "taken": g.taken[rows], "played": g.played[rows],
            "discarded": g.discarded[rows], "bought": g.bought[rows], "gained": g.gained[rows],
            "given": g.given[rows], "display": g.columns[rows], "column_size": g.col_size[rows],
            "pile": g.pile_len[rows] - g.pile_pos[rows], "supply": g.supply[rows],
            "stone": g.stone[rows], "revealed": g.revealed[rows], "passes": g.passes[rows],
            "first_column": np.where(g.cur[rows, m.C_STEP] == m.TAKE, g.cur[rows, m.C_FIRST], -1),
        }  # fmt: skip

    def round_table(self) -> pd.DataFrame:
        """The per-round table of games made with `rounds=True`: a row per game, round and
        seat, as each round of turns ends (and as the game ends in a round begun)."""
        g, p = self.g, self.rules.players
        if not self.c.keep_rounds:
            raise ValueError("the per-round table is kept for games made with rounds=True")
        if (g.track_rounds > g.track.shape[1]).any():
            row = int(np.flatnonzero(g.track_rounds > g.track.shape[1])[0])
            raise RuntimeError(f"game {int(self.games[row])} lasted {int(g.track_rounds[row])} "
                               f"rounds, more than the table's {g.track.shape[1]}")  # fmt: skip
        n = g.track_rounds
        game = np.repeat(np.repeat(self.games, n), p)
        rnd = np.repeat(np.concatenate([np.arange(1, k + 1) for k in n]) if len(n) else
                        np.zeros(0, dtype=np.int64), p)  # fmt: skip
        seat = np.tile(np.arange(p), int(n.sum()))
        keep = np.arange(g.track.shape[1])[None, :] < n[:, None]
        rows = g.track[keep].reshape(-1, 5)
        cols = {"game": game, "round": rnd, "seat": seat,
                **{name: rows[:, k] for k, name in enumerate(TRACKED)}}  # fmt: skip
        return pd.DataFrame({k: np.asarray(v).astype(ROUND_DTYPES[k]) for k, v in cols.items()})

    def parts(self) -> dict[str, np.ndarray]:
        """R9.1: each game's score parts [B, P] (`PARTS`), by the kernel that scores the
        per-round table too (`machine.score_rows`, the rules' `scoring.score_parts`)."""
        out = np.zeros((len(PARTS), len(self), self.rules.players), dtype=np.int64)
        m.score_rows(self.g, self.c, out)
        return dict(zip(PARTS, out, strict=True))

    def results(self, names: Sequence[str] | None = None) -> pd.DataFrame:
        """The results table of the finished games (one row per seat of each game), seat q
        named `names[q]` (default: its strategy's name, "seat q" for a seat no strategy
        played)."""
        g, p, b = self.g, self.rules.players, len(self)
        parts = self.parts()
        scores = sum(parts[k] for k in PARTS)
        rank, share = ranked(scores, g.wood, self.rules.winner_tie)
        if names is None:
            names = [getattr(s, "name", type(s).__name__) for s in self.strategies]
            if len(names) != p:
                names = [f"seat {q}" for q in range(p)]
        flat = lambda a: np.asarray(a).reshape(-1)  # noqa: E731
        cols: dict[str, Any] = {
            "game": np.repeat(self.games, p), "seed": self.seed, "players": p,
            **provenance(self.rules), "seat": np.tile(np.arange(p), b),
            "strategy": pd.Categorical(np.tile(np.array(names, dtype=object), b)),
            "score": flat(scores), **{k: flat(v) for k, v in parts.items()},
            "moai": flat(g.village[:, :, MOAI]), "priests": flat(g.village[:, :, PRIEST]),
            "lumberjacks": flat(g.village[:, :, LUMBERJACK]),
            "hunter_gatherers": flat(g.village[:, :, HG:].sum(axis=2)), "wood": flat(g.wood),
            "stock": flat(g.stock.sum(axis=2)), "face_down": flat(g.down.sum(axis=2)),
            "bought": flat(g.bought.sum(axis=2)), "gained": flat(g.gained.sum(axis=2)),
            "discarded": flat(g.discarded.sum(axis=2)), "turns": flat(g.turns),
            "rank": flat(rank), "win": flat(rank == 1), "win_share": flat(share),
            "game_turns": np.repeat(g.turn, p), "rounds": np.repeat(rounds_of(g.turn, p), p),
        }  # fmt: skip
        return frame(cols)
