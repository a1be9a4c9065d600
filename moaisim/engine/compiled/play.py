"""The door into the compiled path (`forward.Games.play` takes it when every seated strategy
offers a compiled policy and no event log is kept): a batch's games played on in numba, the
same games the machine plays through views (docs/design.md, "The two engines").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from moaisim.engine.compiled.arrays import C_STEP, OVER, ROUND_END, arrays_of, consts, put_back
from moaisim.engine.compiled.arrays import scratch as new_scratch
from moaisim.engine.compiled.machine import play_rows
from moaisim.engine.compiled.policy import Form, lineup

if TYPE_CHECKING:
    from moaisim.engine.batch.machine import Machine


def play(machine: Machine, policies: Sequence[Form], last_round: int | None = None
         ) -> tuple[int, int]:  # fmt: skip
    """Play the machine's games on with one compiled form per seat (a `Policy`, or a
    `Choice` resolved game by game on the games' numbers and the seat streams' keys,
    `policy.lineup`), to their end or to the end of
    round `last_round`; with the per-round table kept, each round's end is recorded by the
    machine (`Machine.round_end`), as in the machine's own play. Returns (decisions taken,
    forced ones included; decisions asked of the policies)."""
    m = machine
    if m.log_mask is not None:
        raise ValueError("the compiled path keeps no event log: play logged games by views")
    if len(policies) != m.rules.players:
        raise ValueError(f"{m.rules.players} players need {m.rules.players} policies")
    state = m.state
    pol, drawn = lineup(policies, m.rules, m.games, m.streams.seat_keys)
    g = arrays_of(state, m.streams)
    g.seat_pos[:] += drawn  # what a choice's components drew by views before: streams go on
    c = consts(m.rules)
    sc = new_scratch(m.rules)
    last = -1 if last_round is None else int(last_round)
    rows = np.flatnonzero(state.cursor[:, C_STEP] != OVER)
    try:
        while len(rows):
            play_rows(g, c, pol, sc, rows, last, m.keep_rounds)
            if not m.keep_rounds:
                break
            rows = rows[state.cursor[rows, C_STEP] == ROUND_END]
            if len(rows):
                put_back(g, state, m.streams)  # the round's row reads the public record
                m.round_end(rows)
                rows = rows[state.cursor[rows, C_STEP] != OVER]
    finally:
        put_back(g, state, m.streams)
    return int(sc.tally[0]), int(sc.tally[1])
