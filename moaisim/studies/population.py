"""Population tuning (`moaisim tune --population`): a PSRO-style loop that grows a library
until its Nash mixture is hard to exploit, and certifies how hard.

Each iteration i:

1. plays the meta-game of the current members (`analysis.metagame`: every composition, the
   same games) and solves its symmetric Nash mixture, written to `mixture-<P>p-<i>.toml`;
2. tunes a best response to that mixture: CMA-ES over `heuristic`'s weights (`tune.tune`)
   with the mixture as the field (`mixture(file=...)` in every other seat), from each start
   (several starts: a best response may lie outside one start's basin; from iteration 1 the
   previous best response is a start too), into `br-<i>/` (`br-<i>/<k>-<start>/` for
   several starts); **known challengers** (`known`: weights files such as every field
   study's challengers and every shipped weights file) are candidates beside the runs, each
   measured as a run's result is, so that a challenger found once is absorbed, not found
   again;
3. measures the best response on held-out games (another root seed, seats rotated): its win
   share against the mixture minus the fair 1/P is its **gain** (a mixture seat earns 1/P
   against the mixture by symmetry), with the Wilson 95 % interval. With several starts,
   each run's held-out share (root seed + 1) picks the best, and the gain is measured again
   on fresh games (root seed + 2), so that picking the luckiest run does not inflate it;
4. stops when the gain's upper bound is below `epsilon`: that gain is the mixture's
   **exploitability certificate** (no heuristic weights the tuner found gain more, at 95 %);
   else the best response joins the members and the loop goes on (at most `iterations`).

Every step is saved (`population-<P>p.json`, and each tune's own state), so an interrupted
loop resumes where it stopped, and ends as an uninterrupted one would.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from moaisim.analysis import metagame as mg
from moaisim.analysis import text
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_game, write_atomic
from moaisim.registry import load_strategy
from moaisim.rundir import make_dir, recorded_game
from moaisim.studies import tune
from moaisim.studies.metagame import play as meta_play


@dataclass
class Iteration:
    """One round of the loop, as saved."""

    members: list[str]
    mixture: dict[str, float]
    mixture_file: str
    nash_gain: float  # on the meta-game's own tables
    best_response: str = ""
    #: several starts: each start's best response (its weights file) and held-out win share
    tried: dict[str, dict[str, Any]] = field(default_factory=dict)
    gain: float = float("nan")
    gain_lo: float = float("nan")
    gain_hi: float = float("nan")
    held_out_games: int = 0


@dataclass
class PopulationResult:
    """The loop's state at one player count: its iterations, and whether it is certified."""

    players: int
    iterations: list[Iteration] = field(default_factory=list)
    certified: bool = False
    epsilon: float = 0.02
    #: the game played (`moaisim.files.GAME_KEY`)
    game: str = field(kw_only=True)

    @property
    def certificate(self) -> Iteration | None:
        """The last iteration whose best response was measured (its gain is the mixture's
        exploitability certificate when `certified`)."""
        done = [it for it in self.iterations if it.best_response]
        return done[-1] if done else None


def state_path(out: Path, players: int) -> Path:
    """Where the loop at `players` keeps its state (resumable)."""
    return out / f"population-{players}p.json"


