"""Kaivai's batch of games on the compiled machine (`machine`): set up from a seed as the
reference engine sets up its games (R1), played by compiled seats (`random`, `greedy`) and
read back as each seat's final figures.

    batch = Batch.new(Rules.make(4), seed=7, games=range(1000))
    batch.play(["greedy", "random", "random", "random"])
    batch.finals()      # [B, P, 10]: glory, money, fish, boats, huts, winner, parts
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from moaisim.errors import (
    GameLengthError,
    IllegalActionError,
    RulesError,
    UnknownStrategyError,
    UserError,
)
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine import warm
from moaisim.games.kaivai.engine.learned import N_RANK
from moaisim.games.kaivai.engine.policy import NW
from moaisim.games.kaivai.engine.reference import ACTIONS, PASS
from moaisim.games.kaivai.engine.results import (
    ROUND_DTYPES,
    TRACKED,
    frame,
    provenance,
    ranked,
)
from moaisim.games.kaivai.rules.board import RING, STEPS, board_hexes, distance
from moaisim.games.kaivai.rules.model import Rules
from moaisim.learned_model import MAX_EXPERTS, Model
from moaisim.learned_model import model_tables as shared_tables
from moaisim.mixture_parts import Choice
from moaisim.rng import Streams

#: The decision kinds in the machine's order (`machine.K_BID` ...), as the reference engine
#: names them.
KINDS: tuple[str, ...] = (
    "bid", "found", "god", "action", "continue", "build_step", "fish_step", "deliver_step",
    "move_step", "build", "fish_island", "deliver", "celebrate", "score_island", "island_bid",
)  # fmt: skip
#: The hut kinds by number (`machine.BOAT_HUT` ...), as the reference engine names them.
HUTS = ("boat", "temple", "meeting")
#: The columns of `Batch.finals()`.
FINALS = ("glory", "money", "fish", "boats", "huts", "winner", "feasts", "hut_glory", "sites",
          "piracy", "celebrations")  # fmt: skip
#: The fishing variants (O2) by number.
FISHING = ("dice", "lessluck", "luckless")


@cache
def geometry(radius: int) -> m.Geometry:
    """The board's hexes by number, (q, r) order (`board.board_hexes`)."""
    hexes = board_hexes(radius)
    index = {h: i for i, h in enumerate(hexes)}
    n = len(hexes)
    nbr = np.full((n, 6), -1, dtype=np.int64)
    ring = np.full((n, 6), -1, dtype=np.int64)
    for i, (q, r) in enumerate(hexes):
        near = sorted(index[x] for d in STEPS if (x := (q + d[0], r + d[1])) in index)
        nbr[i, : len(near)] = near
        for j, d in enumerate(RING):
            ring[i, j] = index.get((q + d[0], r + d[1]), -1)
    dist = np.array([[distance(a, b) for b in hexes] for a in hexes], dtype=np.int64)
    centre = np.array([distance(h, (0, 0)) for h in hexes], dtype=np.int64)
    return m.Geometry(nbr=nbr, ring=ring, dist=dist, centre=centre)


def hex_number(radius: int) -> dict[tuple[int, int], int]:
    """(q, r) -> the hex's number."""
    return {h: i for i, h in enumerate(board_hexes(radius))}


