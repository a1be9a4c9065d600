"""A learned policy from search (`moaisim learn`): expert iteration with scikit-learn.

Distillation into the heuristic family (`moaisim distill`) could not follow search: one weight
vector agreed with it on about half of its decisions, no better than its start. A learned
policy chooses, decision by decision, **which of several strategies** decides: its experts
(the shipped weight vectors: L3's members, `tuned`, the plans; `greedy`). Each iteration:

1. **Positions.** The teacher (search) plays one seat against the field, seats rotating; every
   decision with a real choice is kept as an exact copy of the game with the teacher's answer
   (`distill.collect`).
2. **Table.** At each kept decision: the seat's context (the game's learned strategy's
   `context`: the kind, the round, its score and lead, its wood, hand, pawns and statues...,
   read by the kernel the policy reads in play), and for each expert whether it answers as
   the teacher did (asked through the same view, on the same stream).
3. **Fit.** One gradient-boosted classifier per expert (scikit-learn's
   `GradientBoostingClassifier`): the log-odds that the expert agrees with the teacher in that
   context. The policy asks the expert of the largest log-odds. The trees are written node by
   node to a model file (`learned-<P>p-<i>.json`), which the compiled policy reads.
4. **Measured** on positions of other games (root seed + 1): the agreement of the policy as it
   plays (asked through views, compiled), each expert's own, and the best any gate could reach
   (some expert agrees); then its win share against the field (seats rotated, root seed + 2).
5. **Next targets.** The next iteration's teacher is search with this policy as its rollout
   policy and opponent model (`search(rollout=..., opponents=...)`): its decisions are the
   next targets, and so on.

Positions are kept in the run directory under a digest of their settings and of the
strategies' code (reused while neither changes), so an interrupted run resumes.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier

from moaisim.errors import UnknownStrategyError, UserError
from moaisim.files import GAME_KEY, write_atomic
from moaisim.games import load_game
from moaisim.registry import StrategySpec, level_or_spec, load_strategy, strategy_class
from moaisim.rundir import make_dir
from moaisim.runner import check_jobs
from moaisim.studies import distill, tune

#: The gate's boosting: trees per expert, their depth and the learning rate.
TREES, DEPTH, RATE = 100, 3, 0.1
#: An expert that agrees with the teacher at every kept decision (or at none): its log-odds.
SURE = 20.0


@dataclass
class Table:
    """Kept decisions as the gate learns them: the seat's context [n, F] and whether each
    expert answers as the teacher did [n, K]."""

    x: np.ndarray
    agree: np.ndarray

    def __len__(self) -> int:
        return len(self.x)


def learned_class(game: str) -> type:
    """The game's learned strategy class (`learned`), or a `UserError` for a game without one."""
    try:
        return strategy_class("learned", game)
    except UnknownStrategyError:
        raise UserError(f"{game} has no learned policy (`learned`) yet") from None


def alone(expert: str, players: int, folder: Path, game: str) -> StrategySpec:
    """An expert as the learned policy asks it: a model of that expert alone (no tree), so
    that it decides on the policy's sub-stream, drawing what it draws inside the policy
    (`compiled.learned.enter`); its model file written into `folder`."""
    doc = model_doc(players, [expert], [{"constant": 0.0, "trees": []}],
                    {"note": "one expert alone (moaisim learn's labels)"}, game)  # fmt: skip
    text = json.dumps(doc) + "\n"
    path = folder / f"expert-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"
    if not path.is_file():
        write_atomic(path, text.encode(), "model")
    return load_strategy(f"learned(model={str(path.resolve())!r})", game)


