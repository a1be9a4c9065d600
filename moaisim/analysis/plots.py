"""The report's figures (matplotlib), one function per figure, from the tables of
`moaisim.analysis.tables`. Each returns a Figure; `save(fig, path)` writes it as PNG.

Figures are made without pyplot (no global state, no display needed, and a notebook's
backend is left alone); a notebook shows a returned Figure as it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from moaisim.rules import OPTIONS

DPI = 110


def save(fig: Figure, path: str | Path) -> Path:
    """Write a figure as PNG (its folder made if needed); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    return path


#: Each rule option's default: a legend names only the options a cell changes.
DEFAULTS = {name: values[0] for name, values in OPTIONS.items()}


def _setup(row: pd.Series) -> str:
    """A cell's set-up label ('base', 'short, wood_supply=10'), from its `setup` column or
    (tables made by hand) its variant and rule options."""
    if "setup" in row and isinstance(row["setup"], str):
        return row["setup"]
    parts = [str(row.get("variant", "base"))]
    parts += [f"{k}={row[k]}" for k, d in DEFAULTS.items() if k in row and row[k] != d]
    return ", ".join(parts)


def _label(row: pd.Series) -> str:
    """A cell's name in a legend: its set-up (every difference from the base game) and its
    lineup."""
    parts = [_setup(row)]
    if "lineup" in row and isinstance(row["lineup"], str):
        parts.append(_short_lineup(row["lineup"]))
    return ", ".join(parts)


def _subplots(*grid: int, figsize: tuple[float, float], **kw: Any) -> tuple[Figure, Any]:
    """A new Figure (not registered with pyplot) and its axes, as plt.subplots gives them."""
    fig = Figure(figsize=figsize, dpi=DPI)
    return fig, fig.subplots(*grid, **kw)


def _legend(ax: Axes) -> None:
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)


def seat_win_share(seats: pd.DataFrame) -> Figure:
    """Win share of each seat with its 95 % interval, one panel per player count, against
    the fair share (a dashed line)."""
    groups = list(seats.groupby("players"))
    fig, axes = _subplots(1, len(groups), figsize=(3.2 * len(groups) + 1, 3.4), squeeze=False)
    for ax, (players, part) in zip(axes[0], groups, strict=True):
        cells = list(part.groupby("cell"))
        width = 0.8 / max(len(cells), 1)
        for k, (_, c) in enumerate(cells):
            x = c["seat"].to_numpy() + (k - (len(cells) - 1) / 2) * width
            y = 100 * c["win_share"].to_numpy()
            err = 100 * np.abs(c[["lo", "hi"]].to_numpy().T - c["win_share"].to_numpy())
            ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=_label(c.iloc[0]))
        ax.axhline(100 / players, ls="--", color="grey", lw=1, label="fair share")
        ax.set_title(f"{players} players")
        ax.set_xlabel("seat (0 = first bird-man)")
        ax.set_xticks(range(int(players)))
        ax.set_ylabel("games won (%)")
    _legend(axes[0][-1])
    fig.suptitle("Win share by seat, with 95 % intervals")
    fig.tight_layout()
    return fig


def score_distributions(shape: pd.DataFrame) -> Figure:
    """The distribution of final scores of each strategy (share of its seats per score),
    one panel per player count."""
    hist = shape.attrs["score_hist"]
    cells = shape.set_index("cell")
    players = sorted(cells["players"].unique())
    fig, axes = _subplots(1, len(players), figsize=(4 * len(players), 3.4), squeeze=False)
    for ax, p in zip(axes[0], players, strict=True):
        mine = [c for c in cells.index[cells["players"] == p] if c in hist.index.levels[0]]
        data = hist.loc[mine].groupby(level=["strategy", "score"]).sum()
        for strategy, part in data.groupby(level="strategy"):
            scores = part.index.get_level_values("score").to_numpy()
            share = part.to_numpy() / part.sum()
            ax.plot(scores, 100 * share, label=strategy, lw=1.2)
        ax.set_title(f"{p} players")
        ax.set_xlabel("final score (points)")
        ax.set_ylabel("share of seats (%)")
        ax.legend(fontsize=7)
    fig.suptitle("Final scores by strategy")
    fig.tight_layout()
    return fig


