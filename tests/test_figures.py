"""The report's figures (moaisim.analysis.plots) on hand-made tables: coinciding series stay
visible, colours do not repeat, round axes tick at whole rounds, heatmap numbers contrast with
their cells, labels do not collide, each seat panel's legend names its own lineups; and the
variant chart of a small report, in headless Chromium, shows text at >= 10 px."""

from __future__ import annotations

import html
import itertools
import json
import re
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from conftest import browser
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex, to_rgba
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text
from PIL import Image

import moaisim
from moaisim.analysis import Source, plots
from moaisim.analysis.report import CAPTIONS, FIGURES, build_sections, make_report

LONG = "volcano_after_moai=camp, spent_wood=out, removed_epoch3=2 (against wood_points=3)"


def render(fig: Figure) -> Figure:
    """Lay out and draw a figure on an Agg canvas, as saving it does."""
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return fig


# --- hand-made tables ------------------------------------------------------------------------


def of_moai(table: pd.DataFrame) -> pd.DataFrame:
    """A hand-made table of Moai's games: its attrs name the game, as the analysis's tables'
    do (`moaisim.analysis.source.game_of_table`)."""
    table.attrs["game"] = "moai"
    return table


def seats(cells: list[tuple[int, str, list[float]]]) -> pd.DataFrame:
    """A seat_balance table: per cell (players, lineup, win share of each seat)."""
    rows = []
    for cell, (players, lineup, shares) in enumerate(cells):
        for seat, share in enumerate(shares):
            rows.append({"cell": cell, "players": players, "setup": "base", "lineup": lineup,
                         "seat": seat, "win_share": share, "lo": share - 0.02,
                         "hi": share + 0.02})  # fmt: skip
    return of_moai(pd.DataFrame(rows))


def cells_of(n: int, players: int = 3) -> pd.DataFrame:
    """A per-cell table (as game_shape and game_quality are) of n cells."""
    setups = [f"s{k}" for k in range(n)]
    return pd.DataFrame(
        {"cell": range(n), "players": players, "setup": setups, "lineup": "greedy,greedy,greedy"}
    )


def shape(hists: list[dict[int, int]]) -> pd.DataFrame:
    """A game_shape table whose cells last so many rounds ({rounds: games} per cell)."""
    table = cells_of(len(hists))
    index = [(c, r) for c, h in enumerate(hists) for r in h]
    table.attrs["rounds_hist"] = pd.Series(
        [n for h in hists for n in h.values()],
        index=pd.MultiIndex.from_tuples(index, names=["cell", "rounds"]),
    )
    return table


def quality(gaps: list[list[float]]) -> pd.DataFrame:
    """A game_quality table whose winner leads by these gaps after rounds 1, 2, ..."""
    table = cells_of(len(gaps))
    rows = [{"cell": c, "players": 3, "setup": f"s{c}", "lineup": "greedy,greedy,greedy",
             "round": r + 1, "gap": g, "lo": g - 1, "hi": g + 1}
            for c, gs in enumerate(gaps) for r, g in enumerate(gs)]  # fmt: skip
    table.attrs["lead_by_round"] = pd.DataFrame(rows)
    return table


def score_shape(strategies: list[str]) -> pd.DataFrame:
    """A game_shape table with one 3-player cell in which these strategies score around 30."""
    table = cells_of(1)
    score = np.arange(10, 50)
    index = pd.MultiIndex.from_tuples(
        [(0, s, x) for s in strategies for x in score], names=["cell", "strategy", "score"]
    )
    weights = [np.exp(-((score - 30 - k) ** 2) / 50) * 1000 for k in range(len(strategies))]
    table.attrs["score_hist"] = pd.Series(np.concatenate(weights).round(), index=index)
    return table


def head_to_head(names: list[str], share: dict[tuple[str, str], float]) -> pd.DataFrame:
    """A head_to_head table of one 3-player set-up: row strategy above column strategy."""
    rows = [{"players": 3, "setup": "base", "strategy": a, "opponent": b, "n": 100,
             "above_share": share.get((a, b), 0.5)}
            for a, b in itertools.permutations(names, 2)]  # fmt: skip
    return of_moai(pd.DataFrame(rows))


def deltas(changes: list[str], lineups: list[str], metrics: list[str]) -> pd.DataFrame:
    """A variants table: every change, at 3 and 4 players, every lineup, every metric."""
    rng = np.random.default_rng(0)
    rows = [{"change": c, "players": p, "lineup": lu, "metric": m, "delta": d,
             "lo": d - 0.5, "hi": d + 0.5}
            for c in changes for p in (3, 4) for lu in lineups for m in metrics
            for d in [float(rng.normal())]]  # fmt: skip
    return pd.DataFrame(rows)


