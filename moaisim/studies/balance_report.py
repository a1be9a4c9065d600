"""`moaisim balance FILE`: the whole study around the search (`studies.balance`).

1. **Search** the space on the fixed fields (`balance.search`), resumable in
   `<runs>/<name>/search`.
2. **Finalists**: up to `[balance] finalists` candidates of the top rung, feasible ones of
   the Pareto front first, else the closest (`balance.choose_finalists`).
3. **Verification** on fresh deals (root seed + 1), the base game and every finalist on the
   same games, played once: a paired run of the fixed fields (`<runs>/<name>/verify-*`)
   whose report (`verification/`) judges each finalist against base in the verdict words of
   `analysis.verdicts`, and whose games give each objective again with its interval
   (`balance.Checks`, `<runs>/<name>/checks`).
4. **One-change screen** (`balance.screen`): the base game with each setting changed alone,
   on the same games; when no single change meets every target, carried on by forward
   selection (`balance.grow`: the closest change with each other one added...).
5. **Smallest fixes** (`balance.reduce`): each finalist reduced to its smallest subset of
   changes that still meets every target, on the same games.
6. **Adapted fields**: `tuned` re-tuned under the rules of the answer's smallest change and
   of each smallest fix (`judged_setups`; `studies.retune`, a short CMA-ES from the shipped
   weights) judges them again, beside the shipped `tuned` on the same games; and look-ahead
   search (L4) as one seat against L3 at a small budget says whether strong play still
   carves. The report gives how far each value moved.
7. **Balance sheets** of the same set-ups (`studies.sheet`), beside the base game.
8. The report: `report.md`/`report.html`, `tables/*.csv`, `figures/pareto.png` and a
   component file per finalist and fix (`finalists/finalist-K.toml`, `fix-K.toml`, with its
   options and variant in its header) that `--components` plays.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import tomli_w

from moaisim.analysis import plots, text
from moaisim.analysis.report import apart, make_report
from moaisim.analysis.stats import wilson
from moaisim.analysis.verdicts import is_seat_metric, seat_metric
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_game, check_writable_dir, swap_in
from moaisim.games import load_game
from moaisim.games.base import RulesLike
from moaisim.rundir import is_run, recorded_game
from moaisim.runner import (
    check_jobs,
    load_results,
    make_study,
    run_in_memory,
    run_to_disk,
    study_of_rules,
)
from moaisim.studies import balance as bal
from moaisim.studies.balance_space import (
    ADAPT,
    MAX_TRIALS,
    SHEET,
    Objective,
    Space,
    candidate_document,
    check_total,
    headline_measure,
    load_space,
    rules_of,
    value_text,
)
from moaisim.studies.retune import RetuneSettings, retune
from moaisim.studies.sheet import SheetSettings, check_summary, play_sheet, write_sheet

#: Files that mark a directory as a report (of an experiment, a balance study or a sheet).
REPORT_MARKS = ("report.json", "report.md", "balance.json", "sheet.json")
#: `fresh` moved to `studies.balance` (the checks need it); kept here for its callers.
fresh = bal.fresh
Setup = tuple[str, dict[str, Any]]


@dataclass
class Outcome:
    """What `run_balance` found: trials, finalists, the one-change screen, the smallest fixes
    (all verified on the same fresh games), and where it wrote."""

    space: Space
    trials: list[bal.Trial]
    finalists: list[bal.Trial]
    feasible: bool
    verified: pd.DataFrame
    report: Path
    screened: list[bal.Screened]
    fixes: list[bal.Fix]
    grown: list[bal.Grown]


def describe(space: Space, candidate: Mapping[str, Any]) -> str:
    """A candidate's settings that change the game (`Space.changes`: 'wood_points=3, ...'),
    or 'the base game'."""
    parts = [f"{k}={value_text(candidate[k])}" for k in space.changes(candidate)]
    return ", ".join(parts) or "the base game"


def run_balance(path: str | Path, runs: str | Path = "out/runs",
                reports: str | Path = "out/reports", jobs: int | None = None,
                say: Any = None, trials: int | None = None) -> Outcome:  # fmt: skip
    """Run a balance file's study into `<runs>/<name>` (resuming) and report it into
    `<reports>/<name>` (the module's docstring). `trials` overrides the file's (a quick
    look: into `<name>-<trials>`)."""
    space = load_space(path)
    if trials is not None:
        if (isinstance(trials, bool) or not isinstance(trials, int)
                or not 1 <= trials <= MAX_TRIALS):  # fmt: skip
            raise UserError(f"trials must be a whole number from 1 to {MAX_TRIALS:,}, "
                            f"got {trials!r}")  # fmt: skip
        space = replace(space, settings=replace(space.settings, trials=trials),
                        name=f"{space.name}-{trials}")  # fmt: skip
        check_total(space)
    jobs = space.settings.jobs if jobs is None else jobs
    check_jobs(jobs)
    space = replace(space, settings=replace(space.settings, jobs=jobs))
    say = say or (lambda _line: None)
    run, out = Path(runs) / space.name, Path(reports) / space.name
    check_places(space, Path(runs), Path(reports))
    command = f"moaisim balance {space.path}" + ("" if trials is None else f" --trials {trials}")
    started = time.monotonic()
    say(f"searching {len(space.dimensions)} settings, {space.settings.trials} trials at "
        f"{'/'.join(map(str, space.settings.players))} players")  # fmt: skip
    found = bal.search(space, run / "search", jobs, say)
    finalists, feasible = bal.choose_finalists(space, found)
    searched = time.monotonic() - started
    say(f"search done in {searched:.0f} s; verifying {len(finalists)} finalists")
    tmp = out.parent / f".{out.name}.tmp"
    made = [d for d in (Path(reports), *Path(reports).parents) if not d.exists()]
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    s = space.settings
    try:
        clock = {"search": searched}
        mark = time.monotonic()
        screened: list[bal.Screened] = []
        grown: list[bal.Grown] = []
        fixes: list[bal.Fix] = []
        verdicts = pd.DataFrame()
        verified = pd.DataFrame()
        if s.verify_games:
            (run / "checks").mkdir(parents=True, exist_ok=True)
            checks = bal.Checks(space, run / "checks" / "blocks.jsonl", jobs)
            verdicts = verdict_run(space, finalists, checks, run / verify_dir(space, finalists),
                                   tmp, jobs, command, say)  # fmt: skip
            clock["verification"], mark = time.monotonic() - mark, time.monotonic()
            if s.screen:
                screened = bal.screen(space, checks, say)
                grown = bal.grow(space, checks, screened, s.screen_depth, say)
                clock["screen"], mark = time.monotonic() - mark, time.monotonic()
            if s.reduce:
                fixes = [bal.reduce(space, checks, k, t.candidate, say)
                         for k, t in enumerate(finalists, start=1)]  # fmt: skip
                clock["reduction"], mark = time.monotonic() - mark, time.monotonic()
            verified = verified_table(space, checks, finalists, fixes)
        base_met = not verified.empty and bool(verified.loc[verified["setup"] == "base",
                                                             "met"].all())  # fmt: skip
        setups = judged_setups(space, finalists, fixes, screened, grown, base_met)
        adapted = adapt(space, setups, run, jobs, say)
        clock["adapted fields"], mark = time.monotonic() - mark, time.monotonic()
        sheets = make_sheets(space, setups, tmp, jobs, say)
        clock["sheets"] = time.monotonic() - mark
        clock["total"] = time.monotonic() - started
        _write(space, found, finalists, feasible, verified, verdicts, adapted, sheets, tmp,
               command, clock, screened, fixes, grown)  # fmt: skip
        swap_in(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        for d in made:  # a study that failed leaves no empty --reports behind
            if d.is_dir() and not any(d.iterdir()):
                d.rmdir()
    return Outcome(space, found, finalists, feasible, verified, out / "report.md", screened,
                   fixes, grown)  # fmt: skip


def check_places(space: Space, runs: Path, reports: Path) -> None:
    """Where a balance study goes, checked before anything is played (one clear line each):
    `<runs>/<name>` new, empty or holding this study's search (not another balance search,
    a run of `moaisim simulate`, a report or anything else); `<reports>/<name>` new, empty or
    holding this study's report (`balance.json`'s identity, `Space.identity`); neither inside
    the other; and both able to take new files."""
    run, out = runs / space.name, reports / space.name
    for option, where in (("--runs", runs), ("--reports", reports), ("--runs", run),
                          ("--reports", out)):  # fmt: skip
        if where.is_symlink() and not where.exists():
            raise UserError(f"{where} is a symbolic link to nothing: remove it or choose "
                            f"another {option} directory")  # fmt: skip
        if where.exists() and not where.is_dir():
            raise UserError(f"{where} is a file, not a directory: choose another {option} "
                            "directory")  # fmt: skip
    for option, where in (("--runs", runs), ("--reports", reports)):
        if where.is_dir() and is_run(where):
            raise UserError(f"{where} holds a run of moaisim simulate, not the folder of "
                            f"{option[2:]}: choose another {option} directory")  # fmt: skip
    apart(run, out)
    want = json.loads(json.dumps(space.identity(), default=str))
    if run.is_dir() and any(run.iterdir()):
        if is_run(run):
            raise UserError(f"{run} holds a run of moaisim simulate, not a balance search: "
                            "choose another --runs directory")  # fmt: skip
        if any((run / m).exists() for m in REPORT_MARKS):
            raise UserError(f"{run} holds a report, not a balance search: choose another "
                            "--runs directory")  # fmt: skip
        if not (run / "search").is_dir():
            raise UserError(f"{run} holds something other than a balance search: choose "
                            "another --runs directory or remove it")  # fmt: skip
        kept = _json(run / "search" / "space.json")
        if isinstance(kept, dict):  # a space that names no game: `recorded_game`
            check_game(recorded_game(kept), space.game, run, "a balance search")
        if kept is not None and kept != want:
            raise UserError(f"{run} holds a balance search of another space or settings: "
                            "choose another --runs directory or remove it")  # fmt: skip
    if out.is_dir() and any(out.iterdir()):
        if is_run(out):
            raise UserError(f"{out} holds a run, not a report: choose another --reports "
                            "directory")  # fmt: skip
        if not (out / "balance.json").is_file():
            raise UserError(f"{out} holds something other than this balance study's report: "
                            "choose another --reports directory")  # fmt: skip
        doc = _json(out / "balance.json")
        if isinstance(doc, dict):  # a report that names no game: `recorded_game`
            held = recorded_game(doc, doc.get("identity"))
            check_game(held, space.game, out, "a balance study's report")
        if not isinstance(doc, dict) or doc.get("identity") != want:
            raise UserError(f"{out} holds the report of another balance study (other space or "
                            "settings, a seed for one): choose another --reports directory "
                            "or remove it")  # fmt: skip
    check_writable_dir(run, "--runs")
    check_writable_dir(reports, "--reports")


def _json(path: Path) -> Any:
    """A JSON file's document, or None when it cannot be read."""
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