def score_parts(table: pd.DataFrame) -> Figure:
    """The mean score of each strategy split into its parts (Moai height, living pawns,
    points for wood), by player count: every cell of the run pooled, weighted by seats."""
    parts = ("moai_height", "pawns", "wood_score")
    agg = table.groupby(["players", "strategy"])[[*parts, "n"]]
    rows = agg.apply(lambda g: pd.Series({c: np.average(g[c], weights=g["n"]) for c in parts}))
    labels = [f"{s} ({p}p)" for p, s in rows.index]
    fig, ax = _subplots(figsize=(max(5, 0.7 * len(labels) + 2), 3.8))
    bottom = np.zeros(len(rows))
    for col, name in (
        ("moai_height", "Moai height"),
        ("pawns", "living pawns"),
        ("wood_score", "points for wood"),
    ):
        ax.bar(labels, rows[col], bottom=bottom, label=name)
        bottom += rows[col].to_numpy()
    ax.set_ylabel("mean points")
    ax.set_title("What the score is made of, by strategy (all cells)")
    ax.tick_params(axis="x", rotation=45)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def head_to_head_heatmap(h2h: pd.DataFrame) -> Figure:
    """How often the row strategy finishes above the column strategy when both play (%),
    one panel per set-up (player count, variant, options)."""
    keys = [c for c in ("players", "setup", "variant", *DEFAULTS, "rules_digest") if c in h2h]
    groups = list(h2h.groupby(keys, sort=True))
    fig, axes = _subplots(1, len(groups), figsize=(4.5 * len(groups), 4), squeeze=False)
    for ax, (_, part) in zip(axes[0], groups, strict=True):
        m = part.pivot(index="strategy", columns="opponent", values="above_share") * 100
        names = sorted(set(m.index) | set(m.columns))
        m = m.reindex(index=names, columns=names)
        im = ax.imshow(m.to_numpy(dtype=float), cmap="RdBu", vmin=0, vmax=100)
        ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
        ax.set_yticks(range(len(names)), names)
        for i in range(len(names)):
            for j in range(len(names)):
                v = m.iat[i, j]
                if np.isfinite(v):
                    ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=8)
        first = part.iloc[0]
        ax.set_title(f"{first['players']} players, {_setup(first)}", fontsize=9)
        ax.set_xlabel("opponent")
    axes[0][0].set_ylabel("strategy")
    fig.colorbar(im, ax=axes[0].tolist(), label="finishes above the opponent (%)")
    fig.suptitle("Head to head")
    return fig


def _short_lineup(lineup: str) -> str:
    """'greedy,greedy,greedy' -> 'greedy'; a mixed lineup as it is."""
    names = lineup.split(",")
    return names[0] if len(set(names)) == 1 else lineup


def _unit(metric: str) -> str:
    if "win share" in metric:
        return "share of games"
    return "rounds" if metric == "rounds" else "points"


def variant_deltas(deltas: pd.DataFrame) -> Figure:
    """A forest plot: each change against base (variant or rule option), per metric, the
    mean paired difference with its 95 % interval (one panel per metric, three a row)."""
    metrics = list(deltas["metric"].unique())
    cols = min(3, len(metrics))
    rows = -(-len(metrics) // cols)
    height = 0.35 * max(3, deltas.groupby("metric").size().max()) + 1.4
    fig, axes = _subplots(rows, cols, figsize=(5.2 * cols, height * rows), squeeze=False)
    for ax in axes.ravel()[len(metrics) :]:
        ax.set_visible(False)
    for ax, metric in zip(axes.ravel(), metrics, strict=False):
        part = deltas[deltas["metric"] == metric].reset_index(drop=True)
        y = np.arange(len(part))[::-1]
        ax.errorbar(
            part["delta"],
            y,
            xerr=np.abs(part[["lo", "hi"]].to_numpy().T - part["delta"].to_numpy()),
            fmt="o",
            capsize=3,
        )
        ax.axvline(0, color="grey", lw=1, ls="--")
        labels = [
            f"{c}, {p}p, {_short_lineup(str(lu))}"
            for c, p, lu in zip(part["change"], part["players"], part["lineup"], strict=True)
        ]
        ax.set_yticks(y, labels, fontsize=8)
        ax.set_title(metric, fontsize=10)
        ax.set_xlabel(f"change against base ({_unit(metric)})")
    fig.suptitle("Variants and options against base, on the same games (95 % intervals)")
    fig.tight_layout()
    return fig


def game_length(shape: pd.DataFrame) -> Figure:
    """How many rounds games last (share of games), by player count and variant."""
    hist = shape.attrs["rounds_hist"]
    fig, ax = _subplots(figsize=(6, 3.6))
    cells = shape.set_index("cell")
    for cell, part in hist.groupby(level="cell"):
        c = cells.loc[cell]
        rounds = part.index.get_level_values("rounds").to_numpy()
        share = 100 * part.to_numpy() / part.sum()
        ax.plot(rounds, share, marker="o", label=f"{c['players']}p, {_label(c)}")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("share of games (%)")
    ax.set_title("Game length")
    _legend(ax)
    fig.tight_layout()
    return fig


def lead_over_rounds(quality: pd.DataFrame) -> Figure:
    """The mean score gap, after each round, between the eventual winner and the other
    seats (points), with 95 % intervals: how early a game is decided."""
    lead = quality.attrs["lead_by_round"]
    fig, ax = _subplots(figsize=(6, 3.6))
    for _, part in lead.groupby("cell"):
        c = part.iloc[0]
        ax.plot(part["round"], part["gap"], marker="o", label=f"{c['players']}p, {_label(c)}")
        ax.fill_between(part["round"], part["lo"], part["hi"], alpha=0.2)
    ax.axhline(0, color="grey", lw=1, ls="--")
    ax.set_xlabel("after round")
    ax.set_ylabel("winner's lead over the others (points)")
    ax.set_title("The eventual winner's lead, round by round")
    _legend(ax)
    fig.tight_layout()
    return fig