def strategies_table(names: list[str], players: list[int]) -> pd.DataFrame:
    """A strategies table: each strategy at each player count, its mean score parts."""
    rows = [{"players": p, "strategy": s, "moai_height": 10.0, "moai_score": 10.0, "pawns": 8.0,
             "wood_score": 1.0, "n": 100} for p in players for s in names]  # fmt: skip
    return of_moai(pd.DataFrame(rows))


def series_lines(fig: Figure) -> list[Line2D]:
    """The data lines of a figure's visible panels: an errorbar's markers, a plotted line
    (not its caps, nor reference lines, which have no markers)."""
    out: list[Line2D] = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        out += [c.lines[0] for c in bars]
        inside = {id(line) for c in bars for line in [c.lines[0], *c.lines[1]]}
        out += [x for x in ax.get_lines() if id(x) not in inside and x.get_marker() != "None"]
    return out


# --- 1. coinciding series stay visible --------------------------------------------------------


def assert_apart(a: Line2D, b: Line2D) -> None:
    """Two series with equal values: other markers, and at every point the markers' centres
    at least one marker apart on the rendered figure."""
    assert a.get_marker() != b.get_marker()
    assert a.get_color() != b.get_color()
    pa = a.axes.transData.transform(a.get_xydata())
    pb = b.axes.transData.transform(b.get_xydata())
    assert np.allclose(a.get_ydata(), b.get_ydata())  # the values do coincide
    size = max(a.get_markersize(), b.get_markersize()) * a.figure.dpi / 72  # px
    assert np.min(np.hypot(*(pa - pb).T)) >= size


def test_equal_seat_shares_of_two_lineups_are_dodged_apart() -> None:
    fig = render(plots.seat_win_share(seats([(3, "greedy", [0.3, 0.35, 0.35]),
                                             (3, "moai", [0.3, 0.35, 0.35])])))  # fmt: skip
    a, b = series_lines(fig)
    assert_apart(a, b)


@pytest.mark.parametrize("chart", ["game_length", "lead_over_rounds"])
def test_equal_lines_over_rounds_are_dodged_apart(chart: str) -> None:
    if chart == "game_length":
        fig = plots.game_length(shape([{7: 20, 8: 50, 9: 30}] * 3))
    else:
        fig = plots.lead_over_rounds(quality([[1.0, 3.0, 5.0, 6.0, 8.0, 9.0, 9.5, 10.0]] * 3))
    lines = series_lines(render(fig))
    assert len(lines) == 3
    for a, b in itertools.combinations(lines, 2):
        assert_apart(a, b)


def test_equal_score_distributions_keep_their_markers_on_other_points() -> None:
    twin = score_shape(["a", "b"])
    twin.attrs["score_hist"].loc[(0, "b")] = twin.attrs["score_hist"].loc[(0, "a")].to_numpy()
    a, b = render(plots.score_distributions(twin)).axes[0].get_lines()
    assert np.array_equal(a.get_ydata(), b.get_ydata())  # one curve, twice
    assert a.get_marker() != b.get_marker() and a.get_color() != b.get_color()
    (sa, ea), (sb, eb) = a.get_markevery(), b.get_markevery()
    xa, xb = np.asarray(a.get_xdata())[sa::ea], np.asarray(b.get_xdata())[sb::eb]
    assert len(xa) >= 4 and not set(xa) & set(xb)  # their markers on other scores


# --- 2. no colour repeats past 10 series -----------------------------------------------------


def colours(lines: list[Line2D]) -> list[str]:
    """The colours of lines, as #rrggbbaa."""
    return [to_hex(x.get_color(), keep_alpha=True) for x in lines]


