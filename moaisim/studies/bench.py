"""Benchmarks of the two engines (`moaisim bench`, `make bench`, `benchmarks/bench.py`).

For each player count and lineup (one strategy in every seat) it plays N games with the batch
engine (games 0..N-1, in batches of `batch_size` as `simulate` plays them) and the first M
of those same games with the
reference engine, and reports:

- games per second per core of each engine: games / CPU seconds of this one process
  (`time.process_time`, which sums every thread, so a multi-threaded numpy cannot inflate it);
- their ratio, batch rate / reference rate, both measured in the same run;
- decisions per second of each engine: decisions put to strategies (forced single-action
  decisions excluded) / CPU seconds, and the mean such decisions per game;
- the peak memory of a B-game batch, measured in a fresh child process: the peak of what is
  allocated while the batch is played and its results built (`tracemalloc`, which numpy
  reports its arrays to), at two or more batch sizes, so that the growth per game
  (bytes/game, the slope between the smallest and the largest B) shows that the footprint
  is linear in B; and the child's whole peak RSS at the largest B (interpreter, libraries
  and compiled kernels included).

Speed is measured here, never by timed tests.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np
import pandas as pd

from moaisim.analysis import text
from moaisim.api import BATCH_SIZE
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_writable_file, write_atomic
from moaisim.games import load_game
from moaisim.games.base import RulesLike
from moaisim.registry import parse_lineup, split_top, strategy_name
from moaisim.rundir import RunDir
from moaisim.runner import MAX_JOBS_PER_CORE, max_jobs
from moaisim.version import __version__

#: The largest batch whose memory the benchmark measures (a batch needs about 2 KB a game).
MAX_MEMORY_GAMES = 2_000_000

PLAYERS = (2, 3, 4, 5)
LINEUPS = ("greedy", "tuned", "random")
GAMES = 20_000
REFERENCE_GAMES = 40
MEMORY_GAMES = (10_000, 100_000)
MEMORY_PLAYERS = (4, 5)
MEMORY_LINEUP = "greedy"
SEED = 0
#: Timings per configuration; the best (least CPU time) of each engine is reported, since a
#: shared machine only ever slows a run down.
REPEAT = 3
#: Environment variables that keep the BLAS/OpenMP pools of a child process to one thread.
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")

MIB = 2**20

#: The Markdown table: DataFrame column -> heading (the CSV holds every column).
LABELS = {
    "players": "players",
    "lineup": "lineup",
    "batch_games": "batch games",
    "batch_games_per_s": "batch games/s/core",
    "ref_games": "ref games",
    "ref_games_per_s": "ref games/s/core",
    "ratio": "batch/ref",
    "batch_decisions_per_s": "batch decisions/s",
    "ref_decisions_per_s": "ref decisions/s",
    "decisions_per_game": "decisions/game",
}


@dataclass(frozen=True)
class Config:
    """What a benchmark run plays; `check()` turns a bad value into a `UserError`."""

    players: tuple[int, ...] = PLAYERS
    lineups: tuple[str, ...] = LINEUPS
    games: int = GAMES
    reference_games: int = REFERENCE_GAMES
    memory_games: tuple[int, ...] = MEMORY_GAMES
    memory_players: tuple[int, ...] = MEMORY_PLAYERS
    memory: bool = True
    seed: int = SEED
    memory_lineup: str = MEMORY_LINEUP
    variants: str = "base"
    repeat: int = REPEAT
    batch_size: int = BATCH_SIZE
    #: the game benchmarked (`moaisim.games`)
    game: str = field(kw_only=True)

    def check(self) -> Config:
        """Validate every field (player counts 2-5, known lineups, positive counts)."""
        if not self.players:
            raise UserError("bench: give at least one player count")
        if not self.lineups:
            raise UserError("bench: give at least one lineup")
        for p in (*self.players, *(self.memory_players if self.memory else ())):
            if _not_int(p) or not 2 <= p <= 5:
                raise UserError(f"bench: player counts must be 2 to 5, got {p!r}")
        for name, n in (
            ("games", self.games),
            ("reference games", self.reference_games),
            ("repeat", self.repeat),
            ("batch size", self.batch_size),
        ):
            if _not_int(n) or n < 1:
                raise UserError(f"bench: {name} must be a positive integer, got {n!r}")
        if self.reference_games > self.games:
            raise UserError(
                f"bench: reference games ({self.reference_games}) must not exceed "
                f"batch games ({self.games}): the reference plays the first of the same games"
            )
        if self.memory:
            if not self.memory_games or not self.memory_players:
                raise UserError("bench: give memory batch sizes and player counts, or no memory")
            for n in self.memory_games:
                if _not_int(n) or not 1 <= n <= MAX_MEMORY_GAMES:
                    raise UserError(
                        f"bench: memory games must be from 1 to {MAX_MEMORY_GAMES:,} (a batch "
                        f"needs about 2 KB per game), got {n!r}"
                    )
        if _not_int(self.seed) or not 0 <= self.seed < 2**64:
            raise UserError(f"bench: seed must be an integer from 0 to 2**64-1, got {self.seed!r}")
        for lineup in {*self.lineups, *((self.memory_lineup,) if self.memory else ())}:
            try:
                parse_lineup(lineup, 2, self.game)
            except UserError as exc:
                raise UserError(f"bench: lineup {lineup!r}: {exc}") from None
        return self

    def args(self) -> list[str]:
        """The command-line options that reproduce this run (for the output's header)."""
        out = [
            "--players",
            ",".join(map(str, self.players)),
            "--lineups",
            ",".join(self.lineups),
            "--games",
            str(self.games),
            "--reference-games",
            str(self.reference_games),
            "--repeat",
            str(self.repeat),
            "--batch-size",
            str(self.batch_size),
        ]
        if self.memory:
            out += [
                "--memory-games",
                ",".join(map(str, self.memory_games)),
                "--memory-players",
                ",".join(map(str, self.memory_players)),
            ]
        else:
            out.append("--no-memory")
        return [*out, "--seed", str(self.seed), "--game", self.game]  # the game benchmarked


def _not_int(x: object) -> bool:
    return isinstance(x, bool) or not isinstance(x, (int, np.integer))


def parse_ints(text: str, what: str) -> tuple[int, ...]:
    """'2,3,4' -> (2, 3, 4); anything else is a `UserError` naming `what`."""
    items = [t.strip().replace("_", "") for t in text.split(",") if t.strip()]
    try:
        out = tuple(int(t) for t in items)
    except ValueError:
        raise UserError(f"bench: {what} must be integers joined by ',', got {text!r}") from None
    twice = sorted({x for x in out if out.count(x) > 1})
    if twice:
        raise UserError(f"bench: {what}: {twice[0]} is given twice")
    return out


def parse_names(text: str) -> tuple[str, ...]:
    """'greedy,random' -> ('greedy', 'random'); a spec's own commas stay inside it
    ('greedy(moai_height=8,keep_cards=3),random' is two lineups)."""
    out = tuple(t.strip() for t in split_top(text, ",") if t.strip())
    twice = sorted({x for x in out if out.count(x) > 1})
    if twice:
        raise UserError(f"bench: lineup {twice[0]!r} is given twice")
    return out


def _lineup(players: int, lineup: str, variants: str, game: str
            ) -> tuple[RulesLike, list[type], list[str]]:  # fmt: skip
    rules = load_game(game).make_rules(players, variants)
    classes = parse_lineup(lineup, players, game)
    return rules, classes, [strategy_name(c) for c in classes]


def speed(
    players: int,
    lineup: str,
    games: int,
    reference_games: int,
    seed: int,
    variants: str = "base",
    repeat: int = REPEAT,
    batch_size: int = BATCH_SIZE,
    *,
    game: str,
) -> dict[str, float | int | str]:
    """Time games 0..games-1 with the batch engine (in batches of `batch_size`, as
    `moaisim.simulate` plays them) and the first `reference_games` with the reference engine.

    Both engines are warmed up (a few untimed games) first; then each is timed `repeat`
    times, in turn, and the best time of each is kept. Rates are per CPU second.
    """
    rules, classes, names = _lineup(players, lineup, variants, game)
    the_game = load_game(game)
    Games, ReferenceGame = the_game.Games, the_game.ReferenceGame  # noqa: N806
    warm = min(games, 16)
    Games.new(rules, seed, np.arange(warm)).play([c() for c in classes], names=names)
    ReferenceGame(rules, [c() for c in classes], seed=seed, game=0, names=names).play()

    def batch_run() -> tuple[float, float, int, int, int]:
        asked = decided = nbytes = 0
        wall, cpu = time.perf_counter(), time.process_time()
        for start in range(0, games, batch_size):
            chunk = np.arange(start, min(games, start + batch_size))
            g = Games.new(rules, seed, chunk).play([c() for c in classes], names=names)
            seats = getattr(g, "seats", None)  # a game whose machine counts its decisions
            if seats is None:
                asked = decided = -1
            elif asked >= 0:
                asked, decided = asked + seats.asked, decided + seats.decided
            nbytes = max(nbytes, g.nbytes() // len(chunk))
            del g
        return time.process_time() - cpu, time.perf_counter() - wall, asked, decided, nbytes

    def reference_run() -> tuple[float, float, int, int]:
        asked = decided = 0
        wall, cpu = time.perf_counter(), time.process_time()
        for g in range(reference_games):
            ref = ReferenceGame(rules, [c() for c in classes], seed=seed, game=g, names=names)
            ref.play()
            asked, decided = asked + ref.asked, decided + ref.decided
        return time.process_time() - cpu, time.perf_counter() - wall, asked, decided

    batch_runs, ref_runs = [], []
    for _ in range(repeat):
        batch_runs.append(batch_run())
        ref_runs.append(reference_run())
    b_cpu, b_wall, b_asked, b_decided, b_bytes = min(batch_runs)
    r_cpu, r_wall, r_asked, _ = min(ref_runs)
    b_cpu, r_cpu = max(b_cpu, 1e-9), max(r_cpu, 1e-9)
    b_rate, r_rate = games / b_cpu, reference_games / r_cpu
    return {
        "players": players,
        "lineup": lineup,
        "batch_games": games,
        "batch_cpu_s": b_cpu,
        "batch_wall_s": b_wall,
        "batch_games_per_s": b_rate,
        "ref_games": reference_games,
        "ref_cpu_s": r_cpu,
        "ref_wall_s": r_wall,
        "ref_games_per_s": r_rate,
        "ratio": b_rate / r_rate,
        # nan where the game's batch engine does not count its decisions
        "batch_decisions_per_s": b_asked / b_cpu if b_asked >= 0 else float("nan"),
        "ref_decisions_per_s": r_asked / r_cpu,
        "decisions_per_game": b_asked / games if b_asked >= 0 else float("nan"),
        "all_decisions_per_game": b_decided / games if b_decided >= 0 else float("nan"),
        "ref_decisions_per_game": r_asked / reference_games,
        "state_bytes_per_game": b_bytes,
        "batch_cpu_s_all": " ".join(f"{r[0]:.3f}" for r in batch_runs),
        "ref_cpu_s_all": " ".join(f"{r[0]:.3f}" for r in ref_runs),
    }


#: The child process of `memory`: argv[1] is a JSON object; prints one JSON line back.
_CHILD = """
import gc, json, resource, sys, time, tracemalloc
import numpy as np
from moaisim.games import load_game
from moaisim.registry import parse_lineup, strategy_name
from moaisim.rundir import RunDir


def status_kib(key):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


a = json.loads(sys.argv[1])
game = load_game(a["game"])
Games = game.Games
rules = game.make_rules(a["players"], a["variants"])
classes = parse_lineup(a["lineup"], a["players"], a["game"])
names = [strategy_name(c) for c in classes]
Games.new(rules, a["seed"], np.arange(1)).play([c() for c in classes], names=names).results()
gc.collect()
base = status_kib("VmRSS")
start_hwm = status_kib("VmHWM")  # the process's own peak so far (ru_maxrss is the parent's too)
try:  # Linux: restart the peak-RSS mark (VmHWM) here, past the imports and the JIT
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
except OSError:
    pass
tracemalloc.start()
cpu = time.process_time()
g = Games.new(rules, a["seed"], np.arange(a["games"]))
g.play([c() for c in classes], names=names)
state = g.nbytes()
res = g.results()
cpu = time.process_time() - cpu
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
hwm = status_kib("VmHWM")
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # Linux: carried across exec
if start_hwm is not None and hwm is not None:
    peak = max(start_hwm, hwm)  # this process's own peak: before the mark's restart, and after
print(json.dumps({"traced": traced, "base_kib": base, "hwm_kib": hwm, "maxrss_kib": peak,
                  "state_bytes": state, "results_bytes": int(res.memory_usage(deep=True).sum()),
                  "cpu_s": cpu}))
"""


def memory(
    players: int,
    games: int,
    seed: int,
    lineup: str = MEMORY_LINEUP,
    variants: str = "base",
    *,
    game: str,
) -> dict[str, float | int | str | None]:
    """Peak memory of one `games`-game batch (played and its results built), in a child process.

    `footprint_bytes` is the peak of the memory allocated while the batch is created, played
    and its results built (`tracemalloc`, which numpy reports its arrays to): what the batch
    itself needs. `peak_rss_bytes` is the child process's whole peak RSS (`ru_maxrss`):
    interpreter, libraries and compiled kernels included, the figure to hold against the
    machine's memory. On Linux `rss_growth_bytes` is the peak RSS during the batch (VmHWM,
    restarted after the warm-up) minus the RSS before it.
    """
    env = dict(os.environ, **{v: "1" for v in THREAD_VARS})
    arg = json.dumps(
        {
            "players": players,
            "games": games,
            "seed": seed,
            "lineup": lineup,
            "variants": variants,
            "game": game,
        }
    )
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, arg], env=env, capture_output=True, text=True
    )
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"memory benchmark child failed ({proc.returncode}): {tail[0]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, else KiB
    growth = None
    if out["hwm_kib"] is not None and out["base_kib"] is not None:
        growth = max(0, out["hwm_kib"] - out["base_kib"]) * 1024
    return {
        "players": players,
        "lineup": lineup,
        "games": games,
        "footprint_bytes": out["traced"],
        "peak_rss_bytes": out["maxrss_kib"] * scale,
        "rss_growth_bytes": growth,
        "state_bytes": out["state_bytes"],
        "results_bytes": out["results_bytes"],
        "cpu_s": out["cpu_s"],
    }


