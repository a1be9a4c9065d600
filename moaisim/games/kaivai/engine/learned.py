"""Kaivai's learned ranker, compiled (`learned`, made by `moaisim learn --game kaivai --mode
ranker`): at each decision its experts (weight vectors of the heuristic: `tuned`, L3's
members, the plans) each propose their best option (`machine.heuristic`), and one ensemble of
boosted trees values each distinct proposal; the largest value is played (the first on a
tie: the earliest expert's proposal). One proposal: it, unvalued. At a kind the model does
not rank, its first expert's proposal is played. Like the heuristic, it draws nothing.

A candidate's row (`RANK`) is the seat's context (`CONTEXT`: integers the seat sees, R11;
never a rival's influence, which O6 may hide, nor a secret bid), the candidate's own features
shared by every game's ranker (`learned_model.CANDIDATE`: who proposed it, how many
candidates, its place among the options, each expert's value of it less its value of its own
proposal), then Kaivai's (`OWN`: the option as the machine codes it, an action's price). The
machine (`machine.choose`) and a Python seat (`answers.ranked_candidates`, the view's games
rebuilt as machine state) compute them with the same kernel (`ranked`), so the trees trained
on a view's rows are asked about the very numbers they meet in play.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.kaivai.engine import machine as m
from moaisim.jit import kernel
from moaisim.learned_model import (
    C_ACTION,
    CANDIDATE,
    I_COUNT,
    I_EXPERTS,
    I_FIRST,
    I_KINDS,
    MAX_EXPERTS,
    candidate,
    ensemble,
    propose,
)

#: The context's features, in their column order (`context`): what the seat sees (R11).
CONTEXT: tuple[str, ...] = (
    "kind",  # the decision's kind (`machine.K_BID` ...: the order of `Kind`)
    "players",
    "round",  # R2: the game's clock
    "options",  # how many options the decision has
    "points",  # glory + 2 a hut built (R10.1), as search values a seat mid-game
    "lead",  # those points less the best rival's
    "glory",
    "influence",  # the seat's own (a rival's may be hidden, O6)
    "money",  # shells' worth
    "fish",
    "boats",  # boats on the board
    "huts",  # huts built
    "statues",  # statues left (temples still to build)
    "bonus",  # the bonus track's position (R8.5)
    "bid",  # this round's bid (0: none yet)
    "turn_place",  # the seat's place in this round's turn order
    "acted",  # 1 once it has acted this round
    "feasts",  # its glory from feasts so far
    "islands",
    "tiles",  # cult tiles left
    "rival_money",  # the richest rival's shells
    "rival_fish",  # the most fish a rival holds
)
N_CONTEXT = len(CONTEXT)
#: Kaivai's own candidate features, after the shared ones.
OWN: tuple[str, ...] = (
    "option",  # the option as the machine codes it (`machine.options`)
    "price",  # an action's tokens on its space (R6.3; 0 at other kinds and for the pass)
)
#: A candidate's row: the seat's context, the shared candidate features, Kaivai's own.
RANK: tuple[str, ...] = CONTEXT + CANDIDATE + OWN
N_RANK = len(RANK)
#: Where `OWN` starts in a row.
N_SHARED = N_CONTEXT + len(CANDIDATE)


@kernel(nrt=False)
def points(g, c, r: int, s: int) -> int:  # noqa: ANN001
    """Seat s's glory and 2 a hut built (R10.1), as every seat sees them."""
    return g.seat[r, s, m.S_GLORY] + 2 * m.huts_built(g, c, r, s)


