"""The batch's state as the compiled path reads and writes it: one record of arrays (`Arrays`),
the rules' constants (`Consts`) and the working arrays of a batch (`Scratch`).

`Arrays` holds the batch engine's own arrays (`BatchState`: the cursor, the secrets, the
counters, the work counts, the Python seats' answers; the seat streams' positions), so the
kernels play on the very state the machine holds, with two exceptions: the public record's
fields, which live in one numpy record per game (`views.RECORD`) and are strided views
there, are copied into arrays of their own (`arrays_of`) and written back (`put_back`); and
the seat streams' positions, one array per seat in `Streams`, are one [B, P] array here.
Every array keeps one layout whatever the batch, so numba compiles each kernel once (and
caches it).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.core.typing.templates import AttributeTemplate
from numba.extending import (
    infer_getattr,
    intrinsic,
    lower_getattr_generic,
    models,
    register_model,
)

from moaisim.games.moai.engine.batch.state import SCALARS, BatchState, WorkCounts
from moaisim.games.moai.engine.chance import Chance
from moaisim.games.moai.engine.decisions import (
    BIRTH_STOP,
    FeedCodec,
    Kind,
    WorkCodec,
    action_size,
    feed_codec,
    largest_action,
    strengths,
    work_codec,
)
from moaisim.games.moai.engine.state import COUNTERS
from moaisim.games.moai.engine.steps import Step, round_bound
from moaisim.games.moai.engine.views import STATE_FIELDS, Pawns
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import N_CARD_TYPES, Layout
from moaisim.games.moai.rules.epoch_cards import EpochTable, epoch_table
from moaisim.games.moai.rules.parameters import SIMPLE
from moaisim.jit import kernel as jit_kernel
from moaisim.rng import Streams

#: The compiled path's kernels: numba without its reference counting (`_nrt=False`). They
#: allocate nothing (a decision reads and writes the batch's arrays and the `Scratch`), and
#: counting references to the dozens of arrays handed from call to call cost ten times the
#: play itself.
kernel = jit_kernel(nrt=False)
#: A step of the machine (`machine.play_game`): compiled into its caller rather than on its own.
step = jit_kernel(nrt=False, inline="always")


# --- records by reference ----------------------------------------------------------------------
class Ref(types.Type):
    """A record (`Arrays`, `Consts`, a `Lineup`, a `Scratch`) handed from kernel to kernel
    by reference (`by_ref`): its fields read as the record's own.

    numba hands a record by value, each of its arrays' pointers, shapes and strides as an
    argument of its own: the four records are some 800 arguments, copied at every call the
    compiler does not inline (a decision, a phase). By reference they are four pointers."""

    def __init__(self, inner: types.Type) -> None:
        self.inner = inner
        super().__init__(name=f"Ref({inner})")

    @property
    def key(self) -> types.Type:
        """One `Ref` type per record type."""
        return self.inner


@register_model(Ref)
class RefModel(models.PrimitiveModel):
    """A `Ref` is a pointer to the record's value."""

    def __init__(self, dmm, fe_type: Ref) -> None:  # noqa: ANN001
        super().__init__(dmm, fe_type, dmm.lookup(fe_type.inner).get_value_type().as_pointer())


@infer_getattr
class RefAttributes(AttributeTemplate):
    """A `Ref`'s fields are its record's."""

    key = Ref

    def generic_resolve(self, typ: Ref, attr: str) -> types.Type | None:
        """The record's field type."""
        return self.context.resolve_getattr(typ.inner, attr)


@lower_getattr_generic(Ref)
def ref_getattr(context, builder, typ: Ref, val, attr: str):  # noqa: ANN001, ANN201
    """Load one field of the record the `Ref` points to."""
    index = typ.inner.fields.index(attr)
    res = builder.load(cgutils.gep_inbounds(builder, val, 0, index))
    return impl_ret_borrowed(context, builder, typ.inner[index], res)


