"""A built-in strategy's answer to a view: its compiled policy asked about the games a view
shows (docs/design.md, "Compiled policies and views").

Each built-in is written once, as its compiled policy (`compiled.policy`). Where it must answer
a `SeatView` instead (the reference engine asks every seat through views; a user's subclass
that calls `super().work(view)`; a mixture's component asked by views), `policy_answers`
rebuilds, for each game of the view, a game that shows the seat exactly that view (`world`)
and runs the policy's decision kernel there, on the seat's own stream. The policies read a
game only through `compiled.seen`, what the seat sees (a property test checks that their
answers do not change with what it cannot see), so what the rebuilt game holds in place of
the rivals' hands, the decks and the face-down strengths does not matter: it is filled in
plainly (no draw), in the layout the kernels expect.
"""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import numpy as np

from moaisim.games.moai.engine.batch.state import BatchState
from moaisim.games.moai.engine.compiled.arrays import PUBLIC, arrays_of, consts, kernel, scratch
from moaisim.games.moai.engine.compiled.learned import MAX_EXPERTS, N_CONTEXT, N_RANK, RANK
from moaisim.games.moai.engine.compiled.machine import play_rows
from moaisim.games.moai.engine.compiled.policy import RANDOM, Form, Lineup, Policy, lineup
from moaisim.games.moai.engine.compiled.question import (
    ASK,
    CONTEXT,
    NARROW,
    NO_QUESTION,
    RANKED,
    Question,
)
from moaisim.games.moai.engine.decisions import Kind, strengths
from moaisim.games.moai.engine.steps import Step
from moaisim.games.moai.engine.views import CURSOR_FIELDS, FIELDS, HIDDEN, SeatView
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import CAMP, N_CARD_TYPES, RESERVE, TILE_OUT, TILE_SUPPLY
from moaisim.rng import PURPOSES, SeatRandom

#: The view fields a rebuilt game is made of (a policy other than `random` needs them all).
NEEDED: tuple[str, ...] = ("hand", "hand_sizes", "own_loc", "own_up", "shown_loc",
                           "hidden_count", "camp_size", "reserve", "moai_count", "moai_supply",
                           "own_tiles")  # fmt: skip
#: Each kind's number in the kernels (`arrays.K_BID`...: the order of `Kind`).
_KINDS: dict[Kind, int] = {kind: k for k, kind in enumerate(Kind)}
#: What each kind's question is about, as the kernels' one integer (`decide`'s `info`).
INFO: dict[Kind, str] = {Kind.ORDER_TIES: "bid", Kind.DISASTER_TARGET: "card",
                         Kind.DISASTER_LOSS: "what", Kind.FOREST_TIE: "space",
                         Kind.FEED: "deficit", Kind.BOAT: "card"}  # fmt: skip


def policy_answers(form: Form, view: SeatView) -> np.ndarray:
    """The answers of a compiled policy to a view's question, one per game of the view ([n]
    actions, or [n, 6] card counts for a bid), drawn from the view's stream (moved on by what
    the policy drew, as if the seat had drawn it through `view.rng`)."""
    if not isinstance(form, Policy):
        raise TypeError("a view is answered by one compiled policy (a mixture asks its parts)")
    n, me, rules = len(view), int(view.seat), view.rules
    if form.family != RANDOM:
        missing = [
            f
            for f in (*NEEDED, "round")
            if f not in view.__dict__ and not (view._record is not None and f in FIELDS)
        ]  # noqa: SLF001
        if missing or view._record is None or view._cursor is None:  # noqa: SLF001
            raise AttributeError(
                f"a compiled policy answers a view with every field (this {view.kind.value} "
                f"view lacks {', '.join(missing) or 'the record or the cursor'}: declare no "
                "`reads` for a kind a built-in decides)"
            )
    g, pol, sc = _world(form, view, rules)
    keys, start = view.rng.keys, view.rng.position
    g.seat_keys[:, me] = keys
    g.seat_pos[:, me] = start
    out = np.zeros((n, N_CARD_TYPES), dtype=np.int64)
    _run(g, pol, sc, view, ASK, out, rules)
    out = out if view.kind is Kind.BID else out[:, 0].copy()
    drawn = g.seat_pos[:, me] - start
    if n and (drawn != drawn[0]).any():
        raise RuntimeError("a compiled policy drew unequal counts across the games of a view")
    if n and drawn[0]:
        skip(view.rng, int(drawn[0]))
    return out


def skip(rng: SeatRandom, k: int) -> None:
    """Move a view's stream on by k values per game (what the policy drew from it)."""
    rng.uniform(k)