def consts(rules: Rules) -> m.Consts:
    """The rules' figures and options for the kernels."""
    c = rules.components
    number = hex_number(c.radius)
    top = max([c.freshness, rules.catch_freshness, *c.sale_shells, *c.start_shells,
               *rules.start_fish])  # fmt: skip
    if top >= m.VALUES:
        raise RulesError(f"the compiled machine counts shells and fish up to "
                            f"{m.VALUES - 1}, the component file has {top}")  # fmt: skip
    return m.Consts(
        players=rules.players,
        radius=c.radius,
        printed=np.array([number[h] for h in c.printed_cult_sites], dtype=np.int64),
        min_distance=c.extra_site_min_distance,
        bid_distance=np.array(c.bid_distance, dtype=np.int64),
        bonus=np.array(c.bonus, dtype=np.int64),
        sixths=np.array(c.dice_success_sixths, dtype=np.int64),
        sale=np.array(c.sale_shells, dtype=np.int64),
        sink_base=rules.sink_cost_base,
        capacity=c.hut_fish_capacity,
        huts=c.huts,
        boats=rules.boats,
        statues=c.temple_statues,
        start_influence=rules.start_influence,
        start_shells=np.array(c.start_shells, dtype=np.int64),
        start_fish=np.array(rules.start_fish, dtype=np.int64),
        rounds=rules.rounds,
        cult_tiles=rules.cult_tiles,
        extra_sites=rules.extra_sites,
        second=rules.second,
        fishing=FISHING.index(rules.fishing),
        anywhere=rules.extra_site_zone == "anywhere",
        victim_pays=rules.piracy_pays == "victim",
        boats_on_huts=rules.presence_boats_on_huts == "true",
        hidden=rules.influence_visibility == "hidden",
        all_cut_off=rules.trap_tie == "all_cut_off",
        sacrifice=rules.sacrifice_influence,
        catch_freshness=rules.catch_freshness,
        top=top + 1,
    )


def most_options(rules: Rules) -> int:
    """The longest option list a decision can have: every (boat, end) step, every (hex,
    kind) founding, every delivery plan round a hex."""
    c = rules.components
    n = len(board_hexes(c.radius))
    return max(n * 3, (rules.boats + 1) * n, (c.hut_fish_capacity + 1) ** 6,
               len(c.bid_distance) + 1, rules.start_influence + 64)  # fmt: skip


def action_size(rules: Rules, kind: Any) -> int:
    """The most options a decision of `kind` can have under `rules`: `most_options`, the
    same for every kind (a view's own mask is as wide as its games' longest list)."""
    return most_options(rules)


def scratch(rules: Rules) -> np.ndarray:
    """The kernels' work array (`machine.W_OPTS` ...)."""
    n = len(board_hexes(rules.components.radius))
    return np.zeros((m.N_WORK, max(most_options(rules), n + 1, 64)), dtype=np.int64)


def arrays(rules: Rules, streams: Streams, trace: int = 0, rounds: bool = False) -> m.Arrays:
    """The state of len(streams.games) games before their set-up (`trace`: decisions kept
    per game for the equivalence tests; `rounds`: the per-round table kept)."""
    b, p = len(streams.games), rules.players
    n = len(board_hexes(rules.components.radius))
    islands = len(rules.components.printed_cult_sites) + rules.extra_sites
    hexes = np.zeros((b, m.N_HEX_FIELDS, n), dtype=np.int64)
    for field in (m.H_KIND, m.H_OWNER, m.H_ISLAND, m.H_BOAT, m.H_REGION):
        hexes[:, field] = -1
    rand = np.zeros((b, m.R_CHANCE + streams.chance_keys.shape[1]), dtype=np.uint64)
    rand[:, :p] = streams.seat_keys
    rand[:, m.R_CHANCE :] = streams.chance_keys
    return m.Arrays(
        hexes=hexes,
        isl=np.zeros((b, m.I_TEMPLES + p, islands), dtype=np.int64),
        count=np.zeros((b, m.N_COUNT), dtype=np.int64),
        cur=np.zeros((b, m.N_CURSOR), dtype=np.int64),
        seat=np.zeros((b, p, m.N_SEAT), dtype=np.int64),
        vals=np.zeros((b, p, 2, m.VALUES), dtype=np.int64),
        rand=rand,
        trace=np.zeros((b, trace, 4), dtype=np.int64),
        track=np.zeros((b, rules.rounds if rounds else 0, p, len(TRACKED)), dtype=np.int64),
    )


def model_tables(models: Sequence[Model], actions: int) -> dict[str, np.ndarray]:
    """A `Lineup`'s tables of its learned models (`Lineup.model` numbers them in this order)
    and the policies' scratch arrays, for decisions of at most `actions` options
    (`learned_model.model_tables`; a ranker's candidates are its experts' proposals)."""
    return shared_tables(models, NW, actions, MAX_EXPERTS, N_RANK)


