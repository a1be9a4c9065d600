"""What a Rapa Nui view can show (docs/rapa-nui-rules.md, R10): the door `determinize` checks a
view at before it builds games from it.

A view the engines made always passes. One built or edited by hand (a search's what-if, a
test, a hostile caller) may hold counts no game of its rules reaches: an active seat of 7, a
column of 99 cards, a stock the supply never had. The fast machine indexes its arrays by these
numbers without checking them in its loops, so every number that becomes an index or a count
is checked here, once, against the rules: the shapes, the ranges, the counts the game
conserves (C1's cards, C3's sacrifice cards, every village and hand as the public record gives
it, R10.3) and whether the view's decision can be asked of its seat at that point of a turn
(R2-R7). The first thing found wrong is named, with its numbers.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.reference import deck
from moaisim.games.rapa_nui.engine.views import FIELDS, SeatView
from moaisim.games.rapa_nui.rules.codes import LUMBERJACK, MOAI, N_FOODS, N_KINDS


def shapes(view: SeatView) -> dict[str, tuple[int, ...]]:
    """Each field's shape in a view of n games (`views.FIELDS`)."""
    n, p, c = len(view), view.players, view.rules.components
    dims = {"n": n, "P": p, "7": N_KINDS, "4": N_FOODS, "C": c.columns, "D": c.depth}
    out: dict[str, tuple[int, ...]] = {}
    for name, text in FIELDS.items():
        axes = text[1 : text.index("]")].split(", ")
        out[name] = tuple(dims[a] for a in axes)
    return out


def misshapen(view: SeatView) -> str | None:
    """A field of the wrong shape or not of whole numbers (None: every field fits)."""
    for name, shape in shapes(view).items():
        arr = np.asarray(getattr(view, name))
        if arr.shape != shape:
            return f"{name} has shape {arr.shape}, a view of {len(view)} games needs {shape}"
        if not (np.issubdtype(arr.dtype, np.integer) or arr.dtype == bool):
            return f"{name} holds {arr.dtype} values, not whole numbers"
    return None


def unseen_cards(view: SeatView, row: int) -> np.ndarray:
    """[7] the draw pile's cards of each kind as the view's seat can count them: the deck
    (C1) less the display and every card taken from it (R10.3: the public record)."""
    counts = np.bincount(np.array(deck(view.rules), dtype=np.int64), minlength=N_KINDS)
    shown = np.asarray(view.display[row], dtype=np.int64)
    counts = counts - np.bincount(shown[shown >= 0], minlength=N_KINDS)[:N_KINDS]
    return counts - np.asarray(view.taken[row], dtype=np.int64).sum(axis=0)


def impossible(view: SeatView, row: int) -> str | None:
    """What in row `row` of a view (its shapes checked) no game of its rules can show; None:
    nothing. The checks run in the order the later ones need: ranges first (so that no count
    indexes outside its array), then the conserved counts, then the decision."""
    for check in (_ranges, _display, _cards, _sacrifices, _decision):
        problem = check(view, row)
        if problem:
            return problem
    return None


def _at(view: SeatView, name: str, row: int) -> np.ndarray:
    return np.asarray(getattr(view, name)[row], dtype=np.int64)


