"""The report's figures (matplotlib), one function per figure, from the tables of
`moaisim.analysis.tables`. Each returns a Figure; `save(fig, path)` writes it as PNG.

Figures are made without pyplot (no global state, no display needed, and a notebook's
backend is left alone); a notebook shows a returned Figure as it is.

Every figure is at most `PAGE_WIDTH` wide and uses no font under `SMALLEST_FONT`, so that the
HTML report, which shows an image at most 1020 px wide, shows its text at >= 10 px. Series
keep apart: each has its own colour (`palette`, distinct past 10 series) and marker, and
series over the same x positions are dodged sideways so that equal values do not hide each
other."""

from __future__ import annotations

import textwrap
from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from moaisim.analysis import verdicts
from moaisim.analysis.source import game_of_table
from moaisim.files import GAME_COLUMN
from moaisim.games import load_game

DPI = 110
#: The widest a figure is (inches): 990 px at DPI, saved cut to its content with a 0.1 in
#: margin, so at most 1012 px: within the 1020 px at which the HTML report shows an image at
#: most (its body is 1100 px wide, a figure's margins 40 px), never scaled down there.
PAGE_WIDTH = 9.0
#: The smallest font in a figure (points): 8 pt at DPI is 12 px.
SMALLEST_FONT = 8
#: One marker per series (cycled past 12; the colours stay distinct).
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "<", ">", "h", "*", "p")

Colour = tuple[float, float, float, float]


def save(fig: Figure, path: str | Path) -> Path:
    """Write a figure as PNG (its folder made if needed); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    return path


def _defaults(data: pd.DataFrame | pd.Series) -> dict[str, str]:
    """Each rule option's default in the game of `data` (a table, `game_of_table`, or a row of
    one: its `GAME_COLUMN`, else its attrs): a legend names only the options a cell changes.
    A row that names no game (a table made by hand) has no option known: none is named."""
    if isinstance(data, pd.DataFrame):
        game: Any = game_of_table(data)
    else:
        game = data.get(GAME_COLUMN)
        game = game if isinstance(game, str) else data.attrs.get("game")
        if not isinstance(game, str):
            return {}
    return {name: values[0] for name, values in load_game(game).OPTIONS.items()}


def palette(n: int) -> list[Colour]:
    """`n` distinct colours: tab10's, then tab20's light ones, then tab20b's and tab20c's;
    past 60, evenly spaced over a rainbow."""
    tab20 = colormaps["tab20"].colors
    named = [*tab20[0::2], *tab20[1::2], *colormaps["tab20b"].colors, *colormaps["tab20c"].colors]
    if n <= len(named):
        return [(*map(float, c), 1.0) for c in named[:n]]
    return [tuple(map(float, c)) for c in colormaps["turbo"](np.linspace(0, 1, n))]


def _styles(keys: Iterable[Hashable]) -> dict[Hashable, dict[str, Any]]:
    """A colour and a marker for each key (in order of first appearance), kept in every
    panel of a figure."""
    keys = list(dict.fromkeys(keys))
    return {
        k: {"color": c, "marker": MARKERS[i % len(MARKERS)]}
        for i, (k, c) in enumerate(zip(keys, palette(len(keys)), strict=True))
    }


def _dodge(n: int, span: float, step: float) -> np.ndarray:
    """The sideways offsets of `n` series over the same x positions: `step` apart at most,
    within `span` in all, centred on 0."""
    return (np.arange(n) - (n - 1) / 2) * min(step, span / max(n, 1))


def _wrap(text: str, width: int) -> str:
    """A label broken into lines of about `width` characters (at spaces only)."""
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)


def _lines(labels: Iterable[str]) -> int:
    """How many lines the (wrapped) labels take in all."""
    return sum(label.count("\n") + 1 for label in labels)


def _setup(row: pd.Series) -> str:
    """A cell's set-up label ('base', 'short, wood_supply=10'), from its `setup` column or
    (tables made by hand) its variant and rule options."""
    if "setup" in row and isinstance(row["setup"], str):
        return row["setup"]
    parts = [str(row.get("variant", "base"))]
    parts += [f"{k}={row[k]}" for k, d in _defaults(row).items() if k in row and row[k] != d]
    return ", ".join(parts)


def _label(row: pd.Series) -> str:
    """A cell's name in a legend: its set-up (every difference from the base game) and its
    lineup."""
    parts = [_setup(row)]
    if "lineup" in row and isinstance(row["lineup"], str):
        parts.append(verdicts.field_name(row["lineup"]))
    return ", ".join(parts)


def _subplots(*grid: int, figsize: tuple[float, float], **kw: Any) -> tuple[Figure, Any]:
    """A new Figure (not registered with pyplot, laid out by matplotlib's constrained layout,
    which makes room for legends outside their axes) and its axes, as plt.subplots gives
    them."""
    fig = Figure(figsize=figsize, dpi=DPI, layout="constrained")
    return fig, fig.subplots(*grid, **kw)


def _legend(ax: Axes, handles: Sequence[Any] | None = None, width: int = 30) -> None:
    """The legend right of the axes, its labels wrapped to `width` characters."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    else:
        labels = [h.get_label() for h in handles]
    ax.legend(
        handles,
        [_wrap(x, width) for x in labels],
        fontsize=SMALLEST_FONT,
        loc="upper left",
        bbox_to_anchor=(1.02, 1),
        borderaxespad=0,
    )


