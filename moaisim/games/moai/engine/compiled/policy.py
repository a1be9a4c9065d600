"""Compiled policies: how a built-in strategy plays without Python (docs/design.md, "The two
engines": the compiled path).

A strategy that can play compiled says so with `Strategy.compiled(rules)`, which returns a
`Policy`: a plain record of numbers, a family (which kernels decide) and the parameters the
kernels read; or a `Choice` of several, one per game. The families:

- `RANDOM`: the base class's defaults, a uniformly random legal action (one value of the
  seat's stream per decision; a bid is a uniformly random sub-multiset of the hand, one
  value too);
- `GREEDY`: `compiled.greedy`, its integer parameters those of `GreedyStrategy`;
- `HEURISTIC`: `compiled.heuristic` (`heuristic`, `tuned`, the plans, `fisher`), its floats
  the weight vector, its first integer the variant (`heuristic.FISHER` for fisher's own two
  decisions);
- `LEARNED`: `compiled.learned` (`learned`): a gate of boosted trees picks which of its
  experts (policies of the two families above, in the lineup beside it) decides, its model
  (`learned.Model`) packed into the lineup's `nodes` and `roots` tables.

`restrict(...)` is a policy's `forbid` bits (`FORBID`, one per forbid name of
strategies/moai/restrict.py): before the family decides, the legal mask is narrowed
(`narrow`; a game where only forbidden actions are
legal keeps them), and the wrapper's own answers are given here (`bid`: the empty bid,
`boat`: 0, `disasters`: a harmless target drawn by lot).

`mixture(...)` and `dispatch` are `Choice`s: a policy per component and the function that
says which component each game plays (`Choice.pick`, on the games' numbers and the seat
streams' keys, as `moaisim.engine.mixture.PerGame` assigns them). `lineup` resolves every
seat's choice before play into `Lineup.who`, the policy of each seat in each game.

`decide` is the one door: the legal mask of the decision is in `sc.legal[:size]`; a
decision with a single legal action is taken without asking and draws nothing (as the
engine skips a forced decision), any other goes to the seat's family.

`PAUSE` is the family of a seat Python answers (a strategy with no compiled form, a `search`,
the forward model's caller): `Policy(PAUSE, (1,))` for every decision, `Policy(PAUSE)` for
those with a choice. Its decision, when no answer waits in the game's slot for the seat
(`g.filled`, `g.slot`), is recorded instead (`g.wait`, the mask in `g.pend_legal`, the
question's info in `g.pend_info`), the game is marked paused (`g.paused`) and `decide`
returns -1: the step returns at once, changing nothing, and `machine.play_game` returns.
Python answers into the slot and plays the game on: the step, entered again from its start,
reaches the same decision and takes the answer. A sealed bid keeps every seat's bid in its
slot until all are made, so a compiled seat does not bid (and draw) twice. A policy's `asks`
bits pause the same way at the kinds they name only: a user's subclass of a built-in that
overrides some decisions plays the others compiled (`Strategy.partly`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Union

import numpy as np

from moaisim.games.moai.engine.compiled import greedy, heuristic, learned, seen
from moaisim.games.moai.engine.compiled.arrays import (
    K_BID,
    K_BIRTH,
    K_BOAT,
    K_DISASTER_LOSS,
    K_DISASTER_TARGET,
    K_FEED,
    K_FINISH_MOAI,
    K_FOREST_TIE,
    K_ORDER_TIES,
    K_PICK_EPOCH,
    K_REST,
    K_WORK,
    answered,
    hold,
    keep_bid,
    kernel,
    take_answer,
)
from moaisim.games.moai.engine.compiled.features import loses
from moaisim.games.moai.engine.decisions import BIRTH_STOP, largest_action
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import FOREST, OCEAN, zone_of
from moaisim.jit import kernel as jit_kernel
from moaisim.learned_model import stacked
from moaisim.mixture_parts import Choice

#: The decision kinds whose legal actions their phase also lists, ascending, in
#: sc.acts[:sc.n_acts[0]] (`work_legal`, `feed_legal`, `rest_legal`, `birth_legal`).
LISTED = (K_WORK, K_FEED, K_REST, K_BIRTH)
#: The policy families (`PAUSE`: a seat answered by Python, see the module's docstring).
RANDOM, GREEDY, HEURISTIC, PAUSE, LEARNED = 0, 1, 2, 3, 4
FAMILIES: dict[str, int] = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC,
                            "pause": PAUSE, "learned": LEARNED}  # fmt: skip
#: Room in a lineup's parameter tables (integers, floats) per policy.
INTS, FLOATS = 8, 64
#: `restrict`'s forbid names (strategies/moai/restrict.py `FORBID`) as a policy's `forbid` bits.
F_BID, F_BOAT, F_RAID, F_BIRTH, F_FOREST, F_SWAP, F_DISASTERS = (1 << k for k in range(7))
FORBID: dict[str, int] = {"bid": F_BID, "boat": F_BOAT, "raid": F_RAID, "birth": F_BIRTH,
                          "forest": F_FOREST, "swap": F_SWAP,
                          "disasters": F_DISASTERS}  # fmt: skip


class Policy(NamedTuple):
    """A compiled strategy: its family (`FAMILIES`), its integer and float parameters (the
    family says what each means), and the mechanisms it may not use (`forbid`, bits; 0: none,
    for `restrict`, to come)."""

    family: int
    ints: tuple[int, ...] = ()
    floats: tuple[float, ...] = ()
    forbid: int = 0
    #: Decision kinds (bits 1 << K_WORK...) Python answers instead (a user's subclass that
    #: overrides those methods only): a decision of one, with a choice, pauses as `PAUSE`.
    asks: int = 0
    #: `LEARNED`: the model (`learned.Model`: its experts and trees); None otherwise
    model: learned.Model | None = None


#: What `Strategy.compiled` returns (None: not compiled).
Form = Union[Policy, Choice]  # noqa: UP007 - a runtime alias that Choice refers to
#: A seat Python answers: at its decisions with a choice (`ASKED`), or at every one (`EVERY`).
ASKED, EVERY = Policy(PAUSE, (0,)), Policy(PAUSE, (1,))


class Lineup(NamedTuple):
    """The policies seated at a batch, for the kernels: M policies and who plays which, and
    the heuristic family's working arrays."""

    family: np.ndarray  # int64 [M]
    ints: np.ndarray  # int64 [M, INTS]
    floats: np.ndarray  # float64 [M, FLOATS]
    forbid: np.ndarray  # int64 [M]
    asks: np.ndarray  # int64 [M]: the kinds Python answers (`Policy.asks`)
    who: np.ndarray  # int64 [B, P]: the policy of seat q in game r
    hs: heuristic.Scratch
    nodes: np.ndarray  # float64 [N, 5]: the learned policies' trees (`learned_model.FEATURE`...)
    roots: np.ndarray  # int64 [R]: each tree's root row in `nodes`
    context: np.ndarray  # float64 [learned.N_RANK]: a learned policy's working row
    cands: np.ndarray  # int64 [MAX_EXPERTS, CAND_BITS + 1]: a ranker's candidates (`propose`)
    proposal: np.ndarray  # int64 [6]: an expert's proposal (an action, or a bid's counts)
    scores: np.ndarray  # float64 [MAX_EXPERTS, A]: each expert's scores of the actions