def _ranges(view: SeatView, row: int) -> str | None:
    """Every count non-negative; the seats, the turn and the card kinds in their ranges; wood
    and glory no more than the turns played could pay."""
    r, p, c = view.rules, view.players, view.rules.components
    if not 0 <= view.seat < p:
        return f"seat {view.seat} (a game of {p} players has seats 0 to {p - 1})"
    for name in ("hand", "stock", "own_down", "village", "wood", "glory", "hand_size",
                 "stock_size", "down", "taken", "played", "discarded", "bought", "gained",
                 "given", "supply", "stone", "pile", "turn", "passes"):  # fmt: skip
        arr = _at(view, name, row)
        if (arr < 0).any():
            return f"a negative count in {name} ({arr.tolist()})"
    turn, active = int(_at(view, "turn", row)), int(_at(view, "active", row))
    if not 0 <= active < p or active != turn % p:
        return (f"active seat {active} at turn {turn} (seats take turns 0, 1, ..., {p - 1} "
                f"from seat 0, R2: turn {turn} is seat {turn % p}'s)")  # fmt: skip
    takes = int(_at(view, "taken", row).sum())
    if turn > 2 * p * (takes + 1):  # R6: a turn takes a card, but for a round of passes
        return (f"turn {turn} with {takes} cards taken (a round of turns without a take "
                "ends the game, R4.5, R8)")  # fmt: skip
    revealed = int(_at(view, "revealed", row))
    if not -1 <= revealed < N_KINDS:
        return f"revealed card kind {revealed} (kinds are 0 to {N_KINDS - 1}, or -1: none)"
    first = int(_at(view, "first_column", row))
    if not -1 <= first < c.columns:
        return f"first column {first} (the display has columns 0 to {c.columns - 1}, or -1)"
    # R7: a turn evaluates one card, which pays each seat at most its village's cards of that
    # kind and the bonus, in wood or glory; nothing else gives either
    wood, glory = _at(view, "wood", row), _at(view, "glory", row)
    pay = c.n_cards + c.start_lumberjacks + max(c.bonus_lumberjack, c.bonus_priest,
                                                 c.bonus_moai, 0)  # fmt: skip
    most = np.array([r.start_wood(q) for q in range(p)]) + (turn + 1) * pay
    # each capped at most + 1 before the sum, which could pass int64's largest and wrap round
    # below the bound (a glory of 2^63 - 1 passed). So bounded, glory and a score built on it
    # fit the results' 32 bits (engine/results.py): 4 seats, 3 500 cards at most
    # (components.COUNTS) and bonuses of 10 keep `most` under 10^8
    over = np.minimum(wood, most + 1) + np.minimum(glory, most + 1) > most
    if over.any():
        q = int(np.argmax(over))
        return (f"seat {q} holds {int(wood[q])} wood and {int(glory[q])} glory after {turn} "
                f"turns (R7: at most {int(most[q])} by then)")  # fmt: skip
    passes = int(_at(view, "passes", row))
    if passes >= p or (passes and view.rules.stuck_hand != "pass"):
        return (f"{passes} turns in a row without a play (R4.5: {p} end the game; only "
                "`stuck_hand = pass` passes)")  # fmt: skip
    return None


def _display(view: SeatView, row: int) -> str | None:
    """R1.3, R6.3: each column holds 0 to D cards of real kinds, -1 below them; the draw pile
    holds at most the deck less the display, and while it holds any, no column is empty."""
    c = view.rules.components
    sizes, display = _at(view, "column_size", row), _at(view, "display", row)
    for k in range(c.columns):
        size = int(sizes[k])
        if not 0 <= size <= c.depth:
            return f"column {k} holds {size} cards (a column holds 0 to {c.depth}, R1.3)"
        cards = display[k]
        if ((cards[:size] < 0) | (cards[:size] >= N_KINDS)).any() or (cards[size:] != -1).any():
            return (f"column {k}'s cards {cards.tolist()} are not {size} card kinds (0 to "
                    f"{N_KINDS - 1}) followed by -1")  # fmt: skip
    pile = int(_at(view, "pile", row))
    if pile > c.n_cards - c.display_cards:
        return (
            f"{pile} cards in the draw pile (the deck's {c.n_cards} cards less the "
            f"{c.display_cards} of the display leave {c.n_cards - c.display_cards}, C1)"
        )
    if pile and (sizes == 0).any():
        return (f"column {int(np.argmax(sizes == 0))} is empty while the draw pile holds {pile} "
                "cards (R6.3: an emptied column is refilled at once)")  # fmt: skip
    return None