#: A strategy's compiled form (`Strategy.compiled(rules)`) -> the machine's policy family.
FAMILIES = {"random": m.RANDOM, "greedy": m.GREEDY, "heuristic": m.HEURISTIC}


def compiled_forms(rules: Rules, strategies: Sequence[Any]) -> list[Any] | None:
    """Each strategy's compiled form under these rules, or None unless every one has one
    (no user code runs in their games: the runner's compiled path)."""
    forms = [getattr(s, "compiled", lambda rules: None)(rules) for s in strategies]
    return None if any(f is None for f in forms) else forms


class Forbid(NamedTuple):
    """A restriction's compiled form (`restrict`): the inner strategy's form, and the forbid
    bits (`machine.F_SACRIFICE` ...) the machine narrows its options by (`machine.narrow`)."""

    form: Any
    bits: int


def compiled_family(strategy: Any, rules: Rules) -> tuple[int, Any, int]:
    """The machine's policy family of a strategy, its weights and its forbid bits: its
    compiled form's (`Strategy.compiled`; a "heuristic" form plays the strategy's
    `vector(rules)`, a ranker's form (`learned_model.Model`) stands in for the weights; a
    `Forbid` its inner form's, narrowed), or `PAUSE` (its answers come from Python) when it
    has none, or one the machine plays game by game (a `Choice`)."""
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


