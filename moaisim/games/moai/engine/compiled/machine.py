"""The batch engine's state machine: each game of a batch played on by itself, from wherever
its cursor stands (the setup, or mid-phase: a copy a search rolls out) to its end, to the end
of round `last_round`, or to a decision a Python seat takes (`policy.PAUSE`), every other
decision taken by the seat's compiled policy (`compiled.policy`), nothing allocated per
decision. One module per phase holds its steps and the rules' kernels they use.

A game's chance and its seats' streams are its own (docs/design.md, "Seeds and per-game
streams"), so a game played alone here is the game it is inside any batch.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.compiled import birdman, epoch, production, review, work
from moaisim.games.moai.engine.compiled.arrays import (
    BID,
    BIRTH,
    BOAT,
    C_STEP,
    DISASTER,
    DRAW,
    FEED,
    FEED_COUNT,
    FOREST,
    HILL,
    LOSS,
    OVER,
    PICK,
    REST,
    ROUND,
    ROUND_END,
    TARGET,
    VOLCANO,
    WORK,
    WORK_START,
    by_ref,
    goto,
    kernel,
    step,
)
from moaisim.games.moai.engine.compiled.question import PLAY, answer_rows


@step
def play_game(g, c, pol, sc, r: int, last_round: int, keep_rounds: bool, stop) -> None:  # noqa: ANN001
    """Play game r on: to its end (OVER), or until it reaches round `last_round`'s end (at
    the next round's ROUND step; -1: no horizon), a step `stop` marks, a decision a Python
    seat takes (g.paused), or, when the per-round table is kept, to the end of its round
    (ROUND_END, where the machine records the round). A game that has played `max_rounds`
    rounds without ending stops at the next ROUND step (`batch.machine` raises it)."""
    cur = g.cursor
    while not g.paused[r]:
        step = cur[r, C_STEP]
        if step == OVER or stop[step]:
            return
        if step == ROUND:  # a horizon, or past any legal game's length (R8.1): never loop
            if 0 <= last_round <= g.round[r] or g.round[r] >= c.max_rounds:
                return
            birdman.round_start(g, c, r, keep_rounds)
        elif step == BID:
            birdman.bid(g, c, pol, sc, r)
        elif step == HILL:
            birdman.hill(g, c, pol, sc, r)
        elif step == PICK:
            epoch.pick(g, c, pol, sc, r)
        elif step == DISASTER:
            epoch.disaster(g, c, r)
        elif step == TARGET:
            epoch.target(g, c, pol, sc, r)
        elif step == LOSS:
            epoch.loss(g, c, pol, sc, r)
        elif step == WORK_START:
            work.work_start(g, c, r)
        elif step == WORK:
            work.work(g, c, pol, sc, r)
        elif step == FOREST:
            production.forest(g, c, pol, sc, r)
        elif step == VOLCANO:
            production.volcano(g, c, pol, sc, r)
        elif step == FEED_COUNT:
            production.feed_count(g, c, r)
        elif step == FEED:
            production.feed(g, c, pol, sc, r)
        elif step == DRAW:
            review.draw(g, c, sc, r)
        elif step == REST:
            review.rest(g, c, pol, sc, r)
        elif step == BIRTH:
            review.birth(g, c, pol, sc, r)
        elif step == BOAT:
            review.boat(g, c, pol, sc, r)
        elif step == ROUND_END:  # R8.1: the last round ends the game, else a new round
            if keep_rounds:
                return
            goto(g, r, OVER if g.last_round[r] else ROUND)


@kernel
def play_rows(g, c, pol, sc, rows: np.ndarray, last_round: int, keep_rounds: bool,  # noqa: ANN001
              stop: np.ndarray, question) -> None:  # fmt: skip
    """`play_game` for each game of `rows`, one after the other (the records handed on by
    reference, `arrays.Ref`); or, when `question` asks (`question.ASK`, `NARROW`), no game
    played: a seat's answers in the games of g (`question.answer_rows`; one compile root
    for both, so that the policies compile once)."""
    gr, cr, pr, sr = by_ref(g), by_ref(c), by_ref(pol), by_ref(sc)
    if question.what != PLAY:
        answer_rows(gr, cr, pr, sr, question)
        return
    for k in range(len(rows)):
        play_game(gr, cr, pr, sr, rows[k], last_round, keep_rounds, stop)
