"""`heuristic`: one parametric strategy; every decision is a weighted sum of clear features.

Each decision scores every legal action by a weighted sum of features the seat can see, and
takes the best one (ties at random from the seat's stream). The weights
are data: `strategies/moai/weights/heuristic.toml` holds the defaults, one commented line per
weight; `heuristic(weights=path.toml)` overrides any of them (a TOML file with a `[weights]`
table, or top-level `name = value` lines). The plan strategies (`moai`, `fisher`,
`forester`, `breeder`, `raider`, `bidder`) are points of this weight space, each with its own
file in `strategies/moai/weights/`, and `tuned` is the point `moaisim tune` found.

The features, by decision (weight names in brackets; "points" are score points, R8.2):

**Position value** (work, feeding, famine). Placements and swaps are scored by how much they
change the value V of the clan's own pawns, a sum of three parts:

- *food* (R6.3): -[starve] x max(0, living pawns + [buffer] - food), food being the strength
  in the fields and on boats;
- *forest* (R6.1), per space: if a wood token lies there, the chance of winning it, times
  [wood] (+ [deny] when a rival is there too). The chance is 0.5 + own strength - the rivals'
  estimate, clipped to [0, 1]; a rival's estimate is its face-up strength + [hidden_str] per
  face-down pawn, plus [threat] while some rival still has pawns to place, minus 0.5 when the
  seat is the bird-man (it breaks ties); the token is worth [wood_need] more when the clan
  holds no wood and has a statue that could take a tile (wood for transport). Plus
  [forest_future] per strength standing on a space likely to get wood next round (the expected
  palms of the next epoch, times the rule parameter `wood_per_palm` (1), fill spaces 1, 2...);
- *volcano* (R6.2), per own space of height h: [moai] x the tile it would take now (the
  tallest tile left that is not taller, 0 if none) + [height] x m + [convex] x m^2 / T, with
  m = min(h, T) and T the tallest tile: the statue's growth, convex to pile onto the tallest
  statue (not in the last round);
- *exposure* (R6.4): -[exposed] per strength of own face-up pawns in the forest or on the
  volcano (raid targets).

A placement adds [forest_str] x strength in the forest, [field_str] x strength in the fields
or on a boat, [boat_pref] on a boat and [new_space] when it starts a statue; a swap must gain
more than [swap_min]; a pass scores 0.

**Rest** (R7.2): [rest_forest], [rest_fields], [rest_volcano], [rest_ocean] by the pawn's zone
+ [rest_str] x strength.

**Pawns and cards.** Losing a pawn costs [pawn] + [pawn_str] x strength + what V loses without
it (starving, famine). Keeping a card is worth [card] + [card_value] x its value (+ [card_raid]
for a Raid card, unless it pays for a raid).

**Feeding** (R6.3-R6.4): starve the pawn that costs least, or raid to save it: [raid] +
[raid_lead] x (the victim's visible score - the seat's) + [raid_str] x the victim's strength -
the two cards.

**Births** (R7.3): [birth] + [birth_str] x the pawn's strength - the two cards - [short] per
card the hand falls below [keep] (cards cost nothing in the last round) - [birth_hungry] if
food is already short of the clan; stopping scores 0.

**Wood** (R6.2, R7.4): a wood token kept is worth [wood_value]. Finishing a statue scores
[tile] x the tile's height - [wood_value] - [wait] x (tallest tile - h) before the last round
- [exposed] x the face-down strength it reveals; a boat scores [boat] - [wood_value] (not in
the last round).

**Epoch cards** (R4.1): [pick_draw] x draw + [pick_hut] x hut + [pick_boat] for a boat card
the clan can build + [pick_disaster] for a disaster it aims + [pick_erosion] for erosion.
**Disasters** (R4.3): the target scores [target_lead] x its visible score + [target_loses] if
it has what the disaster takes (never itself); a famine takes the pawn that costs least, a
storm an unmanned boat, a topple the smallest Moai. **Ties** (R3.4, R6.1): as bird-man, itself
first, then the others by -[tie_lead] x visible score.

**Bid** (R3.3): a target total [bid_base] + [bid_hand] x hand size + [bid_offer] x (the best
card on offer - the mean offer, by the pick scores) + [bid_last] in the last round; the bid is
the cheapest set of cards that reaches it (the cards' values + [short] per card it leaves the
hand below [keep]), nothing when the hand cannot.
In open bidding (V2/V4) it bids just enough to beat the bids shown when that is within its
target, else nothing.

The visible score of a clan is R8.2's score with 6 metres guessed per Moai tile (Moai heights
are secret, R6.5): the rule parameter `moai_points` (1) x 6 x Moai count + the rule parameter
`wood_points` (2) x wood + living pawns (`compiled.features.visible_score`).

It is written once, as its compiled policy (`moaisim.games.moai.engine.compiled.heuristic`,
where each feature is computed); this class holds the weights and answers views through that
policy (`Strategy.by_policy`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from moaisim.games.moai.engine.compiled.heuristic import FISHER as FISHER
from moaisim.games.moai.engine.compiled.heuristic import PLAIN, WEIGHTS
from moaisim.games.moai.engine.compiled.policy import HEURISTIC, Policy
from moaisim.games.moai.rules import Rules
from moaisim.strategies.moai.base import Strategy
from moaisim.weight_files import Family, Heuristic

# The weights (`WEIGHTS`, each weight's index as a constant) and the scoring kernels live in
# `engine.compiled.heuristic` (Moai's): the policy is the strategy. They are read the
# toolkit's way (`moaisim.weight_files`).
FAMILY = Family(WEIGHTS, Path(str(resources.files("moaisim.strategies.moai").joinpath("weights"))),
                "strategies/moai/weights", range(2, 6))  # fmt: skip
NAMES: tuple[str, ...] = FAMILY.names
SCALES = FAMILY.scales
INDEX: dict[str, int] = {name: k for k, name in enumerate(NAMES)}
weights_path, read_weights = FAMILY.path, FAMILY.read
shipped, defaults, vector = FAMILY.shipped, FAMILY.defaults, FAMILY.vector


class HeuristicStrategy(Heuristic, Strategy):
    """Weighs every legal action by clear features; weights from a TOML file (weights=...)."""

    name = "heuristic"

    family = FAMILY

    def own_policy(self, rules: Rules) -> Policy:
        """`heuristic` compiled (`compiled.heuristic`): its weights as the policy's floats (the
        plans too: only their weights differ)."""
        return Policy(HEURISTIC, (PLAIN,), tuple(float(x) for x in self.w))


__all__ = ["FAMILY", "FISHER", "INDEX", "NAMES", "SCALES", "WEIGHTS", "HeuristicStrategy",
           "defaults", "read_weights", "shipped", "vector", "weights_path"]  # fmt: skip