def _world(form: Policy, view: SeatView, rules: Rules) -> tuple[Any, Lineup, Any]:
    """The kernels' arrays of games that show the seat this view (`_blank`'s, filled in),
    the lineup where every seat plays `form`, and the scratch."""
    n, me, p = len(view), int(view.seat), rules.players
    state, g = _blank(rules, n)
    record, cursor, d = view._record, view._cursor, view.__dict__  # noqa: SLF001
    if record is not None:
        for name in PUBLIC:
            getattr(g, name)[:] = record[name]
    if cursor is not None:
        for name in CURSOR_FIELDS:
            getattr(state, name)[:] = cursor[name]
    state.hand[:] = 0
    if view.kind is Kind.BID:  # R3.3: a bid's legal mask is the hand
        state.hand[:, me] = view.legal
    if "hand" in d:  # R1.6: the own hand as it is, each rival's hand its count of cards
        state.hand[:, me] = d["hand"]
    if "hand_sizes" in d:
        rivals = np.arange(p) != me
        state.hand[:, rivals, 0] = d["hand_sizes"][:, rivals]
    if "own_loc" in d and "shown_loc" in d:  # R5.9: where the pawns are, as shown
        fill_pawns(state.loc, state.up, d["own_loc"], d["own_up"], d["shown_loc"],
                   d["hidden_count"], d["camp_size"], d["reserve"], strengths(rules),
                   me)  # fmt: skip
    if "moai_supply" in d:  # R6.5: the tiles, the rivals' as counts
        fill_tiles(state.moai_owner, d["moai_supply"], d["own_tiles"], d["moai_count"], me)
    return g, _lineup(form, rules, n), _scratch(rules)


def _kept(make: Any) -> Any:
    """`make`, its results kept per thread (the kernels release the GIL: two threads that
    play batches at once, a writer thread or a dask worker's, must not share working arrays)
    for the next call with the same arguments (at most 64 kept)."""

    def kept(*args: Any) -> Any:
        table = _THREAD.__dict__.setdefault(make.__name__, {})
        if args not in table:
            if len(table) >= 64:
                table.clear()
            table[args] = make(*args)
        return table[args]

    kept.__name__, kept.__doc__ = make.__name__, make.__doc__
    return kept


_THREAD = threading.local()


@_kept
def _blank(rules: Rules, n: int) -> tuple[BatchState, Any]:
    """A batch of n games under `rules` and its kernels' arrays, kept for the next view of
    that size (each answer writes every array a policy reads)."""
    p = rules.players
    state = BatchState(rules, n)
    streams = SimpleNamespace(
        seat_keys=np.zeros((n, p), dtype=np.uint64),
        counters=[np.zeros(n, dtype=np.uint64) for _ in range(p)],
        chance_keys=np.zeros((n, PURPOSES), dtype=np.uint64),
    )
    return state, arrays_of(state, streams)  # type: ignore[arg-type]


@_kept
def _lineup(form: Policy, rules: Rules, n: int) -> Lineup:
    """The lineup of n games where every seat plays `form`."""
    games = np.zeros(n, dtype=np.int64)
    pol, _ = lineup([form] * rules.players, rules, games, np.zeros((n, rules.players), np.uint64))
    return pol


@_kept
def _scratch(rules: Rules) -> Any:
    """One scratch per rules (the kernels allocate nothing; each answer starts it clear)."""
    return scratch(rules)


@kernel
def fill_pawns(loc, up, own_loc, own_up, shown_loc, hidden_count, camp_size, reserve,  # noqa: ANN001
               strength, me: int) -> None:  # fmt: skip
    """R5.9: each game's pawns as the view shows them: the seat's own as they are; a rival's
    face-up pawns where they are shown, its face-down board pawns and camp pawns given the
    strengths its reserve counts leave (pawns are numbered by strength), weakest first."""
    n, p, pawns = loc.shape
    places = hidden_count.shape[2]
    for r in range(n):
        for q in range(p):
            if q == me:
                for i in range(pawns):
                    loc[r, q, i] = own_loc[r, i]
                    up[r, q, i] = own_up[r, i]
                continue
            x, left = 0, 0  # the next hidden place to fill, pawns still to put there
            while x < places and hidden_count[r, q, x] == 0:
                x += 1
            if x < places:
                left = hidden_count[r, q, x]
            camp = camp_size[r, q]
            for s in range(1, 4):
                keep = reserve[r, q, s - 1]  # pawns of this strength left in reserve
                for i in range(pawns):
                    if strength[i] != s:
                        continue
                    if shown_loc[r, q, i] != HIDDEN:
                        loc[r, q, i] = shown_loc[r, q, i]
                        up[r, q, i] = True
                        continue
                    up[r, q, i] = False
                    if keep > 0:
                        loc[r, q, i] = RESERVE
                        keep -= 1
                    elif left > 0:
                        loc[r, q, i] = x
                        left -= 1
                        if left == 0:
                            x += 1
                            while x < places and hidden_count[r, q, x] == 0:
                                x += 1
                            if x < places:
                                left = hidden_count[r, q, x]
                    elif camp > 0:
                        loc[r, q, i] = CAMP
                        camp -= 1
                    else:
                        loc[r, q, i] = RESERVE