def _load(path: Path, game: str) -> PopulationResult | None:
    """The loop's saved state (None: none yet); a state of another game is a `UserError`
    naming both games (a state saved before states named their game: `recorded_game`)."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        data[GAME_KEY] = recorded_game(data)
        its = [Iteration(**it) for it in data.pop("iterations")]
        got = PopulationResult(iterations=its, **data)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise UserError(f"{path}: not a population state file ({exc}); remove it or choose "
                        "another --out") from None  # fmt: skip
    check_game(got.game, game, path, "a population loop's state")
    return got


def _save(path: Path, result: PopulationResult) -> None:
    data = asdict(result)
    write_atomic(path, (json.dumps(data, indent=1, allow_nan=True) + "\n").encode(), "state")


def population(
    players: int,
    library: Sequence[str],
    out: str | Path,
    epsilon: float = 0.02,
    iterations: int = 3,
    meta_games: int = 120,
    games: int = 100,
    generations: int = 20,
    popsize: int | None = None,
    held_out_games: int = 500,
    seed: int = 0,
    start: str | Path | Sequence[str | Path] | None = None,
    n_jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    command: str | None = None,
    *,
    game: str,
    known: Sequence[str | Path] = (),
) -> PopulationResult:
    """Run (or resume) the loop at `players` players of `game` from the members `library`
    (see the module's docstring); `games`, `generations`, `popsize` go to each best
    response's CMA-ES (`tune.tune`), which starts from `start` (a weights file, or a list of
    them: one run each), `meta_games` to each meta-game, `held_out_games` (per seat
    rotation, root seed seed + 1) to each certificate; `known` names weights files that
    are candidate best responses at every iteration beside the CMA-ES runs."""

    say = progress or (lambda _m: None)
    labels = _check(library, epsilon, iterations, meta_games, held_out_games, game)
    starts = _starts(start, game)
    knowns = _known(known, game)
    out = Path(out)
    path = state_path(out, players)
    loaded = _load(path, game)  # another game's loop is refused before anything is written
    make_dir(out)
    result = loaded or PopulationResult(players, epsilon=float(epsilon), game=game)
    if result.iterations and result.iterations[0].members[: len(labels)] != labels:
        others = ", ".join(result.iterations[0].members)
        raise UserError(f"{path} is a population loop from other strategies ({others}): "
                        "choose another --out")  # fmt: skip
    result.epsilon = float(epsilon)
    while not result.certified:
        its = result.iterations
        if not its or its[-1].best_response:  # a new iteration: its meta-game first
            if sum(1 for it in its if it.best_response) >= iterations:
                break
            members = labels if not its else [*its[-1].members, its[-1].best_response]
            its.append(_meta_iteration(members, players, meta_games, seed, out, len(its),
                                       n_jobs, say, command, game))  # fmt: skip
            _save(path, result)
        # (or resumed: the meta-game was played)
        _best_response(result, out, games, generations, popsize, held_out_games, seed, starts,
                       n_jobs, say, command, game, knowns)  # fmt: skip
    return result


def _check(library: Sequence[str], epsilon: float, iterations: int, meta_games: int,
           held_out_games: int, game: str) -> list[str]:  # fmt: skip
    """The loop's settings checked (one line per mistake); the library's labels."""
    if not (isinstance(epsilon, int | float) and not isinstance(epsilon, bool) and 0 < epsilon < 1):
        raise UserError(f"epsilon must be a win-share margin above 0 and below 1, got {epsilon!r}")
    for what, value in (("iterations", iterations), ("meta games", meta_games),
                        ("held-out games", held_out_games)):  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UserError(f"{what} must be a positive whole number, got {value!r}")
    labels = [load_strategy(s, game).label for s in library]
    if len(labels) < 2 or len(set(labels)) != len(labels):
        raise UserError("the population needs at least two distinct strategies to start from")
    return labels


def _starts(start: str | Path | Sequence[str | Path] | None, game: str
            ) -> list[str | Path | None]:  # fmt: skip
    """The CMA-ES starts: one file, a list of files (each checked now), or heuristic's
    defaults (None)."""
    if start is None or isinstance(start, str | Path):
        given: list[str | Path | None] = [start]
    else:
        given = list(start)
        if not given:
            raise UserError("give at least one start weights file (or none for the defaults)")
    names = [str(s) for s in given]
    if len(set(names)) != len(names):
        raise UserError("a start weights file is named twice")
    for s in given:
        tune.start_weights(s, game)  # a missing or bad file is one line, before anything runs
    return given


def _known(known: Sequence[str | Path], game: str) -> list[Path]:
    """The known challengers' files, each read now (a bad file is one line before anything
    runs), each named once."""
    paths = [Path(k).resolve() for k in known]
    if len(set(paths)) != len(paths):
        raise UserError("a known challenger file is named twice")
    for p in paths:
        tune.start_weights(p, game)
    return paths


def _known_label(path: Path) -> str:
    """A known challenger's label among an iteration's candidates: its absolute path (the
    same whichever directory resumes the loop)."""
    return f"known {path}"


def _meta_iteration(members: list[str], players: int, meta_games: int, seed: int, out: Path,
                    i: int, n_jobs: int, say: Callable[[str], None],
                    command: str | None, game: str) -> Iteration:  # fmt: skip
    """Iteration i's start: the meta-game of its members, its Nash mixture (saved as a
    mixture file) and the mixture's gain on the played tables."""
    say(f"population {players}p, iteration {i}: the meta-game of {len(members)} "
        f"strategies ({len(mg.compositions(len(members), players))} compositions x "
        f"{meta_games} games)")  # fmt: skip
    meta = meta_play(members, players, meta_games, seed, n_jobs, game=game)
    x = mg.nash(meta)
    gain = mg.Population(meta).gain(x)
    mix_file = mg.write_mixture(out / f"mixture-{players}p-{i}.toml", meta.names, x,
                                players, command or "", gain, game=game)  # fmt: skip
    return Iteration(
        members=list(members),
        mixture={n: float(w) for n, w in zip(meta.names, x, strict=True) if w > 1e-9},
        mixture_file=str(mix_file.resolve()), nash_gain=gain)  # fmt: skip