def _grid(n: int, cols: int) -> tuple[int, int]:
    """Rows and columns of a grid of `n` panels, at most `cols` a row."""
    cols = max(1, min(cols, n))
    return -(-n // cols), cols


def _hide_spare(axes: np.ndarray, used: int) -> None:
    """Hide the panels of a grid past the first `used`."""
    for ax in axes.ravel()[used:]:
        ax.set_visible(False)


def seat_win_share(seats: pd.DataFrame) -> Figure:
    """Win share of each seat with its 95 % interval, one panel per player count (each with
    the legend of its own lineups), against the fair share (a dashed line)."""
    axis = load_game(game_of_table(seats)).INFO.vocabulary["seat_axis"]
    groups = list(seats.groupby("players"))
    cells = {cell: _label(c.iloc[0]) for cell, c in seats.groupby("cell", sort=False)}
    style = _styles(cells.values())
    rows, cols = _grid(len(groups), 2)
    lines = max(_lines(_wrap(cells[c], 26) for c in part["cell"].unique()) for _, part in groups)
    height = max(2.8, 0.16 * lines + 0.8)
    fig, axes = _subplots(
        rows, cols, figsize=(PAGE_WIDTH / 2 * cols, height * rows + 0.4), squeeze=False
    )
    _hide_spare(axes, len(groups))
    for ax, (players, part) in zip(axes.ravel(), groups, strict=False):
        mine = list(part.groupby("cell", sort=False))
        offsets = _dodge(len(mine), 0.8, 0.8)
        handles = []
        for dx, (cell, c) in zip(offsets, mine, strict=True):
            x = c["seat"].to_numpy() + dx
            y = 100 * c["win_share"].to_numpy()
            err = 100 * np.abs(c[["lo", "hi"]].to_numpy().T - c["win_share"].to_numpy())
            s = style[cells[cell]]
            handles.append(
                ax.errorbar(
                    x,
                    y,
                    yerr=err,
                    fmt=s["marker"],
                    color=s["color"],
                    ms=5,
                    capsize=2,
                    label=cells[cell],
                )
            )
        ax.axhline(100 / players, ls="--", color="grey", lw=1)
        ax.set_title(f"{players} players", fontsize=10)
        ax.set_xlabel(axis, fontsize=9)
        ax.set_xticks(range(int(players)))
        ax.set_ylabel("games won (%)", fontsize=9)
        _legend(ax, handles, 26)
    fig.suptitle("Win share by seat, with 95 % intervals (dashed: the fair share)", fontsize=11)
    return fig


def score_distributions(shape: pd.DataFrame) -> Figure:
    """The distribution of final scores of each strategy (share of its seats per score),
    one panel per player count."""
    hist = shape.attrs["score_hist"]
    cells = shape.set_index("cell")
    players = sorted(cells["players"].unique())
    style = _styles(sorted(hist.index.get_level_values("strategy").unique()))
    rows, cols = _grid(len(players), 2)
    height = max(3.0, 0.2 * len(style) + 0.8)
    fig, axes = _subplots(
        rows, cols, figsize=(PAGE_WIDTH / 2 * cols, height * rows + 0.3), squeeze=False
    )
    _hide_spare(axes, len(players))
    for ax, p in zip(axes.ravel(), players, strict=False):
        mine = [c for c in cells.index[cells["players"] == p] if c in hist.index.levels[0]]
        data = hist.loc[mine].groupby(level=["strategy", "score"]).sum()
        for k, (strategy, part) in enumerate(data.groupby(level="strategy")):
            scores = part.index.get_level_values("score").to_numpy()
            share = part.to_numpy() / part.sum()
            # markers on every few points, each strategy's on others: equal curves stay seen
            every = max(1, len(scores) // 8)
            ax.plot(
                scores,
                100 * share,
                label=strategy,
                lw=1.2,
                ms=4,
                markevery=(k % every, every),
                **style[strategy],
            )
        ax.set_title(f"{p} players", fontsize=10)
        ax.set_xlabel("final score (points)", fontsize=9)
        ax.set_ylabel("share of seats (%)", fontsize=9)
        _legend(ax, width=18)
    fig.suptitle("Final scores by strategy", fontsize=11)
    return fig


def score_parts(table: pd.DataFrame) -> Figure:
    """The mean score of each strategy split into its parts (the game's `SCORE_MEASURES`),
    by player count: every cell of the run pooled, weighted by seats."""
    spec = load_game(game_of_table(table))
    parts = tuple(spec.MEASURES.score)
    agg = table.groupby(["players", "strategy"])[[*parts, "n"]]
    rows = agg.apply(lambda g: pd.Series({c: np.average(g[c], weights=g["n"]) for c in parts}))
    labels = [f"{s} ({p}p)" for p, s in rows.index]
    fig, ax = _subplots(figsize=(min(PAGE_WIDTH, max(4.5, 0.42 * len(labels) + 2.6)), 4.2))
    bottom = np.zeros(len(rows))
    for col in parts:
        name = spec.MEASURES.seat[col][0]
        ax.bar(labels, rows[col], bottom=bottom, label=name)
        bottom += rows[col].to_numpy()
    ax.set_ylabel("mean points", fontsize=9)
    ax.set_title("What the score is made of, by strategy (all cells)", fontsize=10)
    ax.tick_params(axis="x", labelsize=SMALLEST_FONT if len(labels) > 12 else 9)
    _upright(ax)
    _legend(ax, width=16)
    return fig


def _upright(ax: Axes) -> None:
    """The x tick labels read upwards, each ending at its tick: long names side by side
    never overlap (slanted ones would, once the names are longer than their spacing)."""
    for t in ax.get_xticklabels():
        t.set(rotation=90, ha="right", va="center", rotation_mode="anchor")


def _text_colour(rgba: Sequence[float]) -> str:
    """Black or white, whichever contrasts more with a background of colour `rgba` (by its
    WCAG relative luminance: white below 0.179)."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3])
    return "white" if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.179 else "black"


def head_to_head_heatmap(h2h: pd.DataFrame) -> Figure:
    """How often the row strategy finishes above the column strategy when both play (%),
    one panel per set-up (player count, variant, options)."""
    options = _defaults(h2h)
    keys = [c for c in ("players", "setup", "variant", *options, "rules_digest") if c in h2h]
    groups = list(h2h.groupby(keys, sort=True))
    size = max(len(set(p["strategy"]) | set(p["opponent"])) for _, p in groups)
    panel = 0.36 * size + 1.1  # the cells and the strategy names left of them
    rows, cols = _grid(len(groups), max(1, int((PAGE_WIDTH - 1.0) // panel)))
    fig, axes = _subplots(
        rows, cols, figsize=(min(PAGE_WIDTH, panel * cols + 1.0), (0.36 * size + 1.6) * rows),
        squeeze=False,
    )  # fmt: skip
    _hide_spare(axes, len(groups))
    for ax, (_, part) in zip(axes.ravel(), groups, strict=False):
        m = part.pivot(index="strategy", columns="opponent", values="above_share") * 100
        names = sorted(set(m.index) | set(m.columns))
        m = m.reindex(index=names, columns=names)
        im = ax.imshow(m.to_numpy(dtype=float), cmap="RdBu", vmin=0, vmax=100)
        ax.set_xticks(range(len(names)), names, fontsize=SMALLEST_FONT)
        _upright(ax)
        ax.set_yticks(range(len(names)), names, fontsize=SMALLEST_FONT)
        for i in range(len(names)):
            for j in range(len(names)):
                v = m.iat[i, j]
                if np.isfinite(v):
                    colour = _text_colour(im.to_rgba(v))
                    ax.text(j, i, f"{v:.0f}", ha="center", va="center", color=colour,
                            fontsize=SMALLEST_FONT)  # fmt: skip
        first = part.iloc[0]
        ax.set_title(_wrap(f"{first['players']} players, {_setup(first)}", 36), fontsize=9)
        ax.set_xlabel("opponent", fontsize=9)
        ax.set_ylabel("strategy", fontsize=9)
    cbar = fig.colorbar(im, ax=axes.ravel().tolist(), shrink=min(1.0, 3.0 / (0.36 * size + 0.5)))
    cbar.set_label("finishes above the opponent (%)", fontsize=9)
    cbar.ax.tick_params(labelsize=SMALLEST_FONT)
    fig.suptitle("Head to head", fontsize=11)
    return fig


def _unit(metric: str) -> str:
    """The unit of a variants metric's difference, for its axis."""
    if verdicts.is_share(metric):
        return "share of games"
    if metric.startswith("lead changes"):
        return "changes per round"
    return "rounds" if metric in ("rounds", "rounds with a tied lead") else "points"


def _rows(deltas: pd.DataFrame) -> list[tuple[str, int, str]]:
    """The row of each line of a variants table: (change, players, lineup)."""
    cols = (deltas["change"], deltas["players"], deltas["lineup"].map(str))
    return list(zip(*cols, strict=True))


def variant_deltas(deltas: pd.DataFrame) -> Figure:
    """A forest plot: each change against base (variant or rule option), per metric, the
    mean paired difference with its Holm-adjusted interval (one panel per metric, three a row; the
    rows, one per change, player count and lineup, named once left of each row of panels)."""
    metrics = list(deltas["metric"].unique())
    keys = list(dict.fromkeys(_rows(deltas)))
    y_of = {k: len(keys) - 1 - i for i, k in enumerate(keys)}
    labels = [_wrap(f"{c}, {p}p, {verdicts.field_name(lu)}", 24) for c, p, lu in keys]
    step = 0.14 * max(x.count("\n") + 1 for x in labels) + 0.12  # inches a row
    rows, cols = _grid(len(metrics), 3)
    height = step * len(keys) + 1.1
    fig, axes = _subplots(rows, cols, figsize=(PAGE_WIDTH, height * rows + 0.3), squeeze=False,
                          sharey=True)  # fmt: skip
    _hide_spare(axes, len(metrics))
    for k, (ax, metric) in enumerate(zip(axes.ravel(), metrics, strict=False)):
        part = deltas[deltas["metric"] == metric]
        y = np.array([y_of[key] for key in _rows(part)])
        delta = part["delta"].to_numpy(dtype=float)
        err = np.abs(part[["lo", "hi"]].to_numpy(dtype=float).T - delta)
        ax.errorbar(delta, y, xerr=err, fmt="o", ms=4, capsize=2)
        ax.axvline(0, color="grey", lw=1, ls="--")
        ax.grid(axis="y", lw=0.4, color="0.85")
        ax.set_axisbelow(True)
        ax.set_ylim(-0.6, len(keys) - 0.4)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.tick_params(labelsize=SMALLEST_FONT)
        if k % cols == 0:
            ax.set_yticks(range(len(keys))[::-1], labels)
        else:
            ax.tick_params(labelleft=False)
        ax.set_title(_wrap(metric, 30), fontsize=9)
        ax.set_xlabel(f"change against base\n({_unit(metric)})", fontsize=SMALLEST_FONT)
    fig.suptitle(
        "Variants and options against base, on the same games (intervals adjusted like "
        "their Holm tests)",
        fontsize=10,
    )
    return fig


def _round_chart(series: list[tuple[pd.Series, np.ndarray, np.ndarray]]) -> tuple[Figure, Axes]:
    """A figure of lines over rounds, one per cell (its first row, its rounds, its values),
    with a colour and a marker each, dodged sideways so that equal values stay seen; the
    rounds axis ticks at whole rounds; the legend right."""
    labels = [f"{c['players']}p, {_label(c)}" for c, _, _ in series]
    lines = _lines(_wrap(x, 40) for x in labels)
    fig, ax = _subplots(figsize=(PAGE_WIDTH, max(3.6, 0.16 * lines + 1.0)))
    style = _styles(range(len(series)))
    offsets = _dodge(len(series), 0.6, 0.16)
    for k, (_, x, y) in enumerate(series):
        ax.plot(x + offsets[k], y, ms=4.5, lw=1.2, label=labels[k], **style[k])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return fig, ax


def game_length(shape: pd.DataFrame) -> Figure:
    """How many rounds games last (share of games), by player count and variant."""
    hist = shape.attrs["rounds_hist"]
    cells = shape.set_index("cell")
    series = [
        (cells.loc[cell], part.index.get_level_values("rounds").to_numpy(dtype=float),
         100 * part.to_numpy() / part.sum())
        for cell, part in hist.groupby(level="cell")
    ]  # fmt: skip
    fig, ax = _round_chart(series)
    ax.set_xlabel("rounds played", fontsize=9)
    ax.set_ylabel("share of games (%)", fontsize=9)
    ax.set_title("Game length", fontsize=10)
    _legend(ax, width=40)
    return fig


def lead_over_rounds(quality: pd.DataFrame) -> Figure:
    """The mean score gap, after each round, between the eventual winner and the other
    seats (points), with 95 % intervals: how early a game is decided."""
    lead = quality.attrs["lead_by_round"]
    parts = [part for _, part in lead.groupby("cell")]
    series = [(p.iloc[0], p["round"].to_numpy(dtype=float), p["gap"].to_numpy()) for p in parts]
    fig, ax = _round_chart(series)
    for line, part in zip(ax.get_lines(), parts, strict=True):
        ax.fill_between(line.get_xdata(), part["lo"], part["hi"], color=line.get_color(),
                        alpha=0.12, lw=0)  # fmt: skip
    ax.axhline(0, color="grey", lw=1, ls="--")
    ax.set_xlabel("after round", fontsize=9)
    ax.set_ylabel("winner's lead over the others (points)", fontsize=9)
    ax.set_title("The eventual winner's lead, round by round", fontsize=10)
    _legend(ax, width=40)
    return fig


# --- the balance sheet ---------------------------------------------------------------------------


def sheet_seats(seats: pd.DataFrame, game: str | None = None) -> Figure:
    """Each seat's win share with its 95 % interval, against the fair share (the sheet;
    `game`: the game played, else the table's)."""
    fig = Figure(figsize=(5.0, 3.0))
    ax = fig.subplots()
    x = seats["seat"].to_numpy()
    share = seats["win_share"].to_numpy()
    err = np.vstack([share - seats["lo"].to_numpy(), seats["hi"].to_numpy() - share])
    ax.bar(x, 100 * share, color=palette(1)[0], yerr=100 * err, capsize=4)
    ax.axhline(100 * seats["fair"].iloc[0], color="black", lw=1, ls="--", label="fair share")
    ax.set_xticks(x)
    words = load_game(game or game_of_table(seats)).INFO.vocabulary
    ax.set_xlabel(words["seat_axis"], fontsize=9)
    ax.set_ylabel("win share (%)", fontsize=9)
    ax.tick_params(labelsize=SMALLEST_FONT)
    ax.legend(fontsize=SMALLEST_FONT, loc="lower right")
    return fig


def sheet_skill(skill: pd.DataFrame, order: Sequence[str]) -> Figure:
    """The skill matrix as a heatmap: each level as one seat (rows) against copies of a
    level (columns), its gain over the fair share in points."""
    rows = [x for x in order if x in set(skill["candidate"])]
    cols = [x for x in order if x in set(skill["field"])]
    grid = np.full((len(rows), len(cols)), np.nan)
    for _, r in skill.iterrows():
        grid[rows.index(r["candidate"]), cols.index(r["field"])] = 100 * r["vs_fair"]
    fig = Figure(figsize=(5.2, 3.8))
    ax = fig.subplots()
    top = float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 1.0
    im = ax.imshow(grid, cmap="RdBu", vmin=-top, vmax=top)
    for i in range(len(rows)):
        for j in range(len(cols)):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:+.0f}", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(len(cols)), [f"vs {c}" for c in cols], fontsize=9)
    ax.set_yticks(range(len(rows)), [f"{r} (one seat)" for r in rows], fontsize=9)
    fig.colorbar(im, ax=ax, label="points of win share over fair")
    return fig


def sheet_sources(sources: pd.DataFrame, strong: pd.DataFrame | None,
                  game: str | None = None) -> Figure:  # fmt: skip
    """Shares of the score from each of its parts (the game's `SCORE_PARTS`), as stacked
    bars: L3 self-play (every seat, winners) and, from the field study, L4 and L3 at one
    table (`strong`). `game`: the game played, else the table's."""
    names = tuple(load_game(game or game_of_table(sources)).INFO.score_parts)
    columns = [f"from_{k}" for k in names]
    labels = [f"L3 self-play,\n{w}" for w in sources["who"]]
    parts = sources[columns].to_numpy()
    if strong is not None and len(strong):
        labels += [f"{w} (L4 seat\nagainst L3)" for w in strong["who"]]
        parts = np.vstack([parts, strong[columns]])
    fig = Figure(figsize=(6.5, 3.2))
    ax = fig.subplots()
    left = np.zeros(len(labels))
    for k, (name, colour) in enumerate(zip(names, palette(len(names)),
                                           strict=True)):  # fmt: skip
        ax.barh(range(len(labels)), 100 * parts[:, k], left=left, color=colour, label=name)
        left += 100 * parts[:, k]
    ax.set_yticks(range(len(labels)), labels, fontsize=SMALLEST_FONT)
    ax.set_xlabel("share of the score (%)", fontsize=9)
    ax.set_xlim(0, 100)
    ax.tick_params(labelsize=SMALLEST_FONT)
    ax.legend(fontsize=SMALLEST_FONT, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.25))
    return fig