# --- verification --------------------------------------------------------------------------------


# --- verification --------------------------------------------------------------------------------


def verify_dir(space: Space, finalists: Sequence[bal.Trial]) -> str:
    """The verification run's directory, named by what it plays (the finalists' games and
    the games per field): a search resumed with more trials and other finalists gets a new
    one instead of being refused as another study."""
    what = [space.game_key(t.candidate) for t in finalists] + [str(space.settings.verify_games)]
    return "verify-" + hashlib.sha256(",".join(what).encode()).hexdigest()[:12]


def _rules(space: Space, candidates: Sequence[Mapping[str, Any]]) -> list[RulesLike]:
    """The rules of each candidate at each player count (the player counts outside)."""
    return [rules_of(c, p, space.settings.keep_totals, game=space.game)
            for p in space.settings.players for c in candidates]  # fmt: skip


def verdict_run(space: Space, finalists: Sequence[bal.Trial], checks: bal.Checks, run: Path,
                out: Path, jobs: int, command: str, say: Any) -> pd.DataFrame:  # fmt: skip
    """The base game and every finalist in the fixed fields on the verification's games,
    played once: into a run directory, whose report (the verdict words) goes into
    `out/verification` and whose games give each set-up's measures to `checks` (the skill
    and diversity objectives, which the fixed fields do not play, are measured beside);
    returns the verdicts (empty without finalists: only the base game is measured then)."""
    base = space.base()
    if not finalists:
        checks.sums([base])
        return pd.DataFrame()
    s = space.settings
    games = s.verify_games
    cands = [base, *(t.candidate for t in finalists)]
    rules = _rules(space, cands)
    study = study_of_rules(rules, games, list(s.fields), seed=s.seed + 1, rounds=True)
    say(f"verification: {len(study.cells)} cells x {games:,} games")
    run_to_disk(study, run, resume=True, n_jobs=jobs, command=command, option="--runs")
    for c, sums in zip(cands, sums_of_run(checks.space, study, run, cands, rules), strict=True):
        if any(part == "extras" for _, part in bal.parts_of(space)):
            for p in s.players:
                sums.update(bal.measure_part(checks.space, c, 0, games, p, "extras"))
        checks.put(c, sums)
    metrics = [
        seat_metric(load_game(space.game)),
        "rounds",
        "mean score",
        "leader after round 3 wins",
    ]
    make_report(run, out / "verification",
                title=f"{space.title}: the finalists against the base game",
                command=command, question=space.question, metrics=metrics)  # fmt: skip
    return pd.read_csv(out / "verification" / "tables" / "verdicts.csv")


def sums_of_run(space: Space, study: Any, run: Path, candidates: Sequence[Mapping[str, Any]],
                rules: Sequence[RulesLike]) -> list[dict[str, Any]]:  # fmt: skip
    """Each candidate's field sums (`balance.field_sums`) read from the verification run's
    games: the same sums `balance.measure_block` gives on those games, without playing them
    again."""
    res = load_results(run)
    table = load_results(run, "rounds") if bal.needs_rounds(space) else None
    out: list[dict[str, Any]] = [{} for _ in candidates]
    for cell in study.cells:
        k = next(i for i, r in enumerate(rules) if r is cell.rules) % len(candidates)
        p, f = cell.rules.players, space.settings.fields[cell.lineup_id]
        mine = res[res["cell"] == cell.index]
        part = None if table is None else table[table["cell"] == cell.index]
        out[k][f"{p}:{f}"] = bal.field_sums(mine, part, p, space)
    return out


