"""Verdicts: what a report may call a change, an equivalence or a game property.

The tables give each effect with its interval; this module words them by fixed rules, so a
headline never says more than its table:

- a paired effect **changes** the game when its Holm-adjusted p is below 5 %; its interval
  is adjusted the same way (`inference.holm_intervals`: it excludes 0 exactly then);
- it is **equivalent** (no change beyond the study's margin) when the two one-sided tests
  (TOST) against that margin reject, Holm-adjusted over the same family;
- it is **identical by construction** when every paired game gave the same value (the rule
  cannot touch it with these strategies): not a finding;
- otherwise it is **inconclusive**, reported with its interval and its minimum detectable
  effect at 80 % power, never as "no change".

Across fields (the lineups a study plays: bot populations), an effect is a **game
property** only when it is a change of the same sign, or an equivalence, in at least three
non-degenerate fields including the strongest one available (the L3 Nash mixture); a field
whose self-play never carves a Moai is degenerate. Anything else is **field-dependent**. A
Cochran Q test says whether the fields' effects differ (field x effect interaction).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from moaisim.analysis import inference, text
from moaisim.analysis.stats import holm
from moaisim.errors import UserError
from moaisim.registry import split_top

#: The family-wise error rate of every verdict.
ALPHA = 0.05
#: Power at which the minimum detectable effect is reported.
POWER = 0.8
#: Default equivalence margins by metric: 1 point of win share; scores in points; rounds.
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


#: How many non-degenerate fields a game property needs.
MIN_FIELDS = 3
#: The strongest field a study can play (the L3 skill level: the shipped Nash mixture).
STRONGEST = "L3"


def margin_of(metric: str, margins: Mapping[str, float] | None = None) -> float:
    """The equivalence margin of a metric: a study's own (`[report] margins` of an
    experiment file, by metric name or "share"), else the default."""
    table = {**MARGINS, **(margins or {})}
    if metric in table:
        return float(table[metric])
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
    return _judge(out, mean, se, dof, out["p"].to_numpy(dtype=float), p_tost, s2 == 0)


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
        return "identical by construction (every paired game the same)"
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


# --- fields --------------------------------------------------------------------------------------


#: A field is far from the meta-game when a strategy of the library, as one seat among the
#: field's, wins more than this over the fair share (the lower end of its interval).
FAR = 0.10


def field_report(path: str | Path) -> Path:
    """A field study's report directory (`moaisim experiment` of a [field] file): one with
    its invasion tables, which `meta_distance` reads; a clear error otherwise."""
    found = Path(path)
    if not (found / "report.md").is_file() or not list(found.glob("invasion-*p.csv")):
        raise UserError(f"{found} is not a field study's report (no invasion-<P>p.csv)")
    return found


def meta_distance(field_report: Path | None, players: int, lineup: str) -> tuple[float, str]:
    """How far a field is from the meta-game of the certified field study (its report
    directory, `field_report`): the most a strategy of the library gains over the fair share
    as one seat among the field's, with the lower end of its 95 % interval, and who. Known
    for the self-play of a library strategy (the invasion table) and for L3 (its Nash
    mixture: nothing gains, by construction up to the solver's tolerance); (nan, "") for any
    other field or without the field study."""
    if field_report is None:
        return float("nan"), ""
    name = field_name(lineup)
    inv_file = Path(field_report) / f"invasion-{players}p.csv"
    mix_file = Path(field_report) / f"mixture-{players}p.csv"
    if name == STRONGEST and mix_file.is_file():
        mix = pd.read_csv(mix_file)
        best = mix.loc[mix["vs_mixture"].idxmax()]
        return float(best["vs_mixture"]), str(best["strategy"])
    if not inv_file.is_file():
        return float("nan"), ""
    inv = pd.read_csv(inv_file)
    inv = inv[(inv["resident"] == name) & (inv["invader"] != name)]
    if inv.empty:
        return float("nan"), ""
    best = inv.loc[inv["share"].idxmax()]
    return float(best["lo"] - best["fair"]), str(best["invader"])


def degenerate_fields(
    strategies: pd.DataFrame, field_report: Path | None = None
) -> dict[tuple[int, str], str]:
    """The fields (player count, lineup) that are degenerate, with the reason: a lineup whose
    games never see a Moai carved in its base set-up (its self-play carves no statue), or
    one far from the meta-game (`meta_distance` above `FAR`: a library strategy exploits
    it)."""
    out: dict[tuple[int, str], str] = {}
    base = strategies[strategies["setup"].astype(str) == "base"] if "setup" in strategies else (
        strategies
    )  # fmt: skip
    for (players, lineup), part in base.groupby(["players", "lineup"]):
        why = []
        if float((part["moai_height"] * part["n"]).sum()) == 0.0:
            why.append("never carves a Moai")
        gain, who = meta_distance(field_report, int(players), str(lineup))
        if gain > FAR:
            why.append(f"far from the meta-game ({who} gains at least {100 * gain:.0f} points)")
        if why:
            out[(int(players), str(lineup))] = "; ".join(why)
    return out


def _distinct(fields: pd.DataFrame) -> pd.DataFrame:
    """The fields that are not the same field under two names: a mixture with one member
    (L3 at a player count whose Nash mixture is one strategy) plays exactly that strategy's
    games, so its effect and standard error are equal to the last digit; it is counted once
    (the strongest's name kept)."""
    order = fields.assign(_s=~fields["lineup"].map(_is_strongest)).sort_values("_s")
    seen = pd.Series([_games_key(r) for _, r in order.iterrows()], index=order.index)
    return order[~seen.duplicated()].drop(columns="_s").sort_index()


def _games_key(row: Mapping[str, Any]) -> tuple[float, float]:
    """What tells two fields that play the same games apart from two that do not: an equal
    effect and standard error, to the last digits."""
    return round(float(row["delta"]), 12), round(float(row["se"]), 12)


def field_name(lineup: str) -> str:
    """A lineup as a field's name: one strategy in every seat is named once ("L3", not
    "L3,L3,L3")."""
    seats = [x.strip() for x in split_top(str(lineup), ",")]
    return seats[0] if len(set(seats)) == 1 else str(lineup)


def _is_strongest(lineup: str) -> bool:
    return STRONGEST in [x.strip() for x in split_top(str(lineup), ",")]


def classify(judged: pd.DataFrame, degenerate: Mapping[tuple[int, str], str]) -> pd.DataFrame:
    """Per player count, change and metric that every field measures (not a strategy's own
    win share): the fields' verdicts, the field x effect interaction test (Cochran Q) and the
    classification: a game property (a change of one sign, or an equivalence, in at least
    `MIN_FIELDS` non-degenerate fields including the strongest) or field-dependent."""
    rows = []
    common = judged[~judged["metric"].str.startswith("win share: ")]
    for (players, change, metric), part in common.groupby(
        ["players", "change", "metric"], sort=True
    ):
        keep = [(int(players), str(lu)) not in degenerate for lu in part["lineup"]]
        good = _distinct(part[keep])
        strongest = bool(good["lineup"].map(_is_strongest).any())
        verdicts = set(good["verdict"])
        signs = set(np.sign(good.loc[good["verdict"] == "changes", "delta"]))
        ok = good["se"] > 0
        q, dof, p_q, _ = inference.heterogeneity(
            good.loc[ok, "delta"].to_numpy(float), good.loc[ok, "se"].to_numpy(float)
        ) if ok.sum() >= 2 else (np.nan, 0, np.nan, np.nan)  # fmt: skip
        enough = len(good) >= MIN_FIELDS and strongest
        if enough and verdicts == {"changes"} and len(signs) == 1:
            kind = "game property: " + ("raises" if signs == {1.0} else "lowers")
        elif enough and verdicts == {"equivalent"}:
            kind = "game property: no change beyond the margin"
        elif verdicts <= {"identical by construction"}:
            kind = "identical by construction"
        else:
            kind = "field-dependent"
        why = []
        if len(good) < MIN_FIELDS:
            why.append(f"{len(good)} non-degenerate field(s)")
        if not strongest:
            played = bool(part["lineup"].map(_is_strongest).any())
            why.append(f"the strongest field ({STRONGEST}) "
                       + ("is degenerate" if played else "not played"))  # fmt: skip
        rows.append(
            {
                "players": int(players),
                "change": change,
                "metric": metric,
                "fields": len(part),
                "non_degenerate": len(good),
                "strongest_played": strongest,
                "verdicts": "; ".join(
                    f"{field_name(r['lineup'])}{' (degenerate)' if not k else ''}: {r['verdict']}"
                    for (_, r), k in zip(part.iterrows(), keep, strict=True)
                ),
                "interaction_q": q,
                "interaction_df": dof,
                "interaction_p": p_q,
                "classification": kind,
                "why_not_property": "; ".join(why),
            }
        )
    return pd.DataFrame(rows)


# --- seats ---------------------------------------------------------------------------------------

#: What the seat verdicts measure: the first bird-man's win share minus the fair share.
SEAT_METRIC = "first bird-man's share against fair"
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
    first["metric"] = SEAT_METRIC
    first["change"] = first["setup"].astype(str) if "setup" in first else "base"
    first["delta"], first["p"], first["margin"] = delta, p, m
    dof = np.full(len(first), LARGE_DF)
    identical = np.zeros(len(first), dtype=bool)
    return _judge(first, delta, se, dof, p, p_tost, identical).reset_index(drop=True)


# --- the answer box ------------------------------------------------------------------------------

#: The metrics a headline names, in order (the others stay in the tables).
HEADLINE_METRICS = (SEAT_METRIC, "first bird-man win share", "mean score")
#: The metrics the answer box shows: the headline's, and whether the leader after round 3
#: wins more often (does a rule entrench the leader?).
BOX_METRICS = (*HEADLINE_METRICS, "leader after round 3 wins")


def findings(judged: pd.DataFrame, degenerate: Mapping[tuple[int, str], str]) -> pd.DataFrame:
    """The answer box's rows: `classify`'s table with each field's effect in words
    (`effects`) and the effect a headline quotes (`headline_effect`: in the strongest field,
    else the first non-degenerate), ordered by player count, change and metric."""
    table = classify(judged, degenerate)
    if table.empty:
        return table
    words, quoted = {}, {}
    for (players, change, metric), part in judged.groupby(["players", "change", "metric"]):
        key = (int(players), change, metric)
        first: dict[tuple[float, float], str] = {}
        said = []
        for _, r in part.iterrows():
            why = degenerate.get((int(players), r["lineup"]))
            flag = f" (degenerate: {why})" if why else ""
            same = first.setdefault(_games_key(r), field_name(r["lineup"]))
            if same != field_name(r["lineup"]):
                flag += f" (the same games as {same})"
            said.append(f"{field_name(r['lineup'])}{flag}: {describe(r)}")
        words[key] = "; ".join(said)
        good = part[[(int(players), lu) not in degenerate for lu in part["lineup"]]]
        pick = good[good["lineup"].map(_is_strongest)]
        r = (pick if len(pick) else good if len(good) else part).iloc[0]
        quoted[key] = f"{field_name(r['lineup'])}: {describe(r)}"
    keys = [(r["players"], r["change"], r["metric"]) for _, r in table.iterrows()]
    table["effects"] = [words[k] for k in keys]
    table["headline_effect"] = [quoted[k] for k in keys]
    return table


def box_lines(table: pd.DataFrame) -> list[str]:
    """The answer box: one line per player count, change and metric."""
    out = []
    for _, r in table.iterrows():
        inter = (
            f"; fields differ (interaction p {text.p_value(r['interaction_p'])})"
            if np.isfinite(r["interaction_p"]) and r["interaction_p"] < ALPHA
            else ""
        )
        why = f" ({r['why_not_property']})" if r["why_not_property"] else ""
        out.append(
            f"{r['players']} players, {r['change']}, {r['metric']}: **{r['classification']}**"
            f"{why}{inter}. {r['effects']}."
        )
    return out


def headline(table: pd.DataFrame) -> str:
    """A study's headline from its findings table: for each change and headline metric
    (`HEADLINE_METRICS`), the classification at each player count with the effect in the
    strongest field; nothing typed by hand."""
    parts = []
    for metric in HEADLINE_METRICS:
        rows = table[table["metric"] == metric]
        for change, part in rows.groupby("change", sort=True):
            by_players = "; ".join(
                f"{r['players']} players {r['classification']} ({r['headline_effect']})"
                for _, r in part.sort_values("players").iterrows()
            )
            parts.append(f"{change}, {metric}: {by_players}")
    return ". ".join(parts) + "." if parts else ""
