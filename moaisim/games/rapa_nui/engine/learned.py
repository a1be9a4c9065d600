"""Rapa Nui's learned ranker, compiled (`learned`, made by `moaisim learn --game rapa-nui
--mode ranker`): at each decision its experts (weight vectors of the heuristic: `tuned`, L3's
members, the plans, `greedy`) each propose their best action (`policy.choose`), and one
ensemble of boosted trees values each distinct proposal; the largest value is played (the
first on a tie: the earliest expert's proposal). One proposal: it, unvalued. At a kind the
model does not rank, its first expert's proposal is played. Like the heuristic, it draws
nothing.

A candidate's row (`RANK`) is the seat's context (`CONTEXT`: integers a seat sees, R10) and
the candidate's own features (`CANDIDATE`: who proposed it, how many candidates, the action,
and each expert's value of it less its value of its own proposal). The machine
(`machine.decide`) and a Python seat (`answers.ranked_candidates`) compute both with the same
kernel (`ranked`) from the same arguments the heuristic reads, so that the trees trained on
the rows a view gives are asked about the very numbers they will see in play; the trees are
walked by the toolkit's `learned_model.ensemble`.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.rapa_nui.engine.policy import remain, value
from moaisim.games.rapa_nui.rules.codes import HG, LUMBERJACK, MOAI, N_FOODS, N_KINDS, PRIEST
from moaisim.jit import kernel
from moaisim.learned_model import (
    CANDIDATE,
    I_COUNT,
    I_EXPERTS,
    I_FIRST,
    I_KINDS,
    I_LEGAL,
    MAX_EXPERTS,
    Model,
    candidate,
    ensemble,
    propose,
)

__all__ = ["CANDIDATE", "CONTEXT", "I_COUNT", "MAX_EXPERTS", "Model", "N_CONTEXT", "N_RANK",
           "RANK", "most_candidates", "ranked", "ranked_view"]  # fmt: skip

#: The context's features, in their column order (`context`): what the seat sees (R10).
CONTEXT: tuple[str, ...] = (
    "kind",  # the decision's kind (`machine.K_START`...: the order of `Kind`)
    "players",
    "turn",  # turns played before this one
    "pile",  # cards left in the draw pile (R8.1: the game's clock)
    "points",  # glory + Moai x moai_glory + wood / wood_per_glory (R9.1, the stock left out)
    "lead",  # those points less the best rival's
    "glory",
    "wood",
    "hand",  # cards in the seat's hand
    "hand_moai",  # Moai cards in the hand (R4.1: each needs moai_cost wood)
    "lumberjacks",  # the seat's village, by kind
    "priests",
    "moai",
    "hunters",  # hunter-gatherers of every type
    "rival_moai",  # the most Moai in a rival's village
    "stock",  # the seat's sacrifice cards
    "rival_stock",  # the most a rival's stock holds, as the public record gives it (R10.3)
    "stone",  # face-up cards on the stone
    "supply",  # sacrifice cards in the supply
)
N_CONTEXT = len(CONTEXT)


def most_candidates(actions: int) -> int:
    """The most candidates a decision of at most `actions` legal actions has (the rows of
    the candidate and row tables)."""
    return MAX_EXPERTS + actions


#: A candidate's row: the seat's context, then the candidate's own features
#: (`learned_model.CANDIDATE`).
RANK: tuple[str, ...] = CONTEXT + CANDIDATE
N_RANK = len(RANK)


@kernel(nrt=False)
def points(c, q: int, glory, village, wood) -> int:  # noqa: ANN001
    """Seat q's points as every seat sees them (R9.1 but the stock, whose face-down types
    are hidden, R10.3)."""
    return glory[q] + village[q, MOAI] * c.moai_glory + wood[q] // c.wood_per_glory


@kernel(nrt=False)
def context(c, kind: int, seat: int, turn: int, pile: int, hand, stock, village, wood,  # noqa: ANN001
            glory, seen, supply, stone, x) -> None:  # fmt: skip
    """The seat's context at a decision of `kind` into x[:N_CONTEXT] (`CONTEXT`)."""
    mine = points(c, seat, glory, village, wood)
    best, rival_moai, rival_stock = -(10**9), 0, 0
    for q in range(c.players):
        if q != seat:
            best = max(best, points(c, q, glory, village, wood))
            rival_moai = max(rival_moai, village[q, MOAI])
            n = 0
            for f in range(N_FOODS):
                n += seen[q, f]
            rival_stock = max(rival_stock, n)
    cards, hunters, own, on_stone, in_supply = 0, 0, 0, 0, 0
    for k in range(N_KINDS):
        cards += hand[k]
    for f in range(N_FOODS):
        hunters += village[seat, HG + f]
        own += stock[f]
        on_stone += stone[f]
        in_supply += supply[f]
    x[0] = kind
    x[1] = c.players
    x[2] = turn
    x[3] = pile
    x[4] = mine
    x[5] = mine - best
    x[6] = glory[seat]
    x[7] = wood[seat]
    x[8] = cards
    x[9] = hand[MOAI]
    x[10] = village[seat, LUMBERJACK]
    x[11] = village[seat, PRIEST]
    x[12] = village[seat, MOAI]
    x[13] = hunters
    x[14] = rival_moai
    x[15] = own
    x[16] = rival_stock
    x[17] = on_stone
    x[18] = in_supply


