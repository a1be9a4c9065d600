"""`learned`, compiled: a gate of boosted trees that picks, at each decision, which of its
experts (shipped weight vectors of the heuristic family, or greedy) decides
(strategies/moai/learned.py holds the model files and how they are trained).

Two parts:

- the **context** a seat sees at a decision (`context`, `CONTEXT`): integers only (the
  decision's kind, the round, the seat's visible score and lead, its wood, hand, pawns,
  statues...), read through `seen` and `features` as every compiled policy reads a game, so
  that a model trained on them in Python (`compiled.answer.context_features`) reads the very
  numbers it will be asked about here;
- the **gate** (`choose`): one ensemble of regression trees per expert, its sum the log-odds
  that the expert decides as the teacher (search) did; the expert of the largest log-odds
  decides (ties: the first). The trees are scikit-learn's, copied node by node into the
  lineup's `nodes` table (feature, threshold, left child, right child, value; a leaf's
  feature is -1): a row goes left when its feature is at most the threshold, as in
  scikit-learn. The context's integers are exact in the float32 scikit-learn compares in.

The policy draws exactly one value of the seat's stream per decision it is asked: its expert
decides on a sub-stream keyed by that value's position (`enter`, `leave`), so the games of one
view move their streams alike whichever expert each game asks, and the expert's draws never
meet the seat's own.

A learned policy's lineup entry (`policy.LEARNED`) holds its expert count in ints[0] and, in
its floats, each expert's policy index in the lineup, then each expert's first tree in the
lineup's `roots` table and its tree count, then each expert's constant (the ensemble's log-odds
before any tree).
"""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.compiled import seen
from moaisim.games.moai.engine.compiled.arrays import kernel
from moaisim.games.moai.engine.compiled.features import visible_score
from moaisim.learned_model import ensemble

#: The context's features, in their column order (`context`).
CONTEXT: tuple[str, ...] = (
    "kind",  # the decision's kind (`arrays.K_BID`...: the order of `Kind`)
    "round",  # R2: the round, from 1
    "last_round",  # 1 in the last round
    "players",
    "position",  # R3.4: the seat's place in this round's hill order (0: first)
    "birdman",  # 1 when the seat is bird-man
    "score",  # R8.2 as the rivals see it (`features.visible_score`)
    "lead",  # that score minus the best rival's
    "wood",  # the seat's wood tokens
    "wood_supply",  # wood left in the supply
    "hand",  # cards in the seat's hand
    "living",  # the seat's pawns on the board and in camp
    "statues",  # the seat's Moai tiles
    "rival_statues",  # the most Moai tiles of a rival
    "epoch_deck",  # epoch cards left to draw (time left)
    "free_fields",  # free field spaces
)
N_CONTEXT = len(CONTEXT)
#: Most experts a learned policy has (its floats hold four numbers per expert).
MAX_EXPERTS = 16
#: A ranker's features of one candidate beyond the context, in their column order (`RANK`).
CANDIDATE: tuple[str, ...] = (
    "proposers",  # how many experts proposed it
    "candidates",  # how many distinct candidates the experts proposed
    "action",  # the action (-1 for a bid)
    *(f"bid_{t}" for t in range(6)),  # R3.3: a bid's cards of each type (0 for an action)
    "bid_cards",  # the cards a bid spends (0 for an action)
    *(f"by_{e}" for e in range(MAX_EXPERTS)),  # 1 when expert e proposed it
    # expert e's score of the candidate less its score of its own proposal (<= 0 but for a
    # tie; 0 for a bid, and where the expert scores no action: `policy.ranked`)
    *(f"margin_{e}" for e in range(MAX_EXPERTS)),
)
#: A ranker's row for one candidate: the seat's context, then the candidate's own features.
RANK: tuple[str, ...] = CONTEXT + CANDIDATE
N_RANK = len(RANK)
#: A learned policy's mode (its ints[1]): a gate picks the expert that decides (`GATE`), or
#: the experts propose and one ensemble values each distinct proposal (`RANKER`).
GATE, RANKER = 0, 1


