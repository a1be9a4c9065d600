"""`moaisim balance FILE`: the whole study around the search (`studies.balance`).

1. **Search** the space on the fixed fields (`balance.search`), resumable in
   `<runs>/<name>/search`.
2. **Finalists**: up to `[balance] finalists` candidates of the top rung, feasible ones of
   the Pareto front first, else the closest (`balance.choose_finalists`).
3. **Verification** on fresh deals (root seed + 1), the base game and every finalist on the
   same games: each objective again with its interval, and a paired run of the fixed fields
   (`<runs>/<name>/verify`) whose report (`verification/`) judges each finalist against base
   in the verdict words of `analysis.verdicts`.
4. **Adapted fields**: `tuned` re-tuned under each finalist's rules (`studies.retune`, a
   short CMA-ES from the shipped weights) judges it again, beside the shipped `tuned` on the
   same games; and look-ahead search (L4) as one seat against L3 at a small budget says
   whether strong play still carves. The report gives how far each value moved.
5. **Balance sheets** of each finalist (`studies.sheet`, without its field study).
6. The report: `report.md`/`report.html`, `tables/*.csv`, `figures/pareto.png` and a
   component file per finalist (`finalists/finalist-K.toml`, with its options and variant
   in its header) that `--components` plays.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import tomli_w
from joblib import Parallel, delayed

from moaisim.analysis import plots, text
from moaisim.analysis.report import apart, make_report
from moaisim.analysis.stats import wilson
from moaisim.analysis.verdicts import SEAT_METRIC
from moaisim.engine.results import statue_points
from moaisim.errors import UserError
from moaisim.files import check_writable_dir, swap_in
from moaisim.rules import Rules
from moaisim.rules.variants import OPTIONS
from moaisim.rundir import is_run
from moaisim.runner import check_jobs, make_study, run_in_memory, run_to_disk, study_of_rules
from moaisim.studies import balance as bal
from moaisim.studies.balance_space import (
    ADAPT,
    MAX_TRIALS,
    SHEET,
    Space,
    candidate_document,
    check_total,
    load_space,
    rules_of,
    value_text,
)
from moaisim.studies.retune import RetuneSettings, retune
from moaisim.studies.sheet import SheetSettings, play_sheet, write_sheet

#: Files that mark a directory as a report (of an experiment, a balance study or a sheet).
REPORT_MARKS = ("report.json", "report.md", "balance.json", "sheet.json")


@dataclass
class Outcome:
    """What `run_balance` found: trials, finalists (verified), and where it wrote."""

    space: Space
    trials: list[bal.Trial]
    finalists: list[bal.Trial]
    feasible: bool
    verified: pd.DataFrame
    report: Path


def describe(space: Space, candidate: dict[str, Any]) -> str:
    """A candidate's settings that differ from the base game ('wood_points=3, ...'), or
    'the base game'."""
    base = space.base()
    parts = [f"{k}={value_text(v)}" for k, v in candidate.items() if v != base[k]]
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
    try:
        clock = {"search": searched}
        mark = time.monotonic()
        verified = verify(space, finalists, jobs)
        verdicts = verdict_run(space, finalists, run / verify_dir(space, finalists), tmp, jobs,
                               command, say)  # fmt: skip
        clock["verification"], mark = time.monotonic() - mark, time.monotonic()
        adapted = adapt(space, finalists, run, jobs, say)
        clock["adapted fields"], mark = time.monotonic() - mark, time.monotonic()
        sheets = make_sheets(space, finalists, tmp, jobs, say)
        clock["sheets"] = time.monotonic() - mark
        clock["total"] = time.monotonic() - started
        _write(space, found, finalists, feasible, verified, verdicts, adapted, sheets, tmp,
               command, clock)  # fmt: skip
        swap_in(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        for d in made:  # a study that failed leaves no empty --reports behind
            if d.is_dir() and not any(d.iterdir()):
                d.rmdir()
    return Outcome(space, found, finalists, feasible, verified, out / "report.md")


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


def fresh(space: Space, shift: int) -> Space:
    """The space with its root seed moved by `shift` (new deals, the same for everyone)."""
    return replace(space, settings=replace(space.settings, seed=space.settings.seed + shift))


def verify(space: Space, finalists: Sequence[bal.Trial], jobs: int) -> pd.DataFrame:
    """Each objective of the base game and of each finalist on `[verify] games` fresh games
    (root seed + 1, the same deals for all): value, 95 % interval, met; one row per
    set-up and objective."""
    games = space.settings.verify_games
    if not games or not finalists:
        return pd.DataFrame()
    s2 = fresh(space, 1)
    cands = [space.base(), *(t.candidate for t in finalists)]
    tasks = (delayed(bal.measure_block)(s2, c, 0, games) for c in cands)
    sums = Parallel(n_jobs=jobs)(tasks) if jobs > 1 else [f(*a, **k) for f, a, k in tasks]
    base = sums[0]
    rows = []
    for k, (c, x) in enumerate(zip(cands, sums, strict=True)):
        values = bal.judge(s2, x, base)
        for o in space.objectives:
            v = values[o.name]
            rows.append({"setup": "base" if k == 0 else f"finalist {k}",
                         "settings": describe(space, c), "objective": o.name,
                         "measure": o.measure, "unit": o.unit, "value": v.value, "lo": v.lo,
                         "hi": v.hi, "where": v.where, "bounds": o.bounds(),
                         "met": o.violation(v.value) == 0,
                         "sure": o.violation(v.lo) == 0 and o.violation(v.hi) == 0,
                         "games": games})  # fmt: skip
    return pd.DataFrame(rows)


def verify_dir(space: Space, finalists: Sequence[bal.Trial]) -> str:
    """The verification run's directory, named by what it plays (the finalists' games and
    the games per field): a search resumed with more trials and other finalists gets a new
    one instead of being refused as another study."""
    what = [space.game_key(t.candidate) for t in finalists] + [str(space.settings.verify_games)]
    return "verify-" + hashlib.sha256(",".join(what).encode()).hexdigest()[:12]


def _rules(space: Space, finalists: Sequence[bal.Trial]) -> list[Rules]:
    cands = [space.base(), *(t.candidate for t in finalists)]
    return [rules_of(c, p, space.settings.keep_totals)
            for p in space.settings.players for c in cands]  # fmt: skip


def verdict_run(space: Space, finalists: Sequence[bal.Trial], run: Path, out: Path, jobs: int,
                command: str, say: Any) -> pd.DataFrame:  # fmt: skip
    """The fixed fields on the verification's games, each finalist paired with the base
    game, reported with the verdict words into `out/verification`; its findings."""
    games = space.settings.verify_games
    if not games or not finalists:
        return pd.DataFrame()
    s = space.settings
    study = study_of_rules(_rules(space, finalists), games, list(s.fields), seed=s.seed + 1,
                           rounds=True)  # fmt: skip
    say(f"verification: {len(study.cells)} cells x {games:,} games")
    run_to_disk(study, run, resume=True, n_jobs=jobs, command=command, option="--runs")
    metrics = [SEAT_METRIC, "rounds", "mean score", "leader after round 3 wins"]
    make_report(run, out / "verification",
                title=f"{space.title}: the finalists against the base game",
                command=command, question=space.question, metrics=metrics)  # fmt: skip
    return pd.read_csv(out / "verification" / "tables" / "verdicts.csv")


# --- adapted fields ------------------------------------------------------------------------------


def adapt(space: Space, finalists: Sequence[bal.Trial], run: Path, jobs: int,
          say: Any) -> pd.DataFrame:  # fmt: skip
    """The finalists judged again by fields that adapt: `tuned` self-play with the shipped
    weights and with weights re-tuned under each set-up's rules (the base game keeps the
    shipped ones), on the same fresh games (root seed + 2); and L4 as one seat against L3
    (root seed + 3): its gain over fair and the share of its score from statues."""
    if not finalists:
        return pd.DataFrame()
    a = {**ADAPT, **space.settings.adapt}
    s = space.settings
    rules = _rules(space, finalists)
    where = run / "retuned"
    rt = RetuneSettings(a["generations"], a["games"], a["held_out_games"])
    retune(study_of_rules(rules, a["games"], ["tuned"], seed=s.seed), where, rt, jobs, say)
    rows = []
    setups = ["base", *(f"finalist {k + 1}" for k in range(len(finalists)))] * len(s.players)
    base_of: dict[int, dict[str, Any]] = {}  # the base game's shipped `tuned` sums, by players
    for label, r in zip(setups, rules, strict=True):  # the base game first at each count
        p = r.players
        say(f"adapted fields: {label} at {p} players")
        got: dict[str, dict[str, Any]] = {}
        for name, spec in (("tuned", "tuned"), ("re-tuned", f"tuned(retuned={str(where)!r})")):
            study = make_study(p, a["field_games"], {p: [spec]}, seed=s.seed + 2, rules=r,
                               rounds=bal.needs_rounds(space))  # fmt: skip
            res, table = run_in_memory(study, n_jobs=jobs)
            got[name] = bal.field_sums(res, table, p, space)
        if label == "base":
            base_of[p] = got["tuned"]
        base_got = base_of[p]  # `length_change` against the base game on the same games
        search = _search_seat(r, a["search_games"], s.seed + 3, jobs)
        statues = [o for o in space.objectives if o.measure == "statues"]
        if search and statues:  # does strong play still meet the statue target?
            search["l4_statues_met"] = statues[0].violation(search["l4_statues"]) == 0
        for o in space.objectives:
            if o.measure in ("skill", "diversity"):
                continue
            fixed = bal.field_value(o, got["tuned"], p, base_got)
            moved = bal.field_value(o, got["re-tuned"], p, base_got)
            rows.append({"setup": label, "players": p, "objective": o.name, "unit": o.unit,
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


def _search_seat(rules: Rules, games: int, seed: int, jobs: int) -> dict[str, float]:
    """L4 as one seat against L3 copies, seats rotated: its gain over fair (points) with its
    Wilson interval and the share of its score from statues (%)."""
    if not games:
        return {}
    p = rules.players
    study = make_study(p, games, {p: ["L4,L3"]}, seed=seed, rules=rules)
    res, _ = run_in_memory(study, n_jobs=jobs)
    mine = res[res["strategy"] != "L3"]  # the searching seat (L3 keeps its level's name)
    lo, hi = wilson(float(mine["win_share"].sum()), len(mine))
    statues = statue_points(mine)
    return {"l4_games": len(mine), "l4_gain": (mine["win_share"].mean() - 1 / p) * 100,
            "l4_gain_lo": (lo - 1 / p) * 100, "l4_gain_hi": (hi - 1 / p) * 100,
            "l4_statues": float(statues.sum() / mine["score"].sum() * 100)}  # fmt: skip


# --- sheets --------------------------------------------------------------------------------------


def make_sheets(space: Space, finalists: Sequence[bal.Trial], out: Path, jobs: int,
                say: Any) -> list[str]:  # fmt: skip
    """A balance sheet per finalist and player count into `out/sheets`; their folder
    names."""
    cfg = {**SHEET, **space.settings.sheet}
    names = []
    stage = out / "sheets"
    stage.mkdir(parents=True, exist_ok=True)
    for k, t in enumerate(finalists, start=1):
        for p in space.settings.players:
            r = rules_of(t.candidate, p, space.settings.keep_totals)
            say(f"balance sheet of finalist {k} at {p} players")
            sh = play_sheet(SheetSettings(p, cfg["games"], cfg["skill_games"],
                                          cfg["search_games"], cfg["deals"], cfg["replays"],
                                          space.settings.seed + 4, None, jobs, r))  # fmt: skip
            name = f"finalist-{k}-{p}p"
            write_sheet(sh, stage / name, f"moaisim balance {space.path}")
            names.append(name)
    return names


# --- the report ----------------------------------------------------------------------------------


def component_file(space: Space, t: bal.Trial, k: int) -> str:
    """A finalist's component file, with its options and variant in its header."""
    doc = candidate_document(t.candidate, space.settings.keep_totals)
    doc["name"] = f"{space.name}-finalist-{k}"
    opts = {n: v for n, v in t.candidate.items() if n in OPTIONS}
    head = [f"# {space.name}, finalist {k}: {describe(space, t.candidate)}",
            f"# Play it: moaisim simulate --components finalist-{k}.toml"
            + "".join(f" --{n.replace('_', '-')} {v}" for n, v in opts.items())
            + (f" --variant {t.candidate['variant']}" if "variant" in t.candidate else ""),
            ""]  # fmt: skip
    return "\n".join(head) + tomli_w.dumps(doc)