def memory_columns(mem: pd.DataFrame) -> pd.DataFrame:
    """Per player count: footprint in MiB at each batch size and the growth in bytes/game."""
    rows = []
    for (players, lineup), part in mem.groupby(["players", "lineup"], sort=False):
        part = part.sort_values("games")
        row: dict[str, object] = {"players": players, "lineup": lineup}
        for n, f in zip(part["games"], part["footprint_bytes"], strict=True):
            row[f"mem_mib_{n}"] = f / MIB
        lo, hi = part.iloc[0], part.iloc[-1]
        if hi["games"] > lo["games"]:
            slope = (hi["footprint_bytes"] - lo["footprint_bytes"]) / (hi["games"] - lo["games"])
        else:
            slope = hi["footprint_bytes"] / hi["games"]
        row["mem_bytes_per_game"] = slope
        if "peak_rss_bytes" in part.columns:
            row["rss_mib_max"] = hi["peak_rss_bytes"] / MIB
        rows.append(row)
    return pd.DataFrame(rows)


def environment() -> dict[str, str]:
    """The machine and versions a run was measured on."""

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            models = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
        if models:
            cpu = models[0]
    except OSError:
        pass
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.system()} {platform.release()} {platform.machine()}",
        "cpu": f"{cpu} ({os.cpu_count()} logical cores)",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "moaisim": __version__,
    }