def _best_response(result: PopulationResult, out: Path, games: int, generations: int,
                   popsize: int | None, held_out_games: int, seed: int,
                   starts: list[str | Path | None], n_jobs: int, say: Callable[[str], None],
                   command: str | None, game: str, known: Sequence[Path] = ()
                   ) -> None:  # fmt: skip
    """The last iteration's best response to its mixture (CMA-ES, or a known challenger),
    its held-out gain over the fair share, and whether that certifies the loop (saved in the
    loop's state)."""
    players, its = result.players, result.iterations
    i, it = len(its) - 1, its[-1]
    fair = 1.0 / players
    say(f"population {players}p, iteration {i}: best response to "
        f"{', '.join(f'{k} {v:.3f}' for k, v in it.mixture.items())}")  # fmt: skip
    mixture = f"mixture(file={it.mixture_file})"
    runs = list(starts)
    if len(runs) > 1 and i > 0:  # warm start: the previous best response's weights
        runs.append(_weights_file(its[i - 1].best_response))
    if len(runs) == 1 and not known:
        br = tune.tune(players, mixture, games, generations, popsize, seed + 10 * (i + 1),
                       out / f"br-{i}", start=runs[0], held_out_games=held_out_games,
                       held_out_seed=seed + 1, n_jobs=n_jobs, command=command,
                       game=game)  # fmt: skip
        s, path = br.held_out, br.path
    else:
        for k, start in enumerate(runs):
            label = f"{k}-{Path(str(start)).stem if start is not None else 'defaults'}"
            if label in it.tried:  # resumed: this start's run is done
                continue
            say(f"population {players}p, iteration {i}: CMA-ES from {label}")
            br = tune.tune(players, mixture, games, generations, popsize,
                           seed + 10 * (i + 1) + 1000 * k, out / f"br-{i}" / label, start=start,
                           held_out_games=held_out_games, held_out_seed=seed + 1,
                           n_jobs=n_jobs, command=command, game=game)  # fmt: skip
            it.tried[label] = {"weights": str(br.path.resolve()), "share": br.held_out.share}
            _save(state_path(out, players), result)
        todo = [p for p in known if _known_label(p) not in it.tried]
        if todo:
            say(f"population {players}p, iteration {i}: {len(todo)} known challengers on "
                f"{held_out_games} games per seat rotation")  # fmt: skip
        for start in range(0, len(todo), max(2 * n_jobs, 8)):  # saved as they finish
            part = todo[start : start + max(2 * n_jobs, 8)]
            specs = [f"heuristic(weights={str(p)!r})" for p in part]
            got = tune.shares(players, specs, mixture, held_out_games, seed + 1, n_jobs, game=game)
            for p, share in zip(part, got, strict=True):
                it.tried[_known_label(p)] = {"weights": str(p), "share": share}
            _save(state_path(out, players), result)
        best = max(it.tried.values(), key=lambda t: t["share"])
        path = Path(best["weights"])
        say(f"population {players}p, iteration {i}: the best run, {path}, on fresh games")
        s = tune.strength(players, f"heuristic(weights={path})", mixture, held_out_games,
                          seed + 2, game=game)  # fmt: skip
    it.best_response = f"heuristic(weights={path.resolve()})"
    it.gain, it.gain_lo, it.gain_hi = s.share - fair, s.low - fair, s.high - fair
    it.held_out_games = s.games
    result.certified = it.gain_hi < result.epsilon
    _save(state_path(out, players), result)
    gain = f"{text.num(it.gain, '+.3f')} {text.bracket(it.gain_lo, it.gain_hi, '+.3f')}"
    say(f"population {players}p, iteration {i}: best-response gain {gain} over "
        f"{s.games:,} held-out games" + (": certified" if result.certified else ""))  # fmt: skip


def _weights_file(spec: str) -> str:
    """The weights file of a best response's spec, `heuristic(weights=<file>)`."""
    return spec[len("heuristic(weights=") : -1]


def certificate_table(result: PopulationResult) -> list[dict[str, Any]]:
    """One row per iteration: the members, the mixture's support, the best response's
    held-out gain with its interval."""
    rows = []
    for k, it in enumerate(result.iterations):
        rows.append({"players": result.players, "iteration": k, "members": len(it.members),
                     "support": ", ".join(f"{n} {w:.2f}" for n, w in it.mixture.items()),
                     "gain": it.gain, "gain_lo": it.gain_lo, "gain_hi": it.gain_hi,
                     "held_out_games": it.held_out_games,
                     "starts": ", ".join(f"{k} {t['share']:.3f}" for k, t in it.tried.items()),
                     "certified": bool(it.gain_hi < result.epsilon)})  # fmt: skip
    return rows