def _cards(view: SeatView, row: int) -> str | None:
    """C1 and the public record (R10.3): the deck's cards are the display, the draw pile and
    those taken; every hand and village is what its seat started with, took, played and
    discarded; a hand never holds more than a full hand."""
    r, p, c, me = view.rules, view.players, view.rules.components, view.seat
    unseen = unseen_cards(view, row)
    pile = int(_at(view, "pile", row))
    if (unseen < 0).any() or int(unseen.sum()) != pile:
        return (f"the deck's cards do not add up (C1): {pile} in the draw pile, "
                f"{int(unseen.sum())} unseen by kind {unseen.tolist()}")  # fmt: skip
    taken, played = _at(view, "taken", row), _at(view, "played", row)
    discarded = _at(view, "discarded", row)
    start = np.array([r.start_hand(q) for q in range(p)], dtype=np.int64)
    hands = start + taken - played - discarded
    most = max(c.hand, int(start.sum(axis=1).max()))
    for q in range(p):
        if (hands[q] < 0).any() or int(hands[q].sum()) > most:
            return (f"seat {q}'s hand by the public record ({hands[q].tolist()}: its start "
                    f"hand, plus {taken[q].tolist()} taken, less {played[q].tolist()} played "
                    f"and {discarded[q].tolist()} discarded) is not a hand of 0 to {most} "
                    "cards")  # fmt: skip
    if not np.array_equal(_at(view, "hand", row), hands[me]):
        return (f"the seat's hand {_at(view, 'hand', row).tolist()} is not its public record's "
                f"{hands[me].tolist()} (R10.3)")  # fmt: skip
    if not np.array_equal(_at(view, "hand_size", row), hands.sum(axis=1)):
        return (f"hand sizes {_at(view, 'hand_size', row).tolist()} are not the public "
                f"record's {hands.sum(axis=1).tolist()}")  # fmt: skip
    village = np.zeros_like(played)
    village[:, LUMBERJACK] = c.start_lumberjacks  # R1.2
    village += played
    if not np.array_equal(_at(view, "village", row), village):
        return (f"villages {_at(view, 'village', row).tolist()} are not the start lumberjack "
                f"and the cards played ({village.tolist()}, R4.1)")  # fmt: skip
    return None


def _sacrifices(view: SeatView, row: int) -> str | None:
    """C3: each type's sacrifice cards are in the supply, in stocks (face down on the stone
    counted with their owner's) or face up on the stone; a face-down card is one per Moai
    played (R5.2), the seat's own of the types its record allows."""
    r, p, c, me = view.rules, view.players, view.rules.components, view.seat
    start = c.start_stock if r.start_sacrifice == "one_each" else 0
    public = start + _at(view, "bought", row) + _at(view, "gained", row) - _at(view, "given", row)
    supply, stone = _at(view, "supply", row), _at(view, "stone", row)
    if (public < 0).any():
        q = int(np.argmax((public < 0).any(axis=1)))
        return f"seat {q}'s stock by the public record is negative ({public[q].tolist()})"
    total = supply + public.sum(axis=0) + stone
    if (total != c.supply).any():
        return (f"sacrifice cards by type: {supply.tolist()} in the supply, "
                f"{public.sum(axis=0).tolist()} in stocks and {stone.tolist()} face up on the "
                f"stone do not add up to {c.supply} of each type (C3)")  # fmt: skip
    down, played = _at(view, "down", row), _at(view, "played", row)
    if (down > played[:, MOAI]).any() or (stone < _at(view, "given", row).sum(axis=0)).any():
        return (f"face-down sacrifices {down.tolist()} or face-up stone cards {stone.tolist()} "
                f"the Moai played ({played[:, MOAI].tolist()}) and the cards given cannot "
                "explain (R5)")  # fmt: skip
    own, own_down = _at(view, "stock", row), _at(view, "own_down", row)
    if not np.array_equal(own + own_down, public[me]) or int(own_down.sum()) != int(down[me]):
        return (
            f"the seat's stock {own.tolist()} and face-down cards {own_down.tolist()} are "
            f"not its public record's {public[me].tolist()} ({int(down[me])} face down)"
        )
    for q in range(p):
        if int(down[q]) > int(public[q].sum()):
            return (f"seat {q} put {int(down[q])} cards face down but its public stock holds "
                    f"{int(public[q].sum())}")  # fmt: skip
    sizes = _at(view, "stock_size", row)
    if not np.array_equal(sizes, public.sum(axis=1) - down):
        return (f"stock sizes {sizes.tolist()} are not the public record's "
                f"{(public.sum(axis=1) - down).tolist()}")  # fmt: skip
    return None


