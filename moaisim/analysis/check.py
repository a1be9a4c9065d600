"""The check field of a grid study: does each answer hold when the players search?

A grid study's findings (seat 0 against fair, each variant's effect on the box's metrics) are
measured in self-play of fast strategies. The check field replays the first `games` deals of
every set-up twice more: in self-play of the checked lineup (L3 by default) and of L4, search
in every seat (`strategies.search`). Game i is the same deal in any lineup and any run of one
root seed (the seed contract), so the checked lineup's games there are the study's own first
games, and L4's are played on the same deals.

Each finding is then judged three times, each in its own run's Holm family: the study's (every
game), the checked lineup's on the check games and L4's on them. Whether it holds under
search play (`verdict`):

- "holds": L4's interval leaves 0 out on the same side as the study's;
- "reversed": on the other side;
- "not shown under search": the study's leaves 0 out, L4's does not, though the checked
  lineup's own interval on the same few games does (on those deals search play weakens it);
- "too few games to tell": the study's leaves 0 out, and on the check games neither the
  checked lineup's interval nor L4's does (the sample is too small to see it at all);
- "only under search": only L4's leaves 0 out;
- "no effect in either": neither the study's nor L4's does;
- "not measured": the study's or L4's interval is not known (one game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim.analysis import verdicts

#: The lineup of search in every seat (the check field itself), and the names its seats
#: have in a results table (L4 plays `search`).
SEARCH_LINEUP = "L4"
SEARCH_NAMES = ("L4", "search")
#: The lineup a check compares with by default: the strongest fast field.
CHECKED = "L3"
#: The columns of a judged finding that the check keeps (per field: effect, interval, verdict).
KEPT = ("delta", "lo", "hi", "verdict")
#: The check's verdicts, in the order a headline counts them.
VERDICTS = ("holds", "reversed", "not shown under search", "too few games to tell",
            "only under search", "no effect in either", "not measured")  # fmt: skip


def judged(tables: Mapping[str, pd.DataFrame], margins: Mapping[str, float] | None) -> pd.DataFrame:
    """Every judged effect of a report's tables, one row per player count, lineup, change
    and metric: seat 0 against fair (`verdicts.judge_seats` of the seat-balance table) and
    each variant's effect (the variants table, judged already)."""
    cols = ["players", "lineup", "change", "metric", "delta", "se", "lo", "hi", "margin",
            "mde", "p_holm", "verdict"]  # fmt: skip
    parts = [verdicts.judge_seats(tables["seat_balance"], margins)[cols]]
    if "variants" in tables:
        # a variant's base and treatment values too: whether seat 0 ends nearer its fair
        # share (`verdicts.fairness`)
        kept = [c for c in ("base", "treatment") if c in tables["variants"]]
        parts.append(tables["variants"][cols + kept])
    return pd.concat(parts, ignore_index=True)


def is_lineup(lineups: pd.Series, lineup: str) -> pd.Series:
    """Which rows of a table's lineup column are `lineup`, by the field's name
    (`verdicts.field_name`: "L3,L3,L3" is L3; L4's seats are named `search`)."""
    names = lineups.astype(str).map(verdicts.field_name)
    if verdicts.field_name(lineup) in SEARCH_NAMES:
        return names.isin(SEARCH_NAMES)
    return names == verdicts.field_name(lineup)


