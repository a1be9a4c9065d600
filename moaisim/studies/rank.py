"""A ranker learned from search (`moaisim learn --mode ranker`): expert iteration over the
experts' proposals, valued by search's rollouts.

The gate (`moaisim.studies.learn`) picks one expert from the seat's context alone, and could
not follow search. A **ranker** asks every expert (shipped heuristic weight vectors, the plans,
`greedy`) at each decision, keeps their distinct proposals as candidates, and plays the one its
boosted trees value most. Each candidate's features are the seat's context and the
candidate's own (which experts proposed it, how many did, the action or the bid's cards: the
game's `RANK`), computed by the kernels the policy plays with. Each iteration:

1. **Teacher.** Search (the game's `search`) whose candidates at each decision are the
   current ranker's (its experts' proposals, read by the ranker's own kernels), with the
   current ranker as its rollout policy (round 0: the ranker without trees, which plays its
   first expert's proposal), plays one seat against the field, seats rotating. Every
   searched decision is kept: each candidate's features and its mean rollout value.
2. **Fit.** scikit-learn's `HistGradientBoostingRegressor` on each candidate's value less its
   decision's mean (what differs between the candidates, not how good the position is), over
   the decisions of this round and of the `history` - 1 rounds before it. The trees are
   written node by node to a model file (`learned-<P>p-<i>.json`, mode "ranker").
3. **Checked and measured.** The ranker as it plays (its compiled kernels) chooses, at every
   decision of games against the field, the candidate that scikit-learn's own prediction
   ranks first (`verify`: a mismatch stops the run); its held-out agreement with search's
   choice and its regret in search's values (decisions of other games, root seed + 1); its
   win share against the field (root seed + 2).
4. **Next teacher**: search over the new ranker's candidates with it as rollout policy.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from sklearn.ensemble import HistGradientBoostingRegressor

from moaisim.engine.search import proposer_stream
from moaisim.errors import UnknownStrategyError, UserError
from moaisim.files import GAME_KEY, write_atomic
from moaisim.fingerprint import fingerprint
from moaisim.games import load_game
from moaisim.learned_model import CANDIDATES
from moaisim.mixture_parts import sub_view
from moaisim.registry import StrategySpec, level_or_spec, load_strategy, strategy_class
from moaisim.rng import Draws
from moaisim.rundir import identity_game, make_dir
from moaisim.runner import check_jobs
from moaisim.studies import tune
from moaisim.studies.learn import check_settings

#: The ranker's boosting: trees, leaves per tree and the learning rate.
TREES, LEAVES, RATE = 200, 31, 0.05
#: Games a worker plays in one task while decisions are kept.
TASK_GAMES = 10


def ranker_class(game: str) -> type:
    """The game's learned strategy class, when it can rank (`candidates`, `RANK`)."""
    try:
        cls = strategy_class("learned", game)
    except UnknownStrategyError:
        cls = None
    if cls is None or not hasattr(cls, "candidates") or not hasattr(cls, "RANK"):
        raise UserError(f"{game} has no learned ranker yet (its `learned` cannot rank)")
    return cls


def ranker_doc(players: int, experts: Sequence[str], ens: dict[str, Any], made: dict[str, Any],
               game: str, kinds: Sequence[str] | None = None,
               candidates: str = CANDIDATES[0]) -> dict[str, Any]:  # fmt: skip
    """A ranker's model file document (the game's learned format, mode "ranker"), ranking
    `kinds` (None: those the game's search searches by default; at the others the ranker
    plays its first expert's proposal) among `candidates` (`learned_model.CANDIDATES`: the
    experts' proposals, written only when it is not that default, or every legal action)."""
    cls = ranker_class(game)
    if kinds is None:
        kinds = searched_kinds(game)
    doc = {"format": cls.FORMAT, GAME_KEY: game, "players": players, "mode": "ranker",
           "experts": list(experts), "kinds": list(kinds), "context": list(cls.RANK),
           "made": made, "ensembles": [ens]}  # fmt: skip
    if candidates != CANDIDATES[0]:
        doc["candidates"] = candidates
    return doc


def searched_kinds(game: str) -> list[str]:
    """The decision kinds the game's search searches by default (what a ranker learns)."""
    said = str(strategy_class("search", game).params["search"])
    every = [k.value for k in load_game(game).Kind]
    return every if said == "every" else [k.strip() for k in said.split(",") if k.strip()]


