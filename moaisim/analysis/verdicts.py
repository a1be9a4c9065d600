"""Verdicts: what a report may call a change, an equivalence or a game property.

The tables give each effect with its interval; this module words them by fixed rules, so a
headline never says more than its table:

- a paired effect **changes** the game when its Holm-adjusted p is below 5 %; its interval
  is adjusted the same way (`inference.holm_intervals`: it excludes 0 exactly then);
- it is **equivalent** (no change beyond the study's margin) when the two one-sided tests
  (TOST) against that margin reject, Holm-adjusted over the same family;
- it is **identical by construction** when every paired game gave the same difference (none,
  or always the same: the rule decides it whatever the play): not a finding;
- otherwise it is **inconclusive**, reported with its interval and its minimum detectable
  effect at 80 % power, never as "no change".

Across fields (the lineups a study plays: bot populations), `classify` words each finding by
what the qualifying fields show: a *certified game property*, the *same direction in all
fields*, *fields disagree*, *no change within the margin in all fields*, *inconclusive* or
*identical by construction*. A field qualifies unless a field study (every one the checkout
ships, `shipped_field_studies`, and the one given) or a recorded certify run found it
exploitable (a challenger gains more than `EXPLOITABLE` against it), and never with a random
or greedy seat (`WEAK_SEATS`); a field that never carves a Moai is
flagged beside the others, never dropped. A Cochran Q test says whether the fields' effects
differ (field x effect interaction). `findings` adds each verdict's plain sentence and each
field's effect: the answer box, its compact table and the headline all read that one table.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from moaisim.analysis import inference, text
from moaisim.analysis.source import game_named_by, game_of_table
from moaisim.analysis.stats import holm
from moaisim.errors import UserError
from moaisim.files import CHECKOUT, check_game, game_in_file, shipped
from moaisim.games import GameSpec, available, load_game
from moaisim.registry import split_top
from moaisim.rundir import recorded_game

#: The family-wise error rate of every verdict.
ALPHA = 0.05
#: Power at which the minimum detectable effect is reported.
POWER = 0.8
#: Default equivalence margins by metric: 1 point of win share; scores in points; rounds (a
#: game's own metrics, `GAME_METRICS`, bring theirs).
MARGINS: dict[str, float] = {
    "share": 0.01,
    "mean score": 0.5,
    "score spread (sd over seats)": 0.25,
    "rounds": 0.1,
    "lead changes per round (sole leader)": 0.05,
    "rounds with a tied lead": 0.1,
}
#: Metrics that are shares of games besides those named "... share ..." (their effects are
#: in points of share, their default margin the share's).
SHARE_LIKE = ("leader after round", "close game")


def is_share(metric: str) -> bool:
    """The metric is a share of games (a win share, how often the leader wins, ...)."""
    return "share" in metric or any(metric.startswith(x) for x in SHARE_LIKE)


#: How many qualifying fields a certified game property needs.
MIN_FIELDS = 3
#: The strongest field a study can play (the L3 skill level: the shipped Nash mixture).
STRONGEST = "L3"


@cache
def every_game() -> tuple[GameSpec, ...]:
    """Every game that loads (`moaisim games`): whose words name the metrics of a table."""
    out = []
    for name in available():
        try:
            out.append(load_game(name))
        except UserError:
            continue
    return tuple(out)


def own_metric(metric: str) -> tuple[str, str, float | None] | None:
    """A game's own paired metric (`GAME_METRICS`: how a sentence names it, its unit, its
    margin), or None."""
    for spec in every_game():
        if metric in spec.MEASURES.metrics:
            return tuple(spec.MEASURES.metrics[metric])  # type: ignore[return-value]
    return None


def margin_of(metric: str, margins: Mapping[str, float] | None = None) -> float:
    """The equivalence margin of a metric: a study's own (`[report] margins` of an
    experiment file, by metric name or "share"), else the default."""
    table = {**MARGINS, **(margins or {})}
    if metric in table:
        return float(table[metric])
    own = own_metric(metric)
    if own is not None and own[2] is not None:
        return float(own[2])
    return float(table["share"]) if is_share(metric) else float("nan")


def judge_variants(df: pd.DataFrame, margins: Mapping[str, float] | None = None) -> pd.DataFrame:
    """Add the verdict columns to a variants table that has `games`, `sum_d`, `sum_d2` and
    `p` (one family: the whole table): `se`, `p_holm`, Holm-adjusted `lo`/`hi` and their
    `level`, `margin`, `p_tost_holm`, `mde` and `verdict`."""
    out = df.copy()
    n, s, s2 = (out[c].to_numpy(dtype=float) for c in ("games", "sum_d", "sum_d2"))
    mean, se, dof = inference.paired_from_sums(n, s, s2)
    out["margin"] = [margin_of(m, margins) for m in out["metric"]]
    p_tost = inference.tost_paired(n, s, s2, out["margin"].to_numpy())
    # every paired game gave the same difference (none, or always the same): the rule
    # decides it whatever the play
    identical = np.asarray(se == 0, dtype=bool)
    return _judge(out, mean, se, dof, out["p"].to_numpy(dtype=float), p_tost, identical)


def _judge(
    out: pd.DataFrame, delta: np.ndarray, se: np.ndarray, dof: np.ndarray, p: np.ndarray,
    p_tost: np.ndarray, identical: np.ndarray,
) -> pd.DataFrame:  # fmt: skip
    """The verdict columns of one family of effects (Holm over its rows), from each effect,
    its standard error and df, its test's p-value and its equivalence test's."""
    out["se"] = se
    out["p_holm"] = holm(p)
    out["lo"], out["hi"], out["level"] = inference.holm_intervals(delta, se, dof, p, ALPHA)
    out["p_tost_holm"] = holm(np.asarray(p_tost, dtype=float))
    out["mde"] = inference.mde(se, dof, ALPHA, POWER)
    out["identical"] = identical
    out["verdict"] = [
        _verdict(bool(i), float(e), a, b)
        for i, e, a, b in zip(identical, se, out["p_holm"], out["p_tost_holm"], strict=True)
    ]
    return out


def _verdict(identical: bool, se: float, p_holm: float, p_tost_holm: float) -> str:
    if not np.isfinite(se):  # one paired game: no spread, no test, no interval
        return text.TOO_FEW
    if identical:
        return "identical by construction"
    if p_holm < ALPHA:
        return "changes"
    if p_tost_holm < ALPHA:
        return "equivalent"
    return "inconclusive"


def describe(row: Mapping[str, Any]) -> str:
    """One judged effect in words: the verdict with the effect, its adjusted interval, and
    the margin or the minimum detectable effect it rests on (shares of games in points)."""
    share = is_share(str(row["metric"]))

    def f(x: Any, sign: bool = True) -> str:  # a share in points, else a number of its own
        return text.points(x, sign) if share else text.num(x, "+.2f" if sign else ".2f")

    v = row["verdict"]
    interval = text.bracket(row["lo"], row["hi"], f)
    if v == "identical by construction":
        return f"identical by construction ({f(row['delta'])} in every paired game)"
    if v == text.TOO_FEW:
        return f"{text.TOO_FEW} ({f(row['delta'])} from one game, no interval)"
    if v == "changes":
        return f"{f(row['delta'])} {interval}"
    if v == "equivalent":
        return f"no change beyond ±{f(row['margin'], sign=False)} ({f(row['delta'])} {interval})"
    return (
        f"inconclusive: {f(row['delta'])} {interval}, smallest effect detectable "
        f"{f(row['mde'], sign=False)}"
    )


# --- seats ---------------------------------------------------------------------------------------

#: What the seat verdicts measure: seat 0's win share minus the fair share, named by the
#: game's words for seat 0 (`seat_metric`: "<seat_zero_name>'s share against fair").
SEAT_SUFFIX = "'s share against fair"


def seat_metric(spec: GameSpec) -> str:
    """The seat verdicts' metric in the game's words."""
    return f"{spec.INFO.vocabulary['seat_zero_name']}{SEAT_SUFFIX}"


def seat_share_metric(spec: GameSpec) -> str:
    """Seat 0's win share as the variants table names it, in the game's words."""
    return f"{spec.INFO.vocabulary['seat_zero_name']} win share"


def seat_share_metric_of(metric: str) -> str:
    """Seat 0's win share (`seat_share_metric`) of the game whose seat metric this is."""
    for spec in every_game():
        if metric in (seat_metric(spec), seat_share_metric(spec)):
            return seat_share_metric(spec)
    return metric