@intrinsic
def by_ref(typingctx, record):  # noqa: ANN001, ANN201, ARG001
    """The record, by reference (`Ref`): a copy on the caller's stack, valid while the
    calling kernel runs."""

    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202, ARG001
        return cgutils.alloca_once_value(builder, args[0])

    return Ref(record)(record), codegen


# --- the steps and the cursor's columns, as plain ints for the kernels ------------------------
ROUND, BID, HILL, PICK, DISASTER, TARGET, LOSS = (int(s) for s in list(Step)[:7])
WORK_START, WORK, FOREST, VOLCANO, FEED_COUNT, FEED = (int(s) for s in list(Step)[7:13])
DRAW, REST, BIRTH, BOAT, ROUND_END, OVER = (int(s) for s in list(Step)[13:])
assert int(Step.OVER) == OVER and int(Step.WORK) == WORK
#: Columns of `BatchState.cursor` (`batch.state.SCALARS`).
C_STEP, C_POS, C_COUNT, C_CARD, C_TARGET, C_LEFT = range(len(SCALARS))
assert SCALARS == ("step", "step_pos", "step_count", "step_card", "step_target", "step_left")

#: The decision kinds as ints (their order in `Kind`).
KINDS: tuple[Kind, ...] = tuple(Kind)
K_BID, K_ORDER_TIES, K_PICK_EPOCH, K_DISASTER_TARGET, K_DISASTER_LOSS, K_WORK = range(6)
K_FOREST_TIE, K_FINISH_MOAI, K_FEED, K_REST, K_BIRTH, K_BOAT = range(6, 12)
assert KINDS[K_WORK] is Kind.WORK and KINDS[K_BOAT] is Kind.BOAT


class Counters(NamedTuple):
    """The per-seat counters of the results (`state.COUNTERS`), [B, P] int16 each."""

    births: np.ndarray
    starved: np.ndarray
    raids_made: np.ndarray
    raids_suffered: np.ndarray
    boats_built: np.ndarray
    disasters_aimed: np.ndarray
    disasters_suffered: np.ndarray
    birdman_rounds: np.ndarray
    forest_wood: np.ndarray
    moai_finished: np.ndarray


assert Counters._fields == COUNTERS


class Arrays(NamedTuple):
    """A batch's state for the kernels (see the module's docstring); row r is game r."""

    # the public record (`views.RECORD`), copies
    round: np.ndarray
    last_round: np.ndarray
    birdman: np.ndarray
    order: np.ndarray
    turn: np.ndarray
    bid_order: np.ndarray
    bids: np.ndarray
    discard: np.ndarray
    deck_pos: np.ndarray
    deck_len: np.ndarray
    reshuffles: np.ndarray
    epoch_pos: np.ndarray
    epoch_len: np.ndarray
    offer: np.ndarray
    held: np.ndarray
    wood: np.ndarray
    wood_supply: np.ndarray
    wood_out: np.ndarray
    forest_wood: np.ndarray
    covered: np.ndarray
    disaster_supply: np.ndarray
    boats: np.ndarray
    next_epoch: np.ndarray
    # the cursor (`steps`): [B, 6] scalars (C_STEP...), and the step's arrays
    cursor: np.ndarray
    revealed: np.ndarray
    step_taken: np.ndarray
    step_done: np.ndarray
    step_hill: np.ndarray
    # the secrets
    hand: np.ndarray
    deck: np.ndarray
    epoch_deck: np.ndarray
    pawns: Pawns
    moai_owner: np.ndarray
    # the results' counters, the work phase's counts, the per-round table's marks
    n: Counters
    work: WorkCounts
    round_held: np.ndarray
    round_births: np.ndarray
    round_starved: np.ndarray
    # Python's seats (`policy.PAUSE`): the seats waiting [B, P], their answers [B, P, 6]
    # (a bid's card counts, else the action first) and whether one is there [B, P], the
    # decision's mask [B, A] and info [B], the games paused [B]
    wait: np.ndarray
    slot: np.ndarray
    filled: np.ndarray
    pend_legal: np.ndarray
    pend_info: np.ndarray
    paused: np.ndarray
    # the streams: each seat's key and position [B, P], the reshuffles' chance keys [B]
    seat_keys: np.ndarray
    seat_pos: np.ndarray
    reshuffle_keys: np.ndarray