def table(positions: distill.Positions, experts: Sequence[StrategySpec]) -> Table:
    """The positions' contexts and each expert's agreement with the teacher's answers (each
    expert asked as the learned policy asks it: `alone`; `distill.matches`)."""
    game, players = positions.game, positions.players
    cls = learned_class(game)
    probe = _probe(load_game(game).Strategy, cls.context, load_game(game).Kind)
    xs = []
    for seat, games, answers in positions.parts:
        x = np.full((len(answers), len(cls.CONTEXT)), np.nan)
        g = games.clone()
        for pend in g.pending():
            probe.rows.clear()
            g.answer(pend, [probe] * players, seats=[seat])
            x[pend.rows[pend.seat == seat]] = np.concatenate(probe.rows)
        xs.append(x)
    if not xs:
        raise UserError("no decision was kept to learn from (play more games)")
    agree = [np.concatenate([ok for ok, _ in distill.matches(positions, e)]) for e in experts]
    return Table(np.concatenate(xs), np.column_stack(agree))


def _probe(base: type, context: Callable[[Any], np.ndarray], kinds: Any) -> Any:
    """A seat that records the context of each view it is asked (then answers at random)."""

    def ask(self: Any, view: Any) -> np.ndarray:
        self.rows.append(context(view))
        return base.by_policy(self, view)

    cls = type("ContextProbe", (base,), {"name": "probe", **{k.value: ask for k in kinds}})
    probe = cls()
    probe.rows = []
    return probe


# --- the fit ---------------------------------------------------------------------------------
def ensemble(x: np.ndarray, y: np.ndarray, trees: int, depth: int, rate: float, seed: int
             ) -> dict[str, Any]:  # fmt: skip
    """One expert's ensemble: scikit-learn's gradient boosting of the log-odds that the
    expert agrees (y) in context x, as the model file writes it (each tree's nodes, its leaf
    values times the learning rate, and the constant before any tree). An expert that always
    (never) agrees: no tree, log-odds +-`SURE`."""
    if y.all() or not y.any():
        return {"constant": SURE if y.all() else -SURE, "trees": []}
    model = GradientBoostingClassifier(n_estimators=trees, max_depth=depth, learning_rate=rate,
                                       random_state=seed)  # fmt: skip
    model.fit(x, y)
    out = []
    for est in model.estimators_[:, 0]:
        t = est.tree_
        leaf = t.children_left < 0
        out.append({
            "feature": np.where(leaf, -1, t.feature).tolist(),
            "threshold": np.where(leaf, 0.0, t.threshold).tolist(),
            "left": t.children_left.tolist(),
            "right": t.children_right.tolist(),
            "value": (rate * t.value[:, 0, 0]).tolist(),
        })  # fmt: skip
    first = x[:1]
    raw = float(model.decision_function(first)[0])
    trees_sum = sum(rate * float(est.predict(first)[0]) for est in model.estimators_[:, 0])
    return {"constant": raw - trees_sum, "trees": out}


def log_odds(ens: dict[str, Any], x: np.ndarray) -> np.ndarray:
    """An ensemble's log-odds at each row of x (its constant plus each tree's leaf)."""
    total = np.full(len(x), float(ens["constant"]))
    for tree in ens["trees"]:
        f, thr = np.asarray(tree["feature"]), np.asarray(tree["threshold"])
        left, right, v = (np.asarray(tree[k]) for k in ("left", "right", "value"))
        node = np.zeros(len(x), dtype=np.int64)
        while True:
            inner = f[node] >= 0
            if not inner.any():
                break
            # scikit-learn compares the row as float32 with the float64 threshold
            row = x[np.arange(len(x)), np.maximum(f[node], 0)].astype(np.float32)
            go_left = row.astype(np.float64) <= thr[node]
            node = np.where(inner, np.where(go_left, left[node], right[node]), node)
        total += v[node]
    return total


def gate(ensembles: Sequence[dict[str, Any]], x: np.ndarray) -> np.ndarray:
    """The expert the policy asks at each row of x: the largest log-odds (ties: the first)."""
    return np.argmax(np.column_stack([log_odds(e, x) for e in ensembles]), axis=1)


