"""What a Moai view can show (docs/rules.md, R5.9): the door `determinize` checks a view at
before it builds games from it (docs/design.md, "The forward model").

A view the engines made always passes. One built or edited by hand (a search's what-if, a
test, a hostile caller) may hold numbers no game of its rules reaches: a pawn at location 99,
a feed with -99 pawns short, an epoch card id past the deck. The compiled machine indexes its
arrays by these numbers and counts some of them down without checking them in its loops, so
every number that becomes an index or a count is checked here, once: the fields' shapes,
the counts the rules conserve (C1-C5), the pawns as every seat sees them and the seat's own,
the cursor at the view's decision (`steps`' table) and the round's record at that step (the
bids, the epoch cards on offer and held). Every field is checked as the view shows it, and
the fields copied from the view's records must be what those records hold: the worlds are
built from the records, so a field replaced by hand is refused, not silently left out. The
first thing found wrong is named, with its numbers.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.decisions import strengths
from moaisim.games.moai.engine.steps import DECISION, Step
from moaisim.games.moai.engine.views import CURSOR, FIELDS, HIDDEN, RECORD, SeatView
from moaisim.games.moai.rules.codes import CAMP, RESERVE, card_value, free_fields
from moaisim.games.moai.rules.epoch_cards import epoch_table


def impossible(view: SeatView, row: int) -> str | None:
    """What in row `row` of a full view no game of its rules can show (None: nothing): the
    counts the rules conserve (C1-C5: 15 wood, 40 Rapa Nui cards, 21 Moai tiles, the disaster
    tokens, 18 pawns a clan), the decks' sizes, the round and the seats, in a view whose fields
    have their shapes (`shape_problem`, checked first). A view the engine made always passes;
    one whose fields were edited by hand (a search's what-if) may not."""
    r = view.rules
    c, p, me = r.components, r.players, view.seat
    if not isinstance(me, int | np.integer) or not 0 <= me < p:
        return f"seat {me} (a game of {p} players has seats 0 to {p - 1})"

    def at(name: str) -> np.ndarray:
        return np.asarray(getattr(view, name)[row]).astype(np.int64)

    wood, supply, out = at("wood"), int(at("wood_supply")), int(at("wood_out"))
    forest = int(at("forest_wood").sum())
    if (wood < 0).any() or supply < 0 or out < 0:
        return f"a negative wood count (clans {wood.tolist()}, supply {supply}, out {out})"
    if int(wood.sum()) + supply + forest + out != c.wood:
        return (f"wood held {wood.tolist()}, {supply} in the supply, {forest} in the forest "
                f"and {out} out of the game do not add up to the game's {c.wood} (C5)")  # fmt: skip
    hand, sizes, discard = at("hand"), at("hand_sizes"), at("discard")
    deck = int(at("deck_size"))
    if (hand < 0).any() or (sizes < 0).any() or (discard < 0).any() or deck < 0:
        return "a negative card count (hand, hand sizes, discard or deck)"
    if int(hand.sum()) != int(sizes[me]):
        return f"the seat's hand holds {int(hand.sum())} cards, its hand size says {int(sizes[me])}"
    if deck + int(discard.sum()) + int(sizes.sum()) != sum(c.cards):
        return (f"{deck} cards in the deck, {int(discard.sum())} discarded and "
                f"{int(sizes.sum())} in hands do not add up to the {sum(c.cards)} Rapa Nui "
                "cards (C1)")  # fmt: skip
    if (hand + discard > np.asarray(c.cards)).any():
        return "more cards of a type in the hand and the discard than the game has (C1)"
    epochs = int(at("epoch_deck_size"))
    if not 0 <= epochs <= len(c.epoch_cards):
        return f"{epochs} epoch cards in the deck (the game has {len(c.epoch_cards)}, C3)"
    rnd = int(at("round"))
    if not 1 <= rnd <= len(c.epoch_cards) + 1:  # every round reveals an epoch card (R4.1)
        return f"round {rnd} (a game has rounds 1 to {len(c.epoch_cards) + 1} at most)"
    shown, cards, removed = int(at("revealed").sum()), len(c.epoch_cards), sum(r.removals)
    if shown + epochs + removed != cards:
        return (f"{shown} epoch cards revealed, {epochs} in the deck and {removed} left out "
                f"(V3) do not add up to the game's {cards} (C3)")  # fmt: skip
    # R3.1-R3.2: a round turns up P + 1 cards (the last one the Admiral too, or the deck's rest)
    if shown <= (rnd - 1) * (p + 1) or (shown > rnd * (p + 1) + 1 and epochs > 0):
        return (f"{shown} epoch cards revealed by round {rnd} (R3.1: {p + 1} a round, from "
                f"{(rnd - 1) * (p + 1) + 1} to {rnd * (p + 1) + 1} by then)")  # fmt: skip
    covered, tokens = int(at("covered")), int(at("disaster_supply"))
    if covered < 0 or tokens < 0 or covered + tokens != c.disaster_tokens or covered > c.fields:
        return (f"{covered} covered fields and {tokens} disaster tokens in the supply "
                f"(the game has {c.disaster_tokens} tokens and {c.fields} fields, C4)")  # fmt: skip
    birdman, order = int(at("birdman")), at("order")
    if not 0 <= birdman < p or sorted(order.tolist()) != list(range(p)):
        return f"bird-man {birdman} and hill order {order.tolist()} are not {p} seats"
    if birdman != int(order[0]):
        return f"bird-man {birdman} is not first in the hill order {order.tolist()} (R3.5)"
    turn = at("turn")
    should = [(birdman + k) % p for k in range(p)] if r.turn_order == "clockwise" else order
    if turn.tolist() != list(should):
        return (f"turn order {turn.tolist()} is not the {r.turn_order} order {list(should)} "
                "(R2)")  # fmt: skip
    moai, supply_tiles, own = at("moai_count"), at("moai_supply"), at("own_tiles")
    if (moai < 0).any() or int(moai[me]) != int(own.sum()):
        return f"Moai tiles held {moai.tolist()}, but the seat's own tiles are {int(own.sum())}"
    if int(moai.sum()) + int(supply_tiles.sum()) > c.n_tiles:
        return f"more Moai tiles held and in the supply than the game's {c.n_tiles} (C2)"
    camp, board, reserve = at("camp_size"), at("on_board"), at("reserve")
    if (camp < 0).any() or (board < 0).any() or (reserve < 0).any():
        return "a negative pawn count"
    if (camp + board + reserve.sum(axis=-1) != c.pawns).any():
        return f"a clan's camp, board and reserve do not add up to its {c.pawns} pawns (R1.5)"
    checks = (_record_problem, _pawn_problem, _tile_problem, _cursor_problem, _round_problem,
              _asked_problem, _copy_problem)  # fmt: skip
    record = _shown(view, row)  # the row's record and cursor as the view shows them, once
    for check in checks:
        problem = check(view, row, record)
        if problem:
            return problem
    return None


#: The steps that wait for a decision (`steps.DECISION`), by number.
WAITING: frozenset[int] = frozenset(int(s) for s in DECISION)
#: The view's fields that are fields of its records as they are (`views._record_field`):
#: the worlds are built from the records (`forward._worlds`), so each must show what its
#: record holds. `boats` is not one: the view shows whether a slot is built, the record the
#: boat's card (`_derived_problem` compares them).
COPIED: tuple[str, ...] = tuple(
    name for name, *_ in (*RECORD, *CURSOR) if name in FIELDS and name != "boats"
)


def shape_problem(view: SeatView) -> str | None:
    """A field that is not a numpy array of whole numbers (or booleans) of the shape its
    meaning gives (`views.FIELDS`: n games, P players, N pawns a clan, L location codes, F
    forest spaces, K boat slots, E epoch cards, V volcano spaces, T Moai tiles)."""
    r, lay, c = view.rules, view.rules.layout, view.rules.components
    dims = {"n": len(view), "P": r.players, "P+1": r.players + 1, "N": c.pawns, "L": lay.size,
            "F": lay.forest, "K": lay.boats, "E": len(c.epoch_cards), "V": lay.volcano,
            "T": c.n_tiles, "3": 3, "4": 4, "6": 6}  # fmt: skip
    for name, (_, meaning) in FIELDS.items():
        want = tuple(dims[d] for d in meaning[1 : meaning.index("]")].split(", "))
        arr = getattr(view, name)
        if not isinstance(arr, np.ndarray):
            return f"{name} is a {type(arr).__name__}, not a numpy array"
        if arr.shape != want:
            return f"{name} has shape {arr.shape}, a view of {len(view)} games needs {want}"
        if not (np.issubdtype(arr.dtype, np.integer) or arr.dtype == bool):
            return f"{name} holds {arr.dtype} values, not whole numbers"
    return None


def _shown(view: SeatView, row: int) -> dict[str, np.ndarray]:
    """Row `row`'s public record and cursor as the view shows them: each field it shows
    (`COPIED`) as it shows it, the others (the decks' positions, the bid order, the boats'
    cards) as its record holds them."""
    rec, cur = view._record[row], view._cursor[row]  # noqa: SLF001
    out = {name: np.asarray(rec[name]) for name in rec.dtype.names}
    out.update({name: np.asarray(cur[name]) for name in cur.dtype.names})
    out.update({name: np.asarray(getattr(view, name))[row] for name in COPIED})
    return out


def _copy_problem(view: SeatView, row: int, record: dict[str, np.ndarray]) -> str | None:
    """A field the view shows that is not what its record holds (a field replaced by hand:
    its worlds, built from the record, would not show it)."""
    rec, cur = view._record[row], view._cursor[row]  # noqa: SLF001
    for name in COPIED:
        held = np.asarray(rec[name] if name in rec.dtype.names else cur[name])
        shown = np.asarray(getattr(view, name))[row]
        if not np.array_equal(shown, held):
            return (f"{name} {shown.tolist()} is not its view's record's {held.tolist()} (a "
                    "field replaced by hand: the worlds are built from the record)")  # fmt: skip
    return None


def _cursor_problem(view: SeatView, row: int, record: dict[str, np.ndarray]) -> str | None:
    """What in the cursor of row `row` no game shows at a decision (`steps`' table): a step
    that waits for one, a turn position among the seats, and each counter in its range at
    that step, at its reset value at the others. The machine's loops index by these numbers
    and count them down, so they are checked here (a feed with -99 pawns short looped)."""
    r, p = view.rules, view.rules.players
    lay, cards = r.layout, r.components.epoch_cards
    cur = record
    step = int(cur["step"])
    if step not in WAITING:
        return f"step {step} is not a step that waits for a decision ({sorted(WAITING)})"
    name = Step(step).name
    pos, count, card = int(cur["step_pos"]), int(cur["step_count"]), int(cur["step_card"])
    target, left = int(cur["step_target"]), int(cur["step_left"])
    taken = np.asarray(cur["step_taken"], dtype=np.int64)
    done, hill = np.asarray(cur["step_done"]), np.asarray(cur["step_hill"], dtype=np.int64)
    if not 0 <= pos < p:
        return f"turn position {pos} at {name} (a game of {p} has positions 0 to {p - 1})"
    pawns = r.components.pawns * p
    if step == Step.FOREST and not 0 <= count < lay.forest:
        return f"forest space {count} (the forest has spaces 0 to {lay.forest - 1}, R6.1)"
    if step == Step.FOREST:  # R6.1: the spaces before it given out, a token on the tied one
        wood = np.asarray(view.forest_wood[row], dtype=bool)
        if not wood[count] or wood[:count].any():
            return (f"forest wood {wood.astype(int).tolist()} at a tie on forest space {count} "
                    "(R6.1: each space before it given out, a token on it)")  # fmt: skip
    if step == Step.WORK and not 0 <= count <= 4 * pawns:
        return f"{count} work actions so far (R5: a place or a swap per pawn, a pass a seat)"
    if step == Step.WORK and pos != count % p:
        return f"turn position {pos} after {count} work actions ({count % p}: in turn, R5)"
    if step not in (Step.FOREST, Step.WORK) and count != 0:
        return f"step count {count} at {name} (0 but at work and in the forest)"
    wanted = {Step.TARGET: "is_disaster", Step.LOSS: "is_disaster", Step.BOAT: "is_boat"}
    if step in wanted:
        if not 0 <= card < len(cards) or not getattr(cards[card], wanted[Step(step)]):
            return f"card {card} at {name} is not a {wanted[Step(step)][3:]} card (C3)"
    elif card != -1:
        return f"card {card} at {name} (-1: no card but for a disaster or a boat)"
    if (step == Step.LOSS) != (0 <= target < p) or (step != Step.LOSS and target != -1):
        return f"disaster victim {target} at {name} (a seat at a loss, else -1; R4.4)"
    if step in (Step.FEED, Step.REST):
        if not 1 <= left <= r.components.pawns:
            return f"{left} pawns left at {name} (1 to a clan's {r.components.pawns}, R6.3, R7.2)"
    elif left != 0:
        return f"{left} pawns left at {name} (0 but while feeding or resting)"
    if (taken < 0).any() or (taken > r.components.pawns).any() or (
            step != Step.REST and taken.any()):  # fmt: skip
        return f"pawns rested per zone {taken.tolist()} at {name} (R7.2)"
    if step != Step.VOLCANO and done.any():
        return f"volcano spaces done {done.astype(int).tolist()} at {name} (R6.2)"
    placed = hill[hill >= 0].tolist()
    if ((hill < -1) | (hill >= p)).any() or len(set(placed)) != len(placed) or (
            step != Step.HILL and placed):  # fmt: skip
        return f"hill order so far {hill.tolist()} at {name} (R3.4: distinct seats, -1 after)"
    if step == Step.HILL and ((hill[:pos] < 0).any() or (hill[pos:] != -1).any()):
        return (f"hill order so far {hill.tolist()} while position {pos} is filled (R3.4: the "
                "positions before it placed, none after)")  # fmt: skip
    return None


#: The steps of the epoch phase (R4) and those after it in a round (R5-R7).
EPOCH = (Step.PICK, Step.TARGET, Step.LOSS)
AFTER_EPOCH = tuple(s for s in DECISION if s > Step.LOSS)
#: The review's steps that wait (R7.2-R7.4): a seat's review ends with its card's (R7.4).
REVIEW = (Step.REST, Step.BIRTH, Step.BOAT)


def _round_problem(view: SeatView, row: int, record: dict[str, np.ndarray]) -> str | None:
    """The round's record at the cursor's step (its step and position checked): the bids
    shown as the bidding has gone (R3.3: sealed, none before all have bid; V2/V4: those of
    the seats before the bidder in the bid order), every bid after it; the hill order by
    bids, the bird-man asked at a tie only (R3.4); no card on offer after the epoch phase
    (R4.1); no card held before it, nor by the positions still to pick (R4.1) or those whose
    review is over (R7.4: a card held is built or discarded in its holder's review); the
    disaster or boat card of the step held by its taker (R4.3, R7.4)."""
    r, p = view.rules, view.rules.players
    rec = record
    step, pos = Step(int(rec["step"])), int(rec["step_pos"])
    bids, held = rec["bids"].astype(np.int64), rec["held"].astype(np.int64)
    turn, order = rec["turn"].astype(np.int64), rec["order"].astype(np.int64)
    if step == Step.BID:
        first = rec["bid_order"].astype(np.int64)[:pos] if r.open_bidding else []
        shown = np.isin(np.arange(p), first)
        if ((bids >= 0) != shown).any():
            return (f"bids {bids.tolist()} while bidding at position {pos} (R3.3: sealed bids "
                    "are shown once all are made; V2/V4: the bids of the seats before the "
                    f"bidder in the bid order {rec['bid_order'].tolist()})")  # fmt: skip
    elif (bids < 0).any():
        return f"bids {bids.tolist()} at {step.name} (R3.3: every bid is shown once all are made)"
    if step == Step.HILL:
        step_hill = rec["step_hill"].astype(np.int64)
        placed, rest = step_hill[:pos], np.setdiff1d(np.arange(p), step_hill[:pos])
        if (np.diff(bids[placed]) > 0).any() or (
                len(placed) and len(rest) and bids[placed].min() < bids[rest].max()):  # fmt: skip
            return (f"hill order so far {step_hill.tolist()} with bids {bids.tolist()} (R3.4: "
                    "from the highest bid to the lowest)")  # fmt: skip
        if (bids[rest] == bids[rest].max()).sum() < 2:
            return (f"hill position {pos} waits for the bird-man with bids {bids.tolist()} "
                    f"and seats {rest.tolist()} not placed (R3.4: he orders tied bidders "
                    "only)")  # fmt: skip
    elif step != Step.BID and (np.diff(bids[order]) > 0).any():
        return (f"hill order {order.tolist()} with bids {bids.tolist()} at {step.name} (R3.4: "
                "from the highest bid to the lowest)")  # fmt: skip
    if step in AFTER_EPOCH and (rec["offer"] != -1).any():
        return (f"epoch cards on offer {rec['offer'].tolist()} at {step.name} (R4.1: the card "
                "left over leaves the game when the epoch phase ends)")  # fmt: skip
    if step in (Step.BID, Step.HILL) and (held != -1).any():
        return (f"epoch cards held {held.tolist()} at {step.name} (R7.4: a card held is built "
                "or discarded in its holder's review)")  # fmt: skip
    if step in EPOCH:
        after = turn[pos:] if step == Step.PICK else turn[pos + 1 :]
        if (held[after] != -1).any():
            return (f"epoch cards held {held.tolist()} at {step.name} of turn position "
                    f"{pos} (R4.1: the seats after it in turn {turn.tolist()} have not "
                    "picked)")  # fmt: skip
    if step in REVIEW and (held[turn[:pos]] != -1).any():
        return (f"epoch cards held {held.tolist()} at {step.name} of turn position {pos} "
                f"(R7.4: the seats before it in turn {turn.tolist()} have built or discarded "
                "theirs)")  # fmt: skip
    if step in (Step.TARGET, Step.LOSS, Step.BOAT) and int(rec["step_card"]) != held[turn[pos]]:
        return (f"card {int(rec['step_card'])} at {step.name}, but seat {int(turn[pos])} at "
                f"turn position {pos} holds {int(held[turn[pos]])} (R4.3, R7.4)")  # fmt: skip
    return None


def _asked_problem(view: SeatView, row: int, record: dict[str, np.ndarray]) -> str | None:
    """What the seat at the step's turn position has, as every seat sees it, lets its
    decision be asked: a pawn short per pawn it has (R6.3), no more pawns to rest than it has
    on the board (R7.2), two cards and a pawn in its reserve for a birth (R7.3), a wood for a
    boat (R7.4). (Else the machine would go on to a later decision of the same kind.)"""
    rec = record
    step, pos, left = Step(int(rec["step"])), int(rec["step_pos"]), int(rec["step_left"])
    q = int(rec["turn"][pos])

    def at(name: str) -> int:
        return int(np.asarray(getattr(view, name))[row, q].sum())

    board, living = at("on_board"), at("on_board") + at("camp_size")
    if step == Step.FEED and left > living:
        return f"seat {q} {left} pawns short of food with {living} pawns (R6.3)"
    if step == Step.REST and left > board:
        return f"seat {q} to rest {left} pawns with {board} on the board (R7.2)"
    if step == Step.BIRTH and (at("hand_sizes") < 2 or at("reserve") == 0):
        return (f"a birth for seat {q} with {at('hand_sizes')} cards and {at('reserve')} pawns "
                "in its reserve (R7.3: two cards for a reserve pawn)")  # fmt: skip
    if step == Step.BOAT and at("wood") < 1:
        return f"a boat for seat {q} with {at('wood')} wood (R7.4: a boat costs 1 wood)"
    return None


def _ids(rec: dict[str, np.ndarray], view: SeatView, name: str, row: int,
         want: str | None = None) -> str | None:  # fmt: skip
    """Epoch card ids of a record field (`rec`: as the view shows it): -1 or a card the game
    has (`want`: a property every card must have), revealed (R3.1), no card twice."""
    cards, seen = view.rules.components.epoch_cards, np.asarray(view.revealed[row])
    ids = np.asarray(rec[name]).astype(np.int64).reshape(-1)
    held = ids[ids != -1]
    if ((held < 0) | (held >= len(cards))).any() or len(set(held.tolist())) != len(held):
        return (f"{name} {ids.tolist()} are not distinct epoch card ids (0 to "
                f"{len(cards) - 1}) or -1")  # fmt: skip
    if not seen[held].all():
        return f"{name} {ids.tolist()} holds an epoch card not yet revealed (R3.1)"
    if want and not all(getattr(cards[i], want) for i in held.tolist()):
        return f"{name} {ids.tolist()} holds a card that is not a {want[3:]} card (C3)"
    return None


def _record_problem(view: SeatView, row: int, record: dict[str, np.ndarray]) -> str | None:
    """The public record's other numbers in their ranges: the decks' positions, the bid
    order, the bids, and the epoch cards on offer, held and built as boats."""
    r, p = view.rules, view.rules.players
    rec = record
    cards, epochs = sum(r.components.cards), len(r.components.epoch_cards)
    pos, end = int(rec["deck_pos"]), int(rec["deck_len"])
    if not 0 <= pos <= end <= cards or int(rec["reshuffles"]) < 0:
        return (f"the Rapa Nui deck at {pos} of {end} after {int(rec['reshuffles'])} reshuffles "
                f"(0 <= drawn <= its size <= the game's {cards} cards, R7.1)")  # fmt: skip
    pos, end = int(rec["epoch_pos"]), int(rec["epoch_len"])
    if not 0 <= pos <= end <= epochs:
        return f"the epoch deck at {pos} of {end} (0 <= revealed <= its size <= {epochs}, C3)"
    if sorted(np.asarray(rec["bid_order"]).tolist()) != list(range(p)):
        return f"bid order {np.asarray(rec['bid_order']).tolist()} is not {p} seats (V2)"
    bids = np.asarray(rec["bids"], dtype=np.int64)
    # R3.3: a bid is cards of a hand at their values: at most every card of the game (C1)
    most = sum(n * int(card_value.py_func(t)) for t, n in enumerate(r.components.cards))
    if ((bids < -1) | (bids > most)).any() or int(bids[bids > 0].sum()) > most:
        return (f"bids {bids.tolist()} (-1: not revealed, else 0 to {most}, the worth of the "
                f"game's cards, all bids together too, R3.3)")  # fmt: skip
    for name, want in (("offer", None), ("held", None), ("boats", "is_boat")):
        problem = _ids(rec, view, name, row, want)
        if problem:
            return problem
    ids = np.concatenate([rec[name].reshape(-1) for name in ("offer", "held", "boats")])
    ids = ids[ids >= 0]
    if len(set(ids.tolist())) != len(ids):
        return (f"an epoch card twice among the offer {rec['offer'].tolist()}, the cards "
                f"held {rec['held'].tolist()} and the boats {rec['boats'].tolist()} (R4.1: a "
                "card taken leaves the offer; R7.4: a boat built leaves the hand)")  # fmt: skip
    return _derived_problem(view, row, record)


def _derived_problem(view: SeatView, row: int, record: dict[str, np.ndarray]) -> str | None:
    """The fields a view works out from others agree with them: the decks' sizes, the
    boats built, the seat's turn position, and the epoch on the back of the epoch deck's top
    card (R5.9: the deck is epoch 1 on 2 on 3, so it is the first epoch with cards left)."""
    r, me = view.rules, view.seat
    rec = record
    pairs = (("deck_size", int(rec["deck_len"]) - int(rec["deck_pos"])),
             ("epoch_deck_size", int(rec["epoch_len"]) - int(rec["epoch_pos"])))  # fmt: skip
    for name, value in pairs:
        if int(getattr(view, name)[row]) != value:
            return f"{name} {int(getattr(view, name)[row])} is not the deck's {value}"
    built = np.asarray(rec["boats"]) >= 0
    if not np.array_equal(np.asarray(view.boats[row], dtype=bool), built):
        return f"boats {np.asarray(view.boats[row]).astype(int).tolist()} are not those built"
    turn = np.asarray(rec["turn"])
    if int(view.position[row]) != int(np.argmax(turn == me)):
        return f"position {int(view.position[row])} is not seat {me}'s in the turn order"
    epoch, seen = epoch_table(r).epoch[:-1], np.asarray(view.revealed[row], dtype=bool)
    left = [int(((epoch == e) & ~seen).sum()) - r.removals[e - 1] for e in (1, 2, 3)]
    top = next((e for e, k in zip((1, 2, 3), left, strict=True) if k > 0), 0)
    if int(rec["next_epoch"]) != top:
        return (f"the epoch deck's top card shows epoch {int(rec['next_epoch'])}, but its "
                f"cards left by epoch ({left}) put epoch {top} on top (R5.9)")  # fmt: skip
    return None


def _pawn_problem(view: SeatView, row: int, record: dict[str, np.ndarray]) -> str | None:
    """R5.9: the seat's own pawns at codes of the board, in camp or in the reserve, and every
    count a view gives of the pawns (on the board, in camp, in the reserve by strength, face
    down per place, the manned boats, the free fields) what those pawns make; a boat holds
    one pawn and only a boat that was built (R5.7)."""
    r, p, me = view.rules, view.rules.players, view.seat
    lay, strength = r.layout, strengths(r)

    def at(name: str) -> np.ndarray:
        return np.asarray(getattr(view, name)[row]).astype(np.int64)

    loc, up, shown, hidden = at("own_loc"), at("own_up"), at("shown_loc"), at("hidden_count")
    if ((loc < RESERVE) | (loc >= lay.size)).any():
        return (f"own pawns at locations {sorted(set(loc.tolist()))} (reserve {RESERVE}, camp "
                f"{CAMP}, the board 0 to {lay.size - 1})")  # fmt: skip
    if (((shown < 0) & (shown != HIDDEN)) | (shown >= lay.size)).any():
        return f"face-up pawns shown at locations outside the board (0 to {lay.size - 1})"
    if (hidden < 0).any():
        return "a negative count of face-down pawns"
    mine = np.where((loc >= 0) & (up != 0), loc, HIDDEN)
    down = np.bincount(loc[(loc >= 0) & (up == 0)], minlength=lay.size)
    if not np.array_equal(shown[me], mine) or not np.array_equal(hidden[me], down):
        return "the seat's own pawns are not shown as its locations and faces say (R5.9)"
    board = (shown != HIDDEN).sum(axis=1) + hidden.sum(axis=1)
    if not np.array_equal(at("on_board"), board):
        return f"pawns on the board {at('on_board').tolist()}, the map shows {board.tolist()}"
    if int(at("camp_size")[me]) != int((loc == CAMP).sum()):
        return f"the seat's camp holds {int(at('camp_size')[me])} pawns, its pawns say otherwise"
    own_reserve = np.bincount(strength[loc == RESERVE] - 1, minlength=3)
    if not np.array_equal(at("reserve")[me], own_reserve):
        return f"the seat's reserve {at('reserve')[me].tolist()} is not its pawns' {own_reserve}"
    for q in range(p):
        face_up = np.bincount(strength[shown[q] != HIDDEN] - 1, minlength=3)
        if (face_up + at("reserve")[q] > lay.per_strength).any():
            return (
                f"clan {q} shows {face_up.tolist()} pawns face up and {at('reserve')[q]} "
                f"in reserve by strength, more than its {lay.per_strength} of each (C1)"
            )
    at_code = hidden + np.stack([np.bincount(s[s >= 0], minlength=lay.size) for s in shown])
    ocean = at_code[:, lay.ocean0 : lay.ocean0 + lay.boats]
    rec = record
    built = rec["boats"] >= 0
    if (ocean > 1).any() or (ocean > built).any():
        return f"pawns on the boats {ocean.tolist()} (one a boat, and only a boat built, R5.7)"
    if not np.array_equal(at("boats_manned").astype(bool), ocean > 0):
        return f"manned boats {at('boats_manned').astype(int).tolist()} are not the map's"
    in_fields, covered = int(at_code[:, lay.fields].sum()), int(rec["covered"])
    free = int(free_fields.py_func(lay, covered, in_fields))
    if free < 0 or int(at("free_fields")) != free:
        return (f"{int(at('free_fields'))} free fields with {in_fields} pawns and {covered} "
                f"disaster tokens on the fields (R5.5: {free})")  # fmt: skip
    return None


def _tile_problem(view: SeatView, row: int, record: dict[str, np.ndarray]) -> str | None:
    """C2, R6.5: a tile is in the supply, the seat's own, or a rival's or gone; the rivals'
    counts fit the tiles that are neither."""
    me = view.seat
    supply = np.asarray(view.moai_supply[row], dtype=bool)
    own = np.asarray(view.own_tiles[row], dtype=bool)
    count = np.asarray(view.moai_count[row], dtype=np.int64)
    if (supply & own).any():
        return "a Moai tile both in the supply and the seat's own"
    rivals = int(count.sum() - count[me])
    if rivals > int((~supply & ~own).sum()):
        return (f"rivals hold {rivals} Moai tiles, but only {int((~supply & ~own).sum())} are "
                "neither in the supply nor the seat's (C2)")  # fmt: skip
    return None