@kernel
def context(g, c, r: int, me: int, kind: int, out) -> None:  # noqa: ANN001
    """Seat me's context at a decision of `kind` in game r into out[:N_CONTEXT] (`CONTEXT`)."""
    mine = visible_score(g, c, r, me)
    best, statues = -(10**9), 0
    for q in range(c.players):
        if q != me:
            best = max(best, visible_score(g, c, r, q))
            statues = max(statues, seen.moai_count(g, r, q))
    hand = 0
    for t in range(6):
        hand += seen.own_hand(g, r, me, t)
    out[0] = kind
    out[1] = seen.round_(g, r)
    out[2] = 1.0 if seen.last_round(g, r) else 0.0
    out[3] = c.players
    out[4] = seen.position(g, r, me)
    out[5] = 1.0 if seen.birdman(g, r) == me else 0.0
    out[6] = mine
    out[7] = mine - best
    out[8] = seen.wood(g, r, me)
    out[9] = seen.wood_supply(g, r)
    out[10] = hand
    out[11] = seen.on_board(g, r, me) + seen.camp_size(g, r, me)
    out[12] = seen.moai_count(g, r, me)
    out[13] = statues
    out[14] = seen.epoch_deck_size(g, r)
    out[15] = seen.free_fields_(g, c, r)


#: The first position of the experts' sub-streams (`enter`): far above any position a game
#: reaches, so that an expert's draws are never values the seat's own stream draws.
SUB_STREAM = np.uint64(1) << np.uint64(63)
#: Positions each decision's sub-stream holds (an expert draws fewer at any decision).
SUB_ROOM = np.uint64(64)


@kernel
def enter(g, r: int, me: int) -> np.uint64:  # noqa: ANN001
    """Seat me's stream in game r moved to the sub-stream of its next value (where the expert
    draws); returns that value's position, for `leave`."""
    pos = g.seat_pos[r, me]
    g.seat_pos[r, me] = SUB_STREAM + pos * SUB_ROOM
    return pos


@kernel
def leave(g, r: int, me: int, pos: np.uint64) -> None:  # noqa: ANN001
    """Seat me's stream back after its sub-stream: one value drawn in all, whichever expert
    decided and whatever it drew (every game of a view moves its stream alike)."""
    g.seat_pos[r, me] = pos + np.uint64(1)


@kernel
def position(g, r: int, me: int) -> np.uint64:  # noqa: ANN001
    """Where seat me's stream in game r stands (a ranker's experts draw from sub-streams
    keyed by it, `expert_stream`; `leave` moves it on by one)."""
    return g.seat_pos[r, me]


#: Where a ranker's experts draw (`expert_stream`): above the gate's sub-streams.
RANK_STREAM = SUB_STREAM + (np.uint64(1) << np.uint64(62))


@kernel
def expert_stream(g, r: int, me: int, pos: np.uint64, e: int) -> None:  # noqa: ANN001
    """Seat me's stream in game r moved to expert e's sub-stream of a ranker's decision at
    stream position pos (each expert its own, so that what one draws never moves another's;
    `leave` puts the stream back)."""
    g.seat_pos[r, me] = RANK_STREAM + (pos * np.uint64(MAX_EXPERTS) + np.uint64(e)) * SUB_ROOM


#: Columns of a ranker's candidate table (`Lineup.cands`): the action or the bid's six counts
#: (an action in column 0), then the experts that proposed it (bits).
CAND_BITS = 6


@kernel
def propose(cands, m: int, e: int, row, width: int) -> int:  # noqa: ANN001
    """Expert e's proposal row[:width] into the candidate table cands[:m] (a new row, or
    e's bit on the equal one); returns the candidates' count."""
    for j in range(m):
        same = True
        for t in range(width):
            same &= cands[j, t] == row[t]
        if same:
            cands[j, CAND_BITS] |= 1 << e
            return m
    for t in range(CAND_BITS):
        cands[m, t] = row[t] if t < width else 0
    cands[m, CAND_BITS] = 1 << e
    return m + 1