def _write(space: Space, found: list[bal.Trial], finalists: list[bal.Trial], feasible: bool,
           verified: pd.DataFrame, verdicts: pd.DataFrame, adapted: pd.DataFrame,
           sheets: list[str], tmp: Path, command: str,
           clock: dict[str, float]) -> None:  # fmt: skip
    """Write the report's pages, tables, figure and component files into `tmp`."""
    for d in ("tables", "figures", "finalists"):
        (tmp / d).mkdir(parents=True, exist_ok=True)
    trials = bal.trials_table(space, found)
    trials.to_csv(tmp / "tables" / "trials.csv", index=False)
    front = trials[trials["pareto"]]
    front.to_csv(tmp / "tables" / "pareto.csv", index=False)
    for name, df in (("verified", verified), ("adapted", adapted)):
        df.to_csv(tmp / "tables" / f"{name}.csv", index=False)
    if "retuned" in adapted.attrs:
        adapted.attrs["retuned"].to_csv(tmp / "tables" / "retuned.csv", index=False)
    for k, t in enumerate(finalists, start=1):
        (tmp / "finalists" / f"finalist-{k}.toml").write_text(component_file(space, t, k))
    fig = plots.balance_front(trials, [o.name for o in space.objectives],
                              {o.name: o.unit for o in space.objectives})  # fmt: skip
    plots.save(fig, tmp / "figures" / "pareto.png")
    page = markdown(space, trials, finalists, feasible, verified, verdicts, adapted, sheets,
                    command, clock)  # fmt: skip
    (tmp / "report.md").write_text(page)
    (tmp / "report.html").write_text(text.html_page(space.title, page, tmp))
    (tmp / "balance.json").write_text(json.dumps({"name": space.name, "feasible": feasible,
                                                  "finalists": [t.candidate for t in finalists],
                                                  "identity": space.identity(),
                                                  "seconds": clock},
                                                 indent=1, default=str))  # fmt: skip