def run(
    config: Config,
    command: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Run the benchmark; one row per (players, lineup), memory columns where measured.

    The returned frame's `attrs` hold `env` (machine and versions), `command` (the command
    line that reproduces it) and `memory` (one row per child process, as a list of dicts).
    """
    cfg = config.check()
    say = progress or (lambda _: None)
    rows = []
    for lineup in cfg.lineups:
        for players in cfg.players:
            row = speed(
                players,
                lineup,
                cfg.games,
                cfg.reference_games,
                cfg.seed,
                cfg.variants,
                cfg.repeat,
                cfg.batch_size,
                game=cfg.game,
            )
            rows.append(row)
            say(
                f"{players}p {lineup}: batch {row['batch_games_per_s']:,.0f} games/s, "
                f"reference {row['ref_games_per_s']:,.1f} games/s, "
                f"ratio {row['ratio']:,.1f}x ({row['batch_cpu_s'] + row['ref_cpu_s']:.1f} CPU s)"
            )
    df = pd.DataFrame(rows)
    mem_rows: list[dict[str, object]] = []
    if cfg.memory:
        for players in cfg.memory_players:
            for n in sorted(set(cfg.memory_games)):
                m = memory(players, n, cfg.seed, cfg.memory_lineup, cfg.variants, game=cfg.game)
                mem_rows.append(m)
                say(
                    f"{players}p {cfg.memory_lineup} memory: {n:,}-game batch "
                    f"{m['footprint_bytes'] / MIB:,.1f} MiB "
                    f"(peak RSS {m['peak_rss_bytes'] / MIB:,.1f} MiB)"
                )
        cols = memory_columns(pd.DataFrame(mem_rows))
        df = df.merge(cols, on=["players", "lineup"], how="left")
        # memory runs of a configuration that was not timed go after the timed ones
        timed = set(zip(df["players"], df["lineup"], strict=True))
        extra = cols[[k not in timed for k in zip(cols["players"], cols["lineup"], strict=True)]]
        if len(extra):
            df = pd.concat([df, extra], ignore_index=True)
    df.attrs["env"] = environment()
    df.attrs["command"] = command or "moaisim bench " + " ".join(cfg.args())
    df.attrs["memory"] = mem_rows
    return df


def _fmt(value: object, column: str) -> str:
    """A benchmark cell: counts with thousands separators, small figures to one decimal, a
    dash where nothing was measured."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return text.NA
    if column in ("players", "batch_games", "ref_games") or column.startswith("mem_bytes"):
        return f"{int(value):,}"
    if column == "lineup":
        return str(value)
    v = float(value)  # type: ignore[arg-type]
    if column == "ratio" or column.startswith("mem_mib") or v < 100:
        return f"{v:,.1f}"
    return f"{v:,.0f}"