def model_doc(players: int, experts: Sequence[str], ensembles: list[dict[str, Any]],
              made: dict[str, Any], game: str) -> dict[str, Any]:  # fmt: skip
    """A model file's document, naming its game (`GAME_KEY`: another game's strategies
    refuse it)."""
    cls = learned_class(game)
    return {"format": cls.FORMAT, GAME_KEY: game, "players": players, "experts": list(experts),
            "context": list(cls.CONTEXT), "made": made, "ensembles": ensembles}  # fmt: skip


# --- the study -------------------------------------------------------------------------------
@dataclass
class Round:
    """One iteration of expert iteration: its teacher, its model file and what it measured."""

    teacher: str
    path: Path
    decisions: int
    held_out_decisions: int
    agreement: float  # on held-out decisions, the policy as it plays
    ceiling: float  # some expert agrees
    experts: dict[str, float]  # each expert's own held-out agreement
    strength: tune.Strength | None
    seconds: float = 0.0


@dataclass
class LearnResult:
    """The rounds of a `moaisim learn` run (the last one's model is the result)."""

    players: int
    rounds: list[Round] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return self.rounds[-1].path


def check_settings(counts: Sequence[tuple[str, Any, int]], rate: Any) -> None:
    """A study's whole-number settings (name, value, least) and its learning rate (above 0,
    at most 1), each a one-line `UserError` when wrong (`learn`, `rank`)."""
    for what, value, least in counts:
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UserError(f"{what} must be a whole number of at least {least}, got {value!r}")
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 < rate <= 1:
        raise UserError(f"the learning rate must be above 0 and at most 1, got {rate!r}")


def _check(games: int, held_out_games: int, iterations: int, strength_games: int,
           trees: int, depth: int, rate: float, experts: Sequence[str]) -> None:  # fmt: skip
    check_settings((("games", games, 1), ("held-out games", held_out_games, 1),
                    ("iterations", iterations, 1), ("strength games", strength_games, 0),
                    ("trees", trees, 1), ("depth", depth, 1)), rate)  # fmt: skip
    if len(experts) < 2 or len(set(experts)) != len(experts):
        raise UserError("give at least two distinct experts")