def _fmt(v: float, unit: str, lo: float | None = None, hi: float | None = None) -> str:
    spec = ".2f" if unit in ("rounds", "strategies") else ".1f"
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    core = f"{v:+{spec}}" if unit in ("points", "rounds") else f"{v:{spec}}"
    if lo is not None and hi is not None and not (np.isclose(lo, v) and np.isclose(hi, v)):
        core += f" [{lo:{spec}}, {hi:{spec}}]"
    return core + (" %" if unit == "%" else "")


def answer(space: Space, finalists: list[bal.Trial], feasible: bool, verified: pd.DataFrame,
           adapted: pd.DataFrame | None = None) -> list[str]:  # fmt: skip
    """The answer's sentences: which finalists meet every target on fresh games, and whether
    they still do when `tuned` is re-tuned under their rules."""
    targets = "; ".join(f"{o.name} ({o.measure}) {o.bounds()}" for o in space.objectives
                        if o.bounds())  # fmt: skip
    if not finalists:
        return ["No trial reached the top rung: nothing to verify."]
    lines = []
    met = []
    base_met = False
    if not verified.empty:
        for k in range(1, len(finalists) + 1):
            part = verified[verified["setup"] == f"finalist {k}"]
            if len(part) and part["met"].all():
                met.append(k)
        base = verified[verified["setup"] == "base"]
        base_met = bool(len(base)) and bool(base["met"].all())
    g = space.settings.verify_games
    if met:
        named = [f"finalist {k}: {describe(space, finalists[k - 1].candidate)}" for k in met]
        lines.append(
            f"**{len(met)} of {len(finalists)} finalists meet every target ({targets}) on "
            f"{g:,} fresh games per field:** " + "; ".join(named) + ". (Their estimates do; "
            "`sure` in the table below marks a target met by the whole 95 % interval.)"
        )
    elif not g:
        lines.append(
            f"**{'Some' if feasible else 'No'} setting met every target ({targets}) in the "
            "search; the finalists were not verified on fresh games (`[verify] games = 0`).**"
        )
    else:
        lines.append(
            f"**No setting in the space met every target ({targets})"
            + (" in the search" if not feasible else " on fresh games")
            + ".** The closest candidates are the finalists below, closest first; the table "
            "gives how far each is from each target."
        )
    if g:
        lines.append("The base game " + ("meets" if base_met else "does not meet")
                     + f" every target on the same {g:,} games.")  # fmt: skip
    if adapted is not None and not adapted.empty and met:
        kept = _kept_shipped(space, finalists, adapted)
        held, lost = [], []
        for k in met:
            part = adapted[adapted["setup"] == f"finalist {k}"]
            missed = part[~part["met_re_tuned"].astype(bool)]
            if missed.empty:
                held.append(f"finalist {k}")
            else:
                lost.append(f"finalist {k} misses " + ", ".join(
                    f"{r['objective']} ({_fmt(r['re_tuned'], r['unit'])})"
                    for _, r in missed.iterrows())
                    + (" (the re-tuning did not beat the shipped weights, so this is the "
                       "shipped `tuned`)" if k in kept else ""))  # fmt: skip
        text_ = "With `tuned` re-tuned under each finalist's rules (its own games, "
        text_ += f"{int(adapted['games'].iloc[0]):,} per set-up): "
        parts = []
        if held:
            parts.append(f"{', '.join(held)} still meet{'s' if len(held) == 1 else ''} "
                         "every target")  # fmt: skip
        parts += lost
        lines.append(text_ + "; ".join(parts) + " (see Fields that adapt).")
    return lines