def side(lo: float, hi: float) -> int:
    """Which side of 0 an interval lies on: +1 above, -1 below, 0 when it holds 0 (or is
    not known)."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return 0
    return 1 if lo > 0 else -1 if hi < 0 else 0


def verdict(study: tuple[float, float], same: tuple[float, float],
            search: tuple[float, float]) -> str:  # fmt: skip
    """Whether a finding holds under search play (the module's docstring), from three 95 %
    intervals of the effect: the study's (every game), the checked lineup's on the check
    games (`same`) and L4's on them (`search`)."""
    if not all(np.isfinite(x) for x in (*study, *search)):
        return "not measured"
    a, s, b = side(*study), side(*same), side(*search)
    if a and b:
        return "holds" if a == b else "reversed"
    if a:
        return "not shown under search" if s == a else "too few games to tell"
    return "only under search" if b else "no effect in either"


def check_table(study: pd.DataFrame, check: pd.DataFrame, metrics: Sequence[str],
                lineup: str = CHECKED) -> pd.DataFrame:  # fmt: skip
    """Per player count, change and metric among `metrics` (a study's box metrics): the
    checked lineup's effect in the study (`study_*`: every game), its effect on the check
    games (`same_*`), L4's on them (`search_*`), the games of each, and the `verdict`.
    `study` and `check` are `judged` tables of the study and of the check run."""
    keys = ["players", "change", "metric"]
    mine = study[is_lineup(study["lineup"], lineup) & study["metric"].isin(metrics)]
    same = check[is_lineup(check["lineup"], lineup)]
    search = check[is_lineup(check["lineup"], SEARCH_LINEUP)]
    out = mine[keys + list(KEPT)].rename(columns={k: f"study_{k}" for k in KEPT})
    for prefix, part in (("same", same), ("search", search)):
        part = part[keys + list(KEPT)].rename(columns={k: f"{prefix}_{k}" for k in KEPT})
        out = out.merge(part, on=keys, how="inner")
    if out.empty:
        return out
    out["verdict"] = [
        verdict((r["study_lo"], r["study_hi"]), (r["same_lo"], r["same_hi"]),
                (r["search_lo"], r["search_hi"]))
        for _, r in out.iterrows()
    ]  # fmt: skip
    order = {m: k for k, m in enumerate(metrics)}
    out["_order"] = out["metric"].map(order)
    out = out.sort_values(["players", "_order", "change"]).drop(columns="_order")
    return out.reset_index(drop=True)


def _effect(r: Mapping[str, Any], prefix: str) -> str:
    """One of a finding's three effects with its interval (`verdicts._interval`)."""
    return verdicts._interval(str(r["metric"]), r, f"{prefix}_")


def _what(r: Mapping[str, Any]) -> str:
    m = str(r["metric"])
    if verdicts.is_seat_metric(m):  # one name for seat 0's share everywhere (issue 60)
        where = "" if r["change"] == "base" else f" under {r['change']}"
        return f"{verdicts.said(verdicts.seat_share_metric_of(m))} against fair{where}"
    return f"{r['change']}'s effect on {verdicts.said(m)}"


def sentences(table: pd.DataFrame, games: int, lineup: str = CHECKED) -> list[str]:
    """The answer box's check lines: per player count and finding, L4's effect with its
    interval beside the checked lineup's on the same deals, and the verdict."""
    return [
        f"{r['players']} players, {_what(r)} ({verdicts.unit(str(r['metric']))}): "
        f"{r['verdict']} (L4 {_effect(r, 'search')}; {lineup} on the same {games:,} deals "
        f"{_effect(r, 'same')}; {lineup} in the study {_effect(r, 'study')})"
        for _, r in table.iterrows()
    ]


def shown(table: pd.DataFrame, games: int, lineup: str = CHECKED) -> pd.DataFrame:
    """The check table as the report shows it."""
    return pd.DataFrame({
        "players": table["players"],
        "change": table["change"],
        "metric": table["metric"],
        "unit": [verdicts.unit(str(m)) for m in table["metric"]],
        f"{lineup}, the study": [_effect(r, "study") for _, r in table.iterrows()],
        f"{lineup}, first {games:,} deals": [_effect(r, "same") for _, r in table.iterrows()],
        f"L4, first {games:,} deals": [_effect(r, "search") for _, r in table.iterrows()],
        "under search play": table["verdict"],
    })  # fmt: skip


def headline(table: pd.DataFrame, games: int) -> str:
    """A study's check in one sentence: per box metric, which player counts' findings hold
    under search play and which do not ("under search play (L4, 300 deals a set-up): seat 0
    against fair (base): holds at 3 players; too few games to tell at 2, 4, 5 players")."""
    parts = []
    for (metric, change), part in table.groupby(["metric", "change"], sort=False):
        said = []
        for v in VERDICTS:
            rows = part[part["verdict"] == v]
            if len(rows):
                counts = ", ".join(str(p) for p in sorted(set(rows["players"])))
                said.append(f"{v} at {counts} players")
        seat = f"{verdicts.said(verdicts.seat_share_metric_of(str(metric)))} against fair"
        name = (f"{seat} ({change})" if verdicts.is_seat_metric(str(metric))
                else f"{change}, {verdicts.said(str(metric))}")  # fmt: skip
        parts.append(f"{name}: {'; '.join(said)}")
    if not parts:
        return ""
    return f"Under search play (L4 self-play, {games:,} deals a set-up): {'. '.join(parts)}."