def verified_table(space: Space, checks: bal.Checks, finalists: Sequence[bal.Trial],
                   fixes: Sequence[bal.Fix]) -> pd.DataFrame:  # fmt: skip
    """Each objective of the base game, each finalist and each smallest fix that differs
    from its finalist, on the verification's games: value, 95 % interval, its worst cell,
    met (the value meets the target) and sure (the whole interval does); a row per set-up
    and objective."""
    setups: list[Setup] = [("base", space.base())]
    setups += [(f"finalist {k}", t.candidate) for k, t in enumerate(finalists, start=1)]
    for fx in fixes:
        whole = finalists[fx.finalist - 1].candidate
        if fx.meets and fx.changes and space.game_key(fx.candidate) != space.game_key(whole):
            setups.append((f"fix {fx.finalist}", fx.candidate))
    rows = []
    judged = checks.judge([c for _, c in setups])
    for (label, c), values in zip(setups, judged, strict=True):
        for o in space.objectives:
            v = values[o.name]
            rows.append({"setup": label, "settings": describe(space, c),
                         "changes": len(space.changes(c)), "objective": o.name,
                         "measure": o.measure, "unit": o.unit, "value": v.value, "lo": v.lo,
                         "hi": v.hi, "where": v.where, "bounds": o.bounds(),
                         "met": o.violation(v.value) == 0,
                         "sure": o.violation(v.lo) == 0 and o.violation(v.hi) == 0,
                         "games": checks.games})  # fmt: skip
    out = pd.DataFrame(rows)
    # every cell's value of each set-up (`bal.Value.cells`), for the answer at each count
    out.attrs["values"] = {label: values for (label, _), values in zip(setups, judged,
                                                                        strict=True)}  # fmt: skip
    return out


def judged_setups(space: Space, finalists: Sequence[bal.Trial], fixes: Sequence[bal.Fix],
                  screened: Sequence[bal.Screened] = (), grown: Sequence[bal.Grown] = (),
                  base_met: bool = False) -> list[Setup]:  # fmt: skip
    """What the adapted fields and the sheets judge: the answer's smallest change when the
    screen found it ("smallest change"), then each finalist's smallest fix (what a designer
    would adopt; a finalist that misses a target on the fresh games is judged as it is, and
    without a reduction every finalist), each game once and the base game left out; none
    when the base game meets every target (`base_met`, or a fix of no change)."""
    out: list[Setup] = []
    seen = {space.game_key(space.base())}
    if base_met or any(fx.meets and not fx.changes for fx in fixes):
        return out  # the base game meets every target: no change to judge
    lead = smallest(space, screened, grown, fixes)
    if lead and not lead[0].how.startswith("finalist"):
        seen.add(space.game_key(lead[0].candidate))
        out.append(("smallest change", lead[0].candidate))
    if not fixes:
        return out + [(f"finalist {k}", t.candidate) for k, t in enumerate(finalists, start=1)
                      if space.game_key(t.candidate) not in seen]  # fmt: skip
    for fx in fixes:
        k = space.game_key(fx.candidate)
        if k not in seen:
            seen.add(k)
            out.append((f"{'fix' if fx.meets else 'finalist'} {fx.finalist}", fx.candidate))
    return out


# --- adapted fields ------------------------------------------------------------------------------


def adapt(space: Space, setups: Sequence[Setup], run: Path, jobs: int,
          say: Any) -> pd.DataFrame:  # fmt: skip
    """The set-ups (each finalist's smallest fix) judged again by fields that adapt: `tuned`
    self-play with the shipped weights and with weights re-tuned under each set-up's rules
    (the base game keeps the shipped ones), on the same fresh games (root seed + 2); and L4
    as one seat against L3 (root seed + 3): its gain over fair and the share of its score
    from the game's headline part (`l4_<part>`). Where `tuned` keeps its shipped weights
    (the base game, a re-tuning that lost) its games are played once and serve both
    columns."""
    if not setups:
        return pd.DataFrame()
    a = {**ADAPT, **space.settings.adapt}
    s = space.settings
    cands = [space.base(), *(c for _, c in setups)]
    rules = _rules(space, cands)
    where = run / "retuned"
    rt = RetuneSettings(a["generations"], a["games"], a["held_out_games"])
    kept = retune(study_of_rules(rules, a["games"], ["tuned"], seed=s.seed), where, rt, jobs, say)
    shipped = {(int(r["players"]), r["setup"]) for _, r in kept.iterrows()
               if r["plays"] == "shipped"}  # fmt: skip
    rows = []
    labels = ["base", *(label for label, _ in setups)] * len(s.players)
    base_of: dict[int, dict[str, Any]] = {}  # the base game's shipped `tuned` sums, by players
    for label, r in zip(labels, rules, strict=True):  # the base game first at each count
        p = r.players
        say(f"adapted fields: {label} at {p} players")
        got: dict[str, dict[str, Any]] = {}
        for name, spec in (("tuned", "tuned"), ("re-tuned", f"tuned(retuned={str(where)!r})")):
            if name == "re-tuned" and (label == "base" or (p, r.setup) in shipped):
                got[name] = got["tuned"]  # the same weights: the same games
                continue
            study = make_study(p, a["field_games"], {p: [spec]}, seed=s.seed + 2, rules=r,
                               rounds=bal.needs_rounds(space), game=space.game)  # fmt: skip
            res, table = run_in_memory(study, n_jobs=jobs)
            got[name] = bal.field_sums(res, table, p, space)
        if label == "base":
            base_of[p] = got["tuned"]
        base_got = base_of[p]  # `length_change` against the base game on the same games
        search = _search_seat(r, a["search_games"], s.seed + 3, jobs)
        part = headline_measure(space.game)
        aims = [o for o in space.objectives if o.measure == part]
        if search and aims:  # does strong play still meet the headline part's target?
            search[f"l4_{part}_met"] = aims[0].violation(search[f"l4_{part}"]) == 0
        for o in space.objectives:
            if o.measure in ("skill", "diversity"):
                continue
            fixed = bal.field_value(o, got["tuned"], p, base_got)
            moved = bal.field_value(o, got["re-tuned"], p, base_got)
            rows.append({"setup": label, "players": p, "rules_setup": r.setup,
                         "objective": o.name, "unit": o.unit,
                         "tuned": fixed[0], "re_tuned": moved[0], "re_tuned_lo": moved[1],
                         "re_tuned_hi": moved[2], "moved": moved[0] - fixed[0],
                         "met_tuned": o.violation(fixed[0]) == 0,
                         "met_re_tuned": o.violation(moved[0]) == 0,
                         "games": a["field_games"], **search})  # fmt: skip
    table = pd.DataFrame(rows)
    retuned = where / "retuned.csv"
    if retuned.is_file():
        table.attrs["retuned"] = pd.read_csv(retuned)
    return table


def _search_seat(rules: RulesLike, games: int, seed: int, jobs: int) -> dict[str, float]:
    """L4 as one seat against L3 copies, seats rotated: its gain over fair (points) with its
    Wilson interval and the share of its score from the game's headline part (%, `l4_<part>`)."""
    if not games:
        return {}
    p = rules.players
    study = make_study(p, games, {p: ["L4,L3"]}, seed=seed, rules=rules, game=rules.game)
    res, _ = run_in_memory(study, n_jobs=jobs)
    mine = res[res["strategy"] != "L3"]  # the searching seat (L3 keeps its level's name)
    lo, hi = wilson(float(mine["win_share"].sum()), len(mine))
    spec = load_game(rules.game)
    part = spec.INFO.vocabulary["headline_part"]
    points = spec.MEASURES.score_parts(mine)[spec.INFO.score_parts[0]]
    return {"l4_games": len(mine), "l4_gain": (mine["win_share"].mean() - 1 / p) * 100,
            "l4_gain_lo": (lo - 1 / p) * 100, "l4_gain_hi": (hi - 1 / p) * 100,
            f"l4_{part}": float(points.sum() / mine["score"].sum() * 100)}  # fmt: skip


# --- sheets --------------------------------------------------------------------------------------