def is_seat_metric(metric: str) -> bool:
    """The seat verdicts' metric, of any game."""
    return metric.endswith(SEAT_SUFFIX)


def seat_zero(metric: str) -> str:
    """How a sentence names seat 0, in the words of the game whose metric this is."""
    for spec in every_game():
        if metric in (seat_metric(spec), seat_share_metric(spec)):
            return spec.INFO.vocabulary["seat_zero_said"]
    return "seat 0"


#: Degrees of freedom for tests on shares of many games (the normal limit).
LARGE_DF = 1e9


def judge_seats(seats: pd.DataFrame, margins: Mapping[str, float] | None = None) -> pd.DataFrame:
    """Seat 0 against the fair share in each cell of a seat-balance table, judged like the
    variants (`judge_variants`): one Holm family over the cells, normal tests (shares of many
    games), an equivalence margin of `margin_of("share")`."""
    first = seats[seats["seat"] == 0].copy()
    share, n = first["win_share"].to_numpy(float), first["games"].to_numpy(float)
    delta = share - first["fair"].to_numpy(float)
    # the Agresti-Coull standard error: the share shrunk towards 1/2 by z^2 / 2 games each
    # way, so that a seat that always (or never) won in a few games still has a spread (the
    # Wald one is 0 there and would call any such cell a change); one game: no test at all
    z2 = float(norm.isf(ALPHA / 2)) ** 2
    shrunk = (share * n + z2 / 2) / (n + z2)
    se = np.where(n >= 2, np.sqrt(shrunk * (1 - shrunk) / (n + z2)), np.nan)
    m = margin_of("share", margins)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * norm.sf(np.abs(delta / se))
        p_tost = np.maximum(norm.sf((delta + m) / se), norm.cdf((delta - m) / se))
    first["metric"] = seat_metric(load_game(game_of_table(seats)))
    first["change"] = first["setup"].astype(str) if "setup" in first else "base"
    first["delta"], first["p"], first["margin"] = delta, p, m
    dof = np.full(len(first), LARGE_DF)
    identical = np.zeros(len(first), dtype=bool)
    return _judge(first, delta, se, dof, p, p_tost, identical).reset_index(drop=True)


# --- fields --------------------------------------------------------------------------------------

#: A field is exploitable, and does not qualify for a verdict across fields, when a
#: challenger of the field study gains more than this over the fair share against it (the
#: lower end of the gain's 95 % interval): 10 points of win share.
EXPLOITABLE = 0.10


@dataclass(frozen=True)
class FieldStatus:
    """What the field studies say of one field (a lineup at a player count): the best
    challenger's gain over the fair share against it, with its interval and who it is (nan
    when no study measured this field), whether the study certifies it (no challenger gains
    more than `epsilon`), whether its self-play carves a Moai, and which field study's run
    measured the gain (`source`: its report directory's name)."""

    gain: float = float("nan")
    lo: float = float("nan")
    hi: float = float("nan")
    who: str = ""
    certified: bool = False
    epsilon: float = float("nan")
    carves: bool = True
    source: str = ""
    #: the game played, given with `carves` (its words: `never_made`; None: a field no
    #: study measured, whose status names no game)
    game: str | None = None
    #: why the field never qualifies whatever was measured (`WEAK_SEATS`), "" otherwise
    weak: str = ""

    @property
    def exploitable(self) -> bool:
        """A challenger gains more than `EXPLOITABLE` (the lower end of its interval)."""
        return bool(np.isfinite(self.lo) and self.lo > EXPLOITABLE)

    def _from(self) -> str:
        return f" in {self.source}" if self.source else ""

    def flags(self) -> list[str]:
        """The notes a report prints beside the field's name."""
        out = []
        if self.exploitable:
            out.append(
                f"exploitable: {self.who} gains {text.points(self.gain)} "
                f"{text.bracket(self.lo, self.hi, text.points)} points against it{self._from()}"
            )
        if self.certified:
            out.append(f"certified at epsilon {text.points(self.epsilon, sign=False)} points")
        elif np.isfinite(self.epsilon) and not self.exploitable:
            # "gains" only where the interval's lower end is above 0 (a gain is shown)
            shown = "" if self.lo > 0 else "no challenger is shown to gain; the best, "
            out.append(
                f"not certified at epsilon {text.points(self.epsilon, sign=False)} points: "
                f"{shown}{self.who}{',' if shown else ''} gains {text.points(self.gain)} "
                f"{text.bracket(self.lo, self.hi, text.points)} points against it{self._from()}"
            )
        if self.weak and not self.exploitable:
            out.append(self.weak)
        if not self.carves:
            if self.game is None:
                raise ValueError("a field that never carves is a field of a game: give its game")
            out.append(load_game(self.game).INFO.vocabulary["never_made"])
        return out


#: Seats that never qualify a field, measured or not: random play (L0) and the one-ply greedy
#: bot (L1). Every shipped field study finds greedy exploitable by 29 to 50 points at every
#: player count of both games, and random play is weaker still; a field with such a seat
#: says how the rules move weak play, not what the game is.
WEAK_SEATS = {"random": "random play (L0)", "L0": "random play (L0)",
              "greedy": "one-ply play (L1)", "L1": "one-ply play (L1)"}  # fmt: skip


def weak_reason(lineup: str) -> str:
    """Why a lineup never qualifies (`WEAK_SEATS`): "" when none of its seats is weak."""
    seats = [x.strip() for x in split_top(str(lineup), ",")]
    weak = list(dict.fromkeys(WEAK_SEATS[x] for x in seats if x in WEAK_SEATS))
    return f"never qualifies: {' and '.join(weak)}" if weak else ""


#: The file that marks a field study's report directory and names its game (`field_game`).
FIELD_MARK = "report.json"


def field_game(report: str | Path) -> str:
    """The game a field study's report is of: the `game` its `report.json` names (a report
    written before reports named their game: `rundir.recorded_game`)."""
    mark = Path(report) / FIELD_MARK
    return recorded_game(game_in_file(mark) if mark.is_file() else None)


def field_report(path: str | Path, game: str | None = None) -> Path:
    """A field study's report directory (`moaisim experiment` of a [field] file): one with
    its invasion tables, which `field_status` reads, and of `game` when given
    (`field_game`); a clear error otherwise."""
    found = Path(path)
    if not (found / "report.md").is_file() or not list(found.glob("invasion-*p.csv")):
        raise UserError(f"{found} is not a field study's report (no invasion-<P>p.csv)")
    if game is not None:
        check_game(field_game(found), game, found, "a field study's report")
    return found