@pytest.mark.parametrize("n", [12, 21])
def test_many_series_have_distinct_colours(n: int) -> None:
    lead = [[float(k + r) for r in range(6)] for k in range(n)]
    figures = {
        "game_length": plots.game_length(shape([{7: 10 + k, 8: 50, 9: 30} for k in range(n)])),
        "lead_over_rounds": plots.lead_over_rounds(quality(lead)),
        "seat_win_share": plots.seat_win_share(
            seats([(3, f"lineup{k}", [0.3, 0.3, 0.4]) for k in range(n)])
        ),
        "score_distributions": plots.score_distributions(score_shape([f"s{k}" for k in range(n)])),
    }
    for name, fig in figures.items():
        got = colours(series_lines(render(fig)))
        assert len(got) == n, name
        assert len(set(got)) == n, (name, got)
    # the fill of each interval band is its line's colour
    bands = figures["lead_over_rounds"].axes[0].collections
    assert [to_hex(b.get_facecolor()[0]) for b in bands] == [
        to_hex(x.get_color()) for x in figures["lead_over_rounds"].axes[0].get_lines()[:n]
    ]


def test_the_palette_is_distinct_for_any_number_of_series() -> None:
    for n in (1, 10, 11, 20, 40, 60, 61, 100):
        assert len({to_hex(c) for c in plots.palette(n)}) == n
    assert plots.palette(10) == [to_rgba(f"C{k}") for k in range(10)]  # the usual first ten


# --- 3. round axes tick at whole rounds ------------------------------------------------------


def visible_ticks(axis: Axis) -> np.ndarray:
    """The tick positions of an axis within its view."""
    lo, hi = sorted(axis.get_view_interval())
    ticks = np.asarray(axis.get_ticklocs())
    return ticks[(ticks >= lo) & (ticks <= hi)]


@pytest.mark.parametrize(
    "fig",
    [
        lambda: plots.game_length(shape([{7: 20, 8: 50}])),  # two round counts only
        lambda: plots.game_length(shape([{6: 1, 7: 20, 8: 50, 9: 30, 10: 2}] * 2)),
        lambda: plots.lead_over_rounds(quality([[1.0, 2.0, 3.0]])),
        lambda: plots.lead_over_rounds(quality([[1.0 + r for r in range(9)]] * 4)),
    ],
    ids=["length-2", "length-5", "lead-3", "lead-9"],
)
def test_round_axes_tick_at_whole_rounds(fig: Callable[[], Figure]) -> None:
    ax = render(fig()).axes[0]
    ticks = visible_ticks(ax.xaxis)
    assert len(ticks) >= 2
    assert np.array_equal(ticks, np.round(ticks)), ticks
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert all(re.fullmatch(r"\d+", x) for x in labels), labels


# --- 4. heatmap numbers contrast with their cells -------------------------------------------


