"""Distillation (`moaisim distill`): heuristic weights that decide as a teacher decides.

Look-ahead play (`search`, L4) is too slow to be a study's field, so its decisions are
imitated by the fast `heuristic` family (expert iteration's policy step):

1. **Positions.** Games are played with the teacher in one seat (the seat rotates with the
   game number) and the field in the others. At each decision of the imitated kinds (the
   game's `Kind`s; by default every kind) with a real choice (two legal actions or more; for
   a kind answered by several numbers, the game's `ACTION_WIDTHS`, any number that may be
   above 0: Moai's bid with cards in hand), the position is kept as an exact copy of the game
   (`Games.clone`) with the teacher's answer. Imitating every kind matters: a weight that
   only the other decisions use (for Moai, finishing a statue, births) would otherwise drift
   freely during the fit. Search answers the kinds it does not search with its rollout
   policy, so there the fit stays close to that policy.
2. **Fit.** CMA-ES moves the chosen weights (in the units `moaisim tune` uses) to maximise
   the **agreement**: the share of kept decisions where the heuristic, asked through the
   same sealed view with the same random stream, answers exactly as the teacher did (an
   answer of several numbers: every one). Agreement is the zero-one ranking loss over each
   decision's legal actions; the heuristic's scores are not linear in its weights (clipped
   chances, buffers, hand thresholds), so a black-box optimiser fits them rather than a
   logistic model.
3. **Held out.** Agreement is measured again on positions from other games (root seed + 1),
   and the fitted weights play the field (seats rotated, Wilson interval) like a tuned file.

A copy replays its decision exactly, so a heuristic teacher agrees with itself on every
kept decision: the test that distillation recovers planted weights rests on that.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cma
import numpy as np
from joblib import Parallel, delayed

from moaisim.errors import UserError
from moaisim.files import write_atomic
from moaisim.fingerprint import fingerprint
from moaisim.games import game_of, load_game
from moaisim.games.base import RulesLike
from moaisim.registry import StrategySpec, level_or_spec, load_strategy
from moaisim.rundir import identity_game, make_dir
from moaisim.runner import check_jobs
from moaisim.studies import tune

#: Most games per collection task (one task: one seat of the teacher, in consecutive games).
TASK_GAMES = 25


@dataclass
class Positions:
    """Kept decisions of a teacher: per part, the teacher's seat, the games copied at their
    decisions (one row each) and the teacher's answers ([n, w], w the game's widest answer,
    `answer_width`: an answer of several numbers in its first columns, an action in column
    0)."""

    players: int
    teacher: str
    #: per part: the teacher's seat, the copied games (the game's `Games`), the answers
    parts: list[tuple[int, Any, np.ndarray]] = field(default_factory=list)
    #: the game the positions are of
    game: str = field(kw_only=True)

    def __len__(self) -> int:
        return sum(len(a) for _, _, a in self.parts)

    def counts(self) -> dict[str, int]:
        """Kept decisions by kind."""
        out: dict[str, int] = {}
        for seat, games, _ in self.parts:
            for pend in games.pending():
                kind = pend.kind.value
                out[kind] = out.get(kind, 0) + int((pend.seat == seat).sum())
        return out


def _specs(teacher: str | StrategySpec, field_: str | StrategySpec, game: str
           ) -> tuple[StrategySpec, ...]:  # fmt: skip
    return tuple(s if isinstance(s, StrategySpec) else load_strategy(s, game)
                 for s in (teacher, field_))  # fmt: skip


def _kinds(kinds: Sequence[str] | None, game: str) -> frozenset[str]:
    """The imitated decision kinds (default: every kind), each known."""
    known = {k.value for k in load_game(game).Kind}
    names = list(kinds) if kinds else sorted(known)
    unknown = [k for k in names if k not in known]
    if unknown:
        raise UserError(f"unknown decision kinds {', '.join(unknown)} (kinds: "
                        f"{', '.join(sorted(known))})")  # fmt: skip
    return frozenset(names)


def answer_width(game: str) -> int:
    """The most numbers one answer of the game holds (its `ACTION_WIDTHS`' largest: 6 for
    Moai's bid, 1 for a game whose every kind is answered by one action)."""
    return max(load_game(game).ACTION_WIDTHS.values())


def _collect_task(rules: RulesLike, teacher: StrategySpec, field_: StrategySpec, seed: int,
                  seat: int, games: np.ndarray, kinds: frozenset[str]
                  ) -> tuple[int, Any, np.ndarray] | None:  # fmt: skip
    """Games `games` of root seed `seed` with the teacher at `seat`: its kept decisions."""
    players = [teacher() if q == seat else field_() for q in range(rules.players)]
    spec = game_of(rules)
    widths, widest = spec.ACTION_WIDTHS, answer_width(rules.game)
    g = spec.Games.new(rules, seed, games)
    copies: list[Any] = []
    answers: list[np.ndarray] = []
    while pending := g.pending():
        for pend in pending:
            mine = pend.seat == seat
            real = np.zeros(len(pend), dtype=bool)
            width = widths[pend.kind]
            if pend.kind.value in kinds:
                legal = pend.legal
                # several numbers, each bounded by the legal row: any bound above 0 is a choice
                choice = legal.any(axis=1) if width > 1 else legal.sum(axis=1) > 1
                real = mine & choice
            if real.any():  # copied before the answer: the same streams as the teacher's
                copies.append(g.clone(pend.rows[real]))
            act = np.asarray(g.answer(pend, players))
            if real.any():
                got = act[real]
                wide = np.zeros((len(got), widest), dtype=np.int64)
                wide[:, :width] = got.reshape(len(got), width)
                answers.append(wide)
            g.apply(pend, act)
    if not copies:
        return None
    return seat, spec.Games.stack(copies), np.concatenate(answers)


def collect(
    players: int,
    teacher: str | StrategySpec,
    field_: str | StrategySpec,
    games: int,
    seed: int,
    kinds: Sequence[str] | None = None,
    n_jobs: int = 1,
    *,
    game: str,
) -> Positions:
    """The teacher's kept decisions in `games` games of root seed `seed` against the field
    (game k: the teacher at seat k mod players), in tasks of at most `TASK_GAMES` games."""
    rules = load_game(game).make_rules(players)
    t_spec, f_spec = _specs(teacher, field_, game)
    wanted = _kinds(kinds, game)
    ids = np.arange(games)
    tasks = []
    for seat in range(players):
        mine = ids[ids % players == seat]
        for start in range(0, len(mine), TASK_GAMES):
            tasks.append((seat, mine[start : start + TASK_GAMES]))
    run = (delayed(_collect_task)(rules, t_spec, f_spec, seed, s, g, wanted) for s, g in tasks)
    got = Parallel(n_jobs=n_jobs)(run)
    return Positions(players, t_spec.label, [p for p in got if p is not None], game=game)


def matches(positions: Positions, student: StrategySpec) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per part of the positions: whether the student answers each kept decision as the
    teacher did [n] (asked through the same view with the same stream; an answer of several
    numbers: every one), and the decision's kind [n], in the part's row order."""
    out = []
    for seat, games, answers in positions.parts:
        g = games.clone()  # an exact copy: the same streams every time
        students = [student() for _ in range(positions.players)]
        ok = np.zeros(len(answers), dtype=bool)
        kind = np.empty(len(answers), dtype=object)
        for pend in g.pending():
            mine = pend.seat == seat
            act = np.asarray(g.answer(pend, students, seats=[seat]))[mine]
            want = answers[pend.rows[mine]]
            ok[pend.rows[mine]] = (act == want[:, 0] if act.ndim == 1
                                   else (act == want[:, : act.shape[1]]).all(axis=1))  # fmt: skip
            kind[pend.rows[mine]] = pend.kind.value
        out.append((ok, kind))
    return out


def agreement(positions: Positions, weights: Mapping[str, float] | StrategySpec
              ) -> tuple[float, dict[str, float]]:  # fmt: skip
    """The share of kept decisions where the student (heuristic weights, or any strategy
    spec) answers as the teacher did (every number of an answer of several), asked through
    the same view with the same stream; and the share by decision kind."""
    game = positions.game
    spec = weights if isinstance(weights, StrategySpec) else load_strategy(
        load_game(game).TUNABLE, game, weights=dict(weights))  # fmt: skip
    got = matches(positions, spec)
    if not got or not sum(len(ok) for ok, _ in got):
        raise UserError("no decision was kept to imitate (play more games)")
    ok = np.concatenate([o for o, _ in got])
    kind = np.concatenate([k for _, k in got])
    return float(ok.mean()), {k: float(ok[kind == k].mean()) for k in sorted(set(kind))}


def _check_fit(generations: int, popsize: int | None, sigma: float) -> None:
    """The fit's settings, each refused with one line."""
    for what, value, least in (("generations", generations, 1), ("popsize", popsize, 2)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < least):  # fmt: skip
            raise UserError(f"{what} must be a whole number of at least {least}, got {value!r}")
    if isinstance(sigma, bool) or not isinstance(sigma, int | float) or not 0 < sigma <= 10:
        raise UserError(f"sigma must be a number above 0 and at most 10, got {sigma!r}")


@dataclass
class FitResult:
    """Fitted weights (every weight), their agreement on the fitting positions, the start's,
    and a row per generation."""

    weights: dict[str, float]
    agreement: float
    start_agreement: float
    generations: int
    evaluations: int
    history: list[dict[str, float]] = field(default_factory=list)


def fit(
    positions: Positions,
    start: str | Path | Mapping[str, float] | None = None,
    names: Sequence[str] | None = None,
    generations: int = 30,
    popsize: int | None = None,
    sigma: float = 0.3,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> FitResult:
    """CMA-ES over the weights `names` (default all) from `start` (heuristic's defaults with
    a file's or a dict's weights over them), maximising the agreement on `positions`; the
    best candidate seen is the result (agreement is exact on these positions, not noisy)."""
    say = progress or (lambda _m: None)
    _check_fit(generations, popsize, sigma)
    first = tune.start_weights(start, positions.game)
    space = tune.WeightSpace(first, tune.tuned_names(names, positions.game), positions.game)
    weights = space.weights
    x0 = space.x0
    es = cma.CMAEvolutionStrategy(x0, sigma, tune.cma_options(seed, popsize))
    start_agree = agreement(positions, first)[0]
    best, best_x = start_agree, x0
    history: list[dict[str, float]] = []
    evaluations = 0
    t0 = time.perf_counter()
    for gen in range(1, generations + 1):
        xs = es.ask()
        scores = [agreement(positions, weights(x))[0] for x in xs]
        evaluations += len(xs)
        es.tell(xs, [1.0 - s for s in scores])
        k = int(np.argmax(scores))
        if scores[k] > best:
            best, best_x = scores[k], np.asarray(xs[k]).copy()
        history.append({"generation": gen, "best": best, "median": float(np.median(scores)),
                        "sigma": float(es.sigma), "evaluations": evaluations,
                        "seconds": round(time.perf_counter() - t0, 1)})  # fmt: skip
        say(f"distill: generation {gen}/{generations}: agreement best {best:.4f}, median "
            f"{np.median(scores):.4f}, sigma {es.sigma:.3f}")  # fmt: skip
    final = {k: tune.rounded(v) for k, v in weights(best_x).items()}
    return FitResult(final, agreement(positions, final)[0], start_agree, generations,
                     evaluations, history)  # fmt: skip


@dataclass
class DistillResult:
    """A distillation's outcome: the weights file and what was measured on held-out games."""

    path: Path
    players: int
    fit: FitResult
    decisions: int
    held_out_decisions: int
    held_out_agreement: float
    held_out_by_kind: dict[str, float]
    start_held_out_agreement: float
    strength: tune.Strength | None


def _positions(out: Path, key: dict[str, Any], make: Callable[[], Positions],
               say: Callable[[str], None], game: str) -> Positions:  # fmt: skip
    """Positions of `game` kept in `out` under a digest of their settings (the game's among
    them: `identity_game`) and of the strategies' code and parameters (made once, then
    reused while neither changes)."""
    specs = _specs(key["teacher"], key["field"], game)
    whole = json.dumps({**key, **identity_game(game), "code": fingerprint(specs)},
                       sort_keys=True, default=str)  # fmt: skip
    path = out / f"positions-{hashlib.sha256(whole.encode()).hexdigest()[:12]}.pkl"
    if path.exists():
        try:
            got = pickle.loads(path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as exc:
            raise UserError(f"{path}: not a positions file ({exc}); remove it") from None
        say(f"distill: {len(got):,} positions reused from {path}")
        return got
    t0 = time.perf_counter()
    got = make()
    write_atomic(path, pickle.dumps(got), "positions")
    say(f"distill: {len(got):,} decisions kept from {key['games']} games of root seed "
        f"{key['seed']} in {time.perf_counter() - t0:.0f} s")  # fmt: skip
    return got


def distill(
    players: int,
    out: str | Path,
    teacher: str = "search",
    field_: str = "L3",
    games: int = 120,
    held_out_games: int = 60,
    start: str | Path | None = None,
    names: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    generations: int = 30,
    popsize: int | None = None,
    sigma: float = 0.3,
    seed: int = 0,
    strength_games: int = 500,
    n_jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    command: str | None = None,
    *,
    game: str,
) -> DistillResult:
    """Distil the teacher at `players` players into `out/distilled-<P>p.toml` (see the
    module's docstring): positions from `games` games (root seed `seed`; kept in `out` and
    reused), the fit, agreement on `held_out_games` games of root seed seed + 1, and the
    fitted weights' win share against the field over `strength_games` games per seat
    rotation (0: not played). `field_` may be a skill level (L0-L4) or a strategy spec."""
    say = progress or (lambda _m: None)
    check_jobs(n_jobs)
    for what, value in (("games", games), ("held-out games", held_out_games)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UserError(f"{what} must be a positive whole number, got {value!r}")
    if (
        isinstance(strength_games, bool)
        or not isinstance(strength_games, int)
        or strength_games < 0
    ):
        raise UserError(f"strength games must be a whole number, got {strength_games!r}")
    _check_fit(generations, popsize, sigma)
    rules = load_game(game).make_rules(players)
    field_spec = level_or_spec(field_, players, game)
    t_spec = level_or_spec(teacher, players, game)
    _specs(t_spec, field_spec, game)  # each spec checked before anything is written
    _kinds(kinds, game)
    first = tune.start_weights(start, game)  # read once: a missing or bad file is one line now
    tune.tuned_names(names, game)
    out = Path(out)
    make_dir(out)
    base = {"players": players, "teacher": t_spec, "field": field_spec,
            "kinds": sorted(_kinds(kinds, game))}  # fmt: skip
    train = _positions(out, {**base, "games": games, "seed": seed},
                       lambda: collect(players, t_spec, field_spec, games, seed, kinds, n_jobs,
                                       game=game), say, game)  # fmt: skip
    held = _positions(out, {**base, "games": held_out_games, "seed": seed + 1},
                      lambda: collect(players, t_spec, field_spec, held_out_games, seed + 1,
                                      kinds, n_jobs, game=game), say, game)  # fmt: skip
    result = fit(train, first, names, generations, popsize, sigma, seed, say)
    held_agree, by_kind = agreement(held, result.weights)
    start_held = agreement(held, first)[0]
    power = None
    if strength_games:
        say(f"distill: the fitted weights against {field_} ({strength_games} games a seat)")
        power = tune.strength(players, tune.candidate(result.weights, "distilled", game=game),
                              field_spec, strength_games, seed + 2, rules,
                              game=game)  # fmt: skip
    path = out / f"distilled-{players}p.toml"
    got = DistillResult(path, players, result, len(train), len(held), held_agree, by_kind,
                        start_held, power)  # fmt: skip
    _write(path, got, players, t_spec, field_spec, seed, games, held_out_games, start,
           command or "", game)  # fmt: skip
    return got


def _write(path: Path, got: DistillResult, players: int, teacher: str, field_: str,
           seed: int, games: int, held_out_games: int, start: str | Path | None,
           command: str, game: str) -> None:  # fmt: skip
    """The weights file: how it was made and what was measured, then `[weights]`."""
    f = got.fit
    notes: dict[str, Any] = {
        "command": command,
        "players": players,
        "teacher": teacher,
        "field": field_,
        "start": str(start) if start is not None else "heuristic defaults",
        "seed": seed,
        "games": games,
        "decisions": got.decisions,
        "generations": f.generations,
        "evaluations": f.evaluations,
        "agreement": round(f.agreement, 4),
        "start_agreement": round(f.start_agreement, 4),
        "held_out_seed": seed + 1,
        "held_out_games": held_out_games,
        "held_out_decisions": got.held_out_decisions,
        "held_out_agreement": round(got.held_out_agreement, 4),
        "start_held_out_agreement": round(got.start_held_out_agreement, 4),
    }
    if got.strength is not None:
        s = got.strength
        notes.update({"strength_games": s.games, "win_share": round(s.share, 4),
                      "win_share_interval": [round(s.low, 4), round(s.high, 4)]})  # fmt: skip
    notes["made"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    against = (f" Against {field_}: win share {notes['win_share']} "
               f"{notes['win_share_interval']} over {notes['strength_games']} games."
               if got.strength is not None else "")  # fmt: skip
    header = [
        f"# Weights of the `heuristic` strategy distilled from {teacher} at {players} players "
        f"by `moaisim distill` ({notes['made']}).",
        f"# Made by: {command}",
        f"# Agreement with the teacher on held-out decisions: {notes['held_out_agreement']} "
        f"(start: {notes['start_held_out_agreement']}).{against}",
    ]
    tune.write_weights_file(path, f.weights, "distilled", notes, header,
                            load_game(game).WEIGHTS, game=game)  # fmt: skip


def summary(got: DistillResult) -> str:
    """What `moaisim distill` prints at the end."""
    lines = [f"distilled weights: {got.path}",
             f"  agreement with the teacher: {got.fit.agreement:.3f} on {got.decisions:,} "
             f"fitting decisions (start {got.fit.start_agreement:.3f}); "
             f"{got.held_out_agreement:.3f} on {got.held_out_decisions:,} held-out decisions "
             f"(start {got.start_held_out_agreement:.3f})",
             "  by kind (held out): "
             + ", ".join(f"{k} {v:.3f}" for k, v in got.held_out_by_kind.items())]  # fmt: skip
    if got.strength is not None:
        s = got.strength
        lines.append(
            f"  against the field: win share {s.share:.3f} [{s.low:.3f}, {s.high:.3f}] "
            f"over {s.games:,} games (fair {1 / got.players:.3f})"
        )
    lines.append(f"  play it: heuristic(weights={got.path})")
    return "\n".join(lines)


__all__ = ["DistillResult", "FitResult", "Positions", "agreement", "answer_width", "collect",
           "distill", "fit", "matches", "summary"]  # fmt: skip
