"""Restricted play (after Jaffe et al., "Evaluating competitive game balance with restricted
play"): what each mechanism is worth to a strategy, and so to the game.

A strategy S plays one seat against a field, seats rotated (game i of root seed `seed` once
with S in each seat: the same deals for every variant of S, common random numbers). Each
restriction `restrict(S, forbid=[m])` (strategies/moai/restrict.py: never bid, never boat, never
raid, never birth, never forest, never swap, never aim disasters) plays the same games; the
paired difference of its win share from S's, per game and seat, with a Holm-adjusted
p-value over the family of restrictions and its t interval adjusted the same way
(`inference.holm_intervals`), says what the mechanism is worth.
With re-tuned weights (`moaisim tune --forbid m`: the heuristic's weights tuned under the
restriction), the re-tuned restricted strategy is compared the same way: a loss that
re-tuning cannot win back is the mechanism's, not the bot's.

Each mechanism gets a flag:
- **carries the game**: forbidding it costs more than `carry` (default 0.05) of win share,
  significantly, and (if re-tuned) still significantly after re-tuning;
- **trap**: forbidding it *raises* the win share significantly (playing it is a mistake the
  strategy makes);
- **vestigial**: the interval of the change lies within +-`margin` (default 0.01; an
  equivalence test at 2.5 % each side): the mechanism hardly matters to this strategy;
- **matters**: a significant loss below `carry`; **inconclusive**: none of these;
- **identical in every game**: the restricted strategy wins the same share of every game (it
  never made the forbidden move, or it never mattered): no change by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from moaisim.analysis import inference, stats, text
from moaisim.errors import UserError
from moaisim.games import load_game
from moaisim.registry import load_strategy
from moaisim.studies.tune import rotated

#: The flags' thresholds: a loss of win share that "carries the game", and the margin of
#: "vestigial" (an equivalence margin).
CARRY = 0.05
MARGIN = 0.01


def _shares(players: int, strategy: Any, field: Any, games: int, seed: int,
            game: str) -> np.ndarray:  # fmt: skip
    """[P, G]: the strategy's win share in each rotation and game."""

    got = rotated(players, strategy, field, games, seed, table=False, game=game)
    assert isinstance(got, np.ndarray)
    return got[0]


def restricted_spec(strategy: str, forbid: str) -> str:
    """The spec of `strategy` with the mechanism `forbid` forbidden."""
    return f"restrict(strategy={strategy!r}, forbid=[{forbid!r}])"


def restricted_play(
    strategy: str,
    field: str | Sequence[str],
    players: int,
    games: int,
    seed: int = 0,
    forbids: Sequence[str] | None = None,
    retuned: Mapping[str, str] | None = None,
    n_jobs: int = 1,
    carry: float = CARRY,
    margin: float = MARGIN,
    *,
    game: str,
) -> pd.DataFrame:
    """The restricted-play table (see the module's docstring): one row per forbidden
    mechanism (and one per re-tuned restriction in `retuned`: forbid name -> a strategy spec
    that plays under that restriction); the mechanisms are the game's (`FORBID`)."""

    FORBID = load_game(game).FORBID  # noqa: N806
    names = list(FORBID) if forbids is None else list(forbids)
    unknown = [f for f in names if f not in FORBID]
    if unknown or not names:
        raise UserError(f"restricted play: unknown mechanism {unknown[0] if unknown else ''!r} "
                        f"(known: {', '.join(FORBID)})")  # fmt: skip
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise UserError(f"restricted play needs at least 2 games per seat, got {games!r}")
    base = load_strategy(strategy, game).label
    specs = {("base", ""): base}
    for f in names:
        specs[("masked", f)] = restricted_spec(base, f)
    for f, spec in (retuned or {}).items():
        if f not in FORBID:
            raise UserError(f"restricted play: re-tuned weights for unknown mechanism {f!r}")
        specs[("re-tuned", f)] = spec
    for spec in specs.values():
        load_strategy(spec, game)  # a bad spec: one line before anything is played
    keys = list(specs)
    got = Parallel(n_jobs=n_jobs)(
        delayed(_shares)(players, specs[k], field, games, seed, game) for k in keys
    )
    shares = dict(zip(keys, got, strict=True))
    ref = shares[("base", "")].ravel()
    rows = []
    for key in keys[1:]:
        how, f = key
        d = shares[key].ravel() - ref
        n = len(d)
        delta, lo, hi, p = stats.paired_test(n, d.sum(), (d**2).sum())
        same = bool((d == 0).all())
        rows.append({"players": players, "identical": same, "strategy": base, "mechanism": f,
                     "play": how,
                     "share": float(shares[key].mean()), "base_share": float(ref.mean()),
                     "delta": float(delta), "lo": float(lo), "hi": float(hi), "p": float(p),
                     "games": n, "sum_d": float(d.sum()), "sum_d2": float((d**2).sum()),
                     "spec": specs[key],
                     "description": FORBID[f]})  # fmt: skip
    df = pd.DataFrame(rows)
    df["p_holm"] = np.nan
    for how in df["play"].unique():  # each way of playing is one family (Holm)
        sel = df["play"] == how
        part = df.loc[sel]
        df.loc[sel, "p_holm"] = stats.holm(part["p"].to_numpy())
        # the intervals adjusted as Holm tests each row (they exclude 0 exactly when it rejects)
        _, se, dof = inference.paired_from_sums(*(part[c].to_numpy(float) for c in
                                                  ("games", "sum_d", "sum_d2")))  # fmt: skip
        lo, hi, _ = inference.holm_intervals(part["delta"].to_numpy(float), se, dof,
                                             part["p"].to_numpy(float))  # fmt: skip
        df.loc[sel, "lo"], df.loc[sel, "hi"] = lo, hi
    df["flag"] = [_flag(r, df, carry, margin) for r in df.itertuples(index=False)]
    return df


def _flag(row: Any, df: pd.DataFrame, carry: float, margin: float) -> str:
    """The mechanism's flag from its row (and, for a masked row, its re-tuned row)."""
    significant = row.p_holm < 0.05
    if row.identical:
        return "identical in every game"
    if row.lo > -margin and row.hi < margin:
        return "vestigial"
    if significant and row.delta > 0:
        return "trap"
    if significant and row.delta < -carry:
        if row.play == "masked":
            again = df[(df["play"] == "re-tuned") & (df["mechanism"] == row.mechanism)]
            if len(again) and not (again["p_holm"].iloc[0] < 0.05 and again["delta"].iloc[0] < 0):
                return "matters (re-tuning wins it back)"
        return "carries the game"
    if significant and row.delta < 0:
        return "matters"
    return "inconclusive"


def markdown(df: pd.DataFrame) -> str:
    """The table as Markdown: mechanism, how it is played, the change of win share with its
    interval (adjusted like its Holm test), the Holm-adjusted p-value and the flag."""
    shown = pd.DataFrame({
        "mechanism forbidden": df["mechanism"], "play": df["play"], "win share": df["share"],
        "change": df["delta"],
        "Holm-adjusted interval": [text.bracket(a, b, "+.3f")
                                   for a, b in zip(df["lo"], df["hi"], strict=True)],
        "p (Holm)": df["p_holm"].map(text.p_plain), "flag": df["flag"],
    })  # fmt: skip
    return text.markdown_table(shown, {"win share": ".3f", "change": "+.3f"})