@kernel
def candidate_row(cands, scores, experts: int, j: int, m: int, bid: bool, x) -> None:  # noqa: ANN001
    """Candidate j's own features (`CANDIDATE`) into x[N_CONTEXT:] (the context before them
    is the decision's, the same for every candidate); scores[e] holds expert e's scores of
    the actions (`policy.ranked`)."""
    bits = cands[j, CAND_BITS]
    n = N_CONTEXT
    for e in range(MAX_EXPERTS):
        margin = 0.0
        if e < experts and not bid:
            for i in range(m):  # the candidate expert e proposed
                if (cands[i, CAND_BITS] >> e) & 1:
                    margin = scores[e, cands[j, 0]] - scores[e, cands[i, 0]]
        x[n + 10 + MAX_EXPERTS + e] = margin
    count = 0
    for e in range(MAX_EXPERTS):
        on = (bits >> e) & 1
        x[n + 10 + e] = on
        count += on
    x[n] = count
    x[n + 1] = m
    x[n + 2] = -1 if bid else cands[j, 0]
    cards = 0
    for t in range(6):
        x[n + 3 + t] = cands[j, t] if bid else 0
        cards += cands[j, t] if bid else 0
    x[n + 9] = cards


@kernel
def best(g, c, pol, k: int, m: int, bid: bool, r: int, me: int, kind: int) -> int:  # noqa: ANN001
    """Ranker k's choice among the m candidates in pol.cands: the largest value of its
    ensemble (ties: the first, the earliest expert's proposal); one candidate: it, unvalued."""
    if m == 1:
        return 0
    prm = pol.floats[k]
    experts = pol.ints[k, 0]
    first, count, constant = int(prm[experts]), int(prm[experts + 1]), prm[experts + 2]
    top, who = -np.inf, 0
    context(g, c, r, me, kind, pol.context)
    for j in range(m):
        candidate_row(pol.cands, pol.scores, experts, j, m, bid, pol.context)
        value = ensemble(pol.nodes, pol.roots, first, count, pol.context, constant)
        if value > top:
            top, who = value, j
    return who


@kernel
def choose(g, c, pol, r: int, me: int, kind: int, k: int) -> int:  # noqa: ANN001
    """The lineup index of the expert that decides for learned policy k, seat me, game r, at
    a decision of `kind`: the largest log-odds of the gate (ties: the first expert)."""
    x = pol.context
    context(g, c, r, me, kind, x)
    prm = pol.floats[k]
    experts = pol.ints[k, 0]
    best, who = -np.inf, int(prm[0])
    for e in range(experts):
        value = prm[3 * experts + e] + ensemble(pol.nodes, pol.roots, int(prm[experts + e]),
                                                int(prm[2 * experts + e]), x)  # fmt: skip
        if value > best:
            best, who = value, int(prm[e])
    return who


class Model:
    """A learned policy's model as the lineup packs it: its experts (compiled `Policy`s of
    the heuristic or greedy family), its mode (`GATE`, `RANKER`), the decision kinds a
    ranker ranks (bits 1 << K_BID...; at the others it plays its first expert's), per
    ensemble (a gate's one per expert, a ranker's one) its trees' nodes ([n, 5],
    `FEATURE`..., children numbered within the ensemble's table), each tree's root row and
    its constant. Equal (and hashed) by `digest`, the model file's SHA-256: a lineup keys
    its policies by value."""

    __slots__ = ("experts", "nodes", "roots", "constants", "digest", "mode", "kinds")

    def __init__(self, experts: tuple, nodes: tuple[np.ndarray, ...],  # noqa: ANN001
                 roots: tuple[np.ndarray, ...], constants: tuple[float, ...], digest: str,
                 mode: int = GATE, kinds: int = 0) -> None:  # fmt: skip
        if not 1 <= len(experts) <= MAX_EXPERTS:
            raise ValueError(f"a learned policy has 1 to {MAX_EXPERTS} experts")
        if mode not in (GATE, RANKER):
            raise ValueError(f"a learned policy's mode is GATE or RANKER, not {mode!r}")
        ensembles = len(experts) if mode == GATE else 1
        if not ensembles == len(nodes) == len(roots) == len(constants):
            raise ValueError("a gate needs nodes, roots and a constant per expert, a ranker "
                             "one of each")  # fmt: skip
        self.experts, self.nodes, self.roots = experts, nodes, roots
        self.constants, self.digest, self.mode = constants, digest, mode
        self.kinds = kinds

    def __hash__(self) -> int:
        return hash(self.digest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Model) and other.digest == self.digest

    def __reduce__(self) -> tuple:
        return (Model, (self.experts, self.nodes, self.roots, self.constants, self.digest,
                        self.mode, self.kinds))  # fmt: skip