@kernel
def fill_tiles(owner, supply, own, count, me: int) -> None:  # noqa: ANN001
    """R6.5: the supply's tiles and the seat's own as they are; each rival holds as many of
    the others as its count says (the shortest first), the rest have left the game."""
    n, tiles = owner.shape
    for r in range(n):
        for t in range(tiles):
            owner[r, t] = TILE_SUPPLY if supply[r, t] else (me if own[r, t] else TILE_OUT)
        t = 0
        for q in range(count.shape[1]):
            if q == me:
                continue
            for _ in range(count[r, q]):
                while t < tiles and owner[r, t] != TILE_OUT:
                    t += 1
                if t < tiles:
                    owner[r, t] = q


def _run(g: Any, pol: Lineup, sc: Any, view: SeatView, what: int, out: np.ndarray,
         rules: Rules, allowed: np.ndarray | None = None, stuck: np.ndarray | None = None,
         values: np.ndarray | None = None) -> None:  # fmt: skip
    """The machine's kernel (`machine.play_rows`) asked `what` (`question.ASK`, `NARROW`,
    `CONTEXT`) about the view's games (its kind, seat, legal masks and question's info)."""
    n = len(view)
    legal = np.ascontiguousarray(view.legal, dtype=np.bool_)
    about = INFO.get(view.kind)
    info = (np.asarray(view.info[about], dtype=np.int64).reshape(n) if about
            else np.full(n, -1, dtype=np.int64))  # fmt: skip
    if allowed is None or stuck is None:
        allowed, stuck = NO_QUESTION.allowed, NO_QUESTION.stuck
    if values is None:
        values = NO_QUESTION.values
    question = Question(what, _KINDS[view.kind], int(view.seat), legal, info, out, allowed, stuck,
                        values)  # fmt: skip
    play_rows(g, consts(rules), pol, sc, _NO_ROWS, -1, False, _NO_STOP, question)


#: `play_rows`' games and stops when it answers (it plays none).
_NO_ROWS = np.zeros(0, dtype=np.int64)
_NO_STOP = np.zeros(len(Step), dtype=np.bool_)


def allowed_actions(forbid: int, view: SeatView) -> tuple[np.ndarray, np.ndarray]:
    """`restrict`'s mask for a view (its policy's `forbid` bits, `policy.FORBID`): the legal
    actions the bits leave [n, A] (`policy.narrow`; for a disaster's target under
    `disasters`, the clans that lose nothing by the card, C3), and the games where they
    leave none [n] (the mask then as it was: the move is forced)."""
    n, rules = len(view), view.rules
    g, pol, sc = _world(Policy(RANDOM, forbid=forbid), view, rules)
    allowed = np.zeros(np.shape(view.legal), dtype=np.bool_)
    stuck = np.zeros(n, dtype=np.bool_)
    _run(g, pol, sc, view, NARROW, np.zeros((n, 1), dtype=np.int64), rules, allowed, stuck)
    return allowed, stuck


def context_features(view: SeatView) -> np.ndarray:
    """The seat's context at the view's decision, one row per game ([n, N_CONTEXT] float64,
    `compiled.learned.CONTEXT`): what a learned policy's gate reads there, computed by the
    very kernel that reads it in play (nothing is drawn)."""
    n, rules = len(view), view.rules
    g, pol, sc = _world(Policy(RANDOM), view, rules)
    values = np.zeros((n, N_CONTEXT), dtype=np.float64)
    _run(g, pol, sc, view, CONTEXT, np.zeros((n, 1), dtype=np.int64), rules, values=values)
    return values


def ranked_candidates(form: Policy, view: SeatView
                      ) -> tuple[list[np.ndarray], list[list[Any]], np.ndarray]:  # fmt: skip
    """A ranker's candidates at the view's decision, computed by the kernels it plays with:
    per game the candidates' feature rows ([m, N_RANK], `compiled.learned.RANK`), the
    candidates themselves (actions, or a bid's six card counts), and the row it chooses
    ([n]). Its experts draw where the view's stream stands, as in play; the view's stream is
    not moved."""
    n, me, rules = len(view), int(view.seat), view.rules
    g, pol, sc = _world(form, view, rules)
    g.seat_keys[:, me] = view.rng.keys
    g.seat_pos[:, me] = view.rng.position
    out = np.zeros((n, 2), dtype=np.int64)
    values = np.zeros((n, MAX_EXPERTS * N_RANK), dtype=np.float64)
    _run(g, pol, sc, view, RANKED, out, rules, values=values)
    rows = [values[r, : out[r, 1] * N_RANK].reshape(int(out[r, 1]), N_RANK) for r in range(n)]
    if view.kind is Kind.BID:  # R3.3: the bid's card counts
        cands = [[x[j, _BID_COLUMNS].astype(np.int64) for j in range(len(x))] for x in rows]
    else:
        cands = [[int(a) for a in x[:, _ACTION_COLUMN]] for x in rows]
    return rows, cands, out[:, 0].copy()


#: Where a candidate's bid (six card counts) and action stand in its `RANK` row.
_BID_COLUMNS = [RANK.index(f"bid_{t}") for t in range(N_CARD_TYPES)]
_ACTION_COLUMN = RANK.index("action")
