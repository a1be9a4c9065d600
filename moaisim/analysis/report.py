"""`moaisim report`: a run's tables, figures and a plain-language summary, as Markdown and a
self-contained HTML page (docs/design.md, "Analysis").

`make_report(run, out)` writes into `out`: report.md, report.html (figures embedded), a CSV
per table (tables/), the figures as PNG (figures/), a copy of the run's manifest
(run-manifest.json), report.json (the study it reports) and the commands that reproduce the run
and the report. The summary states each claim with its interval and n,
and says what the numbers cannot support.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from filelock import FileLock, Timeout

from moaisim.analysis import check as checking
from moaisim.analysis import plots, tables, text, verdicts
from moaisim.analysis.source import Source, game_of_table, spec_of_table
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_game, shown
from moaisim.games import GameSpec, load_game
from moaisim.rundir import is_run, make_dir, recorded_game


@dataclass
class Section:
    """One table of the report: its title, what it shows, the table, its figures."""

    key: str
    title: str
    text: str
    table: pd.DataFrame
    shown: pd.DataFrame
    figures: list[str] = field(default_factory=list)


def _cell_name(row: pd.Series) -> str:
    """A cell's set-up in words: '4 players, base' or '3 players, short, wood_supply=10'."""
    return f"{row['players']} players, {row['setup']}"


def _cell(df: pd.DataFrame, key: str = "cell", lineup: bool = True) -> dict[str, Any]:
    """The shown columns that name a table's rows: the cell (or set-up) in words and the
    lineup."""
    out = {key: df.apply(_cell_name, axis=1)}
    return {**out, "lineup": df["lineup"]} if lineup else out


def _count(df: pd.DataFrame, col: str = "games") -> pd.Series:
    """A column of counts, as whole numbers."""
    return df[col].astype(int)


def _shares(df: pd.DataFrame, col: str, lo: str = "lo", hi: str = "hi") -> pd.Series:
    """A column of shares with their intervals: "47.1 % (40.2 %-53.9 %)"."""
    return df.apply(lambda r: text.share_estimate(r[col], r[lo], r[hi]), axis=1)


def _means(df: pd.DataFrame, col: str, spec: str = ".2f") -> pd.Series:
    """A column of means with their intervals (`col`, `col_lo`, `col_hi`)."""
    return df.apply(lambda r: text.estimate(r[col], r[col + "_lo"], r[col + "_hi"], spec), axis=1)


def _points(r: pd.Series, col: str) -> str:
    """A share difference with its interval, in points: "+2.4 (+0.9 to +3.9)"."""
    return f"{text.points(r[col])} ({text.points_interval(r[col + '_lo'], r[col + '_hi'])})"


def _vs_base(r: pd.Series) -> str:
    """A seat-imbalance row's paired difference from its base cell, in points."""
    if "vs_base" not in r or pd.isna(r.get("vs_base")):
        return "-"
    return (
        f"{text.points(r['vs_base'])} points "
        f"({text.points_interval(r['vs_base_lo'], r['vs_base_hi'])}), {r['change']}"
    )


#: More lineups than this per set-up, and the tables pool them (`Source.pooled`): a
#: tournament. Fewer are fields, each judged on its own (`verdicts`).
MAX_LINEUPS = 8


def build_sections(src: Source, margins: Mapping[str, float] | None = None) -> list[Section]:
    """Every table that applies to this run (`SECTIONS`, in order), with the columns a reader
    needs; `margins`: the study's equivalence margins (`verdicts.MARGINS`)."""
    lineups = src.lineups_per_setup()
    if lineups > MAX_LINEUPS:
        # a tournament: one row per set-up, not per lineup (head to head and ratings compare
        # the strategies)
        src = src.pooled()
    pooled = (
        f" The {lineups} lineups of each set-up are pooled (each rotated over the seats)."
        if src.pool
        else ""
    )
    made = tables.compute(src, margins=margins)  # every table that applies, in one pass
    built = (build(made, pooled) for build in SECTIONS)
    return [s for s in built if s is not None]


def _seat_balance(made: Mapping[str, pd.DataFrame], pooled: str) -> Section:
    """Win share per seat and cell, with the test of equal seats."""
    seats = made["seat_balance"]
    words = spec_of_table(seats).INFO.vocabulary
    shown = {
        **_cell(seats),
        "seat": seats["seat"],
        "games (n)": _count(seats),
        "win share (95 % interval)": _shares(seats, "win_share"),
        "fair": seats["fair"].map(text.pct),
        "equal seats: p (Holm)": seats["p_equal_holm"].map(text.p_plain),
    }
    return Section(
        "seat_balance",
        "Seat balance",
        f"Win share of each seat ({words['seat_zero_aside']}), shared wins "
        "split evenly, against the fair share 1/players; p is a chi-square test that every "
        "seat wins equally often, Holm-corrected over the report's cells (one family)." + pooled,
        seats,
        pd.DataFrame(shown),
        ["seat_win_share"],
    )


