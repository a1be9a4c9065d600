"""A view's question asked of a compiled policy, inside the machine's own compile
(`compiled.answer` builds the game the view shows; this module answers in it).

The kernels that answer run as a mode of `machine.play_rows` (its `question`), not as a
kernel of their own: numba compiles every kernel a compile root calls into that root, so an
answering kernel of its own compiled the policies a second time (two minutes of CPU on the
first run of a version, benchmarks/README.md "The first compile"). As a mode of the one root,
the policies compile once and every path loads them from the one cache entry.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from moaisim.games.moai.engine.compiled.arrays import K_BID, K_DISASTER_TARGET, K_WORK, kernel
from moaisim.games.moai.engine.compiled.features import loses, tally
from moaisim.games.moai.engine.compiled.learned import (
    CAND_BITS,
    N_CONTEXT,
    N_RANK,
    candidate_row,
    context,
)
from moaisim.games.moai.engine.compiled.policy import LISTED, asked, decide_bid, narrow, ranked

#: What `play_rows` does: play the games (`PLAY`), ask a decision of each (a bid included,
#: `ASK`), `restrict`'s masks (`NARROW`), or the seat's context (`CONTEXT`: what a learned
#: policy's gate reads, `learned.context`), or a ranker's candidates (`RANKED`: each one's
#: features, `learned.RANK`, and the one it chooses).
PLAY, ASK, NARROW, CONTEXT, RANKED = -1, 0, 1, 2, 3


class Question(NamedTuple):
    """Seat `me`'s question of `kind` (`arrays.K_BID`...) in each game r of the batch: its
    legal mask legal[r] and what it is about info[r]; the answers go to out[r] (`ASK`: the
    action first, or a bid's card counts), or `restrict`'s masks to allowed[r] and whether
    only forbidden actions were legal to stuck[r] (`NARROW`)."""

    what: int
    kind: int
    me: int
    legal: np.ndarray  # bool [n, A]
    info: np.ndarray  # int64 [n]
    out: np.ndarray  # int64 [n, 6]
    allowed: np.ndarray  # bool [n, A] (NARROW) or [1, 1]
    stuck: np.ndarray  # bool [n] (NARROW) or [1]
    values: np.ndarray  # float64 [n, N_CONTEXT] (CONTEXT), [n, MAX_EXPERTS * N_RANK] (RANKED)


#: The question of a batch that plays (`PLAY`: nothing of it is read or written).
NO_QUESTION = Question(PLAY, 0, 0, np.zeros((1, 1), dtype=np.bool_),
                       np.zeros(1, dtype=np.int64), np.zeros((1, 1), dtype=np.int64),
                       np.zeros((1, 1), dtype=np.bool_), np.zeros(1, dtype=np.bool_),
                       np.zeros((1, N_CONTEXT)))  # fmt: skip


@kernel
def answer_rows(g, c, pol, sc, q) -> None:  # noqa: ANN001
    """Seat q.me's answer to q's question in each game r of g: with `ASK`, its decision into
    q.out[r, 0] (`policy.asked`, even where one action is legal: the seat is asked, and
    draws; a work decision with the forest's tally made afresh, the heuristic's per-phase
    context too) or its bid into q.out[r] (`policy.decide_bid`); with `NARROW`, `restrict`'s
    mask into q.allowed[r] and whether only forbidden actions were legal into q.stuck[r];
    with `CONTEXT`, the seat's context into q.values[r] (`learned.context`); with `RANKED`
    (the seat's policy a ranker), each candidate j's features into
    q.values[r, j * N_RANK : (j + 1) * N_RANK], the candidates' count into q.out[r, 1] and
    the one chosen into q.out[r, 0]."""
    legal, kind, me = q.legal, q.kind, q.me
    n, size = legal.shape
    listed = False
    for k in LISTED:
        listed |= kind == k
    for r in range(n):
        sc.tally_ok[0] = False
        pol.hs.held[0] = False
        m = 0
        for a in range(size):
            sc.legal[a] = legal[r, a]
            if legal[r, a]:
                sc.acts[m] = a
                m += 1
        sc.n_acts[0] = m if listed else 0
        if q.what == CONTEXT:
            context(g, c, r, me, kind, q.values[r])
        elif q.what == RANKED:
            if kind == K_WORK:  # R5: as `ASK` below
                tally(g, c, sc, r)
            ranked_row(g, c, pol, sc, r, kind, me, size, q.info[r], q.out[r], q.values[r])
        elif q.what == NARROW:
            narrow_row(g, c, pol, sc, r, kind, me, legal[r], q.info[r], q.allowed[r], q.stuck,
                       size)  # fmt: skip
        elif kind == K_BID:  # R3.3: the bid into the seat's slot, read from there
            g.filled[r, me] = False
            decide_bid(g, c, pol, sc, r, me)
            for t in range(q.out.shape[1]):
                q.out[r, t] = g.slot[r, me, t]
            g.filled[r, me] = False
        else:
            if kind == K_WORK:  # R5: the work phase's forest tally, as `compiled.work` keeps it
                tally(g, c, sc, r)
            q.out[r, 0] = asked(g, c, pol, sc, r, kind, me, size, q.info[r], pol.who[r, me])
        sc.tally_ok[0] = False


@kernel
def narrow_row(g, c, pol, sc, r: int, kind: int, me: int, legal, info: int, allowed, stuck,  # noqa: ANN001
               size: int) -> None:  # fmt: skip
    """`answer.allowed_actions`' mask of game r (sc.legal holds its legal mask)."""
    if kind == K_DISASTER_TARGET:  # R4.3, C3: the clans the card takes nothing from
        some = False
        for t in range(size):
            if sc.legal[t] and loses(g, c, r, t, info):
                sc.legal[t] = False
            some |= sc.legal[t]
        stuck[r] = not some
    else:
        stuck[r] = not narrow(g, c, pol.hs, sc, r, kind, me, size, pol.forbid[0])
    for a in range(size):
        allowed[a] = legal[a] if stuck[r] else sc.legal[a]


@kernel
def ranked_row(g, c, pol, sc, r: int, kind: int, me: int, size: int, info: int, out, values  # noqa: ANN001
               ) -> None:  # fmt: skip
    """`RANKED` in game r: the seat's ranker asked (`policy.ranked`), its candidates' rows
    into values, their count into out[1] and the one chosen into out[0]."""
    if kind == K_BID:
        size, info = 0, -1
    k = pol.who[r, me]
    chosen = ranked(g, c, pol, sc, r, kind, me, size, info, k)
    m = 0  # the candidates: the rows `ranked` marked with their proposers
    while m < pol.cands.shape[0] and pol.cands[m, CAND_BITS] != 0:
        m += 1
    x = pol.context
    context(g, c, r, me, kind, x)
    for j in range(m):
        candidate_row(pol.cands, pol.scores, pol.ints[k, 0], j, m, kind == K_BID, x)
        for f in range(N_RANK):
            values[j * N_RANK + f] = x[f]
    out[0] = chosen
    out[1] = m