#: Where a checkout keeps the reports it ships: the field studies a report reads by itself.
SHIPPED_REPORTS = CHECKOUT / "reports"


def shipped_field_studies(game: str, root: Path | None = None) -> list[Path]:
    """Every field study of `game` the checkout ships (a report directory under `root`,
    `SHIPPED_REPORTS` by default, marked a field study of that game by its `report.json`,
    with its invasion tables), newest first (`made`), then by name. A report judges its
    fields by all of them, with or without `--field`, so its verdict is a property of the
    games played, not of the command line."""
    base = SHIPPED_REPORTS if root is None else Path(root)
    if not base.is_dir():
        return []
    found: list[tuple[str, Path]] = []  # (when it was made, "" when it does not say; where)
    for d in sorted(base.iterdir()):
        mark = d / FIELD_MARK
        marked = mark.is_file() and (d / "report.md").is_file()
        if not (marked and list(d.glob("invasion-*p.csv"))):
            continue
        try:
            doc = json.loads(mark.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if (
            isinstance(doc, dict)
            and doc.get("kind") == "field study"
            and (recorded_game(doc) == game)
        ):
            made = doc.get("made")
            found.append((made if isinstance(made, str) else "", d))
    # newest first (`made`, ISO 8601 UTC), then by name; a study that does not say is oldest
    return [d for _, d in sorted(found, key=lambda x: x[0], reverse=True)]


def newest_field_study(game: str, root: Path | None = None) -> Path | None:
    """The game's newest shipped field study (`shipped_field_studies`), None when the
    checkout ships none: what `moaisim sheet` reads by default."""
    found = shipped_field_studies(game, root)
    return found[0] if found else None


def judged_runs(report: Path | None, game: str,
                shipped: Sequence[Path] | None = None) -> list[Path]:  # fmt: skip
    """The field-study runs a field is judged by: the given study's runs (`field_runs`), then
    every shipped field study's of the game (`shipped`: `shipped_field_studies` by default),
    each once."""
    studies = [] if report is None else [Path(report)]
    studies += list(shipped_field_studies(game) if shipped is None else shipped)
    runs: dict[Path, Path] = {}
    for study in studies:
        for run in field_runs(study):
            runs.setdefault(run.resolve(), run)
    return list(runs.values())


def sources_note(runs: Sequence[str], game: str) -> str:
    """The box's note on what its fields were judged by: the field-study runs read
    (`judged_runs`, newest shipped study first) and the shipped L3's certificate histories."""
    history = _in_checkout(load_game(game).weights_path("nash-<P>p.certificate-history.json"))
    runs = [os.path.normpath(r) for r in runs]
    studies = (f"the field studies {', '.join(runs)}" if len(runs) > 1
               else f"the field study {runs[0]}" if runs else "no field study")  # fmt: skip
    return (
        f"which fields qualify is read from {studies} and from the shipped {STRONGEST}'s "
        f"certificate history ({history})"
    )


def field_runs(report: Path) -> list[Path]:
    """Every run of a field study: its report directory and the replications beside it,
    named `<name>-seed<S>` (the same study on another root seed: `reports/field` and
    `reports/field-seed7026`). A field is judged by all of them: one run's challenger that
    exploits it is enough."""
    report = Path(report)
    twins = sorted(
        d for d in report.parent.glob(f"{report.name}-seed*")
        if d.is_dir() and (d / "report.md").is_file() and list(d.glob("invasion-*p.csv"))
    )  # fmt: skip
    return [report, *twins]


#: How a field study's report names the mixture file its L3 certificate is of, with the
#: first 16 hex digits of the file's SHA-256 (`certify.certificate_markdown`).
_CERTIFIED_FILE = re.compile(r"nash-(\d)p\.toml` \(SHA-256 `([0-9a-f]{16})`\)")


def _mixture_digests(report: Path) -> dict[int, str]:
    """The digest of the L3 mixture each player count's certificate of a field study's run
    was computed against (empty when its report does not say)."""
    md = report / "report.md"
    said = md.read_text("utf-8") if md.is_file() else ""
    return {int(p): d for p, d in _CERTIFIED_FILE.findall(said)}


def _shipped_digest(players: int, game: str) -> str | None:
    """The first 16 hex digits of the SHA-256 of the game's shipped L3 mixture file at
    `players` (`weights_path`), None when it ships none."""
    path = load_game(game).weights_path(f"nash-{players}p.toml")
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def field_status(report: Path | None, players: int, lineup: str, game: str,
                 shipped: Sequence[Path] | None = None) -> FieldStatus:  # fmt: skip
    """What the field studies say of a field, from every run of the given one (its report
    directory, `field_report`; None: none given) and of every shipped one (`judged_runs`;
    `shipped` replaces the checkout's list), and, for L3, from the shipped file's
    certificate history: the run whose best challenger's gain has the highest lower end
    speaks (so a field any run finds exploitable is flagged), and L3 is certified only when
    every run certifies it. For L3 only the runs whose certificate is of the shipped mixture
    file count (a run of an older file is stale), unless none is."""
    runs = judged_runs(report, game, shipped)
    for run in runs:  # every run read is of the game judged
        check_game(field_game(run), game, run, "a field study's report")
    recorded: list[FieldStatus] = []
    if field_name(lineup) == STRONGEST:
        current = _shipped_digest(players, game)
        fresh = [r for r in runs if _mixture_digests(r).get(players) in (None, current)]
        recorded = _history_statuses(players, current, game)
        runs = fresh or ([] if recorded else runs)
    found = [replace(s, source=r.name if len(runs) + len(recorded) > 1 else "")
             for r in runs if np.isfinite((s := _run_status(r, players, lineup)).gain)]  # fmt: skip
    found += recorded
    if not found:
        return FieldStatus()
    worst = max(found, key=lambda s: s.lo if np.isfinite(s.lo) else s.gain)
    return replace(worst, certified=all(s.certified for s in found))


def _history_statuses(players: int, digest: str | None, game: str) -> list[FieldStatus]:
    """What each run recorded in the shipped L3's certificate history
    (`nash-<P>p.certificate-history.json`, `moaisim certificate-history`) says of that very
    file (the runs of its SHA-256 `digest`): its families' best held-out challenger, and
    whether every family stayed below epsilon. A certify run counts as a field study's run
    does, so a report judges L3 by the latest measures even where every field study measured
    an older file."""
    path = load_game(game).weights_path(f"nash-{players}p.certificate-history.json")
    if digest is None or not Path(path).is_file():
        return []
    try:
        doc = json.loads(Path(path).read_text("utf-8"))
        runs = doc.get("runs", [])
    except (OSError, ValueError, AttributeError):
        return []
    # a history written before histories named their game: `recorded_game`
    check_game(recorded_game(doc), game, path, "a certificate history")
    out = []
    for run in runs:
        held = [f for f in run.get("families", []) if f.get("held_out_games")]
        if run.get("digest") != digest or not held:
            continue
        eps = float(run.get("epsilon", float("nan")))
        best = max(held, key=lambda f: f["held_out_lo"])
        certified = all(f["held_out_hi"] < eps for f in held)
        out.append(
            FieldStatus(
                float(best["held_out_gain"]),
                float(best["held_out_lo"]),
                float(best["held_out_hi"]),
                str(best["challenger"]),
                certified,
                eps,
                source=_history_source(run, path),
            )
        )
    return out


def _history_source(run: Mapping[str, Any], path: Path) -> str:
    """How a note cites a run of a certificate history: its table when the checkout ships
    it, else the history file itself (which keeps the run's figures) and the run's date, so a
    note never cites a file that does not ship."""
    source = str(run.get("source", ""))
    if shipped(source):
        return f"the certificate history ({source})"
    return (f"the certificate history ({_in_checkout(path)}, the run of "
            f"{run.get('recorded', '?')})")  # fmt: skip


def _in_checkout(path: str | Path) -> str:
    """A shipped weights file as a checkout names it ("strategies/moai/weights/x"), wherever
    this machine's copy of the weights folder is."""
    return "/".join(Path(path).parts[-4:])


def _run_status(report: Path, players: int, lineup: str) -> FieldStatus:
    """What one run of the field study says of a field: for L3, its certificate (the best
    held-out challenger of `certificate_families-<P>p.csv`, or the population loop's
    `certificate-<P>p.csv`, or, lacking both, the best library strategy against its Nash
    mixture); for the self-play of a library strategy, the best invader of
    `invasion-<P>p.csv`; nothing for any other field."""
    name = field_name(lineup)
    if name == STRONGEST:
        families = report / f"certificate_families-{players}p.csv"
        population = report / f"certificate-{players}p.csv"
        mixture = report / f"mixture-{players}p.csv"
        if families.is_file():
            fam = pd.read_csv(families)
            held = fam[fam["held_out_games"] > 0]
            if len(held):
                best = held.loc[held["held_out_lo"].idxmax()]
                eps = float(fam["epsilon"].iloc[0])
                return FieldStatus(
                    float(best["held_out_gain"]), float(best["held_out_lo"]),
                    float(best["held_out_hi"]), str(best["made"]),
                    bool((held["held_out_hi"] < eps).all()), eps,
                )  # fmt: skip
        if population.is_file():
            cert = pd.read_csv(population).iloc[-1]
            return FieldStatus(
                float(cert["gain"]), float(cert["gain_lo"]), float(cert["gain_hi"]),
                "a best response", bool(cert["certified"]), float(cert["epsilon"]),
            )  # fmt: skip
        if mixture.is_file():
            mix = pd.read_csv(mixture)
            best = mix.loc[mix["vs_mixture"].idxmax()]
            gain = float(best["vs_mixture"])
            return FieldStatus(gain, gain, gain, str(best["strategy"]))
        return FieldStatus()
    inv_file = report / f"invasion-{players}p.csv"
    if not inv_file.is_file():
        return FieldStatus()
    inv = pd.read_csv(inv_file)
    inv = inv[(inv["resident"] == name) & (inv["invader"] != name)]
    if inv.empty:
        return FieldStatus()
    best = inv.loc[(inv["lo"] - inv["fair"]).idxmax()]
    fair = float(best["fair"])
    hi = float(best["hi"]) - fair if "hi" in best else float("nan")
    return FieldStatus(float(best["share"]) - fair, float(best["lo"]) - fair, hi,
                       str(best["invader"]))  # fmt: skip


def field_statuses(
    strategies: pd.DataFrame, report: Path | None = None, shipped: Sequence[Path] | None = None
) -> dict[tuple[int, str], FieldStatus]:
    """Every field (player count, lineup) of a strategies table with its status: the field
    studies' word on it (`field_status`) and whether its base games carve a Moai."""
    out: dict[tuple[int, str], FieldStatus] = {}
    base = strategies[strategies["setup"].astype(str) == "base"] if "setup" in strategies else (
        strategies
    )  # fmt: skip
    game = game_of_table(strategies)
    headline = load_game(game).INFO.vocabulary["headline_column"]
    for (players, lineup), part in base.groupby(["players", "lineup"]):
        status = field_status(report, int(players), str(lineup), game, shipped)
        status = replace(status, weak=weak_reason(str(lineup)))
        carves = float((part[headline] * part["n"]).sum()) > 0.0
        out[(int(players), str(lineup))] = replace(status, carves=carves, game=game)
    return out


def _games_key(row: Mapping[str, Any]) -> tuple[float, float]:
    """What tells two fields that play the same games apart from two that do not: an equal
    effect and standard error, to the last digits."""
    return round(float(row["delta"]), 12), round(float(row["se"]), 12)


def same_games(judged: pd.DataFrame) -> dict[tuple[int, str], str]:
    """Lineups that play the very same games under two names, each mapped to the name kept:
    a mixture of one member (L3 where its Nash mixture is one strategy) gives every effect
    of that member to the last digit, so it is one field (the strongest's name kept)."""
    keys: dict[tuple[int, str], tuple[Any, ...]] = {}
    for (players, lineup), part in judged.groupby(["players", "lineup"], sort=False):
        part = part.sort_values(["change", "metric"])
        keys[(int(players), str(lineup))] = tuple(
            (c, m, *_games_key(r))
            for c, m, (_, r) in zip(part["change"], part["metric"], part.iterrows(), strict=True)
        )
    out: dict[tuple[int, str], str] = {}
    order = sorted(keys, key=lambda k: (not _is_strongest(k[1]), k))
    for k in order:
        same = next((j for j in order if j[0] == k[0] and keys[j] == keys[k]), k)
        out[k] = same[1]
    return out


#: `tuned` playing the weights re-tuned for each set-up (an experiment's `[retune]`).
RETUNED = re.compile(r"tuned\(retuned=(['\"]).*?\1\)")


#: The field name of `tuned(retuned=...)` under a set-up whose re-tuning did not beat the
#: shipped weights: the shipped weights played there (`retune.retune`'s `plays`).
SHIPPED_AFTER_RETUNE = "tuned (shipped: re-tuning did not gain)"


def field_name(lineup: str) -> str:
    """A lineup as a field's name: one strategy in every seat is named once ("L3", not
    "L3,L3,L3"); `tuned` re-tuned per set-up is "tuned (re-tuned)", not its directory."""
    seats = [RETUNED.sub("tuned (re-tuned)", x.strip()) for x in split_top(str(lineup), ",")]
    return seats[0] if len(set(seats)) == 1 else ",".join(seats)


def name_what_played(
    judged: pd.DataFrame, status: Mapping[tuple[int, str], FieldStatus], retuned: pd.DataFrame
) -> tuple[pd.DataFrame, dict[tuple[int, str], FieldStatus]]:
    """Judged rows whose `tuned(retuned=...)` seats played the shipped weights (the set-up's
    re-tuning did not gain: `plays` is "shipped" in the re-tuning table) renamed to say so
    (`SHIPPED_AFTER_RETUNE`), so no column or sentence calls them re-tuned; the field's
    status carried over to its new name."""
    shipped = {(int(r["players"]), str(r["setup"])) for _, r in retuned.iterrows()
               if str(r["plays"]) == "shipped"}  # fmt: skip
    st = dict(status)
    names = []
    for players, change, lineup in zip(judged["players"], judged["change"], judged["lineup"],
                                       strict=True):  # fmt: skip
        key, lineup = (int(players), str(change)), str(lineup)
        if key in shipped and RETUNED.search(lineup):
            new = RETUNED.sub(SHIPPED_AFTER_RETUNE, lineup)
            st.setdefault((key[0], new), status.get((key[0], lineup), FieldStatus()))
            lineup = new
        names.append(lineup)
    return judged.assign(lineup=names), st


def _is_strongest(lineup: str) -> bool:
    return STRONGEST in [x.strip() for x in split_top(str(lineup), ",")]


#: How strong a seat's play is, to choose the field an answer leads with: search (L4) above
#: the shipped Nash mixture (L3), then `tuned` (the library's strongest single strategy: the
#: field study's alpha-Rank puts it first at every player count, and it is the whole 3- and
#: 4-player Nash mixture of the library), re-tuned or not, then the library pool (L2), any
#: other strategy (the plans, heuristic weights), greedy (L1) and random play (L0).
STRENGTH: dict[str, int] = {
    "L4": 6, "search": 6, "L3": 5, "tuned": 4, "tuned (re-tuned)": 4, SHIPPED_AFTER_RETUNE: 4,
    "L2": 3, "L1": 1, "greedy": 1, "L0": 0, "random": 0,
}  # fmt: skip
#: The strength of a seat `STRENGTH` does not name (a plan, a weights file, a user's class).
OTHER_STRENGTH = 2


def strength(lineup: str) -> float:
    """A field's strength: the mean of its seats' (`STRENGTH`), so that `greedy,random,greedy`
    ranks below `greedy` and a mix of plans below `tuned`."""
    seats = [field_name(x) for x in split_top(str(lineup), ",")]
    return float(np.mean([STRENGTH.get(x, OTHER_STRENGTH) for x in seats]))


# The words of a verdict across fields (`classify`), strongest first.
CERTIFIED = "certified game property"
SAME = "same direction in all fields"
DISAGREE = "fields disagree"
NO_CHANGE = "no change within the margin in all fields"
INCONCLUSIVE = "inconclusive"
IDENTICAL = "identical by construction"
WORDS = (CERTIFIED, SAME, DISAGREE, NO_CHANGE, INCONCLUSIVE, IDENTICAL)


def classify(
    judged: pd.DataFrame, status: Mapping[tuple[int, str], FieldStatus] | None = None
) -> pd.DataFrame:
    """Per player count, change and metric (a strategy's own win share in the fields that
    seat it among others): the verdict across the qualifying fields, in the words of `WORDS`.

    A field qualifies unless the field studies found it exploitable (`FieldStatus.exploitable`:
    never for ignoring a mechanism) or it seats random or greedy play (`weak_reason`); a
    lineup that plays the games of another (`same_games`) counts once. Then, in order:

    - *identical by construction*: every qualifying field's effect is the same in every
      paired game, or two or more fields that play different games give the very same
      effect (the rule decides it, not the play);
    - *fields disagree*: changes of opposite signs, or a change beside an equivalence with a
      significant field x effect interaction (Cochran Q);
    - *certified game property*: a change of one sign, or an equivalence, in every
      qualifying field, with at least `MIN_FIELDS` of them including the strongest (L3)
      certified by the field study;
    - *same direction in all fields*: short of that, every qualifying field's effect has one
      sign and at least one is a change (how many, and what certification lacks, is said);
    - *no change within the margin in all fields*: an equivalence in every one;
    - *inconclusive*: anything else (the largest detectable effect is said).
    """
    status = status or {}
    merged = same_games(judged)
    rows = []
    for (players, change, metric), part in judged.groupby(
        ["players", "change", "metric"], sort=True
    ):
        players = int(players)
        kept = [merged.get((players, str(lu)), str(lu)) == str(lu) for lu in part["lineup"]]
        st_of = [status.get((players, str(lu)), FieldStatus()) for lu in part["lineup"]]
        good = part[[k and not s.exploitable and not weak_reason(lu)
                     for k, s, lu in zip(kept, st_of, part["lineup"], strict=True)]]  # fmt: skip
        strongest = next(
            (s for lu, s in zip(part["lineup"], st_of, strict=True) if _is_strongest(lu)), None
        )
        played = part[kept]
        played_status = [s for k, s in zip(kept, st_of, strict=True) if k]
        rows.append({
            "players": players, "change": change, "metric": metric, "fields": len(part),
            "qualifying": len(good),
            "qualifying_fields": ", ".join(field_name(x) for x in good["lineup"]),
            "strongest": _strongest_state(strongest, good),
            **_across(good, strongest),
            **_lead(good, played, played_status),
            "verdicts": "; ".join(
                f"{field_name(r['lineup'])}: {r['verdict']}" for _, r in part.iterrows()
            ),
        })  # fmt: skip
    return pd.DataFrame(rows)


def _lead(good: pd.DataFrame, played: pd.DataFrame,
          status: list[FieldStatus]) -> dict[str, Any]:  # fmt: skip
    """The field an answer leads with: the strongest qualifying one (`strength`), its
    effect, interval and verdict; and the strongest field played when it is stronger still
    but does not qualify (an exploitable L3), with its effect and the reason."""
    out: dict[str, Any] = {}
    if len(good):
        lead = good.iloc[int(np.argmax([strength(x) for x in good["lineup"]]))]
        out.update({f"lead_{k}": lead[k]
                    for k in ("delta", "lo", "hi", "verdict", "mde", "base", "treatment")
                    if k in lead})  # fmt: skip
        out["lead_field"] = field_name(lead["lineup"])
        floor = strength(lead["lineup"])
    else:
        out["lead_field"], floor = "", -1
    ranks = [strength(x) for x in played["lineup"]]
    if ranks and max(ranks) > floor:
        k = int(np.argmax(ranks))
        top, st = played.iloc[k], status[k]
        out.update({f"above_{c}": top[c] for c in ("delta", "lo", "hi", "verdict")})
        out["above_field"] = field_name(top["lineup"])
        flags = [f for f in st.flags() if f.startswith(("exploitable", "never qualifies"))]
        out["above_reason"] = flags[0] if flags else "not a qualifying field"
    else:
        out["above_field"] = ""
    return out


def _strongest_state(strongest: FieldStatus | None, good: pd.DataFrame) -> str:
    if strongest is None:
        return "not played"
    if strongest.exploitable:
        return "exploitable"
    if not good["lineup"].map(_is_strongest).any():
        return "the same games as another field"
    return "certified" if strongest.certified else "qualifies, not certified"


#: What an answer says of L3's certificate when no field study and no certify run measured
#: the shipped file (no notes then say by how much).
NOT_MEASURED = " (no field study or certify run measured it)"


def _across(good: pd.DataFrame, strongest: FieldStatus | None) -> dict[str, Any]:
    """The verdict across the qualifying fields (`classify`), with the range of their
    effects, the largest detectable effect, the interaction test and what certification
    lacks."""
    n = len(good)
    delta = good["delta"].to_numpy(float)
    se = good["se"].to_numpy(float)
    verdicts = set(good["verdict"])
    changed = good["verdict"] == "changes"
    signs = set(np.sign(delta[changed.to_numpy()]))
    ok = np.isfinite(se) & (se > 0)
    q, dof, p_q, _ = (
        inference.heterogeneity(delta[ok], se[ok]) if ok.sum() >= 2 else (np.nan, 0, np.nan, 0)
    )
    interacts = bool(np.isfinite(p_q) and p_q < ALPHA)
    same_effect = n >= 2 and len({_games_key(r) for _, r in good.iterrows()}) == 1
    missing = []
    if n < MIN_FIELDS:
        missing.append(f"{n} qualifying field{'s' if n != 1 else ''} ({MIN_FIELDS} needed)")
    if strongest is None:
        missing.append(f"the strongest field ({STRONGEST}) not played")
    elif strongest.exploitable:
        missing.append(f"the strongest field ({STRONGEST}) is exploitable")
    elif not strongest.certified:
        said = (
            f": {strongest.who} gains {text.points(strongest.gain)} "
            f"{text.bracket(strongest.lo, strongest.hi, text.points)} points"
            if np.isfinite(strongest.gain) else NOT_MEASURED
        )  # fmt: skip
        missing.append(f"{STRONGEST} is not certified{said}")
    certifiable = not missing
    if n and (verdicts == {"identical by construction"} or same_effect):
        kind = IDENTICAL
    elif n == 0:
        kind = INCONCLUSIVE
        missing = ["no qualifying field"]
    elif len(signs) > 1 or (interacts and {"changes", "equivalent"} <= verdicts):
        kind = DISAGREE
    elif certifiable and verdicts in ({"changes"}, {"equivalent"}):
        kind = CERTIFIED
    elif signs and len(set(np.sign(delta))) == 1:
        kind = SAME
        if verdicts != {"changes"}:
            missing.append(f"a change in {int(changed.sum())} of {n} fields")
    elif verdicts == {"equivalent"}:
        kind = NO_CHANGE
    else:
        kind = INCONCLUSIVE
    direction = (
        "no change" if verdicts == {"equivalent"} and kind in (CERTIFIED, NO_CHANGE)
        else "raises" if signs == {1.0} else "lowers" if signs == {-1.0} else ""
    )  # fmt: skip
    mde = good["mde"].to_numpy(float) if "mde" in good else np.full(n, np.nan)
    return {
        "classification": kind,
        "direction": direction,
        "low": float(delta.min()) if n else np.nan,
        "high": float(delta.max()) if n else np.nan,
        "low_field": field_name(good["lineup"].iloc[int(delta.argmin())]) if n else "",
        "high_field": field_name(good["lineup"].iloc[int(delta.argmax())]) if n else "",
        "margin": float(good["margin"].iloc[0]) if n and "margin" in good else np.nan,
        "detectable": float(np.nanmax(mde)) if n and np.isfinite(mde).any() else np.nan,
        "changes": int(changed.sum()),
        "interaction_q": q,
        "interaction_df": dof,
        "interaction_p": p_q,
        "missing": "" if kind in (CERTIFIED, IDENTICAL) else "; ".join(missing),
    }


# --- the answer box ------------------------------------------------------------------------------


def headline_metrics(spec: GameSpec) -> tuple[str, ...]:
    """The metrics a headline names, in order (the others stay in the tables)."""
    return (seat_metric(spec), seat_share_metric(spec), "mean score")


def box_metrics(spec: GameSpec) -> tuple[str, ...]:
    """The metrics an answer box shows when its study names none (`[report] metrics`): the
    headline's, and whether the leader after round 3 wins more often (does a rule entrench
    the leader?)."""
    return (*headline_metrics(spec), "leader after round 3 wins")


def unit(metric: str) -> str:
    """The unit an effect on a metric is written in: points of win share, percentage
    points of games, points of score, rounds, or the metric's own."""
    if is_seat_metric(metric) or "win share" in metric:
        return "points of win share"
    own = own_metric(metric)
    if own is not None:
        return own[1]
    if is_share(metric):
        return "percentage points of games"
    if "score" in metric:
        return "points of score"
    if metric.startswith("rounds"):
        return "rounds"
    if metric.startswith("lead changes per round"):
        return "lead changes per round"
    return ""


def effect(metric: str, x: Any, sign: bool = True) -> str:
    """An effect on a metric as its unit writes it: a share in points ("+2.4"), else a
    number with two decimals ("-1.08")."""
    if is_share(metric) or is_seat_metric(metric):
        return text.points(x, sign)
    return text.num(x, "+.2f" if sign else ".2f")


def _span(metric: str, lo: float, hi: float, sign: bool = True) -> str:
    """A range of effects: "-1.9 to -12.7" (the smaller in size first), or one value (a
    table read with its blanks kept as text holds its numbers as text too: read as numbers)."""
    a, b = sorted((float(lo), float(hi)), key=abs)
    if effect(metric, a, sign) == effect(metric, b, sign):
        return effect(metric, a, sign)
    return f"{effect(metric, a, sign)} to {effect(metric, b, sign)}"


#: How a sentence names a metric (the tables keep the metric's own name; a game's own
#: metrics and seat 0's win share are named in its words).
SAID = {
    "rounds": "the game's length",
    "mean score": "the mean score",
    "score spread (sd over seats)": "the spread of the scores (sd over seats)",
    "lead changes per round (sole leader)": "the lead changes per round",
    "rounds with a tied lead": "the rounds with a tied lead",
}


def said(metric: str) -> str:
    """A metric as a sentence names it: "the game's length", "raider's win share", "how
    often the leader after round 3 wins", "the share of close games (...)"."""
    if metric in SAID:
        return SAID[metric]
    own = own_metric(metric)
    if own is not None:
        return own[0]
    for spec in every_game():
        if metric == seat_share_metric(spec):  # a role ("the start player's"), or a seat's
            name = spec.INFO.vocabulary["seat_zero_name"]  # number ("seat 0's": Kaivai's)
            return f"{'' if name.startswith('seat ') else 'the '}{name}'s win share"
    if metric.startswith("win share: "):
        return f"{metric.removeprefix('win share: ')}'s win share"
    if metric.startswith("leader after round"):
        return f"how often the {metric}"
    if metric.startswith("close game"):
        return "the share of close games" + metric.removeprefix("close game")
    return metric


def _fields_said(names: str) -> str:
    """The qualifying fields' names apart ("tuned; moai,fisher,forester; L3")."""
    return names.replace(", ", "; ")


def _interval(m: str, row: Mapping[str, Any], prefix: str) -> str:
    """A field's effect with its adjusted interval: "-1.0 [-2.0, -0.1]"."""
    lo, hi = row.get(f"{prefix}lo"), row.get(f"{prefix}hi")
    return f"{effect(m, row[f'{prefix}delta'])} {text.bracket(lo, hi, lambda x: effect(m, x))}"


#: How a field's own verdict is said after its effect.
VERDICT_SAID = {
    "changes": "a change",
    "equivalent": "no change beyond the margin",
    "inconclusive": "inconclusive",
    "identical by construction": "identical by construction",
}


def _lead_said(row: Mapping[str, Any], at: str, what: str) -> str:
    """The answer's first statement: the strongest qualifying field's effect, with its
    interval, in the words of that field's own verdict."""
    m, name, change = str(row["metric"]), said(str(row["metric"])), row["change"]
    u, seat, field = unit(m), is_seat_metric(str(row["metric"])), row["lead_field"]
    where = f"in {field}, the strongest qualifying field"
    interval = _interval(m, row, "lead_")
    v, d = row.get("lead_verdict"), float(row["lead_delta"])
    if v == "changes":
        size = f"{effect(m, abs(d), sign=False)} {u}".rstrip()
        if seat:
            lead = f"{seat_zero(m)} wins {'more' if d > 0 else 'less'} than its fair share"
        else:
            lead = f"{change} {'raises' if d > 0 else 'lowers'} {name}"
        return f"{at}, {lead} by {size} {where} ({interval})."
    if v == "identical by construction":
        if effect(m, abs(d)) == effect(m, 0.0):
            return f"{at}, {where}, {change} leaves {name} as it is in every paired game."
        return f"{at}, {where}, {change} changes {name} by {effect(m, d)} in every paired game."
    if v == text.TOO_FEW:
        return f"{at}, {where}, {what} cannot be judged: one paired game ({effect(m, d)})."
    if v == "equivalent":
        margin = f"±{effect(m, row['margin'], sign=False)} {u}".rstrip()
        lead = f"{seat_zero(m)} wins its fair share" if seat else f"{change} leaves {name}"
        return f"{at}, {lead} within {margin} {where} ({interval})."
    small = (
        f"; effects smaller than {effect(m, row['lead_mde'], sign=False)} {u} cannot be told "
        "apart from none" if text.known(row.get("lead_mde")) else ""
    )  # fmt: skip
    return f"{at}, {where}, {what} is inconclusive: {interval} {u}{small}."


def is_seat_share(metric: str) -> bool:
    """Seat 0's win share as the variants table names it (`seat_share_metric`), of any game."""
    return any(metric == seat_share_metric(spec) for spec in every_game())


def _gap(x: float) -> str:
    """A distance from the fair share in words: "1.7 points below fair"."""
    size = text.points(abs(x), sign=False)
    if size == text.points(0.0, sign=False):
        return "at its fair share"
    return f"{size} points {'above' if x > 0 else 'below'} fair"


def fairness(row: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """For a change's effect on seat 0's win share whose lead field shows a change: whether
    the change makes the game fairer or less fair to seat 0 ("fairer", "less fair", "as
    fair"), and seat 0's distance from its fair share (1/P) before and after, in that field;
    None otherwise."""
    m = str(row.get("metric", ""))
    if not is_seat_share(m) or str(row.get("change")) == "base":
        return None
    if row.get("lead_verdict") != "changes":
        return None
    base, treated = row.get("lead_base"), row.get("lead_treatment")
    if not (text.known(base) and text.known(treated)):
        return None
    fair = 1.0 / int(row["players"])
    before, after = float(base) - fair, float(treated) - fair
    word = ("fairer" if abs(after) < abs(before) else "less fair" if abs(after) > abs(before)
            else "as fair")  # fmt: skip
    return (word, _gap(before), _gap(after))


def fairness_said(row: Mapping[str, Any]) -> str:
    """The sentence on fairness that follows a seat-0 effect (`fairness`), or ""."""
    found = fairness(row)
    if found is None:
        return ""
    word, before, after = found
    who = seat_zero(str(row["metric"])).split(" (")[0]
    return (f" That is {word}: {who} goes from {before} to {after} in "
            f"{row['lead_field']}.")  # fmt: skip


def _weaker_said(row: Mapping[str, Any], n: int, names: str) -> str:
    """When the lead field shows a change but the verdict across fields is *fields disagree*
    or *inconclusive*: the lead stands, and the weaker fields are said to disagree (or not
    to confirm it) with the range of their effects, so the verdict word is not read as "no
    effect"."""
    m, kind = str(row["metric"]), row["classification"]
    u = unit(m)
    every = "both" if n == 2 else f"all {n}"
    span = (f"from {effect(m, row['low'])} ({row['low_field']}) to "
            f"{effect(m, row['high'])} ({row['high_field']}) {u}").rstrip()  # fmt: skip
    if kind == DISAGREE:
        return (f"Weaker fields disagree: across {every} qualifying fields ({names}) the "
                f"effects run {span} ({kind}).")  # fmt: skip
    return (f"Weaker fields do not confirm it: across {every} qualifying fields ({names}) "
            f"the effects run {span} ({kind} together).")  # fmt: skip


def _above_said(row: Mapping[str, Any]) -> str:
    """The strongest field played when it is stronger than the lead but does not qualify:
    its effect all the same, and why it does not count."""
    if not row.get("above_field"):
        return ""
    m, v = str(row["metric"]), str(row["above_verdict"])
    # the challenger and its gain are in the box's notes, once per player count
    reason = str(row["above_reason"])
    reason = "exploitable: the notes say by how much" if reason.startswith("exploitable") else (
        reason
    )  # fmt: skip
    return (f" {row['above_field']}, the strongest field played, does not qualify "
            f"({reason}); its effect: {_interval(m, row, 'above_')}, "
            f"{VERDICT_SAID.get(v, v)}.")  # fmt: skip


def sentence(row: Mapping[str, Any]) -> str:
    """The answer to one finding (`classify`'s row), strongest field first: the strongest
    qualifying field's effect with its interval and its own verdict (`_lead_said`); a
    stronger field played that does not qualify, with its effect and why; then the verdict
    across the qualifying fields, the range of their effects and what certification lacks
    (L3's own certificate briefly: the box's notes give its challenger once per player
    count, `FieldStatus.flags`)."""
    m, kind, n = str(row["metric"]), row["classification"], int(row["qualifying"])
    u, name = unit(m), said(m)
    seat = is_seat_metric(m)
    at = f"At {row['players']} players"
    if seat and str(row["change"]) != "base":
        at += f" under {row['change']}"
    names = _fields_said(str(row["qualifying_fields"]))
    every = [x for x in str(row.get("missing") or "").split("; ") if x]
    # the notes give L3's best challenger (`FieldStatus.flags`) only when one was measured
    lacks = [
        f"{STRONGEST} is not certified (the notes say by how much)"
        if x.startswith(f"{STRONGEST} is not certified") and not x.endswith(NOT_MEASURED) else x
        for x in every
    ]  # fmt: skip
    missing = f" Not certified: {'; '.join(lacks)}." if lacks else ""
    span = f"{_span(m, row['low'], row['high'])} {u}".rstrip()
    above = _above_said(row)
    if kind == IDENTICAL:
        none = effect(m, abs(row["low"])) == effect(m, 0.0) == effect(m, abs(row["high"]))
        lead = (f"{seat_zero(m)}'s win share is {span} from fair" if seat
                else f"{row['change']} leaves {name} as it is" if none
                else f"{row['change']} changes {name} by {span}")  # fmt: skip
        return (f"{at}, {lead} in every field: a consequence of the rule, not of the play "
                "(identical by construction).")  # fmt: skip
    what = f"whether {seat_zero(m)} wins its fair share" if seat else (
        f"the effect of {row['change']} on {name}"
    )  # fmt: skip
    if n == 0:
        return f"{at}, {what} cannot be judged: no field qualifies.{above}"
    first = _lead_said(row, at, what) + fairness_said(row) + above
    if n == 1:
        return f"{first}{missing}"
    if row.get("lead_verdict") == "changes" and kind in (DISAGREE, INCONCLUSIVE):
        return f"{first} {_weaker_said(row, n, names)}{missing}"
    if kind == DISAGREE:
        across = (f"{kind}, from {effect(m, row['low'])} ({row['low_field']}) to "
                  f"{effect(m, row['high'])} ({row['high_field']}) {u}").rstrip()  # fmt: skip
    elif kind in (CERTIFIED, SAME) and row["direction"] in ("raises", "lowers"):
        some = "" if row["changes"] == n else f", a significant change in {row['changes']}"
        size = f"{_span(m, abs(row['low']), abs(row['high']), sign=False)} {u}".rstrip()
        how = (f"{'above' if row['direction'] == 'raises' else 'below'} fair" if seat
               else f"{row['direction']} {name}")  # fmt: skip
        across = f"{kind} ({how} by {size}{some})"
    elif kind in (CERTIFIED, NO_CHANGE):
        margin = f"±{effect(m, row['margin'], sign=False)} {u}".rstrip()
        across = f"{kind} (within {margin})"
    else:
        small = (
            f"; effects smaller than {effect(m, row['detectable'], sign=False)} {u} cannot be "
            "told apart from none" if text.known(row["detectable"]) else ""
        )  # fmt: skip
        across = f"{kind} ({span}{small})"
    every_field = "both" if n == 2 else f"all {n}"
    return f"{first} Across {every_field} qualifying fields ({names}): {across}.{missing}"


def describe_field(row: Mapping[str, Any]) -> str:
    """One field's effect for the compact table: the effect, its adjusted interval and a
    mark for its verdict ("=" no change beyond the margin, "?" inconclusive, "≡" identical
    by construction), then the field's flags."""
    m, v = str(row["metric"]), row["verdict"]
    said = _interval(m, row, "")
    if v == text.TOO_FEW:
        said = f"{effect(m, row['delta'])} (one game)"
    mark = {"equivalent": " =", "inconclusive": " ?", "identical by construction": " ≡"}
    return said + mark.get(v, "")


def findings(
    judged: pd.DataFrame, status: Mapping[tuple[int, str], FieldStatus] | None = None
) -> pd.DataFrame:
    """The answer box's table: `classify`'s verdicts with each one's sentence (`sentence`),
    and each field's effect in its own column (`describe_field`, the column named by the
    field and its flags), ordered by player count, change and metric. The box, its compact
    table, the headline and the appendix are all read from it. It is of the judged
    effects' game, when they name one (`game_named_by`)."""
    status = status or {}
    table = classify(judged, status)
    game = game_named_by(judged)
    if game is not None:
        table.attrs["game"] = game
    if table.empty:
        return table
    table["sentence"] = [sentence(r) for _, r in table.iterrows()]
    merged = same_games(judged)
    cells: dict[tuple[int, str, str], dict[str, str]] = {}
    flags: dict[tuple[int, str, str], dict[str, str]] = {}
    for _, r in judged.iterrows():
        players, lineup = int(r["players"]), str(r["lineup"])
        st = status.get((players, lineup))
        name = field_name(lineup)
        said = st.flags() if st else []
        if merged.get((players, lineup), lineup) != lineup:
            said = [f"the same games as {field_name(merged[(players, lineup)])}"]
        key = (players, r["change"], r["metric"])
        cells.setdefault(key, {})[name] = describe_field(r)
        if said:
            flags.setdefault(key, {})[name] = "; ".join(said)
    keys = [(r["players"], r["change"], r["metric"]) for _, r in table.iterrows()]
    # each field's effect, and its flags, as JSON objects (field name -> text): the compact
    # table reads them back whole, whatever the names and flags hold
    # strongest field first (`strength`), as the sentences lead with it
    order = {field_name(x): strength(x) for x in judged["lineup"]}
    cells = {k: dict(sorted(c.items(), key=lambda kv: -order.get(kv[0], 2)))
             for k, c in cells.items()}  # fmt: skip
    table["effects"] = [json.dumps(cells.get(k, {}), ensure_ascii=False) for k in keys]
    table["flags"] = [json.dumps(flags.get(k, {}), ensure_ascii=False) for k in keys]
    return table


def compact(table: pd.DataFrame) -> pd.DataFrame:
    """The compact table under the box: per player count, change and metric, the unit, the
    verdict and each field's effect (`findings`' `effects`, one column per field)."""
    rows = []
    for _, r in table.iterrows():
        row = {"players": r["players"], "change": r["change"], "metric": r["metric"],
               "unit": unit(str(r["metric"])), "verdict": r["classification"]}  # fmt: skip
        row.update(json.loads(r["effects"]) if r["effects"] else {})
        rows.append(row)
    return pd.DataFrame(rows).fillna("")


def field_notes(table: pd.DataFrame) -> list[str]:
    """The flags of the fields in a findings table, each once: "greedy at 3 players:
    exploitable ..."."""
    seen: list[str] = []
    for _, r in table.iterrows():
        for name, said in (json.loads(r["flags"]) if r["flags"] else {}).items():
            note = f"{name} at {r['players']} players: {said}"
            if note not in seen:
                seen.append(note)
    return seen


def _headline_at(r: Mapping[str, Any], metric: str) -> str:
    """One player count of a headline: the lead field's effect in words first (its direction
    and size when its interval excludes zero), with its interval; whether seat 0's share
    became fairer; a stronger field that does not qualify; then what the other qualifying
    fields say, in words that do not contradict the lead."""
    kind = str(r["classification"])
    n = int(r.get("qualifying", 0) or 0)
    span = f" ({_span(metric, r['low'], r['high'])})" if text.known(r["low"]) else ""
    if not (str(r.get("lead_field") or "") and text.known(r.get("lead_delta"))):
        return f"{r['players']} players: {kind}{span}"
    d, v, field = float(r["lead_delta"]), r.get("lead_verdict"), r["lead_field"]
    interval = _interval(metric, r, "lead_")
    margin = effect(metric, r["margin"], sign=False) if text.known(r.get("margin")) else ""
    if v == "changes":
        size = effect(metric, abs(d), sign=False)
        how = (f"{'above' if d > 0 else 'below'} fair" if is_seat_metric(metric)
               else f"{'raises' if d > 0 else 'lowers'} it")  # fmt: skip
        lead = f"{how} by {size} in {field} ({interval})"
    elif v == "equivalent" and is_seat_metric(metric):
        lead = f"fair within ±{margin} in {field} ({interval})"
    elif v == "equivalent":
        lead = f"no change beyond ±{margin} in {field} ({interval})"
    elif v == "identical by construction":
        lead = f"the same in every paired game in {field} ({interval})"
    else:
        lead = f"inconclusive in {field} ({interval})"
    found = fairness(r)
    if found is not None:
        lead += f", {found[0]} (from {found[1]} to {found[2]})"
    if str(r.get("above_field") or "") and text.known(r.get("above_delta")):
        # a stronger field that does not qualify is still named, with its effect
        lead += f" ({r['above_field']}, not qualifying: {_interval(metric, r, 'above_')})"
    if n <= 1:
        rest = "the only qualifying field"
    elif v == "changes" and kind == DISAGREE:
        rest = f"weaker fields disagree{span}"
    elif v == "changes" and kind == INCONCLUSIVE:
        rest = f"weaker fields do not confirm it{span}"
    else:
        rest = f"{kind}{span}"
    return f"{r['players']} players: {lead}; {rest}"


def headline(table: pd.DataFrame) -> str:
    """A study's headline from its findings table: for each change and headline metric
    (`headline_metrics` of its game), at each player count the strongest qualifying field's
    effect in words and with its interval, then what the other qualifying fields say with
    the range of their effects (`_headline_at`); nothing typed by hand."""
    parts = []
    for metric in headline_metrics(load_game(game_of_table(table))):
        rows = table[table["metric"] == metric]
        u = unit(metric)
        for change, part in rows.groupby("change", sort=True):
            said_at = [_headline_at(r, metric) for _, r in part.sort_values("players").iterrows()]
            seat = f"{said(seat_share_metric_of(metric))} against fair"
            if not is_seat_metric(metric):
                name = f"{said(metric)} under {change}"
            else:
                name = seat if change == "base" else f"{seat} under {change}"
            parts.append(f"{name} ({u}): {'; '.join(said_at)}")
    return ". ".join(x[:1].upper() + x[1:] for x in parts) + "." if parts else ""