def make_sheets(space: Space, setups: Sequence[Setup], out: Path, jobs: int,
                say: Any) -> list[tuple[str, str]]:  # fmt: skip
    """A balance sheet per set-up (each finalist's smallest fix) and player count into
    `out/sheets`, beside the base game on the same deals; their folder names, each with its
    check field's clause (`sheet.check_summary`: does seat 0's finding hold under search?)."""
    cfg = {**SHEET, **space.settings.sheet}
    names: list[tuple[str, str]] = []
    stage = out / "sheets"
    stage.mkdir(parents=True, exist_ok=True)
    for label, c in setups:
        for p in space.settings.players:
            r = rules_of(c, p, space.settings.keep_totals, game=space.game)
            say(f"balance sheet of {label} at {p} players")
            sh = play_sheet(SheetSettings(
                players=p, games=cfg["games"], skill_games=cfg["skill_games"],
                search_games=cfg["search_games"], deals=cfg["deals"], replays=cfg["replays"],
                seed=space.settings.seed + 4, field=None, jobs=jobs, rules=r,
                check_games=cfg["check_games"],
                against=rules_of(space.base(), p, space.settings.keep_totals, game=space.game),
                game=space.game))  # fmt: skip
            name = f"{label.replace(' ', '-')}-{p}p"
            write_sheet(sh, stage / name, f"moaisim balance {space.path}")
            names.append((name, check_summary(sh)))
    return names


# --- the report ----------------------------------------------------------------------------------


def component_file(space: Space, candidate: Mapping[str, Any], label: str) -> str:
    """A set-up's component file ('finalist 1', 'fix 1'), with its options and variant in
    its header."""
    doc = candidate_document(candidate, space.settings.keep_totals, game=space.game)
    slug = label.replace(" ", "-")
    doc["name"] = f"{space.name}-{slug}"
    opts = {n: v for n, v in candidate.items() if n in load_game(space.game).OPTIONS}
    head = [f"# {space.name}, {label}: {describe(space, candidate)}",
            f"# Play it: moaisim simulate --game {space.game}"
            + f" --components {slug}.toml"
            + "".join(f" --{n.replace('_', '-')} {v}" for n, v in opts.items())
            + (f" --variant {candidate['variant']}" if "variant" in candidate else ""),
            ""]  # fmt: skip
    return "\n".join(head) + tomli_w.dumps(doc)


def screen_table(space: Space, screened: Sequence[bal.Screened]) -> pd.DataFrame:
    """The one-change screen as a table: setting, value, each objective's value, interval
    and worst cell, and whether it meets every target."""
    rows = []
    for r in screened:
        row: dict[str, Any] = {"setting": r.setting, "value": value_text(r.value),
                               "note": r.note}  # fmt: skip
        for o in space.objectives:
            v = None if r.values is None else r.values[o.name]
            row |= {o.name: np.nan if v is None else v.value,
                    f"{o.name}_lo": np.nan if v is None else v.lo,
                    f"{o.name}_hi": np.nan if v is None else v.hi,
                    f"{o.name}_where": "" if v is None else v.where,
                    f"{o.name}_met": v is not None and o.violation(v.value) == 0}  # fmt: skip
        row["meets every target"] = r.values is not None and bal.meets(space, r.values)
        rows.append(row)
    return pd.DataFrame(rows)


def grown_table(space: Space, grown: Sequence[bal.Grown]) -> pd.DataFrame:
    """The sets the screen grew: their changes, each objective's value, interval and worst
    cell, and whether they meet every target."""
    rows = []
    for g in grown:
        row: dict[str, Any] = {"changes": len(g.changes), "settings": describe(space, g.candidate)}
        for o in space.objectives:
            v = g.values[o.name]
            row |= {o.name: v.value, f"{o.name}_lo": v.lo, f"{o.name}_hi": v.hi,
                    f"{o.name}_where": v.where,
                    f"{o.name}_met": o.violation(v.value) == 0}  # fmt: skip
        row["meets every target"] = bal.meets(space, g.values)
        rows.append(row)
    return pd.DataFrame(rows)


def fixes_table(space: Space, finalists: Sequence[bal.Trial],
                fixes: Sequence[bal.Fix]) -> pd.DataFrame:  # fmt: skip
    """Each finalist's smallest fix: the finalist's changes, the fix's, whether it meets
    every target on the verification's games, how it was found and at what cost."""
    rows = []
    for fx in fixes:
        whole = finalists[fx.finalist - 1].candidate
        rows.append({"finalist": fx.finalist, "finalist changes": len(space.changes(whole)),
                     "finalist settings": describe(space, whole),
                     "fix changes": len(fx.changes),
                     "fix settings": (describe(space, fx.candidate) if fx.meets and fx.changes
                                      else "none needed" if fx.meets
                                      else "none: the finalist misses a target"),
                     "meets every target": fx.meets, "method": fx.method,
                     "subsets judged": fx.judged, "subsets played": fx.played})  # fmt: skip
    return pd.DataFrame(rows)


def _write(space: Space, found: list[bal.Trial], finalists: list[bal.Trial], feasible: bool,
           verified: pd.DataFrame, verdicts: pd.DataFrame, adapted: pd.DataFrame,
           sheets: list[tuple[str, str]], tmp: Path, command: str, clock: dict[str, float],
           screened: Sequence[bal.Screened] = (), fixes: Sequence[bal.Fix] = (),
           grown: Sequence[bal.Grown] = ()) -> None:  # fmt: skip
    """Write the report's pages, tables, figure and component files into `tmp`."""
    for d in ("tables", "figures", "finalists"):
        (tmp / d).mkdir(parents=True, exist_ok=True)
    trials = bal.trials_table(space, found)
    trials.to_csv(tmp / "tables" / "trials.csv", index=False)
    front = trials[trials["pareto"]]
    front.to_csv(tmp / "tables" / "pareto.csv", index=False)
    for name, df in (("verified", verified), ("adapted", adapted),
                     ("screen", screen_table(space, screened)),
                     ("grown", grown_table(space, grown)),
                     ("fixes", fixes_table(space, finalists, fixes))):  # fmt: skip
        df.to_csv(tmp / "tables" / f"{name}.csv", index=False)
    if "retuned" in adapted.attrs:
        adapted.attrs["retuned"].to_csv(tmp / "tables" / "retuned.csv", index=False)
    files = [(f"finalist {k}", t.candidate) for k, t in enumerate(finalists, start=1)]
    files += [(f"fix {fx.finalist}", fx.candidate) for fx in fixes if fx.meets and fx.changes]
    for label, c in files:
        name = label.replace(" ", "-")
        (tmp / "finalists" / f"{name}.toml").write_text(component_file(space, c, label))
    names = [o.name for o in space.objectives] + (["changes"] if space.settings.parsimony else [])
    units = {o.name: o.unit for o in space.objectives} | {"changes": "settings"}
    plots.save(plots.balance_front(trials, names, units), tmp / "figures" / "pareto.png")
    page = markdown(space, trials, finalists, feasible, verified, verdicts, adapted, sheets,
                    command, clock, screened, fixes, grown)  # fmt: skip
    (tmp / "report.md").write_text(page)
    (tmp / "report.html").write_text(text.html_page(space.title, page, tmp))
    (tmp / "balance.json").write_text(json.dumps({
        GAME_KEY: space.game, "name": space.name, "feasible": feasible,
        "finalists": [t.candidate for t in finalists],
        "fixes": [{"finalist": fx.finalist, "changes": list(fx.changes), "meets": fx.meets,
                   "candidate": fx.candidate} for fx in fixes],
        "identity": space.identity(), "seconds": clock}, indent=1, default=str))  # fmt: skip