def luminance(rgba: Sequence[float]) -> float:
    """WCAG relative luminance."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Any, b: Any) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(to_rgba(a)), luminance(to_rgba(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_heatmap_numbers_are_white_on_dark_cells_and_black_on_light_ones() -> None:
    names = ["a", "b", "c", "d"]
    share = {("a", "b"): 0.0, ("a", "c"): 1.0, ("a", "d"): 0.5, ("b", "a"): 1.0,
             ("b", "c"): 0.15, ("c", "a"): 0.0, ("c", "b"): 0.85, ("d", "a"): 0.5}  # fmt: skip
    fig = render(plots.head_to_head_heatmap(head_to_head(names, share)))
    ax = fig.axes[0]
    im = ax.images[0]
    seen: dict[str, tuple[float, str]] = {}
    for text in ax.texts:
        j, i = (round(v) for v in text.get_position())
        cell = im.to_rgba(im.get_array()[i, j])
        assert text.get_text() == f"{im.get_array()[i, j]:.0f}"
        assert contrast(text.get_color(), cell) >= 4.5, (text.get_text(), cell)
        seen[text.get_text()] = (luminance(cell), to_hex(text.get_color()))
    # a dark cell (0 %: deep red; 100 %: deep blue) gets white, a light one (50 %) black
    for value in ("0", "100"):
        assert seen[value][0] < 0.1 and seen[value][1] == "#ffffff"
    assert seen["50"][0] > 0.8 and seen["50"][1] == "#000000"


# --- 5. labels do not collide ----------------------------------------------------------------


def shown_ticklabels(axis: Axis, k: int) -> list[Text]:
    """The tick labels an axis draws: those of its ticks within its view (a locator gives
    ticks past the ends too, which are not drawn)."""
    lo, hi = sorted(axis.get_view_interval())
    span = 1e-9 * max(1.0, hi - lo)
    return [t for t in axis.get_ticklabels() if lo - span <= t.get_position()[k] <= hi + span]


def texts(fig: Figure) -> list[Text]:
    """Every text a reader sees: tick labels, axis labels, titles, legends, annotations."""
    out: list[Text] = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        out += [*shown_ticklabels(ax.xaxis, 0), *shown_ticklabels(ax.yaxis, 1)]
        out += [ax.xaxis.label, ax.yaxis.label]
        out += [ax.title, ax._left_title, ax._right_title, *ax.texts]
        if ax.get_legend() is not None:
            out += ax.get_legend().get_texts()
    return [t for t in out if t.get_visible() and t.get_text().strip()]


def assert_no_overlap(fig: Figure) -> None:
    """No two texts of the rendered figure overlap (their window extents), and each lies
    within the figure's width (the saved image's, whose width the page shows)."""
    render(fig)
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts(fig)]
    page = fig.bbox
    for text, box in boxes:
        assert box.x0 >= page.x0 - 1 and box.x1 <= page.x1 + 1, text
    for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
        w = min(a.x1, b.x1) - max(a.x0, b.x0)
        h = min(a.y1, b.y1) - max(a.y0, b.y0)
        assert w <= 0.5 or h <= 0.5, f"{ta!r} overlaps {tb!r}"


def test_long_change_names_in_the_variant_chart_do_not_collide() -> None:
    metrics = ["first bird-man win share", "mean score", "rounds", "score spread (sd over seats)",
               "win share: fisher"]  # fmt: skip
    lineups = ["greedy", "moai,fisher,forester,breeder"]
    assert_no_overlap(plots.variant_deltas(deltas([LONG, "short"], lineups, metrics)))
    assert_no_overlap(plots.variant_deltas(deltas(["fixed-disasters"], ["greedy"], metrics[:1])))


def test_long_strategy_names_in_the_heatmap_and_bars_do_not_collide() -> None:
    names = [f"{x}_with_a_long_name" for x in "abcdefghijkl"]  # 12 strategies
    assert_no_overlap(plots.head_to_head_heatmap(head_to_head(names, {})))
    two = pd.concat([head_to_head(names[:10], {}), head_to_head(names[:10], {}).assign(players=4)])
    assert_no_overlap(plots.head_to_head_heatmap(two))
    assert_no_overlap(plots.score_parts(strategies_table(names, [3, 4])))
    assert_no_overlap(plots.score_parts(strategies_table(["greedy", "random"], [3])))


def test_long_legends_do_not_collide_with_the_next_panel() -> None:
    long = "moai,fisher,forester,breeder,raider"
    table = seats([(p, f"{long}{k}", [1 / p] * p) for p in (2, 3, 4, 5) for k in range(3)])
    table["setup"] = LONG
    assert_no_overlap(plots.seat_win_share(table))
    many = shape([{7: 20, 8: 50, 9: 30}] * 14)
    many["setup"] = LONG
    assert_no_overlap(plots.game_length(many))


# --- 6. each seat panel names its own lineups ------------------------------------------------


def test_each_seat_panel_has_the_legend_of_its_own_lineups() -> None:
    table = seats([
        (3, "greedy,greedy,greedy", [0.3, 0.3, 0.4]),
        (3, "moai,fisher,forester", [0.3, 0.3, 0.4]),
        (4, "greedy,greedy,greedy,greedy", [0.25] * 4),
        (4, "tuned,tuned,tuned,tuned", [0.25] * 4),
        (4, "moai,fisher,forester,breeder", [0.25] * 4),
        (5, "raider,raider,raider,raider,raider", [0.2] * 5),
    ])  # fmt: skip
    fig = render(plots.seat_win_share(table))
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["3 players", "4 players", "5 players"]
    want = {
        "3 players": ["base, greedy", "base, moai,fisher,forester"],
        "4 players": ["base, greedy", "base, tuned", "base, moai,fisher,forester,breeder"],
        "5 players": ["base, raider"],
    }
    style: dict[str, tuple[Any, str]] = {}
    for ax in panels:
        legend = ax.get_legend()
        assert legend is not None, ax.get_title()
        got = [t.get_text().replace("\n", " ") for t in legend.get_texts()]
        assert got == want[ax.get_title()]
        # the legend's entries are the series of this panel, in their colours
        lines = [c.lines[0] for c in ax.containers]
        assert [c.get_label() for c in ax.containers] == got
        for label, line in zip(got, lines, strict=True):
            style.setdefault(label, (line.get_color(), line.get_marker()))
            assert style[label] == (line.get_color(), line.get_marker())  # same in every panel
    assert len(set(style.values())) == len(style)


# --- 7. the variant chart is legible in the HTML report --------------------------------------


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A small report with a variant chart: 2 set-ups x 2 lineups x 200 games, with rounds
    (its run and the report's directory)."""
    base = tmp_path_factory.mktemp("figures")
    moaisim.simulate(3, 200, variants=["base", "fixed-disasters"],
                     lineups=["greedy", "greedy,random"], seed=9, rounds=True,
                     out=base / "run")  # fmt: skip
    make_report(base / "run", base / "out", title="Figures")
    return base / "run", base / "out"