def write_model(path: Path, doc: dict[str, Any]) -> str:
    """Write a model file; returns the spec that plays it."""
    write_atomic(path, (json.dumps(doc) + "\n").encode(), "model")
    return f"learned(model={str(path.resolve())!r})"


# --- the teacher -----------------------------------------------------------------------------
@cache
def teacher_class(game: str) -> type:
    """The game's search, its candidates at each decision the ranker's (`ranker`: a model
    file's spec), each searched decision's candidates' features kept in `features` beside
    `record`'s values."""
    base = strategy_class("search", game)

    class Teacher(base):  # type: ignore[misc, valid-type]
        name = "teacher"
        params = {**base.params, "propose": "", "ranker": ""}

        def __init__(self, **params: Any) -> None:
            super().__init__(**params)
            self._ranker = load_strategy(str(self.ranker), game)()
            self.record, self.features = [], []

        def check_players(self, players: int) -> None:
            super().check_players(players)
            self._ranker.check_players(players)

        def _drawn(self, view: Any, base_: np.ndarray, seeds: np.ndarray) -> list:
            """The games to search: the ranker's candidates, asked where its first proposer
            would draw (the seat's stream does not move); a game with one left out."""
            rows, proposed, _ = self._ranker.candidates(
                sub_view(view, np.arange(len(view)), proposer_stream(view, 0))
            )
            tasks = []
            for row, (x, cands) in enumerate(zip(rows, proposed, strict=True)):
                if len(cands) > 1:
                    tasks.append((row, cands, Draws(int(seeds[row]))))
                    self.features.append(x)
                else:
                    self.agreed += 1
            return tasks

    Teacher.__name__ = Teacher.__qualname__ = f"Teacher[{game}]"
    return Teacher


@dataclass
class Decisions:
    """Kept decisions: each candidate's features [n, F], its value less its decision's mean
    [n], its decision's number [n] and whether search chose it [n]."""

    x: np.ndarray
    value: np.ndarray
    group: np.ndarray
    chosen: np.ndarray

    def __len__(self) -> int:
        return int(self.group.max()) + 1 if len(self.group) else 0


def _record_task(players: int, ranker: str, field_: StrategySpec, seed: int, seat: int,
                 games: np.ndarray, worlds: int, game: str) -> list:  # fmt: skip
    spec = load_game(game)
    seats = [field_() for _ in range(players)]
    teacher = teacher_class(game)(ranker=ranker, rollout=ranker, opponents=field_.label,
                                  worlds=worlds)  # fmt: skip
    seats[seat] = teacher
    spec.Games.new(spec.make_rules(players), seed, games).play(seats)
    return [(d.game, x, d.means, d.chosen)
            for d, x in zip(teacher.record, teacher.features, strict=True)]  # fmt: skip


def kept(out: Path, players: int, ranker: str, field_: StrategySpec, games: int, seed: int,
         worlds: int, n_jobs: int, say: Callable[[str], None], *, game: str
         ) -> Decisions:  # fmt: skip
    """`record`'s decisions, kept in `out` under a digest of their settings, the ranker's
    model (but when it was made) and the code and parameters of the strategies (made once,
    then reused while none changes: an interrupted run resumes)."""
    specs = [load_strategy(ranker, game), field_]
    doc = json.loads(Path(dict(specs[0].params)["model"]).read_text(encoding="utf-8"))
    doc.pop("made", None)
    key = {"players": players, "field": field_.label, "games": games, "seed": seed,
           "worlds": worlds, "model": doc,
           **identity_game(game), "code": fingerprint(specs)}  # fmt: skip
    whole = json.dumps(key, sort_keys=True, default=str)
    path = out / f"decisions-{hashlib.sha256(whole.encode()).hexdigest()[:12]}.npz"
    if path.exists():
        try:
            with np.load(path) as f:
                got = Decisions(f["x"], f["value"], f["group"], f["chosen"])
        except (OSError, ValueError, KeyError) as exc:
            raise UserError(f"{path}: not a decisions file ({exc}); remove it") from None
        say(f"rank: {len(got):,} decisions reused from {path}")
        return got
    got = record(players, ranker, field_, games, seed, worlds, n_jobs, game=game)
    buf = io.BytesIO()
    np.savez(buf, x=got.x, value=got.value, group=got.group, chosen=got.chosen)
    write_atomic(path, buf.getvalue(), "decisions")
    return got