def _fmt(v: float, unit: str, lo: float | None = None, hi: float | None = None,
         where: str | None = None) -> str:  # fmt: skip
    """A value as the report writes it, with its interval and its worst cell when given:
    '-1.3 [-1.8, -0.8] (L3, 5 players)'."""
    spec = ".2f" if unit in ("rounds", "strategies") else ".1f"
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    core = f"{v:+{spec}}" if unit in ("points", "rounds") else f"{v:{spec}}"
    known = lo is not None and hi is not None and not (math.isnan(lo) or math.isnan(hi))
    if known and not (np.isclose(lo, v) and np.isclose(hi, v)):
        core += f" [{lo:{spec}}, {hi:{spec}}]"
    core += " %" if unit == "%" else ""
    return core + (f" ({where})" if where else "")


def _values_text(space: Space, values: Mapping[str, bal.Value],
                 only: Sequence[Objective] | None = None) -> str:  # fmt: skip
    """Objectives' values with their intervals and worst cells, in a sentence: 'seat0 -1.3
    [-1.8, -0.8] (L3, 5 players); statues 38.6 % (L3, 3 players)'."""
    objs = space.objectives if only is None else only
    out = []
    for o in objs:
        v = values[o.name]
        out.append(f"{o.name} {_fmt(v.value, o.unit, v.lo, v.hi, v.where)}")
    return "; ".join(out)


def _table_values(part: pd.DataFrame) -> dict[str, bal.Value]:
    """A set-up's objectives from the verified table (`verified_table`)."""
    return {r["objective"]: bal.Value(r["value"], r["where"], r["lo"], r["hi"], {})
            for _, r in part.iterrows()}  # fmt: skip


@dataclass
class Found:
    """A verified set-up that meets every target: its number of changes, rank (`rank_key`),
    label, candidate, objectives and where it was found."""

    size: int
    key: tuple[float, int, float]
    label: str
    candidate: dict[str, Any]
    values: dict[str, bal.Value]
    how: str


def verified_candidates(
    space: Space, screened: Sequence[bal.Screened], grown: Sequence[bal.Grown],
    fixes: Sequence[bal.Fix],
) -> list[Found]:  # fmt: skip
    """Every set-up measured on the verification's fresh games, whether or not it meets the
    targets: the screen's single changes, the sets it grew and the finalists' smallest
    fixes (each with every cell's value, `bal.Value.cells`)."""
    out = []
    for r in screened:
        if r.values is not None:
            out.append(Found(1, bal.rank_key(space, r.values, 1),
                             f"{r.setting}={value_text(r.value)}", r.candidate, r.values,
                             "the one-change screen"))  # fmt: skip
    for g in grown:
        out.append(Found(len(g.changes), bal.rank_key(space, g.values, len(g.changes)),
                         describe(space, g.candidate), g.candidate, g.values,
                         "the screen carried on"))  # fmt: skip
    for fx in fixes:
        if fx.changes:
            out.append(Found(len(fx.changes), bal.rank_key(space, fx.values, len(fx.changes)),
                             describe(space, fx.candidate), fx.candidate, fx.values,
                             f"finalist {fx.finalist}'s smallest fix"))  # fmt: skip
    return out


def at_count(space: Space, values: Mapping[str, bal.Value], players: int
             ) -> dict[str, bal.Value] | None:  # fmt: skip
    """A set-up's objectives at one player count: each objective's worst cell among that
    count's (`bal.cell_name`: "L3, 4 players"), as `bal.value_of` picks the worst over all;
    None when a value keeps no cells at that count."""
    out = {}
    for o in space.objectives:
        v = values[o.name]
        cells = {c: x for c, x in v.cells.items()
                 if c == f"{players} players" or c.endswith(f", {players} players")}  # fmt: skip
        if not cells:
            return None
        where = bal.worst_cell(o, cells)
        out[o.name] = bal.Value(cells[where], where, float("nan"), float("nan"), cells)
    return out


def per_count(space: Space, base: Mapping[str, bal.Value] | None,
              candidates: Sequence[Found]) -> list[str]:  # fmt: skip
    """The answer at each player count alone (a designer who asks about one count): whether
    the base game already meets every target there, else the smallest verified set-up that
    meets every target there (fewest changes, then the best), on the same fresh games."""
    if base is None or not space.settings.players:
        return []
    lines = []
    for p in space.settings.players:
        here = at_count(space, base, p)
        if here is None:
            continue
        if bal.meets(space, here):
            lines.append(f"At {p} players alone the base game already meets every target: no "
                         f"change is needed there ({_values_text(space, here)}).")  # fmt: skip
            continue
        ok = []
        for f in candidates:
            v = at_count(space, f.values, p)
            if v is not None and bal.meets(space, v):
                ok.append((f.size, bal.rank_key(space, v, f.size), f, v))
        missed = [o.name for o in space.objectives if o.violation(here[o.name].value) != 0]
        if not ok:
            short = [o for o in space.objectives if o.name in missed]
            lines.append(f"At {p} players alone no set-up verified here meets every target; "
                         f"the base game misses {', '.join(missed)} "
                         f"({_values_text(space, here, short)}).")  # fmt: skip
            continue
        size, _, f, v = min(ok, key=lambda x: (x[0], x[1]))
        lines.append(f"At {p} players alone the smallest change that meets every target is "
                     f"`{f.label}` ({_count(size, 'change')}, {f.how}; {_values_text(space, v)}); "
                     f"the base game misses {', '.join(missed)} there.")  # fmt: skip
    return lines


def smallest(space: Space, screened: Sequence[bal.Screened], grown: Sequence[bal.Grown],
             fixes: Sequence[bal.Fix]) -> list[Found]:  # fmt: skip
    """Every verified set-up that meets every target, the smallest first (then the best):
    the screen's single changes, the sets it grew and the finalists' smallest fixes, each
    game once (where it was found first)."""
    out = [f for f in verified_candidates(space, screened, grown, fixes)
           if bal.meets(space, f.values)]  # fmt: skip
    seen: set[str] = set()
    unique = []
    for f in sorted(out, key=lambda f: (f.size, f.key)):  # a game found twice: once
        k = space.game_key(f.candidate)
        if k not in seen:
            seen.add(k)
            unique.append(f)
    return unique


