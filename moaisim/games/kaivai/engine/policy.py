"""Kaivai's compiled policies' declarations. The weighted heuristic (`machine.heuristic`):
every option of a decision valued by a weight vector, the best taken (the first of equal
values); these are its weights, each as (name, scale, meaning), the scale the step a tuner
moves it by. A plan (strategies/kaivai/weights/) is one point of this space. The learned
ranker (`machine.ranked`, `learned.py`): the features of a candidate's row, in the order its
trees number them."""

from __future__ import annotations

import numpy as np

from moaisim.learned_model import CANDIDATE

#: Each weight: (name, scale, meaning), in the kernel's order (`W_...` below).
WEIGHTS: tuple[tuple[str, float, str], ...] = (
    ("bid_reach", 1.0, "D1: value of a step of reach the bid gives (R3.3)"),
    ("bid_cost", 0.3, "D1: cost of a bid's point (the building price, R8.1.2; a later turn)"),
    ("found_temple", 1.0, "D2: value of a temple as a founding hut"),
    ("found_meeting", 1.0, "D2: value of a meeting hut as a founding hut"),
    ("found_boat", 1.0, "D2: value of a boat hut as a founding hut"),
    ("god_huts", 1.0, "D3: value of each own hut on the island the god goes to"),
    ("build", 1.0, "D4: base value of the Build action"),
    ("fish", 1.0, "D4: base value of the Fish action"),
    ("deliver", 1.0, "D4: base value of the Deliver action"),
    ("move", 1.0, "D4: base value of the Move action"),
    ("increase", 1.0, "D4: base value of the Increase action"),
    ("celebrate", 1.0, "D4: base value of the Celebrate action"),
    ("price", 0.3, "D4: cost of an influence token an action's price takes (R6.3)"),
    ("fish_held", 0.3, "D4: Deliver's value of each fish held"),
    ("feast_share", 0.3, "D4: Celebrate's value of each own fish over the rivals' (best island)"),
    ("bonus_level", 0.3, "D4: Increase's cost of each bonus position held already (R8.5)"),
    ("hut_temple", 1.0, "D6: value of a temple built"),
    ("hut_meeting", 1.0, "D6: value of a meeting hut built"),
    ("hut_boat", 1.0, "D6: value of a boat hut built"),
    ("hut_size", 0.1, "D6: cost of each hex of the island built on (its price, R8.1.2)"),
    ("sell", 1.0, "D8: value of a fish sold to a rival's hut (R8.3.3)"),
    ("store", 0.3, "D8: value of a fish put on an own hut (a feast's glory, R8.6)"),
    ("feast_rivals", 0.3, "D9: cost of each rival's fish an island's feast pays"),
    ("sink", 1.0, "D5: value of a Move step that sinks a rival's boat (R8.4)"),
    ("another", 1.0, "D10: another boat's step when above 0, else stop"),
    ("contest", 0.2, "D12: the share of its influence it spends to win an island (R10.4)"),
)  # fmt: skip
NAMES: tuple[str, ...] = tuple(w[0] for w in WEIGHTS)
SCALES = np.array([w[1] for w in WEIGHTS], dtype=np.float64)
NW = len(WEIGHTS)
(W_BID_REACH, W_BID_COST, W_FOUND_TEMPLE, W_FOUND_MEETING, W_FOUND_BOAT, W_GOD_HUTS, W_BUILD,
 W_FISH, W_DELIVER, W_MOVE, W_INCREASE, W_CELEBRATE, W_PRICE, W_FISH_HELD, W_FEAST_SHARE,
 W_BONUS_LEVEL, W_HUT_TEMPLE, W_HUT_MEETING, W_HUT_BOAT, W_HUT_SIZE, W_SELL, W_STORE,
 W_FEAST_RIVALS, W_SINK, W_ANOTHER, W_CONTEST) = range(NW)  # fmt: skip

#: The context's features, in their column order (`machine.ranker_context`): what the seat
#: sees (R11).
CONTEXT: tuple[str, ...] = (
    "kind",  # the decision's kind (`machine.K_BID` ...: the order of `Kind`)
    "players",
    "round",  # R2: the game's clock
    "options",  # how many options the decision has
    "points",  # glory + 2 a hut built (R10.1; counted twice in the final scoring, see
    # `machine.ranker_points`)
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