class Batch:
    """B games of Kaivai on the compiled machine."""

    def __init__(self, rules: Rules, g: m.Arrays, seed: int, games: np.ndarray) -> None:
        self.rules, self.g, self.seed, self.games = rules, g, seed, games
        self.geo = geometry(rules.components.radius)
        self.c = consts(rules)
        self.sc = scratch(rules)
        self.hexes = board_hexes(rules.components.radius)
        self.strategies: list[Any] = []
        #: when above 0, play stops at the end of this round (`machine.play_rows`)
        self.last_round = 0
        self._lineup = self.lineup(["random"] * rules.players)

    @classmethod
    def new(cls, rules: Rules, seed: int, games: Sequence[int] | np.ndarray,
            trace: int = 0, rounds: bool = False) -> Batch:  # fmt: skip
        """Games `games` of root seed `seed`, set up (R1) as the reference engine's games
        `Game(rules, ..., seed, game)` are (`rounds`: the per-round table kept)."""
        ids = np.asarray(games, dtype=np.int64)
        g = arrays(rules, Streams(seed, ids, rules.players), trace, rounds)
        out = cls(rules, g, seed, ids)
        with warm.compiling():  # both kernels under one notice: no game is played here
            m.set_up_rows(g, out.geo, out.sc, out.c, np.arange(len(ids), dtype=np.int64))
            none = np.zeros(0, dtype=np.int64)
            m.play_rows(g, out.geo, out.sc, out.c, out.lineup(["random"] * rules.players), none, 0)
        return out

    def __len__(self) -> int:
        return len(self.games)

    def seat(self, strategies: Sequence[Any]) -> None:
        """Seat these strategy instances (one per seat): their `start` hooks are called once
        per seating, so a play that goes on from decisions answered outside it keeps what
        the strategies know of the games (a mixture's draws)."""
        if len(self.strategies) == len(strategies) and all(
            a is b for a, b in zip(self.strategies, strategies, strict=True)
        ):
            return
        self.strategies = list(strategies)
        for q, s in enumerate(strategies):
            hook = getattr(s, "start", None)
            if hook is not None:
                hook(self.rules, q, self.games)

    def lineup(self, strategies: Sequence[Any]) -> m.Lineup:
        """The seats' compiled policies: a name of `FAMILIES`, a strategy that plays one
        compiled (`Strategy.compiled`: its form, a heuristic's weights its `vector`, a
        mixture's `Choice` game by game), or None (asked from Python). What a `Choice`'s
        components drew through views moves its seat's stream on."""
        p = self.rules.players
        if len(strategies) != p:
            raise UserError(f"{p} players need {p} strategies, got {len(strategies)}")
        b = len(self)
        family = np.zeros((b, p), dtype=np.int64)
        weights = np.zeros((b, p, NW), dtype=np.float64)
        forbid = np.zeros((b, p), dtype=np.int64)
        model = np.full((b, p), -1, dtype=np.int64)
        models: dict[Model, int] = {}

        def put(at: Any, q: int, f: int, w: Any, bits: int) -> None:
            family[at, q], forbid[at, q] = f, bits
            if isinstance(w, Model):
                model[at, q] = models.setdefault(w, len(models))
            else:
                weights[at, q] = w

        for q, seat in enumerate(strategies):
            if seat is None:
                family[:, q] = m.PAUSE
            elif isinstance(seat, str):
                if seat not in ("random", "greedy"):
                    raise UnknownStrategyError(
                        f"no compiled Kaivai strategy {seat!r} "
                        "(random, greedy, or a strategy object)"
                    )
                family[:, q] = FAMILIES[seat]
            else:
                form = getattr(seat, "compiled", lambda rules: None)(self.rules)
                outer = form.bits if isinstance(form, Forbid) else 0
                form = form.form if isinstance(form, Forbid) else form
                if isinstance(form, Choice):
                    comp, used = form.pick(self.games, self.g.rand[:, q].copy())
                    self.g.rand[:, m.R_POS + q] += np.asarray(used, dtype=np.uint64)
                    for k, (f, w, bits) in form.forms.items():
                        put(comp == k, q, f, w, bits | outer)
                else:
                    put(slice(None), q, *compiled_family(seat, self.rules))
        return m.Lineup(family=family, weights=weights, forbid=forbid, model=model,
                        **model_tables(list(models), self.sc.shape[1]))  # fmt: skip

    def play(self, strategies: Sequence[Any]) -> None:
        """Every game played on by the seats' compiled policies, to its end or to a question
        for a seat asked from Python (None in `strategies`: `waiting`, then `answer`)."""
        self._lineup = self.lineup(strategies)
        self._resume(np.arange(len(self), dtype=np.int64))

    def _resume(self, rows: np.ndarray) -> None:
        with warm.compiling():
            m.play_rows(self.g, self.geo, self.sc, self.c, self._lineup, rows, self.last_round)
        stuck = np.flatnonzero(self.g.cur[:, m.C_STEP] == m.TOO_LONG)
        if len(stuck):
            raise GameLengthError(int(self.games[stuck[0]]), self.seed, m.MAX_DECISIONS,
                                  "decisions")  # fmt: skip

    def waiting(self) -> list[tuple[int, int, str, list[Any]]]:
        """The questions the games wait on: (row, seat, kind, options), the options as the
        reference engine offers them, in its order (section D)."""
        out = []
        for row in np.flatnonzero(self.g.cur[:, m.C_PAUSED]):
            r = int(row)
            n = m.pending_options(self.g, self.geo, self.sc, self.c, r)
            kind = KINDS[int(self.g.cur[r, m.C_PEND_KIND])]
            listed = [self.option(r, kind, int(x)) for x in self.sc[m.W_OPTS, :n]]
            out.append((r, int(self.g.cur[r, m.C_PEND_SEAT]), kind, listed))
        return out

    def answer(self, row: int, index: int) -> None:
        """The answer (an index into its options) to the question game `row` waits on; the
        game plays on to its end or its next question from Python."""
        if not self.g.cur[row, m.C_PAUSED]:
            raise UserError(f"game row {row} waits on no question")
        n = m.pending_options(self.g, self.geo, self.sc, self.c, row)
        if isinstance(index, bool) or not isinstance(index, int | np.integer) or not (
                0 <= index < n):  # fmt: skip
            kind, seat = (
                KINDS[int(self.g.cur[row, m.C_PEND_KIND])],
                int(self.g.cur[row, m.C_PEND_SEAT]),
            )
            raise IllegalActionError("python", kind, int(self.games[row]), self.seed, seat, index,
                                     f"answered {index!r}, not an index into its {n} "
                                     "options")  # fmt: skip
        self.g.cur[row, m.C_SLOT], self.g.cur[row, m.C_FILLED] = int(index), 1
        self.g.cur[row, m.C_PAUSED] = 0
        self._resume(np.array([row], dtype=np.int64))

    def option(self, row: int, kind: str, x: int) -> Any:
        """An option as the machine lists it (an integer), as the reference engine offers it:
        a bid, a hex (q, r), a (hex, hut kind), an action's name, a (boat, end) step, an
        island by name, a delivery plan ((hex, fish), ...)."""
        hexes = self.hexes
        if kind in ("bid", "island_bid"):
            return x
        if kind in ("found", "build"):
            return hexes[x // 3], HUTS[x % 3]
        if kind == "god":
            return hexes[x]
        if kind == "action":
            return (*ACTIONS, PASS)[x]
        if kind == "continue":
            return ("stop", "continue")[x]
        if kind.endswith("_step"):
            return hexes[x // len(hexes)], hexes[x % len(hexes)]
        if kind == "deliver":
            end, base, plan = int(self.g.cur[row, m.C_END]), self.c.capacity + 1, []
            for j in range(6):
                if x % base:
                    plan.append((hexes[int(self.geo.nbr[end, j])], x % base))
                x //= base
            return tuple(plan)
        return hexes[int(self.g.isl[row, m.I_FIRST, x])]  # an island, by name

    def over(self) -> np.ndarray:
        return self.g.cur[:, m.C_STEP] == m.OVER

    def finals(self) -> np.ndarray:
        """[B, P, 11] each seat's final figures (`FINALS`)."""
        out = np.zeros((len(self), self.rules.players, len(FINALS)), dtype=np.int64)
        m.finals(self.g, self.c, self.rules.players, out)
        return out

    def results(self, names: Sequence[str] | None = None) -> pd.DataFrame:
        """The results table of the finished games (one row per seat of each game), seat q
        named `names[q]` (default: its strategy's name, "seat q" for a seat none played)."""
        p, b = self.rules.players, len(self)
        fin = self.finals()
        rank, share = ranked(fin[:, :, [0, 1, 2, 3, 4]])
        if names is None:
            names = [getattr(s, "name", str(s)) for s in self.strategies]
            if len(names) != p:
                names = [f"seat {q}" for q in range(p)]
        flat = lambda a: np.asarray(a).reshape(-1)  # noqa: E731
        col = {name: flat(fin[:, :, k]) for k, name in enumerate(FINALS)}
        cols: dict[str, Any] = {
            "game": np.repeat(self.games, p), "seed": self.seed, "players": p,
            **provenance(self.rules), "seat": np.tile(np.arange(p), b),
            "strategy": pd.Categorical(np.tile(np.array(names, dtype=object), b)),
            "score": col["glory"], "feast_points": col["feasts"],
            "hut_points": col["hut_glory"], "site_points": col["sites"],
            "piracy_points": col["piracy"], "money": col["money"], "fish": col["fish"],
            "boats_on_board": col["boats"], "huts": col["huts"],
            "celebrations": col["celebrations"], "rank": flat(rank),
            "win": flat(rank == 1), "win_share": flat(share),
            "decisions": np.repeat(self.g.cur[:, m.C_DECISIONS], p),
        }  # fmt: skip
        return frame(cols)

    def round_table(self) -> pd.DataFrame:
        """The per-round table of games made with `rounds=True`: a row per game, round and
        seat, as the round's decay ends it (`results.ROUND_COLUMNS`)."""
        track, p = self.g.track, self.rules.players
        if track.shape[1] == 0:
            raise ValueError("the per-round table is kept for games made with rounds=True")
        b, n = len(self), track.shape[1]
        cols = {
            "game": np.repeat(self.games, n * p),
            "round": np.tile(np.repeat(np.arange(1, n + 1), p), b),
            "seat": np.tile(np.arange(p), b * n),
            **{name: track[:, :, :, k].reshape(-1) for k, name in enumerate(TRACKED)},
        }
        return pd.DataFrame({k: np.asarray(v).astype(ROUND_DTYPES[k]) for k, v in cols.items()})

    def traced(self, row: int) -> list[tuple[str, int, int, int]]:
        """Game `row`'s decisions as (kind, seat, options, choice), when traced."""
        t = self.g.trace[row, : self.g.cur[row, m.C_TRACED]]
        return [(KINDS[k], int(s), int(n), int(i)) for k, s, n, i in t]

    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.g)
