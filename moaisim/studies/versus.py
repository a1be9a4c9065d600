"""`moaisim versus`: one strategy against a field, seats rotated, in one table.

The candidate takes one seat and the field's strategies fill the others, in order (a field
shorter than the other seats repeats); game i seats the lineup in rotation i mod P (cyclic,
the runner's rotation), so the candidate sits in every seat equally often and every game is
the same deal in every set-up (common random numbers). The candidate's seat in each game is
known from its rotation, so a candidate that is also in the field (`greedy` against
`greedy`) is still told apart.

Per player count and set-up the table gives the candidate's win share (a k-way shared win
counts 1/k) with its Wilson 95 % interval, its difference from the fair share 1/P with the
same interval, its mean rank and the mean of each part of its score (R8.2), each with its
t interval, and n (games). The field's row, for comparison, is each game's mean over the
field's seats; its win share's interval is the candidate's Wilson interval seen from the other
side (per game the field's P - 1 seats share what the candidate does not win), so both rows'
intervals lie within [0, 1] and exist from one game on. Where an interval cannot be computed
the text says "too few games" instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from moaisim.analysis import stats
from moaisim.analysis.source import game_of_table
from moaisim.analysis.text import bracket, num
from moaisim.errors import UserError
from moaisim.games import GameSpec, load_game
from moaisim.games.base import RulesLike
from moaisim.progress import Progress
from moaisim.registry import StrategySpec, level_spec, load_strategy, split_top
from moaisim.runner import check_jobs, check_memory, make_study, run_in_memory


def search_seconds(game: str, players: int) -> float:
    """About how many CPU seconds a game of search (L4) at its defaults costs a searching
    seat, as the game measured it (`GameInfo.search_seconds`; a count it did not measure: its
    largest, so an estimate errs high; a game that measured none: 0.2 s)."""
    known = load_game(game).INFO.search_seconds
    if players in known:
        return float(known[players])
    return float(max(known.values())) if known else 0.2


def searches(spec: str) -> bool:
    """Whether a strategy or field spec plays search (`search`, or the level L4)."""
    return "search" in spec or "L4" in spec


def search_cpu(strategy: str, field: str, counts: Sequence[int], games: int,
               game: str) -> float:  # fmt: skip
    """About how many CPU seconds the searching seats of a `versus` run play (the up-front
    warning): the candidate's one seat if it searches, the field's P - 1 seats if it does,
    `games` games at each player count of `counts`, `search_seconds` each per seat."""
    return sum(games * (int(searches(strategy)) + (p - 1) * int(searches(field)))
               * search_seconds(game, p) for p in counts)  # fmt: skip


def study_search_cpu(study: Any) -> float:
    """About how many CPU seconds the searching seats of a study's cells play (a runner
    `Study`: its cells' lineups, `games` each): `search_seconds` a searching seat and game."""
    return sum(study.games * sum(searches(s.label) for s in c.lineup)
               * search_seconds(study.game, c.rules.players) for c in study.cells)  # fmt: skip


def cpu_said(cpu: float) -> str:
    """CPU seconds in words: "40 s", "12 min", "1.6 h"."""
    if cpu >= 5400:
        return f"{cpu / 3600:.1f} h"
    return f"{cpu / 60:.0f} min" if cpu >= 90 else f"{cpu:.0f} s" if cpu >= 10 else f"{cpu:.1f} s"


def search_notice(cpu: float, game: str, counts: Sequence[int]) -> str:
    """The line a command with search seats prints before it starts: the measured cost a
    searching seat and game at each player count, and the run's CPU for its searching seats."""
    each = ", ".join(f"{search_seconds(game, p):g} s at {p}" for p in sorted(set(counts)))
    return (f"search (L4) plays about {each} players of CPU a game per searching seat "
            f"(measured): about {cpu_said(cpu)} of CPU "
            "for the searching seats")  # fmt: skip


#: What the table reports of each side besides the game's own measures (`measures`).
MEASURES = ("rank", "score")