@kernel(nrt=False)
def context(g, c, r: int, kind: int, s: int, n: int, x) -> None:  # noqa: ANN001
    """Seat s's context at game r's decision of `kind` with n options into x[:N_CONTEXT]
    (`CONTEXT`)."""
    mine = points(g, c, r, s)
    best, rich, fishy = -(10**9), 0, 0
    for q in range(c.players):
        if q != s:
            best = max(best, points(g, c, r, q))
            rich = max(rich, m.money(g, c, r, q))
            fishy = max(fishy, m.fish_count(g, c, r, q))
    place = 0
    for k in range(c.players):
        if g.count[r, m.G_TURNS + k] == s:
            place = k
    x[0] = kind
    x[1] = c.players
    x[2] = g.count[r, m.G_ROUND]
    x[3] = n
    x[4] = mine
    x[5] = mine - best
    x[6] = g.seat[r, s, m.S_GLORY]
    x[7] = g.seat[r, s, m.S_INFLUENCE]
    x[8] = m.money(g, c, r, s)
    x[9] = m.fish_count(g, c, r, s)
    x[10] = m.boats_on_board(g, c, r, s)
    x[11] = m.huts_built(g, c, r, s)
    x[12] = g.seat[r, s, m.S_STATUES]
    x[13] = g.seat[r, s, m.S_BONUS]
    x[14] = g.seat[r, s, m.S_BID]
    x[15] = place
    x[16] = g.seat[r, s, m.S_ACTED]
    x[17] = g.seat[r, s, m.S_FEASTS]
    x[18] = g.count[r, m.G_ISLANDS]
    x[19] = g.count[r, m.G_TILES]
    x[20] = rich
    x[21] = fishy


@kernel(nrt=False)
def own(g, sc, r: int, kind: int, i: int, x) -> None:  # noqa: ANN001
    """Kaivai's own features of option i (`OWN`) into x[N_SHARED:]."""
    code = sc[m.W_OPTS, i]
    x[N_SHARED] = code
    x[N_SHARED + 1] = (g.count[r, m.G_SPACES + code]
                       if kind == m.K_ACTION and 0 <= code < m.N_ACTIONS else 0)  # fmt: skip


@kernel(nrt=False)
def ranked(g, geo, sc, c, ints, constant: float, experts_w, nodes, roots, r: int, kind: int,  # noqa: ANN001
           s: int, n: int, scores, cands, rows) -> tuple[int, int]:  # fmt: skip
    """A ranker's choice among game r's n options in `sc.opts` (seat s's decision of
    `kind`): its experts' proposals (each the heuristic's best option by its weights,
    experts_w[e], every option's value kept in scores[e]) into cands, their rows (`RANK`)
    into rows[:k]; returns (the option chosen, the candidates' count k). At a kind the model
    does not rank (ints[I_KINDS]) only its first expert is asked. cands and rows hold
    `MAX_EXPERTS` rows."""
    ranks = (ints[I_KINDS] >> kind) & 1
    experts = ints[I_EXPERTS] if ranks else 1
    k = 0
    for e in range(experts):
        k = propose(cands, k, e, m.heuristic(g, geo, sc, c, experts_w[e], r, kind, s, n,
                                             scores[e]))  # fmt: skip
    context(g, c, r, kind, s, n, rows[0])
    top, who = -np.inf, 0
    for j in range(k):
        if j > 0:
            for t in range(N_CONTEXT):
                rows[j, t] = rows[0, t]
        candidate(cands, scores, experts, j, k, rows[j], N_CONTEXT)
        own(g, sc, r, kind, cands[j, C_ACTION], rows[j])
        if k > 1:
            v = ensemble(nodes, roots, ints[I_FIRST], ints[I_COUNT], rows[j], constant)
            if v > top:
                top, who = v, j
    return cands[who, C_ACTION], k


@kernel(nrt=False)
def ranked_rows(g, geo, sc, c, kinds, seats, mask, ints, constant: float, experts_w, nodes,  # noqa: ANN001
                roots, scores, cands, rows, out) -> None:  # fmt: skip
    """`ranked` at each game r of a view rebuilt as machine state (seat seats[r]'s decision
    of kinds[r]), among the options mask[r] leaves (`machine.masked`): the candidates' rows
    into rows[r, :k], their options' places among all into cands[r, :k, C_ACTION], and (the
    option chosen, k) into out[r]."""
    for r in range(len(out)):
        n = m.masked(g, geo, sc, c, r, kinds[r], seats[r], mask[r])
        i, k = ranked(g, geo, sc, c, ints, constant, experts_w, nodes, roots, r, kinds[r],
                      seats[r], n, scores, cands[r], rows[r])  # fmt: skip
        for j in range(k):
            cands[r, j, C_ACTION] = sc[m.W_WHERE, cands[r, j, C_ACTION]]
        out[r, 0] = sc[m.W_WHERE, i]
        out[r, 1] = k


__all__ = ["CONTEXT", "MAX_EXPERTS", "N_CONTEXT", "N_RANK", "OWN", "RANK", "ranked",
           "ranked_rows"]  # fmt: skip