def _seat_imbalance(made: Mapping[str, pd.DataFrame], pooled: str) -> Section:
    """The seats' RMS deviation from fair per cell, and its change from base."""
    imb = made["seat_imbalance"]
    shown = {
        **_cell(imb),
        "games (n)": _count(imb),
        "RMS from fair (95 % interval)": _shares(imb, "rms"),
        "noise floor": imb["noise_floor"].map(text.pct),
        "against base (95 % interval)": imb.apply(_vs_base, axis=1),
    }
    return Section(
        "seat_imbalance",
        "Fairness over all seats",
        "The root mean square deviation of the seats' win shares from the fair share "
        "(0 for perfectly fair seats), with a bootstrap interval over games; the noise "
        "floor is what fair seats would show with this many games. Against base: the "
        "paired difference of the two RMS on the same games (bootstrap)." + pooled,
        imb,
        pd.DataFrame(shown),
    )


def _seat_lead(made: Mapping[str, pd.DataFrame], pooled: str) -> Section | None:
    """Where seat 0's edge comes from: its lead in points over the other seats, by score
    part and (with the per-round table) by stage of the game."""
    lead = made.get("seat_lead")
    if lead is None or not len(lead):
        return None
    spec = spec_of_table(lead)
    words = spec.INFO.vocabulary
    first = lead[lead["seat"] == 0].reset_index(drop=True)
    shown: dict[str, Any] = {**_cell(first), "games (n)": _count(first),
                             "score lead": _means(first, "score", "+.2f")}  # fmt: skip
    for part in spec.MEASURES.score:
        shown[f"from {spec.MEASURES.seat[part][1]}"] = _means(first, part, "+.2f")
    stages = [s for s in tables.LEAD_STAGES if f"at_{s}" in first]
    for stage in stages:
        shown[f"at {stage} %"] = first[f"at_{stage}"].map(lambda x: text.num(x, "+.2f"))
    by_stage = (
        f" Then the same score lead at the end of the round that closes each fifth of the "
        f"game ({words['round']}s counted per game; the last column is the final standing "
        "as the per-round table tracks it): a lead made early and kept, or made late."
        if stages
        else ""
    )
    return Section(
        "seat_lead",
        "Where seat 0's lead comes from",
        f"{words['seat_zero_aside'].capitalize()}: its mean lead in points over the mean of the "
        "other seats of the same game, in the score and in each part of it (the parts add "
        "up to the score lead), with 95 % intervals over games." + by_stage + pooled,
        lead,
        pd.DataFrame(shown),
    )


def _strategies(made: Mapping[str, pd.DataFrame], pooled: str) -> Section:
    """Per strategy and cell: win share per seat played, against fair, the score's parts."""
    strat = made["strategies"]
    spec = spec_of_table(strat)
    own = strat["by_construction"].astype(bool)
    alone = strat["win_share"].map(lambda x: f"{text.pct(x)} (1/players by construction)")
    shown = {
        **_cell(strat),
        "strategy": strat["strategy"],
        "seats (n)": _count(strat, "n"),
        "win share (95 % interval)": _shares(strat, "win_share").where(~own, alone),
        "against fair (points, 95 % interval)": strat.apply(
            lambda r: "-" if r["by_construction"] else _points(r, "vs_fair"), axis=1
        ),
        "mean score": _means(strat, "score"),
        **{spec.MEASURES.seat[c][0]: _means(strat, c) for c in spec.MEASURES.shown},
    }
    return Section(
        "strategies",
        "Strategies",
        "Per strategy: its win share per seat played (a strategy in two seats of a game "
        "counts twice; intervals from standard errors clustered by game, none in "
        "self-play where the share is 1/players by construction), its difference from "
        "the fair share, its mean score and the mean of each part of the score "
        f"({spec.INFO.vocabulary['score_rule']}), with 95 % intervals." + pooled,
        strat,
        pd.DataFrame(shown),
        ["score_parts", "score_distributions"],
    )


def _head_to_head(made: Mapping[str, pd.DataFrame], pooled: str) -> Section | None:
    """How often each strategy finishes above each other, per set-up (when two meet)."""
    h2h = made["head_to_head"]
    if not len(h2h):
        return None
    shown = {
        **_cell(h2h, "set-up", lineup=False),
        "strategy": h2h["strategy"],
        "opponent": h2h["opponent"],
        "meetings (n)": _count(h2h, "n"),
        "finishes above (95 % interval)": _shares(h2h, "above_share"),
    }
    return Section(
        "head_to_head",
        "Head to head",
        "How often a strategy finishes above another when both play the same game (a tie "
        "counts half), per set-up: set-ups share their deals, so their meetings are not pooled.",
        h2h,
        pd.DataFrame(shown),
        ["head_to_head_heatmap"],
    )


def _ratings(made: Mapping[str, pd.DataFrame], pooled: str) -> Section | None:
    """Plackett-Luce ratings per set-up (where strategies meet)."""
    rates = made["ratings"]
    if not len(made["head_to_head"]) or not len(rates):
        return None
    shown = {
        **_cell(rates, "set-up", lineup=False),
        "strategy": rates["strategy"],
        "games (n)": rates["games"],
        "rating (95 % interval)": rates.apply(
            lambda r: text.estimate(r["rating"], r["lo"], r["hi"], "+.2f"), axis=1
        ),
    }
    return Section(
        "ratings",
        "Ratings",
        "A Plackett-Luce rating of the strategies (log-strength, centred on 0) from the games "
        "in which every seat plays a different strategy (a uniform random sample of "
        f"{tables._Ratings.max_games:,} of them when there are more), with Wald intervals "
        "from the model's Fisher information.",
        rates,
        pd.DataFrame(shown),
    )