@kernel(nrt=False)
def ranked(c, ints, constant: float, experts_w, nodes, roots, kind: int, seat: int, legal,  # noqa: ANN001
           size: int, turn: int, hand, stock, down, village, wood, glory, seen, display,
           col_size, pile: int, supply, stone, scratch, scores, cands,
           rows) -> tuple[int, int]:  # fmt: skip
    """A ranker's choice at a decision: its experts' proposals (each the heuristic's best
    action by its weights, experts_w[e]) into cands, then, with ints[I_LEGAL], every other
    legal action; their rows (`RANK`) into rows[:m], and (the chosen candidate's row, the
    candidates' count). At a kind the model does not rank (ints[I_KINDS]), only its first
    expert is asked: (0, 1). cands and rows hold `MAX_EXPERTS` + size rows."""
    ranks = (ints[I_KINDS] >> kind) & 1
    experts = ints[I_EXPERTS] if ranks else 1
    m = 0
    left = remain(c, pile)
    for e in range(experts):
        best, best_value = -1, -1e300
        for a in range(size):
            if not legal[a]:
                continue
            w = experts_w[e]
            v = value(c, w, kind, seat, a, legal, size, hand, stock, down, village, wood, seen,
                      display, col_size, pile, supply, stone, scratch, left)  # fmt: skip
            scores[e, a] = v
            if v > best_value + 1e-9:  # the first best, as `policy.choose`
                best, best_value = a, v
        m = propose(cands, m, e, best)
    if ranks and ints[I_LEGAL]:  # then every other legal action
        for a in range(size):
            if legal[a]:
                m = propose(cands, m, -1, a)
    if m == 1:
        return 0, 1
    context(c, kind, seat, turn, pile, hand, stock, village, wood, glory, seen, supply, stone,
            rows[0])  # fmt: skip
    top, who = -np.inf, 0
    for j in range(m):
        if j > 0:
            for t in range(N_CONTEXT):
                rows[j, t] = rows[0, t]
        candidate(cands, scores, experts, j, m, rows[j], N_CONTEXT)
        v = ensemble(nodes, roots, ints[I_FIRST], ints[I_COUNT], rows[j], constant)
        if v > top:
            top, who = v, j
    return who, m


@kernel(nrt=False)
def ranked_view(c, ints, constant: float, experts_w, nodes, roots, kind: int, seat: int,  # noqa: ANN001
                legal, turn, hand, stock, down, village, wood, glory, seen, display, col_size,
                pile, supply, stone, scratch, scores, cands, rows, out) -> None:  # fmt: skip
    """`ranked` for each game i of a view (its fields as arrays over n games): the rows of
    its candidates into rows[i, :m], the candidates' actions into cands[i, :m], and (the
    chosen row, m) into out[i]."""
    size = legal.shape[1]
    for i in range(legal.shape[0]):
        j, m = ranked(c, ints, constant, experts_w, nodes, roots, kind, seat, legal[i], size,
                      turn[i], hand[i], stock[i], down[i], village[i], wood[i], glory[i],
                      seen[i], display[i], col_size[i], pile[i], supply[i], stone[i], scratch,
                      scores, cands[i], rows[i])  # fmt: skip
        if m == 1:  # not valued in play; its row all the same
            context(c, kind, seat, turn[i], pile[i], hand[i], stock[i], village[i], wood[i],
                    glory[i], seen[i], supply[i], stone[i], rows[i, 0])  # fmt: skip
            candidate(cands[i], scores, 1 if ((ints[I_KINDS] >> kind) & 1) == 0
                      else ints[I_EXPERTS], 0, 1, rows[i, 0], N_CONTEXT)  # fmt: skip
        out[i, 0] = j
        out[i, 1] = m