def markdown(df: pd.DataFrame, header: bool = True) -> str:
    """The benchmark as Markdown: the environment and command, then one table."""
    labels = dict(LABELS)
    for col in df.columns:
        if col.startswith("mem_mib_"):
            labels[col] = f"peak MiB B={int(col.removeprefix('mem_mib_')):,}"
    if "mem_bytes_per_game" in df.columns:
        labels["mem_bytes_per_game"] = "bytes/game"
    if "rss_mib_max" in df.columns:
        labels["rss_mib_max"] = "process peak RSS MiB (largest B)"
    cols = [c for c in labels if c in df.columns]
    lines = []
    if header:
        env = df.attrs.get("env") or environment()
        lines.append(f"Command: `{df.attrs.get('command', 'moaisim bench')}`  ")
        lines.append(
            f"Machine: {env['machine']}, {env['cpu']}; Python {env['python']}, "
            f"numpy {env['numpy']}, pandas {env['pandas']}, moaisim {env['moaisim']}; "
            f"{env['date']}"
        )
        lines.append("")
    shown = pd.DataFrame({labels[c]: [_fmt(v, c) for v in df[c]] for c in cols})
    lines.append(text.markdown_table(shown, right=[labels[c] for c in cols if c != "lineup"]))
    return "\n".join(lines) + "\n"


