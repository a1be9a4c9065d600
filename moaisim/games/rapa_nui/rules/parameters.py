"""Rapa Nui's rule parameters: the house rules that are numbers, each one key of the component
file (docs/rapa-nui-rules.md, "Rule parameters").

A parameter is one record (`Parameter`: its name, its key in the component file, its rule,
its meaning, its range): the component file's reading and range check, the `Components`
value, the results column, the set-up label, the digest, `--param` and its help, the balance
space and the rules book's table all derive from it. A *simple* parameter (one number at its
own key, `field=""`) needs nothing else outside the shipped file's value and the two engines'
rule: the component file's schema (`components.SCHEMA`), the `Components` value
(`components.moai_cost`, held in `Components.settings`) and the kernels' constant
(`Consts.moai_cost`, filled by `batch.consts`) derive from the record too (docs/design.md,
"Adding a rule parameter").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moaisim.errors import RulesError
from moaisim.games import parameters


@dataclass(frozen=True)
class Parameter(parameters.Parameter):
    """One rule parameter (`moaisim.games.parameters.Parameter`): a whole number at `key` of
    the component file (its position `index` when the key holds a list), within [low, high];
    `field` the `Components` field that holds it ("": a simple parameter)."""

    @property
    def simple(self) -> bool:
        """One number at its own key, held by `Components.settings` under its name."""
        return not self.field

    @property
    def seat(self) -> int | None:
        """The seat a parameter is of (`start.wood` holds one number a seat, C8), or None
        for a parameter of every seat."""
        return self.index if self.key == SEAT_KEY else None


#: The component file's key that holds one number a seat (R1.6, C8: the starting wood).
SEAT_KEY = ("start", "wood")
#: The most players (R1.1: 2 to 4).
MOST_PLAYERS = 4

PARAMETERS = parameters.Parameters("rapa-nui", (
        *(Parameter(f"start_wood_{q}", ("start", "wood"), "R1.6, C8",
                    f"wood seat {q} starts with", 0, 20, q, "start_wood") for q in range(4)),
        Parameter("sacrifice_price", ("sacrifice", "price"), "R3.2, C10",
                  "price of a sacrifice card before the discount of own H&G", 0, 20),
        Parameter("moai_cost", ("costs", "moai"), "R4.1, C10", "wood a Moai costs to play",
                  0, 20),
        Parameter("bonus_lumberjack", ("bonus", "lumberjack"), "R7.6, C12",
                  "wood of the sole lumberjack majority [assumed 2]", 0, 10),
        Parameter("bonus_priest", ("bonus", "priest"), "R7.6, C12",
                  "glory of the sole priest majority [assumed 2]", 0, 10),
        Parameter("bonus_moai", ("bonus", "moai"), "R7.6, C12",
                  "wood-or-glory units of the sole Moai majority [assumed 2]", 0, 10),
        Parameter("bonus_hg", ("bonus", "hunter_gatherer"), "R7.6, C12",
                  "sacrifice cards of the sole majority of an H&G type", 0, 10),
        Parameter("moai_glory", ("scoring", "moai_glory"), "R9.1, C13",
                  "glory each Moai in a village scores at the end", 0, 20),
        Parameter("wood_per_glory", ("scoring", "wood_per_glory"), "R9.1",
                  "wood left that scores one glory at the end", 1, 20),
        Parameter("hand_size", ("display", "hand"), "R6.1, C7",
                  "cards a player refills his hand to", 1, 5, None, "hand"),
))  # fmt: skip
#: The simple parameters (`Parameter.simple`), in table order.
SIMPLE: dict[str, Parameter] = {name: p for name, p in PARAMETERS.items() if p.simple}
#: Parameters added after runs were recorded, with the value those runs were played with (a
#: results table without the column is read with it): none yet.
LATER: dict[str, int] = {}


def check_players(params: Mapping[str, int], players: int, components: Any) -> None:
    """Each parameter one that matters at `players` players: a seat's parameter set, where
    that seat does not play, to another value than the component set's (`components`, before
    the parameters) would change nothing but the set-up's label and digest, so it is refused
    in one line naming the player counts it applies to (R1.1, R1.6). Given at the value it
    has (a game log's header lists every parameter) it changes nothing, and is taken."""
    for name, value in params.items():
        p = PARAMETERS[name]
        seat = p.seat
        if seat is not None and players <= seat and value != p.value(components):
            counts = " and ".join(str(n) for n in range(seat + 1, MOST_PLAYERS + 1))
            raise RulesError(f"rule parameter {name} (seat {seat}'s starting wood) applies at "
                             f"{counts} players only, not at {players}: seat {seat} does not "
                             "play there")  # fmt: skip


check_names = PARAMETERS.check_names
check_value = PARAMETERS.check_value
parse_assignments = PARAMETERS.parse_assignments
listing = PARAMETERS.listing
table = PARAMETERS.table