def lineup(forms: Sequence[Form | None], rules: Rules, games: np.ndarray, keys: np.ndarray,
           every: np.ndarray | None = None) -> tuple[Lineup, np.ndarray]:  # fmt: skip
    """The lineup of a batch whose seat q plays `forms[q]` in every game (games: the games'
    numbers [B], keys: the seat streams' keys [B, P]; None: Python answers, `PAUSE`), each
    `Choice` resolved game by game (nested ones too); in the games `every` (a mask), every
    seat pauses at every decision. Returns it and the values [B, P] (uint64) each seat's
    stream has drawn already that the batch's stream positions do not count (a `Choice`'s
    components played by views), to add to them."""
    b, p = len(games), rules.players
    if len(forms) != p:
        raise ValueError(f"{p} players need {p} policies")
    index: dict[Policy, int] = {}
    who = np.zeros((b, p), dtype=np.int64)
    offset = np.zeros((b, p), dtype=np.uint64)

    def place(form: Form | None, rows: np.ndarray, q: int) -> None:
        if form is None:
            form = ASKED
        if isinstance(form, Policy):
            who[rows, q] = index.setdefault(form, len(index))
            return
        comp, used = form.pick(games[rows], keys[rows, q])
        offset[rows, q] += np.asarray(used, dtype=np.uint64)
        for k in np.unique(comp).tolist():
            place(form.forms[k], rows[comp == k], q)

    for q, form in enumerate(forms):
        place(form, np.arange(b), q)
    if every is not None and every.any():
        who[every] = index.setdefault(EVERY, len(index))
    for pol in list(index):  # a learned policy's experts sit in the tables beside it
        for expert in pol.model.experts if pol.family == LEARNED and pol.model else ():
            index.setdefault(expert, len(index))
    policies = list(index)
    m = len(policies)
    ints = np.zeros((m, INTS), dtype=np.int64)
    floats = np.zeros((m, FLOATS), dtype=np.float64)
    parts: list[tuple[np.ndarray, np.ndarray]] = []  # each ensemble's trees, in table order
    first_at: list[tuple[int, int]] = []  # where each ensemble's first root goes in floats
    for k, pol in enumerate(policies):
        if pol.family not in FAMILIES.values():
            raise ValueError(f"unknown policy family {pol.family!r}")
        if len(pol.ints) > INTS or len(pol.floats) > FLOATS:
            raise ValueError(f"policy {k}: too many parameters for a lineup's tables")
        ints[k, : len(pol.ints)] = pol.ints
        floats[k, : len(pol.floats)] = pol.floats
        if pol.family == LEARNED:
            _pack(pol, k, index, ints, floats, parts, first_at)
    nodes, roots, firsts = stacked(parts)
    for (k, col), first in zip(first_at, firsts.tolist(), strict=True):
        floats[k, col] = first
    out = Lineup(
        family=np.array([x.family for x in policies], dtype=np.int64),
        ints=ints,
        floats=floats,
        forbid=np.array([x.forbid for x in policies], dtype=np.int64),
        asks=np.array([x.asks for x in policies], dtype=np.int64),
        who=who,
        hs=heuristic.scratch(rules),
        nodes=nodes,
        roots=roots,
        context=np.zeros(learned.N_RANK, dtype=np.float64),
        cands=np.zeros((learned.MAX_EXPERTS, learned.CAND_BITS + 1), dtype=np.int64),
        proposal=np.zeros(6, dtype=np.int64),
        scores=np.zeros((learned.MAX_EXPERTS, largest_action(rules)), dtype=np.float64),
    )
    return out, offset