#: The public record's fields copied into `Arrays` (its first fields, in order).
PUBLIC: tuple[str, ...] = (*STATE_FIELDS, "next_epoch")
assert Arrays._fields[: len(PUBLIC)] == PUBLIC


def arrays_of(state: BatchState, streams: Streams) -> Arrays:
    """The kernels' record of a batch: the public fields copied, the rest shared."""
    public = [np.ascontiguousarray(state.public[name]) for name in PUBLIC]
    counters = Counters(*(state.counters[name] for name in COUNTERS))
    return Arrays(
        *public,
        cursor=state.cursor,
        revealed=state.revealed,
        step_taken=state.step_taken,
        step_done=state.step_done,
        step_hill=state.step_hill,
        hand=state.hand,
        deck=state.deck,
        epoch_deck=state.epoch_deck,
        pawns=state.pawns,
        moai_owner=state.moai_owner,
        n=counters,
        work=state.work,
        round_held=state.round_held,
        round_births=state.round_births,
        round_starved=state.round_starved,
        wait=state.wait,
        slot=state.slot,
        filled=state.filled,
        pend_legal=state.pend_legal,
        pend_info=state.pend_info,
        paused=state.paused,
        seat_keys=np.ascontiguousarray(streams.seat_keys),
        seat_pos=np.stack(streams.counters, axis=1),
        reshuffle_keys=np.ascontiguousarray(streams.chance_keys[:, int(Chance.RESHUFFLE)]),
    )


def put_back(g: Arrays, state: BatchState, streams: Streams) -> None:
    """Write the copies back: the public fields into the records, the seat streams'
    positions into `streams`."""
    for name in PUBLIC:
        state.public[name] = getattr(g, name)
    for q, counter in enumerate(streams.counters):
        counter[:] = g.seat_pos[:, q]


#: What the kernels need of the rules, field by field (`Consts`), but the simple rule
#: parameters, which follow them: one int field each, named and filled from its record
#: (`parameters.SIMPLE`: `c.moai_points`, `c.wood_per_palm`...; docs/design.md, "Adding a
#: rule parameter").
CONSTS: tuple[tuple[str, type], ...] = (
    ("players", int),
    ("lay", Layout),
    ("work", WorkCodec),
    ("feed", FeedCodec),
    ("cards", EpochTable),
    ("tile_heights", np.ndarray),  # int64 [T], ascending (C2)
    ("top_tile", int),  # the tallest tile (0: none)
    ("strength", np.ndarray),  # int64 [N]: strength of each pawn index
    ("card_types", np.ndarray),  # int64 [cards]: the type of each Rapa Nui card id (canonical)
    ("type_rank", np.ndarray),  # int64 [cards]: each id's rank within its type
    ("forest_spaces", int),
    ("loss_size", int),  # the disaster_loss action space
    ("birth_size", int),  # the birth action space (pairs, then stop)
    ("open_pawns", bool),  # V1
    ("open_bidding", bool),  # V2/V4
    ("strict", bool),  # V4's tie rule
    ("fixed_disasters", bool),  # V5
    ("clockwise", bool),  # turn_order = clockwise (R2)
    ("spent_out", bool),  # spent_wood = out (R3.1)
    ("to_camp", bool),  # volcano_after_moai = camp (R6.2)
    ("max_rounds", int),  # a game past these rounds is stopped as broken (`steps.round_bound`)
)
#: What the kernels need of the rules (one per `Rules`, `consts`): `CONSTS`, then each simple
#: rule parameter.
Consts = NamedTuple("Consts", [*CONSTS, *((name, int) for name in SIMPLE)])  # type: ignore[misc]