def measures(spec: GameSpec) -> tuple[str, ...]:
    """What the table reports of each side: rank, score and the game's `SHOWN_MEASURES`
    (for Moai its height, living pawns and points for wood)."""
    return (*MEASURES, *spec.MEASURES.shown)


def field_specs(field: str | Sequence[Any], players: int, game: str
                ) -> list[StrategySpec]:  # fmt: skip
    """The field's strategies: a comma-separated string of specs, or a list; a skill level
    (L0-L4) stands for its field at `players` players (`registry.level_spec`)."""
    items = [f.strip() for f in split_top(field, ",")] if isinstance(field, str) else list(field)
    items = [f for f in items if not (isinstance(f, str) and not f)]
    if not items:
        raise UserError("the field of opponents is empty")
    # a mixture level keeps its name as its label ("L3", not the shipped file's path on
    # this machine), as in every lineup (`registry.lineup_specs`)
    mixtures = load_game(game).MIXTURE_LEVELS
    return [
        replace(load_strategy(_level(f, players, game), game), label=f)
        if isinstance(f, str) and f in mixtures else load_strategy(_level(f, players, game), game)
        for f in items
    ]  # fmt: skip


def _level(item: Any, players: int, game: str) -> Any:
    """A level's spec at `players` (L3 at 3 players: nash-3p.toml), anything else as given."""
    levels = load_game(game).LEVELS
    return level_spec(item, players, game) if isinstance(item, str) and item in levels else item


def versus(
    candidate: str | type | StrategySpec,
    field: str | Sequence[Any] = "greedy",
    players: int | Sequence[int] = (3, 4),
    games: int = 2000,
    variants: str | Sequence[str] | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    params: Mapping[str, int | Sequence[int]] | None = None,
    components: Any = None,
    progress: Progress | None = None,
    rules: RulesLike | None = None,
    *,
    game: str,
    **options: str | Sequence[str] | None,
) -> pd.DataFrame:
    """The candidate against the field at each player count and set-up (see the module's
    docstring): one row for the candidate and one for the field per set-up; `progress`
    counts the games as they finish; `rules` (a rules object, of one player count) stands
    for the variants, components, parameters and options, and names the game (else
    `game`)."""
    game = rules.game if rules is not None else game

    counts = [players] if isinstance(players, int | np.integer) else list(players)
    lineups: dict[int, list[list[StrategySpec]]] = {}
    for p in counts:
        if isinstance(p, bool) or not isinstance(p, int | np.integer) or not 2 <= p <= 5:
            raise UserError(f"players must be from 2 to 5, got {p!r}")
        cand = load_strategy(_level(candidate, int(p), game), game)
        others = field_specs(field, int(p), game)
        if len(others) > p - 1:
            raise UserError(
                f"the field names {len(others)} strategies for the {p - 1} other seats of a "
                f"{p}-player game"
            )
        lineups[int(p)] = [[cand, *(others[k % len(others)] for k in range(p - 1))]]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise UserError(f"games must be a positive whole number, got {games!r}")
    if rules is not None:
        study = make_study(counts, games, lineups, variants, seed, components,
                           rotation="cyclic", rules=rules, params=params, game=game,
                           **options)  # fmt: skip
    else:
        study = make_study(counts, games, lineups, variants, seed, components,
                           rotation="cyclic", params=params, game=game, **options)  # fmt: skip
    check_jobs(n_jobs)
    check_memory(study)
    results, _ = run_in_memory(study, n_jobs=n_jobs, progress=progress)
    return summarise(results, {c.index: c for c in study.cells})