def _decision(view: SeatView, row: int) -> str | None:
    """The view's decision can be asked of its seat where the turn stands (R1.4-R7.6)."""
    r, p, c, me, kind = view.rules, view.players, view.rules.components, view.seat, view.kind
    turn, active = int(_at(view, "turn", row)), int(_at(view, "active", row))
    revealed, first = int(_at(view, "revealed", row)), int(_at(view, "first_column", row))
    hand = _at(view, "hand", row)
    if kind is not Kind.TAKE and first != -1:
        return f"first column {first} outside the takes (R6.2: -1 but while taking)"
    if kind is Kind.START_SACRIFICE:  # R1.4: before the first turn, in seat order
        gained = _at(view, "gained", row).sum(axis=1)
        if r.start_sacrifice != "one_choice" or turn != 0:
            return "a start sacrifice outside the set-up of `start_sacrifice = one_choice`"
        if gained.tolist() != [1] * me + [0] * (p - me):
            return f"seat {me}'s start sacrifice after seats gained {gained.tolist()} (R1.4)"
        return None
    if kind in (Kind.BUY, Kind.PLAY, Kind.DISCARD, Kind.OFFERING, Kind.TAKE) and me != active:
        return f"seat {me} asked {kind.value} in seat {active}'s turn (R2)"
    if kind is Kind.SACRIFICE and me == active:
        return f"the active seat {me} asked to sacrifice face up (R5.1: the others do)"
    if kind in (Kind.MOAI_INCOME, Kind.BONUS) and revealed != MOAI:
        return f"{kind.value} while card kind {revealed} is evaluated, not a Moai (R7.4)"
    if kind in (Kind.BUY, Kind.PLAY, Kind.DISCARD, Kind.SACRIFICE, Kind.OFFERING) and revealed >= 0:
        return f"{kind.value} after the turn's card kind {revealed} was revealed (R6.5)"
    if kind is Kind.TAKE and int(hand.sum()) >= c.hand:
        return f"a take with a full hand of {int(hand.sum())} cards (R6.1)"
    sizes = _at(view, "column_size", row)
    if kind is Kind.TAKE and not (sizes > 0).any():
        return "a take from an empty display (R6.4)"
    if kind is Kind.TAKE and first >= 0 and r.refill_columns == "same" and sizes[first] > 0:
        return (
            f"a take after a first take from column {first}, which `refill_columns = "
            "same` makes the only one: a decision with one legal action is not asked"
        )
    if kind is Kind.MOAI_INCOME and int(_at(view, "village", row)[me, MOAI]) == 0:
        return f"Moai income for seat {me}, whose village holds no Moai (R7.4)"
    if kind is Kind.BONUS and c.bonus_moai == 0:
        return "a Moai bonus under a component set that pays none (R7.6)"
    if kind in (Kind.PLAY, Kind.DISCARD) and int(hand.sum()) == 0:
        return f"{kind.value} from an empty hand (R6.7)"
    if kind is Kind.DISCARD and r.stuck_hand != "discard":
        return "a discard under `stuck_hand = pass` (R4.3)"
    return None
