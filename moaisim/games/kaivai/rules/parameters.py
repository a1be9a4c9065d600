"""Kaivai's rule parameters: the house rules that are numbers, each a key of the component
file (docs/kaivai-rules.md, "Parameters"). One record each (`moaisim.games.parameters`): the
component file's range check, `--param` and its help, the results columns, the rules book's
table and the balance space all read these records.

`rounds` is the rounds of either edition: set, it sets the first edition's figure and the
second edition's (`components.apply_parameters`), so `edition=second` with `rounds=6` plays
6 rounds; its value in a component set is the first edition's, and the value a set-up plays
is `Rules.params()` (the results' columns)."""

from __future__ import annotations

from moaisim.games.parameters import Parameter, Parameters

PARAMETERS = Parameters("kaivai", (
    Parameter("rounds", ("game", "rounds"), "R2.1, C", "rounds played (either edition)", 1, 20),
    Parameter("boats", ("per_player", "boats"), "R1.4, C", "boats each player has", 1, 6),
    Parameter("start_influence", ("per_player", "start_influence"), "R1.4, C",
              "influence each player starts with", 0, 20),
    Parameter("sacrifice_influence", ("tracks", "sacrifice_influence"), "R6.5, C",
              "influence a sacrifice earns", 0, 10),
    Parameter("sink_cost_base", ("tracks", "sink_cost_base"), "R8.4.3, C",
              "glory of a sinking: this less the victim's boats on the board", 2, 12),
    *(Parameter(f"sale_{nth}", ("tracks", "sale_shells"), "R8.3.3, C",
                f"shells a hut's owner pays for the {nth} fish delivered to it", 1, 12, k,
                "sale_shells") for k, nth in enumerate(("first", "second", "third"))),
))  # fmt: skip
#: Parameters added after runs were recorded, with the value those runs were played with: none.
LATER: dict[str, int] = {}

check_names = PARAMETERS.check_names
check_value = PARAMETERS.check_value
parse_assignments = PARAMETERS.parse_assignments
listing = PARAMETERS.listing
table = PARAMETERS.table