def _kept_shipped(space: Space, finalists: list[bal.Trial], adapted: pd.DataFrame) -> set[int]:
    """The finalists under whose rules `tuned` kept its shipped weights (re-tuning lost)."""
    rt = adapted.attrs.get("retuned")
    if rt is None:
        return set()
    shipped = set(rt.loc[rt["plays"] == "shipped", "setup"])
    out = set()
    for k, t in enumerate(finalists, start=1):
        if any(rules_of(t.candidate, p, space.settings.keep_totals).setup in shipped
               for p in space.settings.players):  # fmt: skip
            out.add(k)
    return out


def markdown(space: Space, trials: pd.DataFrame, finalists: list[bal.Trial], feasible: bool,
             verified: pd.DataFrame, verdicts: pd.DataFrame, adapted: pd.DataFrame,
             sheets: list[str], command: str, clock: dict[str, float]) -> str:  # fmt: skip
    s = space.settings
    units = {o.name: o.unit for o in space.objectives}
    lines = [f"# {space.title}", ""]
    if space.question:
        lines += [f"**Question.** {space.question.strip()}", ""]
    lines += ["## Answer", ""]
    lines += [f"- {x}" for x in answer(space, finalists, feasible, verified, adapted)]
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
    lines += ["", (
        f"Each candidate is judged in the fixed fields {', '.join(s.fields)} (self-play) at "
        f"{', '.join(map(str, s.players))} players, worst field and player count counted, on "
        f"the same deals (root seed {s.seed}). {s.trials} trials of Optuna's NSGA-II in "
        f"batches of {s.population}; each batch runs successive halving over "
        f"{' / '.join(f'{g:,}' for g in rungs)} games per field (the best 1/{s.eta} go on). "
        "Seat measures are in points of win share (100 x share minus 1/P); `statues` is the "
        "share of the strongest field's score from Moai."), ""]  # fmt: skip
    lines += ["## Pareto front", "",
              f"Trials that played all {rungs[-1]:,} games and that no other such trial beats "
              "on every objective, one row per setting with the trials that played it (the "
              "values are its first trial's: each trial plays the same games); "
              "`tables/trials.csv` has every trial.", "",
              "![Pareto front](figures/pareto.png)", ""]  # fmt: skip
    front = trials[trials["pareto"]].sort_values(["violation", "loss", "trial"])
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
        **{o.name: [_fmt(v, units[o.name]) for v in firsts[o.name]] for o in space.objectives},
        "meets targets": ["yes" if f else "no" for f in firsts["feasible"]],
    })  # fmt: skip
    lines += [text.markdown_table(shown), ""]
    lines += ["## Finalists, verified on fresh games", ""]
    if verified.empty:
        lines += ["No finalist was verified (`[verify] games = 0`).", ""]
    else:
        g = s.verify_games
        lines += [f"The base game and each finalist on {g:,} new games per field (root seed "
                  f"{s.seed + 1}), the same deals for all: each objective's worst cell with "
                  "its 95 % interval (`met`: the value meets the target; `sure`: the whole "
                  "interval does).", ""]  # fmt: skip
        rows = []
        for setup, part in verified.groupby("setup", sort=False):
            row = {"set-up": setup, "settings": part["settings"].iloc[0]}
            for _, r in part.iterrows():
                mark = " (sure)" if r["sure"] else ("" if r["met"] else " ✗")
                row[r["objective"]] = _fmt(r["value"], r["unit"], r["lo"], r["hi"]) + mark
            rows.append(row)
        lines += [text.markdown_table(pd.DataFrame(rows)), ""]
        lines += ["Component files: " + ", ".join(
            f"[finalist {k}](finalists/finalist-{k}.toml)" for k in range(1, len(finalists) + 1)
        ) + " (options and variant in each file's header).", ""]  # fmt: skip
    if not verdicts.empty:
        seat = verdicts[verdicts["metric"] == SEAT_METRIC]
        lines += ["### In the verdict words", "",
                  "The paired run of the fixed fields (`verification/report.md`) judges each "
                  "finalist against the base game across the fields (seat 0 and length here; "
                  "its appendix has every metric):", ""]  # fmt: skip
        lines += [f"- {x}" for x in seat["sentence"]]
        others = verdicts[(verdicts["metric"] == "rounds") & (verdicts["change"] != "base")]
        lines += [f"- {x}" for x in others["sentence"]]
        lines += ["", "Set-ups are labelled by their differences from the base game; a "
                  "component edit shows as `components=<edits>#<digest>`.", ""]  # fmt: skip
    if not adapted.empty:
        lines += ["## Fields that adapt", "",
                  "The search used fixed fields. Here `tuned` plays each set-up with its "
                  "shipped weights and with weights re-tuned under that set-up's rules (a "
                  "short CMA-ES from the shipped ones, kept only if they beat them on held-out "
                  "games); `moved` is how far the objective moved with the re-tuned bots. L4 "
                  "(look-ahead search) plays one seat against L3: its gain over fair and the "
                  "share of its score from statues.", ""]  # fmt: skip
        cols = {"setup": adapted["setup"], "players": adapted["players"],
                "objective": adapted["objective"],
                "tuned": [_fmt(v, u)
                          for v, u in zip(adapted["tuned"], adapted["unit"], strict=True)],
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
                "L4's score from statues": [_fmt(v, "%") for v in l4["l4_statues"]],
                **({"statue target met by L4": ["yes" if x else "no"
                                                for x in l4["l4_statues_met"]]}
                   if "l4_statues_met" in l4 else {}),
            })), ""]  # fmt: skip
            if "l4_statues_met" in l4:
                base_l4 = l4[l4["setup"] == "base"]["l4_statues"]
                moved = [
                    f"{r['setup']} {r['l4_statues'] - base_l4.iloc[0]:+.1f}"
                    for _, r in l4.iterrows()
                    if r["setup"] != "base" and len(base_l4)
                ]
                lines += ["L4's share of its score from statues against the base game's "
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
    if sheets:
        lines += ["## Balance sheets of the finalists", ""]
        lines += [f"- [{n}](sheets/{n}/sheet.md)" for n in sheets]
        lines.append("")
    return "\n".join(lines)
