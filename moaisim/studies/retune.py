"""Bots adapted to a house rule: `tuned` re-tuned under each set-up of a study before the
study judges who wins (an experiment's `[retune]` table).

The shipped `tuned` weights were tuned under the base game. A rule that changes the scoring,
the supply or the components can favour or handicap them for reasons that belong to the
bot, not the game. With `[retune]`, every `tuned` seat of the study plays
`tuned(retuned=DIR)`: under the base game the shipped weights (the very same games), under
any other set-up the weights a short CMA-ES search found there, starting from the shipped
ones, against copies of the shipped `tuned` (`tune.search` with the cell's rules, every rule
parameter and component included). The searches are seeded and resumable; each writes
`DIR/<players>p-<digest>/` (its log and state) and, when the re-tuned weights beat the
shipped ones on held-out games, `DIR/<players>p-<digest>.toml` (the weights `tuned` then
plays; otherwise it keeps the shipped ones). `DIR/retuned.csv` sums them up: the held-out win
share of the re-tuned and of the shipped weights against the shipped `tuned`, under those
rules, and which `tuned` plays. The other strategies of a field (L3's members, the plans)
keep their shipped weights.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from moaisim.errors import UserError
from moaisim.files import GAME_KEY, write_atomic
from moaisim.games import game_of, load_game
from moaisim.games.base import RulesLike
from moaisim.registry import split_top
from moaisim.studies.tune import TuneSettings, search

#: The keys of an experiment's `[retune]` table.
KEYS = ("generations", "games", "held_out_games", "popsize")
#: Each key's least and greatest value: games per rotation are played in memory, and a
#: search's generations times candidates times games stay below `MAX_SEARCH_GAMES` a set-up.
BOUNDS = {"generations": (1, 1_000), "games": (1, 1_000_000), "held_out_games": (1, 1_000_000),
          "popsize": (2, 1_000)}  # fmt: skip
#: The most games one set-up's search may play per seat rotation (generations x candidates x
#: games; without a popsize, CMA-ES's default for heuristic's weights: 4 + 3 ln n).
MAX_SEARCH_GAMES = 10**9


def default_popsize(game: str) -> int:
    """CMA-ES's default candidates per generation for the game's tunable weights
    (4 + 3 ln n, n weights)."""
    return 4 + int(3 * math.log(len(load_game(game).WEIGHT_NAMES)))


@dataclass(frozen=True)
class RetuneSettings:
    """A short CMA-ES search per set-up: generations, games per seat rotation and candidate,
    held-out games per rotation, candidates per generation (None: CMA-ES's default)."""

    generations: int = 4
    games: int = 100
    held_out_games: int = 500
    popsize: int | None = None

    @classmethod
    def of(cls, table: Any, game: str) -> RetuneSettings:
        """`[retune]` of an experiment file of `game`: `true`, or a table of `KEYS` (one
        clear line per mistake)."""
        if table is True:
            return cls()
        if not isinstance(table, Mapping):
            raise UserError("[retune] must be true or a table (generations, games, ...)")
        for key, value in table.items():
            if key not in KEYS:
                raise UserError(f"unknown key retune.{key} (expected {', '.join(KEYS)})")
            least, most = BOUNDS[key]
            if (isinstance(value, bool) or not isinstance(value, int)
                    or not least <= value <= most):  # fmt: skip
                raise UserError(f"retune.{key} must be a whole number of at least {least} "
                                f"and at most {most:,}, got {value!r}")  # fmt: skip
        got = cls(**dict(table))
        games = got.generations * (got.popsize or default_popsize(game)) * got.games
        if games > MAX_SEARCH_GAMES:
            raise UserError(f"[retune] would play {games:,} games per seat rotation and set-up "
                            f"(generations x popsize x games), more than {MAX_SEARCH_GAMES:,}: "
                            "lower them")  # fmt: skip
        return got


def retuned_lineups(lineups: Any, where: Path) -> Any:
    """The study's lineups with every `tuned` seat playing `tuned(retuned=where)`: a lineup
    string, a list of them, or a table of them by player count."""
    spec = f"tuned(retuned={str(where)!r})"

    def one(lineup: Any) -> Any:
        if not isinstance(lineup, str):
            return lineup
        seats = [x.strip() for x in split_top(lineup, ",")]
        return ",".join(spec if x == "tuned" else x for x in seats)

    if isinstance(lineups, Mapping):
        return {k: retuned_lineups(v, where) for k, v in lineups.items()}
    if isinstance(lineups, list):
        return [one(x) for x in lineups]
    return one(lineups)


def targets(study: Any) -> list[RulesLike]:
    """The rules to re-tune under: every set-up but the base game's of a cell that seats
    `tuned` (the game's `TUNED`), once each."""
    out: dict[str, RulesLike] = {}
    for cell in study.cells:
        if cell.rules.setup == "base":
            continue
        game = game_of(cell.rules)
        if any(isinstance(spec.cls, type) and issubclass(spec.cls, game.TUNED)
               for spec in cell.lineup):  # fmt: skip
            out.setdefault(game.retuned_key(cell.rules), cell.rules)
    return list(out.values())


def retune(
    study: Any, where: Path, settings: RetuneSettings, jobs: int = 1,
    say: Callable[[str], None] | None = None,
) -> pd.DataFrame:  # fmt: skip
    """Re-tune `tuned` under each set-up of the study (`targets`) into `where`, resuming a
    search left unfinished and keeping one already done; returns (and writes as
    `retuned.csv`) a row per set-up: its players, set-up, file, and the held-out win share
    of the re-tuned and the shipped weights against the shipped `tuned`."""
    where.mkdir(parents=True, exist_ok=True)
    rows = []
    todo = targets(study)
    for k, rules in enumerate(todo):
        game = game_of(rules)
        key = game.retuned_key(rules)
        p = rules.players
        if say is not None:
            say(f"re-tuning tuned under {rules.setup} at {p} players "
                f"({k + 1} of {len(todo)}, {settings.generations} generations)")  # fmt: skip
        got = search(
            TuneSettings(p, "tuned", settings.games, settings.generations, settings.popsize,
                         study.seed, start=game.weights_path(game.tuned_file(p)),
                         held_out_games=settings.held_out_games, rules=rules,
                         game=rules.game),
            where / key, n_jobs=jobs,
        )  # fmt: skip
        final = where / f"{key}.toml"
        # a short search can end below where it started: then tuned keeps its shipped weights
        better = got.held_out.share > got.start_held_out.share
        if not better:
            final.unlink(missing_ok=True)
        elif not final.is_file() or final.read_bytes() != got.path.read_bytes():
            shutil.copyfile(got.path, final)
        rows.append({
            GAME_KEY: rules.game, "players": p, "setup": rules.setup,
            "plays": final.name if better else "shipped",
            "retuned": got.held_out.share, "retuned_lo": got.held_out.low,
            "retuned_hi": got.held_out.high, "shipped": got.start_held_out.share,
            "shipped_lo": got.start_held_out.low, "shipped_hi": got.start_held_out.high,
            "held_out_games": got.held_out.games, "generations": got.generations,
        })  # fmt: skip
    table = pd.DataFrame(rows)
    write_atomic(where / "retuned.csv", table.to_csv(index=False).encode(), "re-tuning table")
    return table
