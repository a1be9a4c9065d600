"""Where a game stands: the steps of a round, in order (docs/design.md, "The forward model").

A game's cursor is its step and a few counters (the public record's `step_*` fields). The
batch engine keeps the cursor as state: each step either runs by itself or waits
for one decision (`DECISION[step]` is its kind), and a game moves from step to step as the
rules say. The reference engine, which plays in plain Python, sets the same cursor before
each decision, so a view shows where the game stands in either engine.

The cursor of a game waiting for a decision, field by field (other fields at their reset
values: pos 0, count 0, card -1, target -1, left 0, taken 0, done False, hill -1):

| step | decision | cursor |
| --- | --- | --- |
| BID | bid | sealed: every seat at once; open bids (V2/V4): pos = the bidder's index |
| HILL | order_ties | pos = the hill position being filled, hill = the seats placed so far |
| PICK | pick_epoch | pos = the taker's turn position |
| TARGET | disaster_target | pos, card = the disaster taken |
| LOSS | disaster_loss | pos (the taker's), card, target = the victim |
| WORK | work | count = work actions so far this phase, pos = count mod players |
| FOREST | forest_tie | count = the forest space |
| VOLCANO | finish_moai | pos, done = own volcano spaces finished this turn |
| FEED | feed | pos, left = pawns still short of food |
| REST | rest | pos, left = pawns still to rest, taken = rested pawns per zone |
| BIRTH | birth | pos |
| BOAT | boat | pos, card = the boat card |
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from moaisim.engine import Pending
from moaisim.games.moai.engine.decisions import Kind

if TYPE_CHECKING:
    from moaisim.games.moai.rules import Rules


class Step(IntEnum):
    """The steps of a round (R2), in the order a game goes through them."""

    ROUND = 0  # R2, R3.1-R3.2: a round begins; epoch cards revealed, wood in the forest
    BID = 1  # R3.3
    HILL = 2  # R3.4-R3.5: the hill order, tied bidders ordered by the bird-man
    PICK = 3  # R4.1-R4.2: an epoch card taken at turn position pos
    DISASTER = 4  # R4.3: a disaster just taken (erosion; V5's fixed target)
    TARGET = 5  # R4.3: its taker names the clan it hits
    LOSS = 6  # R4.4, C3: the victim chooses what it loses
    WORK_START = 7  # R5: the phase's counts
    WORK = 8  # R5.1-R5.7: place, pass or swap
    FOREST = 9  # R6.1: forest space `count`
    VOLCANO = 10  # R6.2: statues finished at turn position pos
    FEED_COUNT = 11  # R6.3: food and mouths of turn position pos
    FEED = 12  # R6.3-R6.4: starve or raid
    DRAW = 13  # R7.1: cards drawn at turn position pos
    REST = 14  # R7.2
    BIRTH = 15  # R7.3
    BOAT = 16  # R7.4
    ROUND_END = 17  # R8.1: the last round ends the game, else a new round
    OVER = 18  # R8: the game is over


#: The bound on a game's length is this many times the most rounds a legal game can play
#: (`round_bound`): a margin for a case the count might miss.
MARGIN = 2


def round_bound(rules: Rules) -> int:
    """The rounds after which both engines stop a game that has not ended, as broken
    (`GameLengthError`): `MARGIN` times (E - 1) // (P + 1) + 1, for E epoch cards (C4) and P
    players, which no legal game reaches (the default set at 2 players: 2 x 12 = 24 rounds;
    games measured last at most 12).

    A legal game plays at most (E - 1) // (P + 1) + 1 rounds. A round that is not the last
    turns up P + 1 cards and no Admiral, and leaves at least one card in the epoch deck
    (R3.1-R3.2: turning up the Admiral, or the deck's last card, makes the round the last,
    R8.1), so k rounds before the last take k(P + 1) of the E cards and leave one: k(P + 1)
    + 1 <= E. The deck never grows (cards taken or left over leave it for good, R4.1).
    """
    return MARGIN * ((len(rules.components.epoch_cards) - 1) // (rules.players + 1) + 1)


#: The decision each waiting step asks.
DECISION: dict[Step, Kind] = {
    Step.BID: Kind.BID,
    Step.HILL: Kind.ORDER_TIES,
    Step.PICK: Kind.PICK_EPOCH,
    Step.TARGET: Kind.DISASTER_TARGET,
    Step.LOSS: Kind.DISASTER_LOSS,
    Step.WORK: Kind.WORK,
    Step.FOREST: Kind.FOREST_TIE,
    Step.VOLCANO: Kind.FINISH_MOAI,
    Step.FEED: Kind.FEED,
    Step.REST: Kind.REST,
    Step.BIRTH: Kind.BIRTH,
    Step.BOAT: Kind.BOAT,
}


#: The step at which each decision kind is asked.
STEP: dict[Kind, Step] = {kind: step for step, kind in DECISION.items()}


__all__ = ["DECISION", "STEP", "Pending", "Step", "round_bound"]