def main_args(
    players: str = ",".join(map(str, PLAYERS)),
    lineups: str = ",".join(LINEUPS),
    games: int = GAMES,
    reference_games: int = REFERENCE_GAMES,
    memory_games: str = ",".join(map(str, MEMORY_GAMES)),
    memory_players: str = ",".join(map(str, MEMORY_PLAYERS)),
    memory: bool = True,
    seed: int = SEED,
    repeat: int = REPEAT,
    batch_size: int = BATCH_SIZE,
    *,
    game: str,
) -> Config:
    """A checked `Config` from command-line strings (shared by the CLI and the script), for
    `game` (`moaisim games`)."""
    return Config(
        players=parse_ints(players, "players"),
        lineups=parse_names(lineups),
        games=games,
        reference_games=reference_games,
        memory_games=parse_ints(memory_games, "memory games"),
        memory_players=parse_ints(memory_players, "memory players"),
        memory=memory,
        seed=seed,
        repeat=repeat,
        batch_size=batch_size,
        game=game,
    ).check()


def report(
    config: Config,
    prog: str,
    markdown_path: str | None = None,
    csv_path: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> str:
    """Run, write the optional Markdown/CSV files and return the Markdown text. The output
    paths are checked before anything runs, and written whole (never left half-written)."""
    check_outputs(markdown_path, csv_path)
    df = run(config, command=f"{prog} " + " ".join(config.args()), progress=progress)
    text = markdown(df)
    if markdown_path:
        write_atomic(markdown_path, text.encode(), "Markdown table")
    if csv_path:  # the table names its game (a column)
        write_atomic(csv_path, df.assign(**{GAME_KEY: config.game}).to_csv(index=False).encode(),
                     "CSV table")  # fmt: skip
    return text


def check_outputs(*paths: str | None) -> None:
    """The benchmark's output files can be written (checked before the long part runs)."""
    for path in paths:
        if path:
            check_writable_file(path, "benchmark output")


# --- the runner: a big parallel study ---------------------------------------------------------

#: The runner benchmark: games of a 4-player greedy study with --jobs 2 (make bench), and the
#: smaller study timed with --jobs 1 and --jobs 2 for the speed-up.
RUNNER_GAMES = 1_000_000
RUNNER_SPEEDUP_GAMES = 100_000
RUNNER_JOBS = 2


def check_runner_args(games: int, speedup_games: int, jobs: int) -> None:
    """The runner benchmark's arguments, checked before anything runs."""
    for name, value in (("runner games", games), ("runner speed-up games", speedup_games)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise UserError(f"bench: {name} must be a count of at least 0, got {value!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= max_jobs():
        raise UserError(
            f"bench: runner jobs must be from 1 to {max_jobs()} ({MAX_JOBS_PER_CORE} per core "
            f"of this machine), got {jobs!r}"
        )


#: The runner's launcher (`runner_speed`): runs the command it is given, its output to
#: /dev/null and its standard error through, and prints the command's exit code and rusage
#: (the process and the workers it waited for: the peak RSS of the largest of them).
_LAUNCH = """
import json, os, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
print(json.dumps({"returncode": os.waitstatus_to_exitcode(status),
                  "maxrss_kib": usage.ru_maxrss}))
"""


def runner_speed(
    games: int = RUNNER_GAMES,
    speedup_games: int = RUNNER_SPEEDUP_GAMES,
    jobs: int = RUNNER_JOBS,
    players: int = 4,
    lineup: str = "greedy",
    seed: int = SEED,
    progress: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Time `moaisim simulate` runs to disk in fresh processes: `speedup_games` games with
    --jobs 1 and with --jobs `jobs` (the speed-up), then `games` games with --jobs `jobs`.
    Per run: wall seconds, games/s, the peak memory of each worker (from the manifest: each
    chunk records its process's peak RSS) and of the whole run (the largest process)."""

    check_runner_args(games, speedup_games, jobs)
    rows = []
    plan = [(speedup_games, 1), (speedup_games, jobs), (games, jobs)]
    for n, j in plan:
        if n <= 0:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "run")
            argv = [sys.executable, "-m", "moaisim.cli", "simulate", "-p", str(players),
                    "-n", str(n), "--strategies", lineup, "-s", str(seed), "-j", str(j),
                    "-o", out, "-q"]  # fmt: skip
            if progress:
                progress(f"runner: {n:,} games, --jobs {j}")
            wall = time.perf_counter()
            with tempfile.TemporaryFile("w+") as err:
                # started by a small helper (`_LAUNCH`), which reports its rusage: Linux
                # carries a process's peak RSS across exec, so a runner started by this
                # process, large after the engine timings, would report that peak as its own
                proc = subprocess.run([sys.executable, "-c", _LAUNCH, *argv],
                                      stdout=subprocess.PIPE, stderr=err, text=True)  # fmt: skip
                err.seek(0)
                message = err.read().strip()
            wall = time.perf_counter() - wall
            launched = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.stdout else {}
            if proc.returncode or launched.get("returncode", 1):
                raise UserError(f"bench: the runner failed: {message}")
            run = RunDir(out)
            parts = run.parts(run.read())
            workers: dict[int, float] = {}
            for chunk in parts:
                workers[chunk["pid"]] = max(workers.get(chunk["pid"], 0.0), chunk["peak_rss_mib"])
            rows.append({
                "games": n,
                "jobs": j,
                "wall s": wall,
                "games/s": n / wall,
                "workers": len(workers),
                "peak MiB per worker": max(workers.values()),
                "chunks": len(parts),
                "whole run peak RSS MiB": launched["maxrss_kib"] / 2**10,
            })  # fmt: skip
    df = pd.DataFrame(rows)
    if len(df) >= 2 and df["games"].iloc[0] == df["games"].iloc[1]:
        df.attrs["speedup"] = df["games/s"].iloc[1] / df["games/s"].iloc[0]
    return df


def runner_markdown(df: pd.DataFrame, command: str) -> str:
    """The runner table, with its command and the speed-up line."""
    cols = ["games", "jobs", "wall s", "games/s", "workers", "peak MiB per worker",
            "whole run peak RSS MiB", "chunks"]  # fmt: skip
    formats = {"games": ",.0f", "wall s": ",.1f", "games/s": ",.0f",
               "peak MiB per worker": ",.0f", "whole run peak RSS MiB": ",.0f"}  # fmt: skip
    lines = [f"Command: `{command}`", "", text.markdown_table(df[cols], formats, right=cols)]
    if "speedup" in df.attrs:
        j = df["jobs"].iloc[1]
        lines += ["", f"Speed-up from --jobs 1 to --jobs {j}: {df.attrs['speedup']:.2f}x"]
    return "\n".join(lines) + "\n"


__all__ = [
    "Config",
    "environment",
    "main_args",
    "markdown",
    "memory",
    "memory_columns",
    "report",
    "run",
    "runner_markdown",
    "runner_speed",
    "speed",
]
