"""Kaivai's learned ranker (`learned`, made by `moaisim learn --game kaivai --mode ranker`): at
each decision its experts (weight vectors of the heuristic: `tuned`, L3's members, the plans)
each propose their best option (`machine.heuristic`), and one ensemble of boosted trees values
each distinct proposal; the largest value is played (the first on a tie: the earliest
expert's proposal). One proposal: it, unvalued. At a kind the model does not rank, its first
expert's proposal is played. Like the heuristic, it draws nothing.

A candidate's row (`RANK`, declared in `policy.py`) is the seat's context (`CONTEXT`:
integers the seat sees, R11; never a rival's influence, which O6 may hide, nor a secret bid),
the candidate's own features shared by every game's ranker (`learned_model.CANDIDATE`: who
proposed it, how many candidates, its place among the options, each expert's value of it less
its value of its own proposal), then Kaivai's (`OWN`: the option as the machine codes it, an
action's price). One kernel computes them and chooses, `machine.ranked` (the machine's
`LEARNED` seats call it from `choose`); a Python seat asks it through `ranked_rows` here, over
the view's games rebuilt as machine state (`answers.ranked_candidates`), so the trees trained
on a view's rows are asked about the very numbers they meet in play.
"""

from __future__ import annotations

from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.policy import CONTEXT, N_CONTEXT, N_RANK, OWN, RANK
from moaisim.jit import kernel
from moaisim.learned_model import C_ACTION, MAX_EXPERTS

#: The kernel both engines rank with (`machine.ranked`).
ranked = m.ranked


@kernel(nrt=False)
def ranked_rows(g, geo, sc, c, kinds, seats, mask, ints, constant: float, experts_w, nodes,  # noqa: ANN001
                roots, scores, cands, rows, out) -> None:  # fmt: skip
    """`ranked` at each game r of a view rebuilt as machine state (seat seats[r]'s decision
    of kinds[r]), among the options mask[r] leaves (`machine.masked`): the candidates' rows
    into rows[r, :k], their options' places among all into cands[r, :k, C_ACTION], and (the
    option chosen, k) into out[r]."""
    for r in range(len(out)):
        n = m.masked(g, geo, sc, c, r, kinds[r], seats[r], mask[r])
        i, k = m.ranked(g, geo, sc, c, ints, constant, experts_w, nodes, roots, r, kinds[r],
                        seats[r], n, scores, cands[r], rows[r])  # fmt: skip
        for j in range(k):
            cands[r, j, C_ACTION] = sc[m.W_WHERE, cands[r, j, C_ACTION]]
        out[r, 0] = sc[m.W_WHERE, i]
        out[r, 1] = k


__all__ = ["CONTEXT", "MAX_EXPERTS", "N_CONTEXT", "N_RANK", "OWN", "RANK", "ranked",
           "ranked_rows"]  # fmt: skip