def _variants(made: Mapping[str, pd.DataFrame], pooled: str) -> Section | None:
    """Each change against base on the same games, with its tests and verdict."""
    deltas = made.get("variants")
    if deltas is None or not len(deltas):
        return None
    shown = {
        "players": deltas["players"],
        "lineup": deltas["lineup"],
        "change": deltas["change"],
        "metric": deltas["metric"],
        "games (n)": _count(deltas),
        "base": deltas["base"].map(lambda x: text.num(x, ".3f")),
        "with the change": deltas["treatment"].map(lambda x: text.num(x, ".3f")),
        "difference (Holm-adjusted interval)": deltas.apply(
            lambda r: text.estimate(r["delta"], r["lo"], r["hi"], "+.3f"), axis=1
        ),
        "p (Holm)": deltas["p_holm"].map(text.p_plain),
        "smallest detectable": deltas["mde"].map(lambda x: text.num(x, ".3f")),
        "equivalence (margin, TOST p Holm)": deltas.apply(
            lambda r: f"±{text.num(r['margin'], '.3g')}, {text.p_plain(r['p_tost_holm'])}",
            axis=1,
        ),
        "verdict": deltas["verdict"],
    }
    return Section(
        "variants",
        "Variants and options against base",
        "Each variant or rule option against base with the default options, on the same "
        "games (common random numbers: the differences are paired game by game); p-values "
        "of paired t tests, Holm-corrected over the whole table, with intervals "
        "adjusted the same way (an interval excludes 0 exactly when Holm rejects); "
        "the smallest effect detectable at 80 % power; an equivalence test (TOST) "
        "against the study's margin. Verdict: changes (Holm p < 0.05), equivalent "
        "(TOST rejects: no change beyond the margin), inconclusive (neither), "
        "identical by construction (every paired game the same).",
        deltas,
        pd.DataFrame(shown),
        ["variant_deltas"],
    )


def _game_shape(made: Mapping[str, pd.DataFrame], pooled: str) -> Section:
    """Game length, scores, the winning margin and shared wins per cell."""
    shape = made["game_shape"]
    shown = {
        **_cell(shape),
        "games (n)": _count(shape),
        "rounds": _means(shape, "rounds"),
        "mean score": _means(shape, "score"),
        "winning margin": _means(shape, "margin"),
        "shared wins": _shares(shape, "shared_win_share", "shared_lo", "shared_hi"),
    }
    return Section(
        "game_shape",
        "Game shape",
        "How long games last, how many points are scored, by how much the winner wins (over "
        "the best other seat; 0 when the win is shared) and how often a win is shared.",
        shape,
        pd.DataFrame(shown),
        ["game_length"],
    )


def _game_quality(made: Mapping[str, pd.DataFrame], pooled: str) -> Section | None:
    """How the lead moves per cell (runs with the per-round table)."""
    if "game_quality" not in made:
        return None
    q = made["game_quality"]
    shown = {
        **_cell(q),
        "games (n)": _count(q),
        "lead changes": _means(q, "lead_changes"),
        "won from behind": _shares(q, "comeback_share", "comeback_lo", "comeback_hi"),
        "deepest deficit (points)": _means(q, "deficit"),
        "rounds behind": _means(q, "rounds_behind"),
        "led for good from (share of game)": _means(q, "decided"),
        "close games (margin <= 2)": _shares(q, "close_share", "close_lo", "close_hi"),
    }
    return Section(
        "game_quality",
        "Game quality",
        "How the lead moves (after the evaluation metrics of the Ludii general game system: "
        "lead change, drama, decisiveness): lead changes between rounds per game, how "
        "often and how far the eventual winner came from behind, from which point of the "
        "game it led for good, and how often the final margin is 2 points or less.",
        q,
        pd.DataFrame(shown),
        ["lead_over_rounds"],
    )


#: The report's sections in order: each builds its section from the tables, or None where
#: it does not apply to the run.
SECTIONS: tuple[Callable[[Mapping[str, pd.DataFrame], str], Section | None], ...] = (
    _seat_balance,
    _seat_imbalance,
    _seat_lead,
    _strategies,
    _head_to_head,
    _ratings,
    _variants,
    _game_shape,
    _game_quality,
)


FIGURES = {
    "seat_win_share": lambda s: plots.seat_win_share(s["seat_balance"].table),
    "score_parts": lambda s: plots.score_parts(s["strategies"].table),
    "score_distributions": lambda s: plots.score_distributions(s["game_shape"].table),
    "head_to_head_heatmap": lambda s: plots.head_to_head_heatmap(s["head_to_head"].table),
    "variant_deltas": lambda s: plots.variant_deltas(s["variants"].table),
    "game_length": lambda s: plots.game_length(s["game_shape"].table),
    "lead_over_rounds": lambda s: plots.lead_over_rounds(s["game_quality"].table),
}
CAPTIONS = {
    "seat_win_share": "Win share by seat, with 95 % intervals; the dashed line is the fair share.",
    "score_parts": "The mean score of each strategy, split into its parts.",
    "score_distributions": "The distribution of final scores of each strategy.",
    "head_to_head_heatmap": "How often the row strategy finishes above the column strategy.",
    "variant_deltas": (
        "Each change against base, on the same games, with intervals adjusted like their "
        "Holm tests (they exclude 0 exactly when the change is a finding)."
    ),
    "game_length": "How many rounds games last.",
    "lead_over_rounds": "The eventual winner's lead over the other seats, round by round.",
}