def balance_front(trials: pd.DataFrame, objectives: Sequence[str],
                  units: dict[str, str]) -> Figure:  # fmt: skip
    """A balance search's trials on its first two objectives (one objective: against the
    trial number): every trial of the top rung, the Pareto front boxed, those that meet
    every target filled, the base game (trial 0 when it is in the space) marked."""
    top = trials[trials["rung"] == trials["rung"].max()]
    fig = Figure(figsize=(5.6, 4.0))
    ax = fig.subplots()
    xs = objectives[0]
    ys = objectives[1] if len(objectives) > 1 else "trial"
    colour = palette(2)
    for feasible, part in top.groupby("feasible"):
        ax.scatter(part[xs], part[ys], s=18, color=colour[0 if feasible else 1],
                   label="meets every target" if feasible else "misses a target",
                   alpha=0.8)  # fmt: skip
    front = top[top["pareto"]]  # on every objective: a front of 3 or more is no line here
    ax.scatter(front[xs], front[ys], s=60, facecolor="none", edgecolor="black", lw=0.8,
               marker="s", label="Pareto front (all objectives)")  # fmt: skip
    base = top[top["base"]] if "base" in top else top.iloc[:0]
    if len(base):
        ax.scatter(base[xs], base[ys], s=80, facecolor="none", edgecolor="black", lw=1.2,
                   label="base game")  # fmt: skip
    ax.set_xlabel(f"{xs} ({units.get(xs, '')})", fontsize=9)
    ax.set_ylabel(f"{ys} ({units.get(ys, '')})" if ys in units else ys, fontsize=9)
    ax.tick_params(labelsize=SMALLEST_FONT)
    ax.legend(fontsize=SMALLEST_FONT)
    return fig
