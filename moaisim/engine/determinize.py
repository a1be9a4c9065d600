"""`determinize`'s frame, written once for every game (docs/design.md, "The forward model"):
n full games per game of a seat's view, each consistent with everything the view shows, the
worlds a searching strategy plays its rollouts in.

What every game does the same way lives here: the door (a view of the game's kind, the rows,
the number of worlds, then the game's own check of what no game can show, each row, before
anything is built: the compiled machine indexes its arrays by the view's counts without
checking them in its loops), the seed (a seat's stream is read without moving it, and moves on
only once the worlds are made: a refused call changes nothing), and the last check, that every
world waits for the view's decision (a view of a decision with one legal action, which no game
asks, is refused there). What differs is the game's: what it checks, how it draws the unseen
and builds the worlds, which decision a view is at.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from moaisim.checks import check_count, check_seed, positions
from moaisim.engine.games import Games
from moaisim.errors import UserError
from moaisim.rng import SeatRandom, Streams, stream_keys

#: The most worlds `determinize` builds at once.
MAX_WORLDS = 1_000_000
#: How many times the worlds that wait for another decision than the view's are drawn again
#: before the view is refused (`_redrawn`).
REDRAWS = 20
#: The stream id that makes each later row's seed from a call's one seed (`row_seeds`).
ROW_SEEDS = int.from_bytes(b"row seed", "big")


@dataclass(frozen=True)
class Worlds:
    """What a game supplies `determinize`.

    - `view_type`: the class of its views;
    - `misshapen(view) -> problem | None`: a field of the wrong shape or type (None: fine);
    - `impossible(view, row) -> problem | None`: what in a row no game of its rules shows;
    - `build(view, rows, n, seeds) -> Games`: n worlds per row (row k's worlds k*n ...
      k*n+n-1), row k's unseen parts and future chance drawn from streams of root `seeds[k]`
      alone (its worlds numbered 0 ... n-1 there), so that a row's worlds are the same
      whichever rows are built with it;
    - `decision(view, row) -> (kind, seat or None)`: the decision a world of the row must wait
      for, and the seat it asks (None: the view may be any seat's).
    """

    view_type: type
    misshapen: Callable[[Any], str | None]
    impossible: Callable[[Any, int], str | None]
    build: Callable[[Any, np.ndarray, int, int], Games]
    decision: Callable[[Any, int], tuple[Any, int | None]]


def determinize(game: Worlds, view: Any, seed: int | SeatRandom | Sequence[int] | np.ndarray,
                n: int, rows: int | Sequence[int] | np.ndarray = 0, *,
                check_rows: bool = True) -> Games:  # fmt: skip
    """n full games per game `rows` of `view`, each consistent with what the view shows of its
    game: world w of the k-th row given is game k * n + w of the result, at the same decision
    as the view. `seed` is one seed (the first row's worlds drawn from it, each later row's
    from a seed of its own made from it, `row_seeds`), the seat's stream (two values drawn per
    game of the view, the first row's used as that one seed), or one seed per row: then row
    k's worlds are exactly those `determinize(view, seed[k], n, rows=rows[k])` gives, so a
    search draws the worlds of all its games in one call, each game's as if alone. A view no
    game can show is one `UserError` naming what is wrong; `check_rows=False` skips the
    row-by-row part of that check, for a view the engine made itself (a strategy's own, as a
    search's)."""
    if not isinstance(view, game.view_type):
        raise UserError(f"determinize needs a {game.view_type.__name__} (a strategy's view or "
                        f"Games.observe), got {type(view).__name__}")  # fmt: skip
    rows = positions(rows, len(view), "determinize: rows")
    if not len(rows):
        raise UserError("determinize: rows must name at least one game of the view")
    n = check_count(n, "determinize: n (worlds per game)", 1, MAX_WORLDS // len(rows))
    problem = game.misshapen(view)
    if problem:
        raise UserError(f"determinize: no game can show this view: {problem}")
    for row in rows.tolist() if check_rows else ():
        problem = game.impossible(view, row)
        if problem:  # at the door: the machine's loops index by these counts
            raise UserError(f"determinize: no game can show this view ({_where(view, row)}): "
                            f"{problem}")  # fmt: skip
    stream = seed if isinstance(seed, SeatRandom) else None
    if stream is not None:  # peeked: the stream moves on only once the worlds are made
        u = SeatRandom(stream.keys, stream.position).uniform(2)[rows[0]]
        seed = int(u[0] * 2**32) * 2**32 + int(u[1] * 2**32)
    if isinstance(seed, (list, tuple, np.ndarray)):
        if len(seed) != len(rows):
            raise UserError(f"determinize: {len(seed)} seeds for {len(rows)} rows (give one "
                            "seed, or one per row)")  # fmt: skip
        seeds = [check_seed(s, "determinize: seed") for s in list(seed)]
    else:
        seeds = row_seeds(check_seed(seed, "determinize: seed"), len(rows))
    worlds = game.build(view, rows, n, np.array(seeds, dtype=np.uint64))
    ok = _asked(game, view, rows, n, worlds)
    for attempt in range(1, REDRAWS + 1):
        if ok.all():
            break
        again = np.array([_seed_of(s, attempt) for s in seeds], dtype=np.uint64)
        worlds, ok = _redrawn(game, view, rows, n, worlds, ok, again)
    if not ok.all():
        bad = int(np.flatnonzero(~ok)[0])
        row = int(rows[bad // n])
        kind, seat = game.decision(view, row)
        wanted = f"seat {seat}'s {_name(kind)}" if seat is not None else _name(kind)
        found = [f"seat {int(pend.seat[i])}'s {pend.name}" for pend in worlds.pending()
                 for i in np.flatnonzero(pend.rows == bad)[:1]]  # fmt: skip
        raise UserError(
            f"determinize: no game can show this view ({_where(view, row)}): its fields wait "
            f"for {wanted}, a game of them for "
            + (found[0] if found else "no decision")
            + " (a decision with one legal action is not asked)"
        )
    if stream is not None:
        stream.uniform(2)
    return worlds


def _asked(game: Worlds, view: Any, rows: np.ndarray, n: int, worlds: Games) -> np.ndarray:
    """[worlds] each world waits for its row's decision (`Worlds.decision`: its kind, and
    its seat where the game names it)."""
    ok = np.zeros(len(worlds), dtype=bool)
    for pend in worlds.pending():
        for row in np.unique(pend.rows // n).tolist():
            kind, seat = game.decision(view, int(rows[row]))
            if pend.kind == kind:
                mine = pend.rows // n == row
                if seat is not None:
                    mine &= pend.seat == seat
                ok[pend.rows[mine]] = True
    return ok


def _redrawn(game: Worlds, view: Any, rows: np.ndarray, n: int, worlds: Games,
             ok: np.ndarray, seeds: np.ndarray) -> tuple[Games, np.ndarray]:  # fmt: skip
    """The worlds with those that wait for another decision than their row's replaced by
    worlds drawn again from other stream spaces (`seeds`, one per row) that do: the view
    shows that its decision is asked (a seat that sees another's decision knows it has a
    choice), which a world drawing that seat's hidden part may deny (Moai's birth forced by
    the hand drawn)."""
    bad = np.flatnonzero(~ok)
    again = np.unique(bad // n)
    extra = game.build(view, rows[again], n, seeds[again])
    good = _asked(game, view, rows[again], n, extra)
    order, filled = np.arange(len(worlds)), ok.copy()
    for k, row in enumerate(again.tolist()):
        slots = bad[bad // n == row]
        spare = k * n + np.flatnonzero(good[k * n : (k + 1) * n])[: len(slots)]
        order[slots[: len(spare)]] = len(worlds) + spare
        filled[slots[: len(spare)]] = True
    if filled.sum() == ok.sum():
        return worlds, ok
    return type(worlds).stack([worlds, extra]).clone(rows=order), filled


def row_seeds(seed: int, rows: int) -> list[int]:
    """One seed per row of a call given one seed: the first row's is that seed (a single row
    draws as it always did), row k's the key of stream `ROW_SEEDS` of game k of root `seed`
    (the streams' own hash, `rng.stream_keys`)."""
    keys = stream_keys(seed, np.arange(1, rows), np.array([ROW_SEEDS], dtype=np.uint64))
    return [seed] + [int(k) % 2**63 for k in keys[:, 0]]


def world_streams(seeds: np.ndarray, n: int, players: int) -> Streams:
    """The streams of n worlds per row, row k's worlds numbered 0 ... n-1 in the stream space
    of root `seeds[k]` (what `Worlds.build` promises: a row's worlds whatever rows are built
    with it)."""
    return Streams(np.repeat(np.asarray(seeds, dtype=np.uint64), n),
                   np.tile(np.arange(n), len(seeds)), players)  # fmt: skip


def _seed_of(seed: int, attempt: int) -> int:
    """The root seed of the `attempt`-th redraw of a call's worlds (a stream space apart)."""
    return (seed * 0x9E3779B1 + attempt * 0x85EBCA77) % 2**63


def _where(view: Any, row: int) -> str:
    """A row of a view, by its game's number where the view knows it."""
    games = getattr(view, "games", None)
    return f"game {int(games[row])}" if games is not None else f"row {row}"


def _name(kind: Any) -> str:
    return str(getattr(kind, "value", kind))