CAVEATS = [
    "These are games between programs (the strategies named in each table), not people: a "
    "finding is a property of the game as these strategies play it. A seat or variant "
    "effect that the strategies create or hide can differ with stronger or human play.",
    "Where the published rules give totals but not contents, or leave a figure open, the "
    "component file's assumed figures stand in (the game's rules book marks them); another "
    "component file may change the findings.",
    "Intervals are 95 %: about one claim in twenty can miss its true value by chance. The "
    "variants table and the seat tests are each corrected as one family (Holm), their "
    "intervals adjusted the same way; the other tables' intervals are each 95 % on its own.",
    "Every game is reproducible from its seed (`moaisim play --seed S --index I`, with "
    "`--game NAME` for another game than the default).",
]


def make_report(
    run: Any,
    out: str | Path,
    title: str | None = None,
    command: str | None = None,
    rounds: pd.DataFrame | None = None,
    question: str = "",
    margins: Mapping[str, float] | None = None,
    field: str | Path | None = None,
    metrics: Sequence[str] | None = None,
    retuned: pd.DataFrame | None = None,
    say: Callable[[str], None] | None = None,
    check: str | Path | None = None,
    check_lineup: str = checking.CHECKED,
) -> Path:
    """Write the report of a run directory (or a results DataFrame, with its per-round table)
    into `out`; returns the path of report.md. `say` is told when the tables are made and
    the figures start (the command line prints it: a large report works for a while).

    `out` must be new, empty, or hold a report of the same study (same seed and grid), which
    is replaced whole: the report is written into a temporary directory beside it and swapped
    in, so no file of an older report survives and a failure leaves the old one as it was.
    `margins`: the study's equivalence margins; `field`: the report directory of a field
    study (`moaisim experiment` of a [field] file), against whose meta-game the fields of
    this report are measured (`verdicts.field_status`); `metrics`: what the study's
    question asks about, the answer box's rows (`verdicts.box_metrics` by default; "ranking"
    and "head to head: A vs B" for a tournament); `retuned`: the re-tuning table of an
    experiment's `[retune]` (`studies.retune`), said in the box and kept as a table;
    `check`: the check run (`analysis.check`: the checked lineup and L4 self-play on the
    study's first deals, the same root seed), whose verdicts the box and a section show.
    """
    src = Source.of(run, rounds)
    checked = None if check is None else Source.of(check)
    if checked is not None:
        check_run(src, checked, check_lineup)
    final = Path(out)
    if field is not None:  # a field study of the run's game
        field = verdicts.field_report(field, src.game)
    seed, identity = _identity(src)
    if src.run is not None:
        apart(src.run.path, final)
    check_report_dir(final, seed, identity, src.game)
    make_dir(final.parent)
    if not os.access(final.parent, os.W_OK | os.X_OK):
        raise UserError(f"cannot write a report into {final.parent} (permission denied)")
    with _report_lock(final):
        check_report_dir(final, seed, identity, src.game)
        tmp = final.parent / f".{final.name}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        try:
            _write_report(src, tmp, title, command, question, seed, identity, margins, field,
                          metrics, retuned, say or (lambda _line: None), checked,
                          check_lineup, game=src.game)  # fmt: skip
            swap_dir(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return final / "report.md"


#: The file that marks a report directory and names the study it reports.
REPORT_MARK = "report.json"
#: The copy of the run's manifest a report keeps.
RUN_MANIFEST = "run-manifest.json"


def _identity(src: Source) -> tuple[int | None, dict[str, Any] | None]:
    """The seed and study of a run's report (None, None for a DataFrame's)."""
    if src.manifest is None:
        return None, None
    return src.manifest["seed"], src.manifest["study"]


def apart(run: Path, report: Path) -> None:
    """A report never goes into its run's directory, nor a run into its report's."""
    a, b = Path(run).resolve(), Path(report).resolve()
    if a == b or a.is_relative_to(b) or b.is_relative_to(a):
        raise UserError(
            f"the report directory {report} and the run directory {run} must be apart "
            "(neither inside the other): choose another"
        )


def held_output(out: Path, kind: str) -> bool:
    """Whether an output directory `out` holds something (False: new or empty); one clear
    line when it cannot take output of `kind` ('a report', 'a balance sheet') at all: a link
    to nothing, a file, or a run."""
    if out.is_symlink() and not out.exists():
        raise UserError(f"{out} is a symbolic link to nothing: remove it or choose another --out")
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is a file, not a directory: choose another --out")
    if not out.exists() or not any(out.iterdir()):
        return False
    if is_run(out):
        raise UserError(f"{out} holds a run, not {kind}: choose another --out")
    return True


def check_report_dir(out: Path, seed: int | None, study: dict[str, Any] | None,
                     game: str) -> None:  # fmt: skip
    """A report of `game` may go to `out` if it is new, empty, or holds the report of the
    same study (one clear line otherwise: another game's report, another study's, a run or
    anything else is never overwritten)."""
    out = Path(out)
    if not held_output(out, "a report"):
        return
    mark = None
    for name in (REPORT_MARK, "manifest.json"):  # older reports: their run's manifest
        if name == "manifest.json" and not (out / "report.md").is_file():
            continue
        try:
            doc = json.loads((out / name).read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and "study" in doc:
            mark = doc
            break
    if mark is None:
        raise UserError(f"{out} exists and does not hold a moaisim report: choose another --out")
    # a report (or its study) that names no game was made before games had names
    check_game(recorded_game(mark, mark.get("study")), game, out, "a report")
    want = json.loads(json.dumps({"seed": seed, "study": study}, default=str))
    if {"seed": mark.get("seed"), "study": mark.get("study")} != want:
        raise UserError(
            f"{out} holds the report of another study (other seed or grid): choose another "
            "directory, or remove that one"
        )


@contextlib.contextmanager
def _report_lock(out: Path) -> Iterator[None]:

    path = out.parent / f".{out.name}.lock"
    try:
        open(path, "a").close()  # a directory that refuses files is not a lock held elsewhere
    except OSError as exc:
        raise UserError(f"cannot write into {out.parent} ({exc.strerror or exc})") from None
    lock = FileLock(str(path), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise UserError(f"{out} is being written by another moaisim report: wait for it to "
                        "end, or choose another --out") from None  # fmt: skip
    try:
        yield
    finally:
        lock.release()
        with contextlib.suppress(OSError):
            Path(lock.lock_file).unlink()


def swap_dir(new: Path, final: Path) -> None:
    """Put the directory `new` in the place of `final`, replacing an older report whole (the
    old one set aside, then removed)."""
    old = final.parent / f".{final.name}.old-{os.getpid()}"
    if final.exists():
        os.replace(final, old)
    os.replace(new, final)
    shutil.rmtree(old, ignore_errors=True)


def _write_report(
    src: Source,
    out: Path,
    title: str | None,
    command: str | None,
    question: str,
    seed: int | None,
    study: dict[str, Any] | None,
    margins: Mapping[str, float] | None = None,
    field: Path | None = None,
    metrics: Sequence[str] | None = None,
    retuned: pd.DataFrame | None = None,
    say: Callable[[str], None] = lambda _line: None,
    check: Source | None = None,
    check_lineup: str = checking.CHECKED,
    *,
    game: str,
) -> None:
    """Write every file of a report of `game` into the (new, empty) directory `out`."""
    sections = {s.key: s for s in build_sections(src, margins)}  # every part checked first
    found = answer(sections, margins, field, retuned)
    spec = spec_of_table(sections["seat_balance"].table)
    asked = tuple(metrics or verdicts.box_metrics(spec))
    seat = verdicts.seat_share_metric(spec)
    if "variants" in sections and seat not in asked:  # every study's box gives the start
        asked = (seat, *asked)  # player's paired change, whatever metrics it asks about
    check_found = None
    if check is not None:
        say("report: the check field's tables (L4 self-play on the first deals)")
        check_found = _checked(src, check, sections, margins, asked, check_lineup)
    (out / "tables").mkdir(exist_ok=True)
    (out / "figures").mkdir(exist_ok=True)
    for s in sections.values():
        s.table.to_csv(out / "tables" / f"{s.key}.csv", index=False)
    found.to_csv(out / "tables" / "verdicts.csv", index=False)
    if check_found is not None:
        check_found[0].to_csv(out / "tables" / "check.csv", index=False)
    if retuned is not None:
        retuned.to_csv(out / "tables" / "retuned.csv", index=False)
    made: dict[str, Path] = {}
    figures = sum(len(s.figures) for s in sections.values())
    say(f"report: tables and verdicts made; drawing {figures} figures")
    for s in sections.values():
        for name in s.figures:
            made[name] = plots.save(FIGURES[name](sections), out / "figures" / f"{name}.png")
    manifest = src.manifest
    if manifest is not None:  # the run's manifest (not named manifest.json: this is no run)
        shutil.copyfile(src.run.path / "manifest.json", out / RUN_MANIFEST)
    title = title or "moaisim balance report"
    games = int(sections["seat_balance"].table.groupby("cell")["games"].first().sum())
    cells = int(sections["seat_balance"].table["cell"].nunique())
    repro = []
    if manifest is not None and manifest.get("command"):
        repro.append(manifest["command"])
    if command and command not in repro:
        repro.append(command)
    made_on = f"Made {datetime.now(UTC):%Y-%m-%d %H:%M} UTC from "
    intro = [made_on + _study_line(manifest, games, cells)]
    for forced in (manifest or {}).get("forced_resumes", []):
        intro.append(
            f"**Caution:** this run was resumed on {forced.get('at', '?')} by other code than "
            f"started it ({'; '.join(forced.get('changed', []))} changed, --force-resume): its "
            "games come from two versions."
        )
    box = answer_box(sections, found, asked, retuned)
    if check_found is not None:
        box.checks = checking.sentences(*check_found, check_lineup)
    page = _markdown(title, question, intro, repro, sections, made, box, found, check_found,
                     check_lineup)  # fmt: skip
    (out / "report.md").write_text(page)
    (out / "report.html").write_text(text.html_page(title, page, out))
    mark = {GAME_KEY: game, "seed": seed, "study": study, "title": title}
    (out / REPORT_MARK).write_text(json.dumps(mark, indent=1, default=str))


def _study_line(manifest: dict[str, Any] | None, games: int, cells: int) -> str:
    if manifest is not None:  # the study's cells, not the pooled ones the tables show
        cells = len(manifest["study"]["cells"])
    line = f"{games:,} games in {cells} cells"
    if manifest is not None:
        line += (
            f", root seed {manifest['seed']}, {manifest['study'].get('rotation', '?')} seat "
            f"rotation, moaisim {(manifest.get('versions') or {}).get('moaisim', '?')}"
        )
    return line + "."


def check_run(src: Source, check: Source, lineup: str) -> None:
    """Refuse a check run that is not one (before anything is computed): another game's,
    another root seed than the study's (its games are other deals), or no `lineup` or L4
    among its cells."""
    where = check.run.path if check.run else "the check run"
    check_game(check.game, src.game, where, "a check run")
    mine, theirs = (x.manifest.get("seed") if x.manifest else None for x in (src, check))
    if mine is not None and theirs is not None and mine != theirs:
        where = f"the check run {check.run.path}" if check.run else "the check run"
        raise UserError(f"{where} has root seed {theirs}, the study {mine}: its games are not "
                        "the study's deals")  # fmt: skip
    played = check.cells()["lineup"]
    missing = [x for x in (lineup, checking.SEARCH_LINEUP)
               if not checking.is_lineup(played, x).any()]  # fmt: skip
    if missing:
        names = sorted({verdicts.field_name(x) for x in played.astype(str)})
        raise UserError(f"the check run holds no {' or '.join(missing)} lineup (it has "
                        f"{', '.join(names)})")  # fmt: skip


def _checked(src: Source, check: Source, sections: Mapping[str, Section],
             margins: Mapping[str, float] | None, metrics: Sequence[str],
             lineup: str) -> tuple[pd.DataFrame, int]:  # fmt: skip
    """The check field's table (`check.check_table`) and its games per set-up (the check
    run is one, `check_run`: the study's root seed, the checked lineup and L4). A player
    count or set-up the check run did not play has no row."""
    made = tables.compute(check, margins=margins)
    study = checking.judged({k: s.table for k, s in sections.items()}, margins)
    table = checking.check_table(study, checking.judged(made, margins), metrics, lineup)
    seats = made["seat_balance"]
    games = int(seats.loc[checking.is_lineup(seats["lineup"], checking.SEARCH_LINEUP),
                          "games"].min())  # fmt: skip
    return table.assign(games=games), games


def answer(
    sections: dict[str, Section], margins: Mapping[str, float] | None, field: Path | None = None,
    retuned: pd.DataFrame | None = None,
) -> pd.DataFrame:  # fmt: skip
    """The report's findings (`verdicts.findings`): seat 0 against the fair share and every
    variant effect, judged per field (lineup) and worded across the qualifying fields
    (`field`: the field study's report, which says which fields are exploitable and whether
    the strongest is certified). `retuned`: an experiment's re-tuning table; under a set-up
    whose re-tuning did not gain, `tuned` played its shipped weights, and its field is
    named so (`verdicts.SHIPPED_AFTER_RETUNE`)."""
    status = verdicts.field_statuses(sections["strategies"].table, field)
    judged = checking.judged({k: s.table for k, s in sections.items()}, margins)
    if retuned is not None and len(retuned):
        judged, status = verdicts.name_what_played(judged, status, retuned)
    found = verdicts.findings(judged, status)
    game = game_of_table(sections["strategies"].table)
    found.attrs["game"] = game  # the study's game
    # what the verdicts read, named in the box's notes (`verdicts.sources_note`)
    found.attrs["field_runs"] = [shown(str(r)) for r in verdicts.judged_runs(field, game)]
    return found


@dataclass
class Box:
    """The answer box: a sentence per metric and player count, the compact table they are
    read from, and the notes on its fields."""

    sentences: list[str]
    table: pd.DataFrame
    notes: list[str]
    #: the check field's lines (`check.sentences`): does each finding hold under search play?
    checks: list[str] = field(default_factory=list)


def answer_box(sections: Mapping[str, Section], found: pd.DataFrame,
               metrics: Sequence[str], retuned: pd.DataFrame | None = None) -> Box:  # fmt: skip
    """The box of the metrics a study asks about, in their order within each player count:
    the findings' sentences (`verdicts.sentence`), a tournament's ranking ("ranking": the
    ratings table) and meetings ("head to head: A vs B": the head-to-head table)."""
    order = {m: k for k, m in enumerate(metrics)}
    rows = found[found["metric"].isin(order)] if len(found) else found
    said: list[tuple[int, int, str, str]] = [
        (int(r["players"]), order[r["metric"]], str(r["change"]), str(r["sentence"]))
        for _, r in rows.iterrows()
    ]
    for metric, k in order.items():
        if metric == RANKING and "ratings" in sections:
            said += [(p, k, "", x) for p, x in _ranking_sentences(sections["ratings"].table)]
        elif metric.startswith(HEAD_TO_HEAD) and "head_to_head" in sections:
            a, _, b = metric.removeprefix(HEAD_TO_HEAD).partition(" vs ")
            h2h = sections["head_to_head"].table
            said += [(p, k, "", x) for p, x in _meeting_sentences(h2h, a.strip(), b.strip())]
    said.sort(key=lambda x: x[:3])
    compact = verdicts.compact(rows) if len(rows) else pd.DataFrame()
    notes = verdicts.field_notes(rows) if len(rows) else []
    if len(rows) and "field_runs" in found.attrs:
        notes.append(verdicts.sources_note(found.attrs["field_runs"], game_of_table(found)))
    untuned = untuned_changes(found["change"], game_of_table(found)) if len(found) else []
    if retuned is not None:
        notes.append(retuned_note(retuned))
    elif untuned:
        notes.append(
            f"the bots were not re-tuned: {'; '.join(untuned)} change"
            f"{'s' if len(untuned) == 1 else ''} the scoring, the supply or the components, and "
            "were judged with weights (tuned, L3) tuned under the base game's rules, which can "
            "favour or handicap them there (an experiment's [retune] re-tunes tuned)"
        )
    return Box([x[3] for x in said], compact, notes)


def retuned_note(retuned: pd.DataFrame) -> str:
    """What the box says of an experiment's re-tuning: which set-ups, how, and what it
    gained against the shipped `tuned` under those rules."""
    gains = "; ".join(
        f"{r['setup']} at {r['players']} players {text.pct(r['retuned'])} "
        f"{text.bracket(r['retuned_lo'], r['retuned_hi'], text.pct)} against the shipped "
        f"weights' {text.pct(r['shipped'])}"
        + (", so tuned kept its shipped weights" if r["plays"] == "shipped" else "")
        for _, r in retuned.iterrows()
    )
    return (
        "tuned was re-tuned under each set-up before the study (CMA-ES from its shipped "
        "weights, against copies of the shipped tuned; held-out win share: "
        f"{gains or 'no set-up but the base game seats tuned'}); the other strategies, L3's "
        "members among them, keep weights tuned under the base game"
    )


def untuned_changes(changes: Sequence[str] | pd.Series, game: str) -> list[str]:
    """The set-ups that change a rule parameter of `game` (the scoring, the supply, the
    hands...) or the component file: the shipped weights were tuned under the base game's,
    not these."""
    parameters = load_game(game).PARAMETERS
    out = []
    for change in sorted({str(c) for c in changes}):
        parts = [x.strip() for x in change.split(", ")]
        if any(x.split("=", 1)[0] in parameters or x.startswith("components=") for x in parts):
            out.append(change)
    return out


#: A box metric: the tournament's ranking (its ratings table).
RANKING = "ranking"
#: A box metric: a strategy's own win share in the fields that seat it among others.
WIN_SHARE = "win share: "
#: A box metric: how often one strategy finishes above another ("head to head: A vs B").
HEAD_TO_HEAD = "head to head: "


def box_choices(spec: GameSpec) -> tuple[str, ...]:
    """The metrics an answer box can show besides a tournament's: seat 0 against fair, and
    every paired metric of the variants table (in the game's words)."""
    return (verdicts.seat_metric(spec), *tables.paired_metrics(spec))


def check_metrics(metrics: Sequence[str], game: str) -> tuple[str, ...]:
    """The metrics a study's answer box shows, checked: each one of `box_choices` of the
    game, "ranking", or "head to head: A vs B" (a clear error otherwise)."""
    if not metrics:
        raise UserError("give at least one metric for the answer box")
    choices = box_choices(load_game(game))
    for m in metrics:
        known = m in choices or m == RANKING or (m.startswith(WIN_SHARE) and m > WIN_SHARE)
        if m.startswith(HEAD_TO_HEAD):
            a, _, b = m.removeprefix(HEAD_TO_HEAD).partition(" vs ")
            known = bool(a.strip() and b.strip())
        if not known:
            raise UserError(
                f"unknown metric {m!r} (expected one of "
                f"{', '.join(repr(x) for x in choices)}, 'win share: NAME', 'ranking' or "
                "'head to head: A vs B')"
            )
    return tuple(metrics)


def _ranking_sentences(rates: pd.DataFrame) -> list[tuple[int, str]]:
    """Per player count, the strategies in the order of their Plackett-Luce ratings."""
    out = []
    for (players, setup), part in rates.groupby(["players", "setup"], sort=True, observed=True):
        part = part.sort_values("rating", ascending=False)
        rated = [
            f"{r['strategy']} {text.num(r['rating'], '+.2f')} "
            f"{text.bracket(r['lo'], r['hi'], '+.2f')}"
            for _, r in part.iterrows()
        ]
        where = "" if str(setup) == "base" else f", {setup}"
        out.append((int(players), f"At {players} players{where}, the ratings (log-strength, "
                    f"centred on 0) rank {', '.join(rated)}: {part.iloc[0]['strategy']} "
                    f"first, {part.iloc[-1]['strategy']} last."))  # fmt: skip
    return out


def _meeting_sentences(h2h: pd.DataFrame, a: str, b: str) -> list[tuple[int, str]]:
    """Per player count, how often `a` finishes above `b` when both play the same game."""
    rows = h2h[(h2h["strategy"] == a) & (h2h["opponent"] == b)]
    return [
        (int(r["players"]),
         f"At {r['players']} players, {a} finishes above {b} in {text.pct(r['above_share'])} "
         f"{text.bracket(r['lo'], r['hi'], text.pct)} of their {int(r['n']):,} meetings "
         "(a tie counts half).")
        for _, r in rows.sort_values("players").iterrows()
    ]  # fmt: skip


BOX_NOTE = (
    "Each answer opens with the strongest qualifying field's own effect and interval (search, "
    "L4, where played; then L3, tuned, L2, other lineups), then the verdict "
    "across the qualifying fields. "
    "Verdicts across fields (bot populations): *certified game property* when every "
    f"qualifying field agrees (one sign, or no change within the margin), with at least "
    f"{verdicts.MIN_FIELDS} of them including the strongest ({verdicts.STRONGEST}) certified by "
    "the field study; *same direction in all fields* when they agree in sign short of that; "
    "*fields disagree*; *no change within the margin in all fields*; *inconclusive*; "
    "*identical by construction* (the rule decides it, not the play). A field qualifies unless "
    "a challenger gains more than "
    f"{text.points(verdicts.EXPLOITABLE, sign=False, digits=0)} points of win share against it "
    "(the lower end of its interval) in any run of the game's shipped field studies or of "
    f"the certify runs recorded for the shipped {verdicts.STRONGEST}, whatever --field says; "
    "greedy (L1) and random play (L0) never qualify. "
    "In the table: an effect and its Holm-adjusted interval; = no change beyond the margin, "
    "? inconclusive, ≡ identical by construction, no mark a change."
)


def _quoted_table(df: pd.DataFrame) -> list[str]:
    """A table inside the answer box (a block quote)."""
    return [f"> {line}" for line in text.markdown_table(df).splitlines()]


def _markdown(
    title: str,
    question: str,
    intro: list[str],
    repro: list[str],
    sections: dict[str, Section],
    figs: dict[str, Path],
    box: Box,
    found: pd.DataFrame,
    check: tuple[pd.DataFrame, int] | None = None,
    check_lineup: str = checking.CHECKED,
) -> str:
    lines = [f"# {title}", "", "> **The question.** " + (question or title), ">",
             "> **The answer.**", ">", *[f"> - {x}" for x in box.sentences], ">"]  # fmt: skip
    if len(box.table):
        lines += [*_quoted_table(box.table), ">"]
    if box.checks and check is not None:
        lines += [f"> **Under search play** (L4 self-play on each set-up's first {check[1]:,} "
                  "deals; the section below):", ">", *[f"> - {x}." for x in box.checks],
                  ">"]  # fmt: skip
    if box.notes:
        lines += ["> Notes:", ">", *[f"> - {x}." for x in box.notes], ">"]
    lines += [f"> _{BOX_NOTE}_", ""]
    for paragraph in intro:
        lines += [paragraph, ""]
    if repro:
        lines += ["Reproduce (in a checkout, after `make test` or `make demo` made `.venv`: "
                  "activate it with `source .venv/bin/activate`, or write `.venv/bin/moaisim`):",
                  "", "```sh", *repro, "```", ""]  # fmt: skip
    lines += ["What these numbers do not support:", "", *[f"- {x}" for x in CAVEATS], ""]
    for s in sections.values():
        lines += [
            f"## {s.title}",
            "",
            s.text,
            "",
            text.markdown_table(s.shown),
            "",
            f"_{s.table.attrs.get('sample_size', '')}. Table: tables/{s.key}.csv._",
            "",
        ]
        for name in s.figures:
            lines += [
                f"![{CAPTIONS[name]}](figures/{figs[name].name})",
                "",
                f"_{CAPTIONS[name]}_",
                "",
            ]
    if check is not None:
        lines += _check_section(*check, check_lineup)
    if len(found):
        notes = verdicts.field_notes(found)
        lines += [
            "## Appendix: every finding",
            "",
            "Every metric the fields share, at every player count and change, with the verdict "
            "across fields (the answer box shows the question's metrics); each finding's "
            "sentence is in tables/verdicts.csv.",
            "",
            text.markdown_table(verdicts.compact(found)),
            "",
            *([f"_Fields: {'; '.join(notes)}._", ""] if notes else []),
        ]
    return "\n".join(lines)


def _check_section(table: pd.DataFrame, games: int, lineup: str) -> list[str]:
    """The check field's section: each box finding in the study, in the checked lineup on
    the check games, in L4 on them, and whether it holds under search play."""
    return [
        "## Under search play (L4, the check field)",
        "",
        f"Each set-up's first {games:,} deals played again in {lineup} self-play (the study's "
        f"own games: the same seeds) and in L4 self-play (look-ahead search in every seat). "
        "Each effect of the answer box is judged in each, with its 95 % interval (Holm over "
        "the check run's findings). A finding holds under search play when L4's interval "
        "leaves 0 out on the study's side; it is not shown under search when only the "
        f"checked lineup's does on the same deals, and there are too few games to tell when "
        f"neither does (intervals on {games:,} games see only large effects).",
        "",
        text.markdown_table(checking.shown(table, games, lineup)),
        "",
        "_Table: tables/check.csv._",
        "",
    ]  # fmt: skip