def _pack(pol: Policy, k: int, index: dict[Policy, int], ints: np.ndarray, floats: np.ndarray,
          parts: list[tuple[np.ndarray, np.ndarray]],
          first_at: list[tuple[int, int]]) -> None:  # fmt: skip
    """Learned policy k's model into the lineup's tables (`compiled.learned`'s layout): its
    expert count in ints[k, 0], its mode in ints[k, 1] (`learned.GATE`, `RANKER`), a
    ranker's kinds in ints[k, 2] (bits 1 << K_BID...: the others play the first expert's); in
    floats[k], each expert's policy index, then a gate's first root, tree count and constant
    per expert, a ranker's once (its one ensemble). Each ensemble's trees are appended to
    `parts` and the place of its first root to `first_at`: the lineup stacks them into one
    table (`learned_model.stacked`) and writes the roots' rows there."""
    model = pol.model
    if model is None:
        raise ValueError(f"policy {k}: a learned policy without a model")
    e = len(model.experts)
    ints[k, 0], ints[k, 1], ints[k, 2] = e, model.mode, model.kinds
    for j, expert in enumerate(model.experts):
        if expert.family not in (GREEDY, HEURISTIC) or expert.forbid or expert.asks:
            raise ValueError(f"policy {k}: expert {j} is not a plain greedy or heuristic policy")
        floats[k, j] = index[expert]
    per = e if model.mode == learned.GATE else 1  # a ranker's one ensemble
    for j in range(len(model.nodes)):
        parts.append((np.asarray(model.nodes[j], dtype=np.float64).reshape(-1, 5),
                      np.asarray(model.roots[j], dtype=np.int64)))  # fmt: skip
        first_at.append((k, e + j))
        floats[k, e + per + j] = len(model.roots[j])
        floats[k, e + 2 * per + j] = model.constants[j]