def answer(space: Space, finalists: list[bal.Trial], feasible: bool, verified: pd.DataFrame,
           adapted: pd.DataFrame | None = None, screened: Sequence[bal.Screened] = (),
           fixes: Sequence[bal.Fix] = (),
           grown: Sequence[bal.Grown] = ()) -> list[str]:  # fmt: skip
    """The answer's sentences, the smallest change first: whether the base game already
    meets every target (then no change is proposed), else the smallest verified change that
    meets them (a single change of the screen, a set the screen grew, or a finalist's
    smallest fix), what the base game misses, the screen, each finalist's fix, and whether
    the set-ups judged by fields that adapt still meet every target when `tuned` is re-tuned
    under their rules. Every value names its worst cell."""
    targets = "; ".join(f"{o.name} ({o.measure}) {o.bounds()}" for o in space.objectives
                        if o.bounds())  # fmt: skip
    g = space.settings.verify_games
    if not g or verified.empty:
        if not finalists:
            return ["No trial reached the top rung: nothing to verify."]
        return [f"**{'Some' if feasible else 'No'} setting met every target ({targets}) in the "
                "search; the finalists were not verified on fresh games (`[verify] games = "
                "0`).** Finalists: " + "; ".join(
                    f"finalist {k}: {describe(space, t.candidate)}"
                    for k, t in enumerate(finalists, start=1)) + "."]  # fmt: skip
    games = f"{g:,} fresh games per field and player count"
    base = _table_values(verified[verified["setup"] == "base"])
    base_met = bal.meets(space, base)
    singles = sorted(
        (r for r in screened if r.values is not None and bal.meets(space, r.values)),
        key=lambda r: bal.rank_key(space, r.values, 1),
    )  # type: ignore[arg-type]
    lines = []
    if base_met:
        lines.append(f"**The base game already meets every target ({targets}) on {games}: "
                     "no change is needed.** Its worst cells: "
                     f"{_values_text(space, base)}.")  # fmt: skip
        optional = [f"`{r.setting}={value_text(r.value)}` alone" for r in singles]
        optional += [f"finalist {k}" for k in range(1, len(finalists) + 1)
                     if bal.meets(space, _table_values(
                         verified[verified["setup"] == f"finalist {k}"]))]  # fmt: skip
        if optional:
            lines.append("Optional, not needed for the targets: " + ", ".join(optional)
                         + " also meet every target on the same games (tables below).")  # fmt: skip
        return lines + _adapted_lines(space, adapted)
    found = smallest(space, screened, grown, fixes)
    missed = [o for o in space.objectives if o.violation(base[o.name].value) != 0]
    if found:
        f = found[0]
        how = f"{f.how}; {_values_text(space, f.values)}"
        if f.size == 1:
            lines.append(f"**One change meets every target ({targets}) on {games}, paired "
                         f"with the base game: `{f.label}`** ({how}).")  # fmt: skip
        else:
            lines.append(f"**No single change meets every target ({targets}); the smallest "
                         f"verified fix has {f.size} changes: `{f.label}`** ({how}; on "
                         f"{games}, paired with the base game).")  # fmt: skip
        more = [x for x in found[1:] if x.size == f.size]
        if more:
            lines.append(f"Also {_count(f.size, 'change')} meeting every target: "
                         + ", ".join(f"`{x.label}` ({x.how})" for x in more) + ".")  # fmt: skip
    else:
        lines.append(f"**No setting verified here meets every target ({targets}) on "
                     f"{games}.** The closest are in the tables below, with how far each is "
                     "from each target.")  # fmt: skip
    lines.append("The base game misses " + ", ".join(o.name for o in missed) + ": "
                 + _values_text(space, base, missed) + ".")  # fmt: skip
    if len(space.settings.players) > 1:  # an answer for each player count alone
        lines += per_count(space, verified.attrs.get("values", {}).get("base"),
                           verified_candidates(space, screened, grown, fixes))  # fmt: skip
    if screened:
        measured = [r for r in screened if r.values is not None]
        if singles:
            verb = "meets" if len(singles) == 1 else "meet"
            lines.append(f"Of {len(measured)} single changes screened, {len(singles)} {verb} "
                         "every target: " + ", ".join(
                             f"`{r.setting}={value_text(r.value)}`" for r in singles)
                         + " (One rule at a time).")  # fmt: skip
        elif measured:
            near = min(measured, key=lambda r: bal.rank_key(space, r.values, 1))  # type: ignore[arg-type]
            lines.append(
                f"None of {len(measured)} single changes screened meets every target; "
                f"the closest, `{near.setting}={value_text(near.value)}`: "
                f"{_values_text(space, near.values)} (One rule at a time)."
            )  # type: ignore[arg-type]
    if grown:
        first = grown[0].changes[:-1]
        ok = [g for g in grown if bal.meets(space, g.values)]
        start = ", ".join(f"{n}={value_text(v)}" for n, v in first)
        lines.append(f"The screen carried on from `{start}`, the closest: {len(grown)} sets of "
                     f"up to {len(grown[-1].changes)} changes, {len(ok)} meeting every target"
                     + (": " + ", ".join(f"`{describe(space, g.candidate)}`" for g in ok)
                        if ok else "") + " (One rule at a time).")  # fmt: skip
    for fx in fixes:
        whole = finalists[fx.finalist - 1].candidate
        n = len(space.changes(whole))
        if fx.meets:
            kept = (
                "all of them"
                if len(fx.changes) == n
                else f"{len(fx.changes)} of them: `{describe(space, fx.candidate)}`"
            )
            lines.append(f"Finalist {fx.finalist} changes {_count(n, 'setting')}; its "
                         f"smallest verified fix keeps {kept} ({fx.method}; "
                         f"{fx.judged} subsets judged, {fx.played} played).")  # fmt: skip
        else:
            lines.append(f"Finalist {fx.finalist} ({_count(n, 'change')}) misses a target "
                         f"on the fresh games: {_values_text(space, fx.values)}; "
                         "not reduced.")  # fmt: skip
    return lines + _adapted_lines(space, adapted)


