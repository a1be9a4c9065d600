"""Kaivai's decision kinds (docs/kaivai-rules.md, section D): each the name of the strategy
method that answers it, in the compiled machine's order (`machine.K_BID` ...)."""

from __future__ import annotations

from enum import Enum


class Kind(Enum):
    """What a seat is asked (D1-D12); a floor strategy answers each with the index of its
    choice among the options (`SeatView.info["options"]`)."""

    BID = "bid"  # D1: a free bid
    FOUND = "found"  # D2: a founding hut (hex, kind)
    GOD = "god"  # D3: the cult tile's hex
    ACTION = "action"  # D4: an action or the pass
    ANOTHER_BOAT = "another_boat"  # D10: stop, or another boat's step
    BUILD_STEP = "build_step"  # D5: (boat, end) of a build
    FISH_STEP = "fish_step"  # D5
    DELIVER_STEP = "deliver_step"  # D5
    MOVE_STEP = "move_step"  # D5
    BUILD = "build"  # D6: the hut (hex, kind)
    FISH_ISLAND = "fish_island"  # D7
    DELIVER = "deliver"  # D8: the plan
    CELEBRATE = "celebrate"  # D9: the island
    SCORE_ISLAND = "score_island"  # D11: the island scored next
    ISLAND_BID = "island_bid"  # D12: the secret influence bid


#: The kinds by the machine's number.
KINDS: tuple[Kind, ...] = tuple(Kind)

#: Each kind's answer width: one index a game (the toolkit reads it through the GameSpec).
ACTION_WIDTHS: dict[Kind, int] = dict.fromkeys(Kind, 1)