@kernel
def decide(g, c, pol, sc, r: int, kind: int, me: int, size: int, info: int) -> int:  # noqa: ANN001
    """Seat me's action in game r at a decision of `kind` whose legal mask is
    sc.legal[:size] (a `LISTED` kind's also listed in sc.acts[:sc.n_acts[0]]); `info` is what
    the question is about (the disaster card, what a loss takes, the forest space...). One
    legal action: taken, nothing drawn."""
    count, first = 0, 0
    if kind in LISTED:  # their phases list the legal actions (`work_legal`, `rest_legal`...)
        count, first = sc.n_acts[0], sc.acts[0]
    else:
        for a in range(size):
            if sc.legal[a]:
                if count == 0:
                    first = a
                count += 1
                if count > 1:
                    break
    k = pol.who[r, me]
    if answered(g, r, me):  # Python's answer (`batch.machine`), counted where it was asked
        return take_answer(g, r, me)
    if pol.family[k] == PAUSE and (count > 1 or pol.ints[k, 0] == 1):
        return hold(g, sc, r, me, size, info)
    if count > 1 and (pol.asks[k] >> kind) & 1:  # a kind the seat's Python answers
        return hold(g, sc, r, me, size, info)
    sc.tally[0] += 1
    if count == 1:
        return first
    sc.tally[1] += 1
    return asked(g, c, pol, sc, r, kind, me, size, info, k)


@jit_kernel(nrt=False, inline="always")  # compiled into `decide`: no call per decision
def asked(g, c, pol, sc, r: int, kind: int, me: int, size: int, info: int, k: int) -> int:  # noqa: ANN001
    """Policy k's answer when seat me is asked (`decide`, with a choice; a view asked of a
    built-in, `compiled.answer`, even where one action is left: the seat decides, and
    draws, whenever it is asked)."""
    fb = pol.forbid[k]
    if fb != 0:  # restrict (strategies/moai/restrict.py): its own answers, or a narrowed mask
        if kind == K_BOAT and fb & F_BOAT:
            return 0  # R7.4: keep the wood (nothing drawn)
        if kind == K_DISASTER_TARGET and fb & F_DISASTERS:
            return aim(g, c, pol.hs, sc, r, me, size, info)
        if narrow(g, c, pol.hs, sc, r, kind, me, size, fb):
            a = family_decides(g, c, pol, sc, r, kind, me, size, info, k)
            copy_mask(pol.hs.saved, sc.legal, size)
            return a
    return family_decides(g, c, pol, sc, r, kind, me, size, info, k)


@kernel
def family_decides(g, c, pol, sc, r: int, kind: int, me: int, size: int, info: int, k: int  # noqa: ANN001
                   ) -> int:  # fmt: skip
    """Policy k's family's decision (`decide`)."""
    f = pol.family[k]
    if f == LEARNED and pol.ints[k, 1] == learned.RANKER:
        return pol.cands[ranked(g, c, pol, sc, r, kind, me, size, info, k), 0]
    if f == LEARNED:  # its gate names the expert that decides, on a sub-stream
        e = learned.choose(g, c, pol, r, me, kind, k)
        pos = learned.enter(g, r, me)
        a = expert_decides(g, c, pol, sc, r, kind, me, size, info, e)
        learned.leave(g, r, me, pos)
        return a
    return expert_decides(g, c, pol, sc, r, kind, me, size, info, k)


@kernel
def ranked(g, c, pol, sc, r: int, kind: int, me: int, size: int, info: int, k: int) -> int:  # noqa: ANN001
    """Ranker k's choice (`learned.RANKER`): each expert proposes on a sub-stream of its own
    (`learned.expert_stream`; a bid when kind is `K_BID`), the distinct proposals go to
    pol.cands, and the ensemble values each (`learned.best`); returns the row of pol.cands
    chosen. At a kind it does not rank, only its first expert is asked, and its proposal
    played (the same proposal: each expert's sub-stream is its own). One value of the
    seat's stream drawn, whatever the experts drew."""
    ranks = (pol.ints[k, 2] >> kind) & 1
    experts = pol.ints[k, 0] if ranks else 1
    prm, row = pol.floats[k], pol.proposal
    bid = kind == K_BID
    pos = learned.position(g, r, me)
    m = 0
    pol.cands[:, learned.CAND_BITS] = 0  # no candidate yet (`question.ranked_row` counts them)
    for e in range(experts):
        learned.expert_stream(g, r, me, pos, e)
        if bid:
            row[:] = 0
            expert_bid(g, c, pol, r, me, int(prm[e]), row)
        else:  # its scores of the actions kept (0 where it scores none)
            for a in range(size):
                sc.scores[a] = 0.0
            row[0] = expert_decides(g, c, pol, sc, r, kind, me, size, info, int(prm[e]))
            for a in range(size):
                pol.scores[e, a] = sc.scores[a]
        m = learned.propose(pol.cands, m, e, row, 6 if bid else 1)
    learned.leave(g, r, me, pos)
    return learned.best(g, c, pol, k, m, bid, r, me, kind)