@cache
def consts(rules: Rules) -> Consts:
    """The `Consts` of a set of rules (computed once)."""
    c = rules.components
    types = np.repeat(np.arange(N_CARD_TYPES), c.cards).astype(np.int64)
    start = np.concatenate([[0], np.cumsum(c.cards)[:-1]]).astype(np.int64)
    return Consts(
        players=rules.players,
        lay=rules.layout,
        work=work_codec(rules),
        feed=feed_codec(rules),
        cards=epoch_table(rules),
        tile_heights=np.asarray(c.moai_heights, dtype=np.int64),
        top_tile=max(c.moai_heights, default=0),
        strength=strengths(rules).astype(np.int64),
        card_types=types,
        type_rank=np.arange(c.n_cards, dtype=np.int64) - start[types],
        forest_spaces=c.forest_spaces,
        loss_size=action_size(rules, Kind.DISASTER_LOSS),
        birth_size=BIRTH_STOP + 1,
        open_pawns=rules.has("open-pawns"),
        open_bidding=rules.open_bidding,
        strict=rules.has("open-bidding-strict"),
        fixed_disasters=rules.has("fixed-disasters"),
        clockwise=rules.turn_order == "clockwise",
        spent_out=rules.spent_wood == "out",
        to_camp=rules.volcano_after_moai == "camp",
        max_rounds=round_bound(rules),
        **{name: int(value) for name, value in c.settings},  # the simple rule parameters
    )


class Scratch(NamedTuple):
    """Working arrays of one batch's play, allocated once (no decision allocates)."""

    legal: np.ndarray  # bool [A]: the legal mask of the decision at hand (largest kind)
    bid: np.ndarray  # int64 [P, 6]: a bid as a policy makes it
    acts: np.ndarray  # int64 [A]: a work decision's legal actions, ascending (`work_legal`)
    n_acts: np.ndarray  # int64 [1]: how many of `acts` are listed
    scores: np.ndarray  # float64 [A]: a policy's scores of the actions
    seats: np.ndarray  # bool [P]
    tied: np.ndarray  # bool [P]
    total: np.ndarray  # int64 [P]
    place: np.ndarray  # int64 [N]
    kind: np.ndarray  # int64 [N]
    ok: np.ndarray  # bool [3, 6]
    reserve: np.ndarray  # int64 [3]
    height: np.ndarray  # int64 [V]
    keys: np.ndarray  # float64 [cards]: a reshuffle's keys
    order: np.ndarray  # int64 [cards]: the cards in the order of their keys
    est: np.ndarray  # float64 [F]
    seen: np.ndarray  # float64 [F]
    tally: np.ndarray  # int64 [2]: decisions taken (forced ones included), asked
    tally_ok: np.ndarray  # bool [1]: the forest's tally below is the game's (work phase)
    tally_down: np.ndarray  # int64 [P, F]: face-down pawns per clan and forest space
    tally_up: np.ndarray  # int64 [P, F, 3]: face-up pawns per clan, forest space, strength
    tally_est: np.ndarray  # float64 [P, F]: a clan's estimated strength per forest space
    tally_camp: np.ndarray  # int64 [P]: pawns in each clan's camp
    tally_str: np.ndarray  # int64 [P, board codes + 1]: a clan's own strength per place
    tally_living: np.ndarray  # int64 [P]: a clan's living pawns (camp and board)
    tally_fresh: np.ndarray  # bool [P]: the clan's tally_est is up to date
    tally_ph: np.ndarray  # float64 [1]: the weight per face-down pawn tally_est is made with