def _count(n: int, noun: str) -> str:
    """'1 change', '3 changes'."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _adapted_lines(space: Space, adapted: pd.DataFrame | None) -> list[str]:
    """Whether each judged set-up (a smallest fix) still meets every target, at every player
    count, with `tuned` re-tuned under its rules."""
    if adapted is None or adapted.empty:
        return []
    kept = _kept_shipped(adapted)
    held, lost = [], []
    for label, part in adapted[adapted["setup"] != "base"].groupby("setup", sort=False):
        missed = part[~part["met_re_tuned"].astype(bool)]
        if missed.empty:
            held.append(str(label))
            continue
        lost.append(f"{label} misses " + ", ".join(
            f"{r['objective']} "
            + _fmt(r["re_tuned"], r["unit"], where=bal.cell_name(int(r["players"]), "tuned"))
            for _, r in missed.iterrows())
            + (" (the re-tuning did not beat the shipped weights, so this is the shipped "
               "`tuned`)" if label in kept else ""))  # fmt: skip
    parts = []
    if held:
        parts.append(f"{', '.join(held)} still meet{'s' if len(held) == 1 else ''} every target")
    parts += lost
    n = int(adapted["games"].iloc[0])
    return [f"With `tuned` re-tuned under each fix's rules ({n:,} games per set-up and player "
            "count): " + "; ".join(parts) + " (Fields that adapt)."]  # fmt: skip


def _kept_shipped(adapted: pd.DataFrame) -> set[str]:
    """The set-ups under whose rules `tuned` kept its shipped weights at every player count
    (the re-tuning lost)."""
    rt = adapted.attrs.get("retuned")
    if rt is None or rt.empty:
        return set()
    shipped = {(int(r["players"]), r["setup"]) for _, r in rt.iterrows() if r["plays"] == "shipped"}
    out = set()
    for label, part in adapted[adapted["setup"] != "base"].groupby("setup", sort=False):
        if all((int(p), s) in shipped for p, s in zip(part["players"], part["rules_setup"],
                                                        strict=True)):  # fmt: skip
            out.add(str(label))
    return out


def markdown(space: Space, trials: pd.DataFrame, finalists: list[bal.Trial], feasible: bool,
             verified: pd.DataFrame, verdicts: pd.DataFrame, adapted: pd.DataFrame,
             sheets: list[tuple[str, str]], command: str, clock: dict[str, float],
             screened: Sequence[bal.Screened] = (), fixes: Sequence[bal.Fix] = (),
             grown: Sequence[bal.Grown] = ()) -> str:  # fmt: skip
    """The report's page (Markdown)."""
    s = space.settings
    words = load_game(space.game).INFO.vocabulary
    units = {o.name: o.unit for o in space.objectives}
    lines = [f"# {space.title}", ""]
    if space.question:
        lines += [f"**Question.** {space.question.strip()}", ""]
    lines += ["## Answer", ""]
    lines += [f"- {x}" for x in answer(space, finalists, feasible, verified, adapted, screened,
                                       fixes, grown)]  # fmt: skip
    took = ", ".join(f"{k} {v / 60:.1f}" for k, v in clock.items() if k != "total")
    lines += ["", f"Made {datetime.now(UTC):%Y-%m-%d %H:%M} UTC in {clock['total'] / 60:.1f} "
              f"minutes ({took}) with {s.jobs} jobs. Reproduce:", "",
              "```sh", command, "```", ""]  # fmt: skip
    lines += ["## The space and the objectives", ""]
    base = space.base()
    lines.append(text.markdown_table(pd.DataFrame(
        [{"setting": d.name, "what": d.what, "range": d.describe(),
          "base game": value_text(base[d.name])} for d in space.dimensions])))  # fmt: skip
    lines.append("")
    lines.append(text.markdown_table(pd.DataFrame(
        [{"objective": o.name, "measure": o.measure, "unit": o.unit, "goal": o.goal,
          "target": o.bounds() or "none"} for o in space.objectives])))  # fmt: skip
    rungs = s.rung_games()
    repeats = int((trials["same_as"] >= 0).sum()) if "same_as" in trials else 0
    lines += ["", (
        f"Each candidate is judged in the fixed fields {', '.join(s.fields)} (self-play) at "
        f"{', '.join(map(str, s.players))} players; an objective's value is its worst cell, "
        "named after it as (field, player count). All candidates play the same deals (root "
        f"seed {s.seed}). {s.trials} trials of Optuna's NSGA-II in batches of "
        f"{s.population}; each batch runs successive halving over "
        f"{' / '.join(f'{g:,}' for g in rungs)} games per field (the best 1/{s.eta} go on). "
        + ("Parsimony: the number of settings a candidate changes is one more objective of "
           "the search (minimised), and among candidates that meet every target fewer "
           "changes rank first (halving, finalists, fixes). " if s.parsimony else
           "Parsimony is off (`[balance] parsimony = false`): the search does not count "
           "changes; the fixes below are still the smallest. ")
        + f"{repeats} of {len(trials)} trials proposed a game already measured and were "
        "told its measures without playing it. Seat measures are in points of win share "
        f"(100 x share minus 1/P); `{words['headline_part']}` is the share of the strongest "
        f"field's score from {words['headline_label']}."), ""]  # fmt: skip
    if screened:
        lines += _screen_section(space, screened, grown)
    lines += _front_section(space, trials, units)
    lines += _verified_section(space, finalists, verified, fixes)
    if not verdicts.empty:
        seat = verdicts[verdicts["metric"].astype(str).map(is_seat_metric)]
        lines += ["### In the verdict words", "",
                  "The paired run of the fixed fields on the verification's games "
                  "(`verification/report.md`) judges each finalist against the base game "
                  "across the fields (seat 0 and length here; its appendix has every metric):",
                  ""]  # fmt: skip
        lines += [f"- {x}" for x in seat["sentence"]]
        others = verdicts[(verdicts["metric"] == "rounds") & (verdicts["change"] != "base")]
        lines += [f"- {x}" for x in others["sentence"]]
        lines += ["", "Set-ups are labelled by their differences from the base game; a "
                  "component edit shows as `components=<edits>#<digest>`.", ""]  # fmt: skip
    lines += _adapted_section(adapted, space.game)
    if sheets:
        lines += ["## Balance sheets of the smallest fixes", "",
                  "Each fix's balance sheet at each player count, beside the base game on the "
                  "same deals; each sheet's check field (L4 self-play on its first deals) says "
                  "whether its findings hold under search play:", ""]  # fmt: skip
        lines += [f"- [{n}](sheets/{n}/sheet.md)" + (f": {said}" if said else "")
                  for n, said in sheets]  # fmt: skip
        lines.append("")
    return "\n".join(lines)


def _screen_section(space: Space, screened: Sequence[bal.Screened],
                    grown: Sequence[bal.Grown] = ()) -> list[str]:  # fmt: skip
    """The one-change screen's table, and the sets it grew when no single change met every
    target."""
    s = space.settings
    rows = []
    for r in screened:
        row: dict[str, Any] = {"setting": r.setting, "value": value_text(r.value)}
        for o in space.objectives:
            if r.values is None:
                row[o.name] = r.note
                continue
            v = r.values[o.name]
            mark = "" if o.violation(v.value) == 0 else " ✗"
            row[o.name] = _fmt(v.value, o.unit, v.lo, v.hi, v.where) + mark
        row["meets every target"] = ("yes" if r.values is not None
                                     and bal.meets(space, r.values) else "no")  # fmt: skip
        rows.append(row)
    lines = ["## One rule at a time", "",
             "The base game with one setting changed, each setting at each screened value "
             f"(every choice; a whole-number range of at most {s.screen_values} values at "
             f"each, else {s.screen_values} values spanning it, ends included), on the "
             f"verification's {s.verify_games:,} fresh games per field and player count (root "
             f"seed {s.seed + 1}), the same deals as the base game: each objective's worst "
             "cell with its 95 % interval (✗: misses the target). `tables/screen.csv` has "
             "every value.", "", text.markdown_table(pd.DataFrame(rows)), ""]  # fmt: skip
    if not grown:
        return lines
    start = ", ".join(f"{n}={value_text(v)}" for n, v in grown[0].changes[:-1])
    rows = []
    for g in grown:
        row = {"changes": len(g.changes), "settings": describe(space, g.candidate)}
        for o in space.objectives:
            v = g.values[o.name]
            mark = "" if o.violation(v.value) == 0 else " ✗"
            row[o.name] = _fmt(v.value, o.unit, v.lo, v.hi, v.where) + mark
        row["meets every target"] = "yes" if bal.meets(space, g.values) else "no"
        rows.append(row)
    return [*lines, "### The screen carried on", "",
            "No single change meets every target, so the closest one (`rank_key`: the "
            f"smallest total violation), `{start}`, is kept and each other screened change of "
            "another setting is added to it, on the same games; if none of those meets every "
            "target, the closest of them is kept and the next added, up to "
            f"`[verify] screen_depth` = {s.screen_depth} changes (forward selection). "
            "`tables/grown.csv` has every set.", "",
            text.markdown_table(pd.DataFrame(rows)), ""]  # fmt: skip


def _front_section(space: Space, trials: pd.DataFrame, units: dict[str, str]) -> list[str]:
    """The Pareto front's table, one row per setting."""
    rungs = space.settings.rung_games()
    lines = ["## Pareto front", "",
             f"Trials that played all {rungs[-1]:,} games and that no other such trial beats "
             "on every objective" + (" and the number of changes" if space.settings.parsimony
                                     else "")
             + ", one row per setting with the trials that played it (the values are its "
             "first trial's: each trial plays the same games; worst cells as (field, "
             "player count)); `tables/trials.csv` has every trial.", "",
             "![Pareto front](figures/pareto.png)", ""]  # fmt: skip
    front = trials[trials["pareto"]]
    if front.empty:
        return [*lines, "No trial played the top rung.", ""]
    front = front.sort_values(["violation", "changes", "loss", "trial"])
    # NSGA-II proposes a good setting again and again: one row per setting, its trials listed
    settings = [describe(space, {d.name: r[d.name] for d in space.dimensions})
                for _, r in front.iterrows()]  # fmt: skip
    front = front.assign(settings=settings)
    firsts = front.drop_duplicates("settings")
    numbers = front.groupby("settings", sort=False)["trial"].apply(
        lambda x: ", ".join(str(int(n)) for n in sorted(x))
    )
    shown = pd.DataFrame({
        "trials": [numbers[x] for x in firsts["settings"]],
        "settings": firsts["settings"],
        "changes": firsts["changes"].astype(int),
        **{o.name: [_fmt(v, units[o.name], where=w) for v, w in
                    zip(firsts[o.name], firsts[f"{o.name}_where"], strict=True)]
           for o in space.objectives},
        "meets targets": ["yes" if f else "no" for f in firsts["feasible"]],
    })  # fmt: skip
    return [*lines, text.markdown_table(shown), ""]