def summarise(results: pd.DataFrame, cells: Mapping[int, Any]) -> pd.DataFrame:
    """The versus table of a study's results (cells: the study's cells by index), of the
    results' game (their rows name it)."""
    rows = []
    game = game_of_table(results)
    spec = load_game(game)
    for cell, part in results.groupby("cell", observed=True):
        c = cells[int(cell)]
        p = c.rules.players
        part = part.sort_values(["game", "seat"])
        rotation = part["game"].to_numpy()[::p] % p
        # cyclic seating r puts lineup[(s + r) % p] in seat s: the candidate (lineup[0]) sits
        # in seat (p - r) % p
        cand_seat = (p - rotation) % p
        scores = part["score"].to_numpy().reshape(-1, p)
        top = scores.max(axis=1, keepdims=True)
        share = (scores == top) / (scores == top).sum(axis=1, keepdims=True)
        values = {
            "win_share": share,
            "rank": part["rank"].to_numpy().reshape(-1, p).astype(float),
            "score": scores.astype(float),
        }
        own = spec.MEASURES.seat_measures(part)
        values.update({k: own[k].to_numpy(dtype=float).reshape(-1, p)
                       for k in spec.MEASURES.shown})  # fmt: skip
        games = np.arange(len(scores))
        mine = np.zeros_like(scores, dtype=bool)
        mine[games, cand_seat] = True
        for side, label in (("candidate", c.lineup[0].label), ("field", _field_label(c))):
            take = mine if side == "candidate" else ~mine
            per_game = {k: (v * take).sum(axis=1) / take.sum(axis=1) for k, v in values.items()}
            n = len(scores)
            row: dict[str, Any] = {
                "players": p,
                "setup": c.rules.setup,
                "side": side,
                "strategy": label,
                "games": n,
                "fair": 1 / p,
            }
            share = float(per_game["win_share"].mean())
            # the candidate's share is a proportion of games (Wilson); the field's p - 1
            # seats win the rest of each game, so their mean share's interval is the
            # candidate's mirrored and divided among them (a t interval over games would
            # leave [0, 1] at small n, and need two games)
            lo, hi = np.clip(stats.wilson(float((values["win_share"] * mine).sum()), n), 0, 1)
            if side == "field":
                lo, hi = (1 - hi) / (p - 1), (1 - lo) / (p - 1)
            row.update(win_share=share, lo=float(lo), hi=float(hi), vs_fair=share - 1 / p,
                       vs_fair_lo=float(lo) - 1 / p, vs_fair_hi=float(hi) - 1 / p)  # fmt: skip
            for k in measures(spec):
                x = per_game[k]
                mean, _, lo, hi = stats.mean_interval(n, x.sum(), (x**2).sum())
                row.update({k: float(mean), f"{k}_lo": float(lo), f"{k}_hi": float(hi)})
            rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs["game"] = game
    return table


def _field_label(cell: Any) -> str:
    names = list(dict.fromkeys(s.label for s in cell.lineup[1:]))
    return ",".join(names)


def text(table: pd.DataFrame) -> str:
    """The versus table as readable lines: each set-up, the candidate and the field."""
    spec = load_game(game_of_table(table))
    lines = []
    for (p, setup), part in table.groupby(["players", "setup"], sort=False):
        cand = part[part["side"] == "candidate"].iloc[0]
        games = f"{cand['games']:,} game{'s' if cand['games'] != 1 else ''}"
        lines.append(f"{p} players, {setup}: {games}, seats rotated "
                     f"(fair share {1 / p:.3f})")  # fmt: skip
        lines += [f"  {r['side']:<9} {r['strategy']:<24} {_measures(r, spec)}"
                  for _, r in part.iterrows()]  # fmt: skip
    return "\n".join(lines)


def _measures(r: pd.Series, spec: GameSpec) -> str:
    """One side's win share and its difference from fair with their intervals ("(too few
    games)" where one cannot be computed), its mean rank and its score's parts."""
    return (
        f"win share {num(r['win_share'], '.3f')} {bracket(r['lo'], r['hi'])}  "
        f"vs fair {num(r['vs_fair'], '+.3f')} "
        f"{bracket(r['vs_fair_lo'], r['vs_fair_hi'], '+.3f')}  rank {num(r['rank'])}  "
        f"score {num(r['score'], '.1f')} ("
        + ", ".join(f"{spec.MEASURES.seat[k][1]} {num(r[k], '.1f')}" for k in spec.MEASURES.shown)
        + ")"
    )