def record(players: int, ranker: str, field_: StrategySpec, games: int, seed: int, worlds: int,
           n_jobs: int, *, game: str) -> Decisions:  # fmt: skip
    """The teacher's searched decisions in `games` games of root seed `seed` against the
    field (game k: the teacher at seat k mod players)."""
    ids = np.arange(games)
    tasks = [
        (s, mine[k : k + TASK_GAMES])
        for s in range(players)
        for mine in [ids[ids % players == s]]
        for k in range(0, len(mine), TASK_GAMES)
    ]
    got = Parallel(n_jobs=n_jobs)(
        delayed(_record_task)(players, ranker, field_, seed, s, g, worlds, game) for s, g in tasks
    )
    found = sorted((d for part in got for d in part), key=lambda d: d[0])
    xs, values, groups, chosen = [], [], [], []
    for i, (_, x, means, pick) in enumerate(found):
        xs.append(x)
        values.append(means - means.mean())
        groups.append(np.full(len(x), i))
        chosen.append(np.arange(len(x)) == pick)
    if not xs:
        raise UserError("search kept no decision to learn from (play more games)")
    return Decisions(np.concatenate(xs), np.concatenate(values), np.concatenate(groups),
                     np.concatenate(chosen))  # fmt: skip


# --- the fit ---------------------------------------------------------------------------------
def fit(d: Decisions, trees: int, leaves: int, rate: float, seed: int
        ) -> tuple[HistGradientBoostingRegressor, dict[str, Any]]:  # fmt: skip
    """The ranker's ensemble: scikit-learn's histogram gradient boosting of each candidate's
    value less its decision's mean, and the model file's form of it (each tree's nodes,
    scikit-learn's leaf values, its baseline as the constant)."""
    model = HistGradientBoostingRegressor(max_iter=trees, max_leaf_nodes=leaves,
                                          learning_rate=rate, random_state=seed)  # fmt: skip
    model.fit(d.x, d.value)
    out = []
    for (tree,) in model._predictors:  # noqa: SLF001 - the fitted trees, node by node
        n = tree.nodes
        if n["is_categorical"].any():
            raise RuntimeError("a categorical split cannot be written to a model file")
        leaf = n["is_leaf"].astype(bool)
        out.append({
            "feature": np.where(leaf, -1, n["feature_idx"]).astype(int).tolist(),
            "threshold": np.where(leaf, 0.0, n["num_threshold"]).tolist(),
            "left": np.where(leaf, 0, n["left"]).astype(int).tolist(),
            "right": np.where(leaf, 0, n["right"]).astype(int).tolist(),
            "value": np.where(leaf, n["value"], 0.0).tolist(),
        })  # fmt: skip
    constant = float(np.ravel(model._baseline_prediction)[0])  # noqa: SLF001
    return model, {"constant": constant, "trees": out}


