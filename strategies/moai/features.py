"""What a seat can estimate from its view, shared by the built-in strategies.

`greedy` and `heuristic` (and the plans, points of heuristic's weights) read the same
estimates: a clan's visible score, the rivals' strength on each forest space, who loses what
to a disaster, and what each loss a disaster offers costs beyond a pawn. Each lives here once.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules.codes import score
from moaisim.games.moai.rules.epoch_cards import LOSS_BOAT, LOSS_MOAI, LOSS_PAWN, epoch_table
from moaisim.jit import kernel

#: Points a Moai tile is guessed to be worth when its height is secret (R6.5): about the
#: mean height of the default tiles (3-9 m).
MOAI_GUESS = 6
#: The view fields `visible_score` reads.
SCORE_FIELDS = ("on_board", "camp_size", "moai_count", "wood")


def visible_score(view: SeatView) -> np.ndarray:
    """Each clan's score as a rival sees it [n, P]: R8.2's score (`codes.score`, with the
    `moai_points` and `wood_points` parameters) with `MOAI_GUESS` metres per Moai tile for
    the secret heights (R6.5)."""
    guess = MOAI_GUESS * view.moai_count.astype(np.int64)
    living = view.on_board + view.camp_size
    c = view.rules.components
    return score.py_func(guess, living, view.wood, c.wood_points, c.moai_points)


@kernel
def rival_forest(
    r: int,
    shown_loc: np.ndarray,
    hidden: np.ndarray,
    strength: np.ndarray,
    seat: int,
    per_hidden: float,
    est: np.ndarray,
    out: np.ndarray,
) -> None:
    """R6.1 as a rival sees it: out[k] = the strongest rival's estimated strength on forest
    space k of game r: its face-up strength there (R5.9) + `per_hidden` per face-down pawn.
    `est` and `out` have one entry per forest space (working arrays)."""
    forest = len(out)
    out[:] = 0.0
    for q in range(shown_loc.shape[1]):
        if q == seat:
            continue
        for k in range(forest):
            est[k] = per_hidden * hidden[r, q, k]
        for i in range(shown_loc.shape[2]):
            x = shown_loc[r, q, i]
            if 0 <= x < forest:
                est[x] += strength[i]
        for k in range(forest):
            out[k] = max(out[k], est[k])


#: The view fields `loses` reads.
LOSES_FIELDS = ("wood", "boats", "moai_count", "on_board", "camp_size")


def loses(view: SeatView, cards: np.ndarray) -> np.ndarray:
    """[n, P] bool: the clan has something the disaster card of each game takes (C3,
    `epoch_cards.EFFECTS`): wood to burn, a boat, a pawn (R4.4: on the board or in camp) or
    a Moai tile."""
    table = epoch_table(view.rules)
    burns, loss = table.burns[cards][:, None], table.loss[cards][:, None]
    living = (view.on_board + view.camp_size) > 0
    return (
        (burns & (view.wood > 0))
        | ((loss == LOSS_BOAT) & view.boats.any(axis=2))
        | ((loss == LOSS_PAWN) & living)
        | ((loss == LOSS_MOAI) & (view.moai_count > 0))
    )


def loss_scores(view: SeatView, pawn_cost: np.ndarray) -> np.ndarray:
    """R4.4: scores of what a victim may lose ([n, A], higher is better to lose): a pawn by
    `pawn_cost` [n, N] (the cheapest first), a boat by whether it is manned (an empty one
    first), a Moai tile by its height (the smallest first)."""
    n, size = view.legal.shape
    what = view.info["what"]
    scores = np.zeros((n, size))
    pawns = pawn_cost.shape[1]
    scores[:, :pawns] = np.where(what[:, None] == LOSS_PAWN, -pawn_cost, 0.0)
    manned = view.boats_manned[:, view.seat]
    b = manned.shape[1]
    scores[:, :b] = np.where(what[:, None] == LOSS_BOAT, -1.0 * manned, scores[:, :b])
    heights = view.tile_heights
    t = len(heights)
    scores[:, :t] = np.where(what[:, None] == LOSS_MOAI, -1.0 * heights, scores[:, :t])
    return scores