#: A figure's margins left and right (px), as browsers lay out <figure> by default.
FIGURE_MARGIN = 40


def smallest_font_px(fig: Figure, shown: float, natural: float) -> float:
    """The smallest text of a figure in pixels on the page: points at the figure's dpi,
    scaled by the width the page shows the image at over its own width."""
    render(fig)
    points = min(t.get_fontsize() for t in fig.findobj(Text)
                 if t.get_visible() and t.get_text().strip()
                 and (t.axes is None or t.axes.get_visible()))  # fmt: skip
    return points * plots.DPI / 72 * min(1.0, shown / natural)


def variant_figure(report: tuple[Path, Path]) -> tuple[Figure, int]:
    """The report's variant chart made again from the run, and the width of its PNG (px)."""
    run, out = report
    sections = {s.key: s for s in build_sections(Source.of(run))}
    fig = FIGURES["variant_deltas"](sections)
    with Image.open(out / "figures" / "variant_deltas.png") as image:
        natural = image.width
    again = plots.save(fig, out.parent / "again.png")
    with Image.open(again) as image:
        assert image.width == natural  # the same figure as the report's
    return fig, natural


def test_the_variant_chart_text_is_10_px_at_the_width_of_the_html_page(
    report: tuple[Path, Path],
) -> None:
    fig, natural = variant_figure(report)
    page = (report[1] / "report.html").read_text()
    body = int(re.search(r"body\{[^}]*max-width:(\d+)px", page).group(1))
    assert re.search(r"img\{max-width:100%\}", page)
    shown = min(natural, body - 2 * FIGURE_MARGIN)  # img{max-width:100%} of the figure
    assert smallest_font_px(fig, shown, natural) >= 10
    assert natural <= shown  # the page shows the chart at its own size, not scaled down


PROBE = (
    "<script>window.addEventListener('load',function(){var r=[];for(var i of document.images)"
    "{var b=i.getBoundingClientRect();r.push({alt:i.alt,natural:i.naturalWidth,shown:b.width,"
    "top:b.top+window.scrollY,height:b.height});}"
    "document.body.setAttribute('data-figures',JSON.stringify(r));});</script>"
)


def test_the_variant_chart_is_legible_in_a_headless_browser_screenshot(
    report: tuple[Path, Path], tmp_path: Path
) -> None:
    chromium = browser()
    if chromium is None:
        pytest.skip("no Chromium here (set CI=true to install it from the system packages)")
    fig, natural = variant_figure(report)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars"]  # fmt: skip
    # where the page shows each image, and how wide: the report with a script that says so
    page = report[1] / "report.html"
    probe = report[1] / "probe.html"
    probe.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    dom = subprocess.run([chromium, *flags, "--window-size=1200,3000", "--dump-dom",
                          "--virtual-time-budget=5000", probe.as_uri()], capture_output=True,
                         text=True, timeout=120, check=True).stdout  # fmt: skip
    shown = json.loads(html.unescape(re.search(r'data-figures="([^"]*)"', dom).group(1)))
    chart = next(x for x in shown if x["alt"] == CAPTIONS["variant_deltas"])
    assert chart["natural"] == natural
    # a screenshot of the page, tall enough to hold the variant chart
    height = max(3000, int(chart["top"] + chart["height"]) + 50)
    shot = tmp_path / "report.png"
    subprocess.run([chromium, *flags, f"--window-size=1200,{height}", f"--screenshot={shot}",
                    page.as_uri()], capture_output=True, timeout=120, check=True)  # fmt: skip
    assert shot.is_file()
    with Image.open(shot) as image:
        assert image.size == (1200, height)
        grey = np.asarray(image.convert("L"), dtype=float)
    assert grey.std() > 10 and (grey < 128).mean() > 0.005  # not blank: text and figures
    top, bottom = int(chart["top"]), int(chart["top"] + chart["height"])
    region = grey[top:bottom]
    assert region.std() > 10 and (region < 128).mean() > 0.005  # the chart is drawn there
    assert smallest_font_px(fig, chart["shown"], chart["natural"]) >= 10