@kernel
def expert_decides(g, c, pol, sc, r: int, kind: int, me: int, size: int, info: int, k: int  # noqa: ANN001
                   ) -> int:  # fmt: skip
    """Policy k's decision, k a greedy, heuristic or random policy (`family_decides`)."""
    f = pol.family[k]
    if f == GREEDY:
        return greedy_decides(g, c, sc, r, kind, me, size, info, pol.ints[k])
    if f == HEURISTIC:
        return heuristic.decides(g, c, pol.hs, sc, r, kind, me, size, info, pol.ints[k],
                                 pol.floats[k])  # fmt: skip
    return random_action(g, sc, r, me, size)


@kernel
def decide_bid(g, c, pol, sc, r: int, me: int) -> bool:  # noqa: ANN001
    """R3.3: seat me's bid in game r into its slot (card counts, `arrays.keep_bid`), kept
    there until the bids are paid; an empty hand bids nothing without being asked. False: a
    `PAUSE` seat's bid waits for Python."""
    if answered(g, r, me):
        return True
    out = sc.bid[me]
    cards = 0
    for t in range(len(out)):
        cards += seen.own_hand(g, r, me, t)
    k = pol.who[r, me]
    f = pol.family[k]
    if (f == PAUSE and (cards > 0 or pol.ints[k, 0] == 1)) or (
        cards > 0 and (pol.asks[k] >> K_BID) & 1
    ):
        hold(g, sc, r, me, 0, -1)
        return False
    sc.tally[0] += 1
    out[:] = 0
    if cards == 0:
        keep_bid(g, r, me, out)
        return True
    sc.tally[1] += 1
    if pol.forbid[k] & F_BID:
        out[:] = 0  # restrict: the empty bid (nothing drawn)
    elif f == LEARNED and pol.ints[k, 1] == learned.RANKER:
        j = ranked(g, c, pol, sc, r, K_BID, me, 0, -1, k)
        for t in range(len(out)):
            out[t] = pol.cands[j, t]
    elif f == LEARNED:  # its gate names the expert that bids, on a sub-stream
        e = learned.choose(g, c, pol, r, me, K_BID, k)
        pos = learned.enter(g, r, me)
        expert_bid(g, c, pol, r, me, e, out)
        learned.leave(g, r, me, pos)
    else:
        expert_bid(g, c, pol, r, me, k, out)
    keep_bid(g, r, me, out)
    return True


@kernel
def expert_bid(g, c, pol, r: int, me: int, k: int, out) -> None:  # noqa: ANN001
    """Policy k's bid into out, k a greedy, heuristic or random policy (`decide_bid`)."""
    f = pol.family[k]
    if f == GREEDY:
        greedy.bid(g, r, me, pol.ints[k], out)
    elif f == HEURISTIC:
        heuristic.bid(g, c, pol.hs, r, me, pol.ints[k], pol.floats[k], out)
    else:
        random_bid(g, r, me, out)


@kernel
def greedy_decides(g, c, sc, r: int, kind: int, me: int, size: int, info: int, prm) -> int:  # noqa: ANN001
    """`greedy`'s decision of each kind (`compiled.greedy`)."""
    if kind in (K_ORDER_TIES, K_FOREST_TIE):
        return greedy.ties(g, c, sc, r, me, size)
    if kind == K_PICK_EPOCH:
        return greedy.pick_epoch(g, c, sc, r, me, size)
    if kind == K_DISASTER_TARGET:
        return greedy.disaster_target(g, c, sc, r, me, size, info)
    if kind == K_DISASTER_LOSS:
        return greedy.disaster_loss(g, c, sc, r, me, size, info)
    if kind == K_WORK:
        return greedy.work(g, c, sc, r, me, size)
    if kind == K_FINISH_MOAI:
        return greedy.finish_moai(g, c, sc, r, me, size, prm)
    if kind == K_FEED:
        return greedy.feed(g, c, sc, r, me, size)
    if kind == K_REST:
        return greedy.rest(g, c, sc, r, me, size)
    if kind == K_BIRTH:
        return greedy.birth(g, c, sc, r, me, size, prm)
    if kind == K_BOAT:
        return greedy.boat(g, r)
    assert kind != K_BID
    return 0


