"""Playing a meta-game: every composition of a library of strategies at one player count, on
the same deals (docs/running.md, "The meta-game of a library"), into the payoff table
(`MetaGame`) that every solver of `moaisim.analysis.metagame` takes.

Game g of every composition is deal g of the root seed, seated in rotation g mod P (cyclic:
the composition's lineup turned by g). The compositions are not played one small cell each:
the games of one rotation are played for every composition at once, as the rows of a few
large batches (each deal copied once per composition, `Games.clone`, so every copy draws
its deal's chance and seat streams), each seat a `DispatchStrategy` that plays, row by row,
the strategy the row's composition seats there. A row plays exactly the game its
composition's cell would (tested), at the speed of large batches.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from moaisim.analysis.metagame import MetaGame, compositions
from moaisim.checks import check_count
from moaisim.errors import UserError
from moaisim.games import game_of, load_game
from moaisim.games.base import RulesLike
from moaisim.registry import StrategySpec, load_strategy
from moaisim.runner import check_jobs, send_by_value

#: About how many games (rows) a batch of a meta-game holds.
BATCH_ROWS = 10_000


@dataclass(frozen=True)
class Block:
    """A batch of a meta-game: the games `games` of seating `rotation`, played by every
    composition (row c * len(games) + j: composition c, game games[j])."""

    rotation: int
    games: np.ndarray


def play(
    library: Sequence[Any], players: int, games: int, seed: int = 0, n_jobs: int = 1,
    variants: str | Sequence[str] | None = None, progress: Any = None,
    rules: RulesLike | None = None, *, game: str,
) -> MetaGame:  # fmt: skip
    """Play every composition of the library at `players` for games 0..games-1 of `seed`
    (the same deals in every composition, seats in cyclic rotation), in batches of about
    `BATCH_ROWS` games across compositions, `n_jobs` batches at a time; `rules` (of
    `players`) replaces the variant's rules (a balance search's candidate) and names the
    game (else `game`)."""
    game = rules.game if rules is not None else game
    specs = _library(library, game)
    players = check_count(players, "players", 2, 5)
    games = check_count(games, "games", 1)
    check_jobs(n_jobs)
    if rules is not None and rules.players != players:
        raise UserError(f"rules are for {rules.players} players, not {players}")
    rules = _rules(players, variants, game) if rules is None else rules
    counts = compositions(len(specs), players)
    # lineup position -> strategy index, per composition (strategies in library order)
    lineups = np.array([np.repeat(np.arange(len(specs)), c) for c in counts], dtype=np.int64)
    blocks = list(_blocks(players, games, len(counts)))
    if progress is not None:
        progress.plan(len(counts) * games)
    send_by_value(specs)
    tasks = (delayed(_play_block)(rules, seed, specs, lineups, b) for b in blocks)
    runner = Parallel(n_jobs=n_jobs, return_as="generator") if n_jobs != 1 else None
    outcomes = runner(tasks) if runner is not None else (f(*a, **k) for f, a, k in tasks)
    per_game = np.full((len(counts), games, len(specs)), np.nan)
    made = np.zeros((len(counts), len(specs)))
    for block, (share, carved) in zip(blocks, outcomes, strict=True):
        per_game[:, block.games, :] = share
        made += carved
        if progress is not None:
            progress.update(len(counts) * len(block.games))
    with np.errstate(invalid="ignore", divide="ignore"):  # a strategy absent: nan
        carved = np.where(counts > 0, made / (counts * games), np.nan)
    return MetaGame(players, [s.label for s in specs], counts, per_game, seed,
                    {"games": games, "variants": variants, "library": [s.label for s in specs],
                     "carved": carved})  # fmt: skip


def _library(library: Sequence[Any], game: str) -> list[StrategySpec]:
    """The library's strategies (at least two, none twice)."""
    specs = [load_strategy(s, game) for s in library]
    names = [s.label for s in specs]
    if len(set(names)) != len(names):
        raise UserError(f"the library names a strategy twice: {', '.join(names)}")
    if len(specs) < 2:
        raise UserError("a meta-game needs at least two strategies in its library")
    return specs


def _rules(players: int, variants: str | Sequence[str] | None, game: str
           ) -> RulesLike:  # fmt: skip
    """The one set of rules a meta-game is played under (one variant)."""
    if isinstance(variants, list | tuple) and len(variants) > 1:
        raise UserError("metagame: give one variant (the compositions are played under one)")
    given = variants[0] if isinstance(variants, list | tuple) and variants else variants
    return load_game(game).make_rules(players, given or None)


def _blocks(players: int, games: int, comps: int) -> Iterator[Block]:
    """The batches: per rotation, its games (g mod players), cut so that a batch holds
    about `BATCH_ROWS` games across the compositions."""
    per = max(1, BATCH_ROWS // comps)
    for r in range(players):
        mine = np.arange(r, games, players, dtype=np.int64)
        for start in range(0, len(mine), per):
            yield Block(r, mine[start : start + per])


def _play_block(rules: RulesLike, seed: int, specs: list[StrategySpec], lineups: np.ndarray,
                block: Block) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """One batch: every composition's copy of the block's games, seated in its rotation.
    Returns each strategy's share of each game's win [compositions, games, strategies]
    (the mean over its copies in the game; nan where it does not play) and the headline
    part's pieces its copies finished (`headline_count`: the Moai, for Moai) [compositions,
    strategies] (summed over the games)."""
    comps, n, p, k = len(lineups), len(block.games), rules.players, len(specs)
    the_game = game_of(rules)
    deals = the_game.Games.new(rules, seed, block.games)
    rows = deals.clone(rows=np.tile(np.arange(n), comps))  # row c * n + j
    seating = [(s + block.rotation) % p for s in range(p)]  # seat s: lineup[seating[s]]
    who = np.repeat(lineups[:, seating], n, axis=0)  # [rows, P] strategy of each seat
    seats = [the_game.DISPATCH(specs, who[:, s]) for s in range(p)]
    rows.play(seats, names=[f"seat {s}" for s in range(p)])
    shares = rows.returns()
    results = rows.results()
    pieces = results[the_game.INFO.vocabulary["headline_count"]].to_numpy().reshape(-1, p)
    share = np.full((comps, n, k), np.nan)
    carved = np.zeros((comps, k))
    onehot = who[:, :, None] == np.arange(k)[None, None, :]  # [rows, P, k]
    copies = onehot.sum(axis=1)  # [rows, k]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (shares[:, :, None] * onehot).sum(axis=1) / copies
    share[:] = np.where(copies > 0, mean, np.nan).reshape(comps, n, k)
    carved[:] = (pieces[:, :, None] * onehot).sum(axis=1).reshape(comps, n, k).sum(axis=1)
    return share, carved