def learn(
    players: int,
    out: str | Path,
    experts: Sequence[str],
    teacher: str = "search",
    field_: str = "L3",
    games: int = 120,
    held_out_games: int = 60,
    iterations: int = 1,
    trees: int = TREES,
    depth: int = DEPTH,
    rate: float = RATE,
    seed: int = 0,
    strength_games: int = 300,
    n_jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    command: str | None = None,
    *,
    game: str,
) -> LearnResult:
    """Expert iteration at `players` players (see the module's docstring): `iterations`
    rounds, the first taught by `teacher`, each next by search with the last policy as its
    rollout policy and opponent model; each round's model `out/learned-<P>p-<i>.json`, the
    last copied to `out/learned-<P>p.json`."""
    say = progress or (lambda _m: None)
    check_jobs(n_jobs)
    _check(games, held_out_games, iterations, strength_games, trees, depth, rate, experts)
    cls = learned_class(game)
    if "gate" not in getattr(cls, "MODES", ("gate",)):
        raise UserError(f"{game}'s learned policy is a ranker only (--mode ranker)")
    if len(experts) > cls.MAX_EXPERTS:
        raise UserError(f"a learned policy has at most {cls.MAX_EXPERTS} experts")
    specs = [load_strategy(e, game) for e in experts]
    labels = [s.label for s in specs]
    field_spec = level_or_spec(field_, players, game)
    first_teacher = level_or_spec(teacher, players, game)
    load_strategy(first_teacher, game)
    out = Path(out)
    make_dir(out)
    result = LearnResult(players)
    now_teacher = first_teacher
    for i in range(iterations):
        t0 = time.perf_counter()
        say(f"learn {players}p, round {i}: positions of {now_teacher}")
        base = {"players": players, "teacher": now_teacher, "field": field_spec,
                "kinds": sorted(k.value for k in load_game(game).Kind)}  # fmt: skip
        train = distill._positions(out, {**base, "games": games, "seed": seed},  # noqa: SLF001
                                   lambda t=now_teacher: distill.collect(
                                       players, t, field_spec, games, seed, None, n_jobs,
                                       game=game), say, game)  # fmt: skip
        held = distill._positions(out, {**base, "games": held_out_games, "seed": seed + 1},  # noqa: SLF001
                                  lambda t=now_teacher: distill.collect(
                                      players, t, field_spec, held_out_games, seed + 1, None,
                                      n_jobs, game=game), say, game)  # fmt: skip
        say(f"learn {players}p, round {i}: {len(train):,} decisions, {len(held):,} held out: "
            f"each of {len(specs)} experts asked at each")  # fmt: skip
        make_dir(out / "experts")
        asked = [alone(lab, players, out / "experts", game) for lab in labels]
        fit_t, held_t = table(train, asked), table(held, asked)
        ensembles = [ensemble(fit_t.x, fit_t.agree[:, k], trees, depth, rate, seed)
                     for k in range(len(specs))]  # fmt: skip
        chosen = gate(ensembles, held_t.x)
        predicted = float(held_t.agree[np.arange(len(held_t)), chosen].mean())
        made = {"command": command or "", "teacher": now_teacher, "field": field_spec,
                "games": games, "seed": seed, "decisions": len(fit_t),
                "held_out_games": held_out_games, "held_out_decisions": len(held_t),
                "held_out_agreement": round(predicted, 4),
                "held_out_ceiling": round(float(held_t.agree.any(axis=1).mean()), 4),
                "experts_held_out_agreement": {lab: round(float(held_t.agree[:, k].mean()), 4)
                                               for k, lab in enumerate(labels)},
                "trees": trees, "depth": depth, "rate": rate,
                "made": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}  # fmt: skip
        path = out / f"learned-{players}p-{i}.json"
        doc = model_doc(players, labels, ensembles, made, game)
        write_atomic(path, (json.dumps(doc, indent=None) + "\n").encode(), "model")
        spec = f"learned(model={str(path.resolve())!r})"
        played, _ = distill.agreement(held, load_strategy(spec, game))
        if abs(played - predicted) > 1e-12:  # the compiled gate must read what was trained
            raise RuntimeError(f"the policy as it plays agrees {played:.4f} with the teacher, "
                               f"its trees predicted {predicted:.4f}")  # fmt: skip
        power = None
        if strength_games:
            say(f"learn {players}p, round {i}: the policy against {field_} "
                f"({strength_games} games a seat)")  # fmt: skip
            power = tune.strength(players, spec, field_spec, strength_games, seed + 2,
                                  game=game)  # fmt: skip
        result.rounds.append(Round(now_teacher, path, len(fit_t), len(held_t), predicted,
                                   made["held_out_ceiling"], made["experts_held_out_agreement"],
                                   power, time.perf_counter() - t0))  # fmt: skip
        now_teacher = f"search(rollout={spec!r}, opponents={spec!r})"
    last = result.rounds[-1].path
    final = out / f"learned-{players}p.json"
    write_atomic(final, last.read_bytes(), "model")
    result.rounds[-1].path = final
    return result


def summary(got: LearnResult) -> str:
    """What `moaisim learn` prints at the end."""
    lines = []
    for i, r in enumerate(got.rounds):
        best = max(r.experts.items(), key=lambda kv: kv[1])
        lines.append(f"round {i} (teacher {r.teacher}): held-out agreement {r.agreement:.3f} "
                     f"over {r.held_out_decisions:,} decisions (best single expert {best[0]} "
                     f"{best[1]:.3f}; some expert agrees {r.ceiling:.3f})")  # fmt: skip
        if r.strength is not None:
            s = r.strength
            fair = 1 / got.players
            lines.append(f"  against the field: win share {s.share:.3f} [{s.low:.3f}, "
                         f"{s.high:.3f}] over {s.games:,} games (fair {fair:.3f})")  # fmt: skip
    lines.append(f"model: {got.path} (play it: learned(model={str(got.path)!r}))")
    return "\n".join(lines)