def scratch(rules: Rules) -> Scratch:
    """New working arrays for a batch under these rules."""
    lay, p = rules.layout, rules.players
    size = largest_action(rules)
    return Scratch(
        legal=np.zeros(size, dtype=np.bool_),
        bid=np.zeros((p, N_CARD_TYPES), dtype=np.int64),
        acts=np.zeros(size, dtype=np.int64),
        n_acts=np.zeros(1, dtype=np.int64),
        scores=np.zeros(size, dtype=np.float64),
        seats=np.zeros(p, dtype=np.bool_),
        tied=np.zeros(p, dtype=np.bool_),
        total=np.zeros(p, dtype=np.int64),
        place=np.zeros(lay.pawns, dtype=np.int64),
        kind=np.zeros(lay.pawns, dtype=np.int64),
        ok=np.zeros((3, 6), dtype=np.bool_),
        reserve=np.zeros(3, dtype=np.int64),
        height=np.zeros(lay.volcano, dtype=np.int64),
        keys=np.zeros(rules.components.n_cards, dtype=np.float64),
        order=np.zeros(rules.components.n_cards, dtype=np.int64),
        est=np.zeros(lay.forest, dtype=np.float64),
        seen=np.zeros(lay.forest, dtype=np.float64),
        tally=np.zeros(2, dtype=np.int64),
        tally_ok=np.zeros(1, dtype=np.bool_),
        tally_down=np.zeros((p, lay.forest), dtype=np.int64),
        tally_up=np.zeros((p, lay.forest, 3), dtype=np.int64),
        tally_est=np.zeros((p, lay.forest), dtype=np.float64),
        tally_camp=np.zeros(p, dtype=np.int64),
        tally_str=np.zeros((p, lay.size + 1), dtype=np.int64),
        tally_living=np.zeros(p, dtype=np.int64),
        tally_fresh=np.zeros(p, dtype=np.bool_),
        tally_ph=np.zeros(1, dtype=np.float64),
    )


# --- moves every phase makes ----------------------------------------------------------------
@kernel
def goto(g: Arrays, r: int, step: int) -> None:
    """Game r to the start of a step: the cursor's scalars at their reset values
    (`Machine.goto`)."""
    cur = g.cursor
    cur[r, C_STEP] = step
    cur[r, C_POS] = 0
    cur[r, C_COUNT] = 0
    cur[r, C_CARD] = -1
    cur[r, C_TARGET] = -1
    cur[r, C_LEFT] = 0


@kernel
def discard_wood(g: Arrays, c: Consts, r: int, n: int) -> None:
    """R3.1 (A1): n wood tokens discarded or spent go back to the supply, or out of the game
    under `spent_wood = out`."""
    if c.spent_out:
        g.wood_out[r] += n
    else:
        g.wood_supply[r] += n


@kernel
def card(table: np.ndarray, cid: int) -> int:
    """Index of epoch card `cid` in an `EpochTable` column: -1 ("no card") is its last entry."""
    return cid if cid >= 0 else len(table) - 1


# --- Python's seats' answers (`policy.PAUSE`, `batch.machine`) ------------------------------
@kernel
def answered(g: Arrays, r: int, q: int) -> bool:
    """Seat q's answer waits in game r's slot (Python's, or a sealed bid made already)."""
    return g.filled[r, q]


@kernel
def take_answer(g: Arrays, r: int, q: int) -> int:
    """Seat q's answer in game r, taken out of its slot."""
    g.filled[r, q] = False
    return g.slot[r, q, 0]


@kernel
def hold(g: Arrays, sc: Scratch, r: int, q: int, size: int, info: int) -> int:
    """Game r waits for seat q's answer to the decision whose mask is sc.legal[:size] and
    info `info`: recorded for Python (`batch.machine.Machine.waiting`), the game paused;
    -1, which the step returns on."""
    g.wait[r, q] = True
    g.paused[r] = True
    for a in range(size):
        g.pend_legal[r, a] = sc.legal[a]
    g.pend_info[r] = info
    return -1


@kernel
def keep_bid(g: Arrays, r: int, q: int, bid: np.ndarray) -> None:
    """Seat q's sealed bid in game r kept in its slot until every seat's is made."""
    for t in range(len(bid)):
        g.slot[r, q, t] = bid[t]
    g.filled[r, q] = True