# --- RANDOM: the base class's defaults (strategies/moai/base.py) ---------------------------------
@kernel
def random_action(g, sc, r: int, me: int, size: int) -> int:  # noqa: ANN001
    """A uniformly random legal action (`SeatRandom.choice`): the floor(u x k)-th of the k
    legal actions, u one value of the seat's stream."""
    u = seen.uniform(g, r, me)
    count = 0
    for a in range(size):
        if sc.legal[a]:
            count += 1
    k = min(int(u * count), count - 1)
    for a in range(size):
        if sc.legal[a]:
            if k == 0:
                return a
            k -= 1
    return 0


@kernel
def random_bid(g, r: int, me: int, out: np.ndarray) -> None:  # noqa: ANN001
    """R3.3: a uniformly random sub-multiset of the hand (`Strategy.bid`): one value u of the
    seat's stream, floor(u x the number of sub-multisets) written in the mixed radix of the
    hand's counts + 1."""
    total = 1
    for t in range(len(out)):
        total *= seen.own_hand(g, r, me, t) + 1
    u = seen.uniform(g, r, me)
    k = min(int(u * total), total - 1)
    for t in range(len(out)):
        radix = seen.own_hand(g, r, me, t) + 1
        out[t] = k % radix
        k //= radix


# --- restrict (strategies/moai/restrict.py) ---------------------------------------------------
@kernel
def copy_mask(src: np.ndarray, dst: np.ndarray, size: int) -> None:
    """dst[:size] = src[:size] (a loop: a kernel allocates nothing)."""
    for a in range(size):
        dst[a] = src[a]


@kernel
def narrow(g, c, hs, sc, r: int, kind: int, me: int, size: int, fb: int) -> bool:  # noqa: ANN001
    """Take the actions the forbid bits rule out of sc.legal[:size] (a view's too:
    `compiled.answer.allowed_actions`), the mask kept in hs.saved; returns whether the mask
    was narrowed (False: nothing to narrow here, or nothing allowed left: the mask as
    it was, the move forced by the rules)."""
    copy_mask(sc.legal, hs.saved, size)
    if kind == K_WORK and fb & (F_BOAT | F_FOREST | F_SWAP):
        codec, lay = c.work, c.lay
        for s in range(3):
            first = s * codec.targets  # `WorkCodec.place(s + 1, 0)`
            if fb & F_FOREST:  # R5.4
                sc.legal[first : first + lay.forest] = False
            if fb & F_BOAT:  # R5.7
                sc.legal[first + codec.boat_target] = False
        for k in range(len(codec.pair_i)):
            a = codec.swap0 + k
            if fb & F_SWAP:  # R5.3
                sc.legal[a] = False
                continue
            zi = zone_of(lay, seen.own_loc(g, r, me, codec.pair_i[k]))
            zj = zone_of(lay, seen.own_loc(g, r, me, codec.pair_j[k]))
            # R5.3: a swap moves the other pawn in
            if fb & F_FOREST and (zi == FOREST) != (zj == FOREST):
                sc.legal[a] = False
            if fb & F_BOAT and (zi == OCEAN) != (zj == OCEAN):
                sc.legal[a] = False
    elif kind == K_FEED and fb & F_RAID:  # R6.4
        sc.legal[c.feed.pawns : size] = False
    elif kind == K_BIRTH and fb & F_BIRTH:  # R7.3
        sc.legal[:BIRTH_STOP] = False
    elif kind == K_PICK_EPOCH and fb & F_DISASTERS:  # R4.1, R4.3
        for k in range(size):
            cid = seen.offer(g, r, k)
            if c.cards.targeted[cid if cid >= 0 else len(c.cards.targeted) - 1]:
                sc.legal[k] = False
    else:
        return False
    for a in range(size):
        if sc.legal[a]:
            return True
    copy_mask(hs.saved, sc.legal, size)  # only forbidden actions are legal: forced
    return False


@kernel
def aim(g, c, hs, sc, r: int, me: int, size: int, card: int) -> int:  # noqa: ANN001
    """R4.3 under `disasters` (`RestrictStrategy._aim`): a clan that has nothing the card
    takes (C3), its own included; when every clan would lose something, any legal one; drawn
    by lot (`random_action`, one value of the stream)."""
    copy_mask(sc.legal, hs.saved, size)
    some = False
    for q in range(size):
        if sc.legal[q] and loses(g, c, r, q, card):
            sc.legal[q] = False
        some |= sc.legal[q]
    if not some:
        copy_mask(hs.saved, sc.legal, size)
    a = random_action(g, sc, r, me, size)
    copy_mask(hs.saved, sc.legal, size)
    return a