def _verified_section(space: Space, finalists: Sequence[bal.Trial], verified: pd.DataFrame,
                      fixes: Sequence[bal.Fix]) -> list[str]:  # fmt: skip
    """The finalists and their smallest fixes on the verification's games."""
    s = space.settings
    lines = ["## Finalists and their smallest fixes, verified on fresh games", ""]
    if verified.empty:
        return [*lines, "Nothing was verified (`[verify] games = 0`).", ""]
    g = s.verify_games
    lines += [f"The base game, each finalist and each finalist's smallest fix (when smaller) "
              f"on {g:,} new games per field and player count (root seed {s.seed + 1}), the "
              "same deals for all: each objective's worst cell with its 95 % interval (`met`: "
              "the value meets the target, ✗ where it does not; `sure`: the whole interval "
              "does). The screen and the reduction play these games too, each set-up once.",
              ""]  # fmt: skip
    rows = []
    for setup, part in verified.groupby("setup", sort=False):
        row = {"set-up": setup, "changes": int(part["changes"].iloc[0]),
               "settings": part["settings"].iloc[0]}  # fmt: skip
        for _, r in part.iterrows():
            mark = " (sure)" if r["sure"] else ("" if r["met"] else " ✗")
            row[r["objective"]] = _fmt(r["value"], r["unit"], r["lo"], r["hi"], r["where"]) + mark
        rows.append(row)
    lines += [text.markdown_table(pd.DataFrame(rows)), ""]
    if fixes:
        table = fixes_table(space, finalists, fixes)
        lines += ["### Smallest fixes", "",
                  "Each finalist reduced to its smallest subset of changes that still meets "
                  "every target on these games (`balance.reduce`): each change alone first; "
                  f"with at most {bal.EXHAUSTIVE} changes, every subset by size; with more, "
                  "backward elimination (the least helpful change alone dropped first, a drop "
                  f"kept while every target is still met), then every smaller subset of what is "
                  f"left when at most {bal.EXHAUSTIVE} are. `played` counts the subsets not "
                  "measured before (by the screen or another finalist's reduction).", "",
                  text.markdown_table(pd.DataFrame({
                      "finalist": table["finalist"],
                      "its changes": table["finalist changes"],
                      "smallest fix": table["fix settings"],
                      "fix changes": table["fix changes"],
                      "meets every target": ["yes" if x else "no"
                                             for x in table["meets every target"]],
                      "how": table["method"],
                      "subsets judged / played": [f"{a} / {b}" for a, b in zip(
                          table["subsets judged"], table["subsets played"], strict=True)],
                  })), ""]  # fmt: skip
    files = [f"finalist-{k}" for k in range(1, len(finalists) + 1)]
    files += [f"fix-{fx.finalist}" for fx in fixes if fx.meets and fx.changes]
    if files:
        lines += ["Component files: " + ", ".join(f"[{f}](finalists/{f}.toml)" for f in files)
                  + " (options and variant in each file's header).", ""]  # fmt: skip
    return lines


def _adapted_section(adapted: pd.DataFrame, game: str) -> list[str]:
    """The fields that adapt: `tuned` shipped and re-tuned, L4 as one seat."""
    if adapted.empty:
        return []
    words = load_game(game).INFO.vocabulary
    part, piece = words["headline_part"], words["headline_piece"]
    met = f"l4_{part}_met"
    lines = ["## Fields that adapt", "",
             "The search used fixed fields. Here `tuned` plays each smallest fix (and the base "
             "game) with its shipped weights and with weights re-tuned under that set-up's "
             "rules (a short CMA-ES from the shipped ones, kept only if they beat them on "
             "held-out games), each player count apart; `moved` is how far the objective "
             "moved with the re-tuned bots. L4 (look-ahead search) plays one seat against L3: "
             f"its gain over fair and the share of its score from {part}.", ""]  # fmt: skip
    cols = {"setup": adapted["setup"], "players": adapted["players"],
            "objective": adapted["objective"],
            "tuned": [_fmt(v, u) for v, u in zip(adapted["tuned"], adapted["unit"], strict=True)],
            "re-tuned": [_fmt(v, u, lo, hi) for v, u, lo, hi in zip(
                adapted["re_tuned"], adapted["unit"], adapted["re_tuned_lo"],
                adapted["re_tuned_hi"], strict=True)],
            "moved": [_fmt(v, u if u in ("points", "rounds") else "%")
                      for v, u in zip(adapted["moved"], adapted["unit"], strict=True)],
            "target met (shipped / re-tuned)": [
                f"{'yes' if a else 'no'} / {'yes' if b else 'no'}" for a, b in
                zip(adapted["met_tuned"], adapted["met_re_tuned"], strict=True)]}  # fmt: skip
    lines += [text.markdown_table(pd.DataFrame(cols)), ""]
    if "l4_gain" in adapted:
        l4 = adapted.drop_duplicates(["setup", "players"])
        lines += [text.markdown_table(pd.DataFrame({
            "setup": l4["setup"], "players": l4["players"], "L4 games": l4["l4_games"],
            "L4 gain over fair": [_fmt(v, "points", lo, hi) for v, lo, hi in zip(
                l4["l4_gain"], l4["l4_gain_lo"], l4["l4_gain_hi"], strict=True)],
            f"L4's score from {part}": [_fmt(v, "%") for v in l4[f"l4_{part}"]],
            **({f"{piece} target met by L4": ["yes" if x else "no" for x in l4[met]]}
               if met in l4 else {}),
        })), ""]  # fmt: skip
        if met in l4:
            base_l4 = l4[l4["setup"] == "base"].set_index("players")[f"l4_{part}"]
            moved = [f"{r['setup']} at {r['players']} players "
                     f"{r[f'l4_{part}'] - base_l4[r['players']]:+.1f}"
                     for _, r in l4.iterrows()
                     if r["setup"] != "base" and r["players"] in base_l4.index]  # fmt: skip
            if moved:
                lines += [f"L4's share of its score from {part} against the base game's "
                          f"(points of share, {int(l4['l4_games'].iloc[0])} games each, so "
                          "a rough guide): " + ", ".join(moved) + ".", ""]  # fmt: skip
    if "retuned" in adapted.attrs:
        rt = adapted.attrs["retuned"]
        lines += ["Re-tuning (`tables/retuned.csv`): held-out win share of the re-tuned "
                  "weights against the shipped `tuned`, and which weights play:", "",
                  text.markdown_table(pd.DataFrame({
                      "players": rt["players"], "set-up": rt["setup"],
                      "re-tuned": [f"{x:.3f}" for x in rt["retuned"]],
                      "shipped": [f"{x:.3f}" for x in rt["shipped"]], "plays": rt["plays"],
                  })), ""]  # fmt: skip
    return lines