def best_of(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Per decision, whether each candidate is the first of the largest value [n]."""
    out = np.zeros(len(values), dtype=bool)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    for a, b in zip(starts, np.r_[starts[1:], len(group)], strict=True):
        out[a + int(np.argmax(values[a:b]))] = True
    return out


def agreement(scores: np.ndarray, d: Decisions) -> tuple[float, float]:
    """How often the best-scored candidate is search's choice, and the mean regret in
    search's values (the best candidate's value less the one scored best)."""
    pick = best_of(scores, d.group)
    top = np.zeros(len(d)) - np.inf
    np.maximum.at(top, d.group, d.value)
    return float(d.chosen[pick].mean()), float((top - d.value[pick]).mean())


# --- the check: compiled play is the model's prediction --------------------------------------
def verify(players: int, spec: str, model: HistGradientBoostingRegressor,
           field_: StrategySpec, games: int, seed: int, *, game: str) -> int:  # fmt: skip
    """Play `games` games of the ranker (seat 0) against the field, its decisions asked
    through views; at each, the candidate its compiled kernels choose must be the first of
    scikit-learn's largest prediction over the same feature rows (at a kind it does not rank,
    the first candidate). Returns the decisions checked; a mismatch raises."""
    cls = load_strategy(spec, game).cls
    checked, wrong = [0], []

    def ask(self: Any, view: Any) -> Any:
        rows, _, chosen = self.candidates(view)
        for r, x in enumerate(rows):
            if len(x) > 1:
                ranks = view.kind.value in self.doc["kinds"]  # else: the first expert's
                want = int(np.argmax(model.predict(x))) if ranks else 0
                if want != int(chosen[r]):
                    wrong.append((view.kind.value, int(view.games[r]), int(chosen[r]), want))
                checked[0] += 1
        return cls.by_policy(self, view)

    kinds = load_game(game).Kind
    probe = type("RankProbe", (cls,), {k.value: ask for k in kinds})
    made = load_strategy(spec, game)
    seats = [probe(**dict(made.params))] + [field_() for _ in range(players - 1)]
    g = load_game(game).Games.new(load_game(game).make_rules(players), seed, np.arange(games))
    g.play(seats)
    if wrong:
        kind, number, got, want = wrong[0]
        raise RuntimeError(f"the ranker as it plays chose candidate {got} at a {kind} decision "
                           f"of game {number} (seed {seed}), its trees predict candidate {want} "
                           f"({len(wrong)} of {checked[0]} decisions differ)")  # fmt: skip
    return checked[0]


# --- the study -------------------------------------------------------------------------------
@dataclass
class Round:
    """One iteration: its teacher, the model file and what it measured."""

    teacher: str
    path: Path
    decisions: int
    held_out_decisions: int
    agreement: float  # the ranker's best candidate is search's, held out
    regret: float  # search's value of its best candidate less the ranker's, held out
    first_agreement: float  # the first expert's proposal (the ranker without trees)
    first_regret: float
    checked: int  # decisions where compiled play was checked against the trees
    strength: tune.Strength | None
    seconds: float = 0.0


@dataclass
class RankResult:
    """The rounds of a ranker's expert iteration (the last one's model is the result)."""

    players: int
    rounds: list[Round] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return self.rounds[-1].path


def rank(
    players: int,
    out: str | Path,
    experts: Sequence[str],
    field_: str = "L3",
    games: int = 600,
    held_out_games: int = 150,
    iterations: int = 1,
    worlds: int = 12,
    trees: int = TREES,
    leaves: int = LEAVES,
    rate: float = RATE,
    seed: int = 0,
    strength_games: int = 300,
    check_games: int = 20,
    history: int = 1,
    n_jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    command: str | None = None,
    candidates: str = CANDIDATES[0],
    *,
    game: str,
) -> RankResult:
    """Expert iteration of a ranker at `players` players (the module's docstring): each
    round's model `out/learned-<P>p-<i>.json`, the last copied to `out/learned-<P>p.json`."""
    say = progress or (lambda _m: None)
    check_jobs(n_jobs)
    check_settings((("games", games, 1), ("held-out games", held_out_games, 1),
                    ("iterations", iterations, 1), ("worlds", worlds, 1), ("trees", trees, 1),
                    ("leaves", leaves, 2), ("strength games", strength_games, 0),
                    ("check games", check_games, 0), ("history", history, 1)), rate)  # fmt: skip
    cls = ranker_class(game)
    if not 1 <= len(experts) <= cls.MAX_EXPERTS or len(set(experts)) != len(experts):
        raise UserError(f"give 1 to {cls.MAX_EXPERTS} distinct experts")
    allowed = getattr(cls, "CANDIDATES", CANDIDATES[:1])
    if candidates not in allowed:
        raise UserError(f"{game}'s ranker takes its candidates from "
                        f"{' or '.join(allowed)}, not {candidates!r}")  # fmt: skip
    labels = [load_strategy(e, game).label for e in experts]
    field_spec = load_strategy(level_or_spec(field_, players, game), game)
    out = Path(out)
    make_dir(out)
    result = RankResult(players)
    rounds: list[Decisions] = []
    blank = {"constant": 0.0, "trees": []}
    current = out / f"learned-{players}p-start.json"
    note = {"note": "no trees: the first expert's proposal"}
    spec = write_model(current, ranker_doc(players, labels, blank, note, game,
                                           candidates=candidates))  # fmt: skip
    load_strategy(spec, game)().check_players(players)
    for i in range(iterations):
        t0 = time.perf_counter()
        teacher = f"search over {current.name}'s candidates ({candidates}), its rollout policy"
        say(f"rank {players}p, round {i}: {teacher}, {games} games ({worlds} worlds)")
        train = kept(out, players, spec, field_spec, games, seed, worlds, n_jobs, say,
                     game=game)  # fmt: skip
        say(f"rank {players}p, round {i}: {len(train):,} searched decisions; held out: "
            f"{held_out_games} games")  # fmt: skip
        held = kept(out, players, spec, field_spec, held_out_games, seed + 1, worlds, n_jobs,
                    say, game=game)  # fmt: skip
        rounds.append(train)
        learned_from = joined(rounds[-history:])
        model, ens = fit(learned_from, trees, leaves, rate, seed)
        agree, regret = agreement(model.predict(held.x), held)
        first_agree, first_regret = agreement(_first(held.group), held)
        made = {"command": command or "", "teacher": teacher, "field": field_,
                "games": games, "seed": seed, "worlds": worlds, "decisions": len(learned_from),
                "rounds_learned_from": min(history, len(rounds)),
                "held_out_games": held_out_games, "held_out_decisions": len(held),
                "held_out_agreement": round(agree, 4), "held_out_regret": round(regret, 5),
                "first_expert_agreement": round(first_agree, 4),
                "trees": trees, "leaves": leaves, "rate": rate,
                "made": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}  # fmt: skip
        path = current = out / f"learned-{players}p-{i}.json"
        spec = write_model(path, ranker_doc(players, labels, ens, made, game,
                                            candidates=candidates))  # fmt: skip
        say(f"rank {players}p, round {i}: compiled play checked against the trees "
            f"({check_games} games)")  # fmt: skip
        checked = verify(players, spec, model, field_spec, check_games, seed + 3, game=game)
        power = None
        if strength_games:
            say(f"rank {players}p, round {i}: the ranker against {field_spec.label} "
                f"({strength_games} games a seat)")  # fmt: skip
            power = tune.strength(players, spec, field_spec, strength_games, seed + 2,
                                  game=game)  # fmt: skip
        result.rounds.append(Round(teacher, path, len(learned_from), len(held), agree, regret,
                                   first_agree, first_regret, checked, power,
                                   time.perf_counter() - t0))  # fmt: skip
    final = out / f"learned-{players}p.json"
    write_atomic(final, result.rounds[-1].path.read_bytes(), "model")
    result.rounds[-1].path = final
    return result


def joined(parts: Sequence[Decisions]) -> Decisions:
    """Several rounds' decisions as one (their decisions renumbered one after another)."""
    offsets = np.cumsum([0] + [len(d) for d in parts[:-1]])
    return Decisions(np.concatenate([d.x for d in parts]),
                     np.concatenate([d.value for d in parts]),
                     np.concatenate([d.group + o for d, o in zip(parts, offsets, strict=True)]),
                     np.concatenate([d.chosen for d in parts]))  # fmt: skip


def _first(group: np.ndarray) -> np.ndarray:
    """Scores that rank each decision's first candidate (the first expert's) best."""
    starts = np.r_[True, group[1:] != group[:-1]]
    return starts.astype(float)


def summary(got: RankResult) -> str:
    """What `moaisim learn --mode ranker` prints at the end."""
    lines = []
    for i, r in enumerate(got.rounds):
        lines.append(f"round {i} ({r.teacher}): {r.decisions:,} decisions; held out "
                     f"({r.held_out_decisions:,}): agreement with search {r.agreement:.3f}, "
                     f"regret {r.regret:.4f} (the first expert's: {r.first_agreement:.3f}, "
                     f"{r.first_regret:.4f}); compiled play equal to the trees at "
                     f"{r.checked:,} decisions")  # fmt: skip
        if r.strength is not None:
            s = r.strength
            lines.append(
                f"  against the field: win share {s.share:.3f} [{s.low:.3f}, "
                f"{s.high:.3f}] over {s.games:,} games (fair {1 / got.players:.3f})"
            )
    lines.append(f"model: {got.path} (play it: learned(model={str(got.path)!r}))")
    return "\n".join(lines)
