"""The atlas: one table that sets every game's balance sheets side by side.

For each game and player count the same measures, read from that game's base-game balance
sheet (`moaisim sheet`, L3 self-play and the skill matrix): the start seat's edge over fair,
the skill ladder (one seat of each level among copies of the level below, L0 to L4), luck
(how often one weaker bot wins among ours; how often a replayed deal has the same winner,
against two unrelated games; the deal's share of the variation), decisiveness (how often the
sole leader after the first third of the game wins), length, lead changes and where the
points come from. Each row says whether its field, the game's L3, qualifies (the field
studies' and certificates' word on it, `verdicts.field_status`): a row of a field a
challenger is shown to exploit is printed, and marked.

The sheets are found under `reports/` (the newest base-game sheet of each game and count,
by the time it says it was made) or in the folders given; `moaisim atlas --play` makes them
first, every game at every count, with the sheet's defaults.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from moaisim.analysis import plots, text
from moaisim.analysis.verdicts import field_status
from moaisim.errors import UserError
from moaisim.files import check_writable_dir, swap_in
from moaisim.games import available, load_game
from moaisim.rundir import recorded_game
from moaisim.studies.sheet import seat_share

#: The ladder of the skill gap: each level as one seat among copies of the level below.
LADDER = (("L1", "L0"), ("L2", "L1"), ("L3", "L2"), ("L4", "L3"))
#: "Made 2026-12-06 00:39 UTC" in a sheet's page: when it was made.
MADE = re.compile(r"^Made (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", re.M)
#: The tables an atlas row reads from a sheet.
TABLES = ("seats", "skill", "luck", "decisiveness", "sources", "length")


@dataclass(frozen=True)
class FoundSheet:
    """A base-game balance sheet: its folder, game, player count and when it was made."""

    path: Path
    game: str
    players: int
    made: datetime


def read_sheet_info(path: Path) -> FoundSheet | None:
    """The sheet in `path` when it is a base-game sheet (no set-up, no comparison) that has
    every table an atlas row needs; None otherwise."""
    meta = path / "sheet.json"
    page = path / "sheet.md"
    if not (meta.is_file() and page.is_file()):
        return None
    try:
        info = json.loads(meta.read_text("utf-8"))
        settings = info.get("settings", {})
        int(info["players"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise UserError(
            f"{meta}: not a balance sheet's sheet.json (unreadable or torn); "
            "make the sheet again or move it aside"
        ) from None
    if settings.get("rules") is not None or settings.get("against") is not None:
        return None
    if not all((path / "tables" / f"{t}.csv").is_file() for t in TABLES):
        return None
    m = MADE.search(page.read_text("utf-8"))
    made = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M").replace(tzinfo=UTC) if m else (
        datetime.fromtimestamp(page.stat().st_mtime, UTC))  # fmt: skip
    return FoundSheet(path, recorded_game(info), int(info["players"]), made)


def find_sheets(roots: list[Path]) -> dict[tuple[str, int], FoundSheet]:
    """The newest base-game sheet of each (game, player count) under `roots` (each a sheet's
    folder or a folder searched for sheets)."""
    found: dict[tuple[str, int], FoundSheet] = {}
    for root in roots:
        if not root.exists():
            raise UserError(f"{root}: no such folder")
        metas = [root / "sheet.json"] if (root / "sheet.json").is_file() else sorted(
            root.rglob("sheet.json"))  # fmt: skip
        for meta in metas:
            sheet = read_sheet_info(meta.parent)
            if sheet is None:
                continue
            key = (sheet.game, sheet.players)
            if key not in found or sheet.made > found[key].made:
                found[key] = sheet
    return found


def _row(df: pd.DataFrame, **match: str) -> pd.Series | None:
    hit = df
    for k, v in match.items():
        hit = hit[hit[k].astype(str) == v]
    return None if hit.empty else hit.iloc[0]


def atlas_row(sheet: FoundSheet) -> dict[str, object]:
    """One game and player count: the atlas's measures read from its sheet, each a value
    with its 95 % interval (`_lo`, `_hi`) where the sheet gives one."""
    t = {name: pd.read_csv(sheet.path / "tables" / f"{name}.csv") for name in TABLES}
    p = sheet.players
    spec = load_game(sheet.game)
    seat0 = t["seats"][t["seats"]["seat"] == 0].iloc[0]
    out: dict[str, object] = {
        "game": sheet.game, "title": spec.INFO.title, "players": p, "fair": 1 / p,
        "games": int(seat0["games"]), "seat0_name": seat_share(sheet.game),
        "seat0_edge": seat0["win_share"] - 1 / p, "seat0_edge_lo": seat0["lo"] - 1 / p,
        "seat0_edge_hi": seat0["hi"] - 1 / p,
    }  # fmt: skip
    for up, down in LADDER:
        r = _row(t["skill"], candidate=up, field=down)
        key = f"{up}_over_{down}"
        got = (np.nan,) * 3 if r is None else (r["vs_fair"], r["vs_fair_lo"], r["vs_fair_hi"])
        out[key], out[f"{key}_lo"], out[f"{key}_hi"] = got
    weak = _row(t["skill"], candidate="L2", field="L3")
    out["weaker_wins"], out["weaker_wins_lo"], out["weaker_wins_hi"] = (
        (np.nan,) * 3 if weak is None else (weak["win_share"], weak["lo"], weak["hi"]))  # fmt: skip
    luck = _row(t["luck"], field="L3")
    assert luck is not None, f"{sheet.path}: the luck table has no L3 row"
    out.update(same_winner=luck["same_winner"], same_winner_lo=luck["same_winner_lo"],
               same_winner_hi=luck["same_winner_hi"], unrelated=luck["independent"],
               deal_share=luck["deal_share"], deal_share_lo=luck["deal_share_lo"],
               deal_share_hi=luck["deal_share_hi"])  # fmt: skip
    length = t["length"].set_index("measure")
    rounds = length.loc["rounds"]
    out.update(rounds=rounds["mean"], rounds_lo=rounds["lo"], rounds_hi=rounds["hi"])
    changes = length.loc["lead changes"]
    out.update(lead_changes=changes["mean"], lead_changes_lo=changes["lo"],
               lead_changes_hi=changes["hi"])  # fmt: skip
    # the first third of the game: the round nearest a third of its mean length (at least 1)
    third = max(1, int(math.floor(float(rounds["mean"]) / 3 + 0.5)))
    d = t["decisiveness"]
    at = d[d["round"] == third]
    out["third_round"] = third
    out["leader_wins"], out["leader_wins_lo"], out["leader_wins_hi"] = (
        (np.nan,) * 3 if at.empty else tuple(at.iloc[0][["leader_wins", "lo", "hi"]]))  # fmt: skip
    every = _row(t["sources"], who="every seat")
    assert every is not None, f"{sheet.path}: the sources table has no 'every seat' row"
    parts = {c.removeprefix("from_"): float(every[c]) for c in t["sources"].columns
             if c.startswith("from_")}  # fmt: skip
    out["score_parts"] = parts
    status = field_status(None, p, "L3", sheet.game)
    out["field_qualifies"] = not status.exploitable
    out["field_note"] = (
        "no challenger is shown to exploit it" if not status.exploitable else
        f"exploitable: a challenger gains {text.points(status.gain)} points "
        f"({text.points_interval(status.lo, status.hi)})")  # fmt: skip
    out["sheet"] = sheet.path
    return out


def atlas_table(rows: list[dict[str, object]]) -> pd.DataFrame:
    """The atlas as one table (a row per game and count; score parts as `from_<part>`)."""
    flat = []
    for r in rows:
        f = {k: v for k, v in r.items() if k != "score_parts"}
        f.update({f"from_{k}": v for k, v in dict(r["score_parts"]).items()})  # type: ignore[arg-type]
        f["sheet"] = str(f["sheet"])
        flat.append(f)
    return pd.DataFrame(flat).sort_values(["game", "players"], ignore_index=True)


def _est(x: float, lo: float, hi: float, unit: str) -> str:
    """A value with its interval in the atlas's cells: "-4.3 (-4.9 to -3.7)" points,
    "3.7 % (3.0-4.7)" shares, "6.78 (6.78-6.79)" counts; "-" when not measured."""
    if not np.isfinite(x):
        return "-"
    if unit == "points":
        return f"{text.points(x)} ({text.points_interval(lo, hi)})"
    if unit == "share":
        return f"{text.pct(x)} ({text.pct_interval(lo, hi)})"
    return f"{x:.2f} ({lo:.2f}-{hi:.2f})"


#: The mark of a deal's share that is 100 % by construction, and what it means.
BY_CONSTRUCTION = (
    " †",
    "† by construction: every replay of a deal ended alike, since the L3 seats draw nothing "
    "at this count (their play is fixed by the deal).",
)


def _deal_share(r: pd.Series) -> str:
    """The deal's share with its interval, marked when it is 100 % by construction."""
    cell = _est(r["deal_share"], r["deal_share_lo"], r["deal_share_hi"], "share")
    return cell + BY_CONSTRUCTION[0] if r["deal_share"] >= 1 - 1e-9 else cell


def markdown(table: pd.DataFrame, command: str, made: datetime) -> str:
    """The atlas's page: what it is, the table in three parts, how to read it, the figure."""
    lines = [
        "# The atlas: every game's balance side by side", "",
        "For each game and player count, the same measures from the game's base-game balance "
        "sheet: L3 self-play (the strongest fast bots), the skill matrix of levels L0-L4 and "
        "replayed deals. In brackets: 95 % intervals. A row whose field is shown to be "
        "exploitable is marked *: its measures describe that field, not strong play.", "",
        f"Made {made:%Y-%m-%d %H:%M} UTC. Reproduce:", "", "```sh", command, "```", "",
        "![the atlas](figures/atlas.png)", "",
        "## Seats and skill", "",
        "The start seat's edge is its win share minus the fair share 1/P, in points. Each "
        "step of the ladder is one seat of the higher level among copies of the lower one: its "
        "win share minus the fair share, in points.", "",
    ]  # fmt: skip
    head = ["game", "players", "field", "start seat's edge (points)",
            *(f"{u} among {d}" for u, d in LADDER)]  # fmt: skip
    rows = []
    for _, r in table.iterrows():
        mark = "" if r["field_qualifies"] else " *"
        rows.append([r["title"], str(r["players"]), f"L3{mark}",
                     _est(r["seat0_edge"], r["seat0_edge_lo"], r["seat0_edge_hi"], "points"),
                     *(_est(r[f"{u}_over_{d}"], r[f"{u}_over_{d}_lo"], r[f"{u}_over_{d}_hi"],
                            "points") for u, d in LADDER)])  # fmt: skip
    lines += [text.markdown_table(pd.DataFrame(rows, columns=head)), ""]
    lines += [
        "## Luck and decisiveness", "",
        "How often one weaker bot (L2) wins among ours (L3); how often a deal replayed with "
        "the same cards and draws has the same winner, beside two unrelated games (chance); "
        "the deal's share of the variation in who wins; how often the sole leader after the "
        "round nearest the first third of the game wins.", "",
    ]  # fmt: skip
    head = ["game", "players", "weaker bot wins", "same winner on a replay", "chance",
            "the deal's share", "leader after round", "leader wins"]  # fmt: skip
    rows = [[r["title"], str(r["players"]),
             _est(r["weaker_wins"], r["weaker_wins_lo"], r["weaker_wins_hi"], "share"),
             _est(r["same_winner"], r["same_winner_lo"], r["same_winner_hi"], "share"),
             text.pct(r["unrelated"]),
             _deal_share(r),
             str(r["third_round"]),
             _est(r["leader_wins"], r["leader_wins_lo"], r["leader_wins_hi"], "share")]
            for _, r in table.iterrows()]  # fmt: skip
    lines += [text.markdown_table(pd.DataFrame(rows, columns=head)), ""]
    if (table["deal_share"] >= 1 - 1e-9).any():
        lines += [BY_CONSTRUCTION[1], ""]
    lines += ["## Length and where the points come from", "",
              "Rounds a game and changes of the sole leader between rounds (means with 95 % t "
              "intervals); each score part's share of every seat's points (means over the "
              "sheet's games).", ""]  # fmt: skip
    head = ["game", "players", "rounds", "lead changes", "points from"]
    rows = []
    for _, r in table.iterrows():
        parts = {c.removeprefix("from_"): r[c] for c in table.columns if c.startswith("from_")}
        shares = ", ".join(f"{k} {text.pct(v)}" for k, v in parts.items() if np.isfinite(v))
        rows.append([r["title"], str(r["players"]),
                     _est(r["rounds"], r["rounds_lo"], r["rounds_hi"], "count"),
                     _est(r["lead_changes"], r["lead_changes_lo"], r["lead_changes_hi"], "count"),
                     shares])  # fmt: skip
    lines += [text.markdown_table(pd.DataFrame(rows, columns=head)), ""]
    lines += ["## The sheets read", ""]
    for _, r in table.iterrows():
        mark = "" if r["field_qualifies"] else " (* the field: " + r["field_note"] + ")"
        lines.append(f"- {r['title']}, {r['players']} players: `{r['sheet']}`, "
                     f"{r['games']:,} games of L3 self-play{mark}")  # fmt: skip
    return "\n".join(lines) + "\n"


def figure(table: pd.DataFrame) -> Figure:
    """Four panels, a point per game and player count with its 95 % interval: the start
    seat's edge, one weaker bot's win share against fair, the leader after the first third,
    the deal's share."""
    panels = (("seat0_edge", "start seat's edge (points)", 100.0, 0.0),
              ("weaker_wins", "a weaker bot's win share (%)", 100.0, None),
              ("leader_wins", "leader after the first third wins (%)", 100.0, None),
              ("deal_share", "the deal's share (%)", 100.0, None))  # fmt: skip
    fig = Figure(figsize=(9.0, 6.0))
    axes = fig.subplots(2, 2).ravel()
    games = list(dict.fromkeys(table["game"]))
    colours = plots.palette(max(len(games), 2))
    for ax, (key, label, scale, line) in zip(axes, panels, strict=True):
        for i, g in enumerate(games):
            part = table[table["game"] == g]
            x = part["players"].to_numpy(float) + (i - (len(games) - 1) / 2) * 0.12
            y = scale * part[key].to_numpy(float)
            err = scale * np.vstack([part[key] - part[f"{key}_lo"], part[f"{key}_hi"] - part[key]])
            ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, color=colours[i],
                        label=str(part["title"].iloc[0]))  # fmt: skip
        if line is not None:
            ax.axhline(line, color="black", lw=1, ls="--")
        if key == "weaker_wins":
            fair = table.drop_duplicates("players").sort_values("players")
            ax.plot(fair["players"], 100 / fair["players"], "k--", lw=1, label="fair share")
        ax.set_xticks(sorted(set(table["players"])))
        ax.set_xlabel("players", fontsize=9)
        ax.set_ylabel(label, fontsize=9)
        ax.tick_params(labelsize=plots.SMALLEST_FONT)
    axes[0].legend(fontsize=plots.SMALLEST_FONT)
    axes[1].legend(fontsize=plots.SMALLEST_FONT)
    fig.tight_layout()
    return fig


#: What an atlas folder holds: its files and, made by `--play`, its sheets.
OWN = {"atlas.md", "atlas.html", "atlas.csv", "atlas.json", "figures", "sheets"}


def check_atlas_dir(out: Path) -> None:
    """Refuse, in one line and before anything is played, an --out that is a file or holds
    anything but an atlas and its sheets."""
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is a file, not a directory: choose another --out")
    if out.is_dir():
        other = sorted(p.name for p in out.iterdir() if p.name not in OWN)
        if other:
            raise UserError(f"{out} holds other files ({', '.join(other[:3])}): choose "
                            "another --out")  # fmt: skip
    check_writable_dir(out, "--out")


def write_atlas(table: pd.DataFrame, out: Path, command: str) -> Path:
    """Write atlas.md, atlas.html, atlas.csv, atlas.json and figures/atlas.png into `out`:
    built aside, then each put in place (a failure while building leaves the old atlas)."""
    check_atlas_dir(out)
    tmp = out.parent / f".{out.name}.atlas.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    made = datetime.now(UTC)
    try:
        table.to_csv(tmp / "atlas.csv", index=False)
        plots.save(figure(table), tmp / "figures" / "atlas.png")
        page = markdown(table, command, made)
        (tmp / "atlas.md").write_text(page, "utf-8")
        (tmp / "atlas.html").write_text(text.html_page("The atlas", page, tmp), "utf-8")
        (tmp / "atlas.json").write_text(json.dumps(
            {"made": made.isoformat(timespec="seconds"), "command": command,
             "sheets": sorted(str(s) for s in table["sheet"])}, indent=1), "utf-8")  # fmt: skip
        out.mkdir(parents=True, exist_ok=True)
        swap_in(tmp / "figures", out / "figures")
        for name in ("atlas.csv", "atlas.md", "atlas.html", "atlas.json"):
            (tmp / name).replace(out / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out / "atlas.md"


def make_atlas(roots: list[Path], out: Path, command: str,
               games: list[str] | None = None) -> tuple[Path, pd.DataFrame]:  # fmt: skip
    """Find the sheets (`find_sheets`), build the table and write the atlas; a game named in
    `games` without any sheet is an error, as is finding no sheet at all."""
    found = find_sheets(roots)
    wanted = games or sorted({g for g, _ in found})
    for g in wanted:
        if g not in available():
            raise UserError(f"unknown game {g!r}: the games are {', '.join(available())}")
        if not any(k[0] == g for k in found):
            where = ", ".join(str(r) for r in roots)
            raise UserError(
                f"no base-game balance sheet of {g} under {where}: make "
                f"them with `moaisim sheet --game {g}` or `moaisim atlas --play`"
            )
    if not found:
        raise UserError("no base-game balance sheet found: make them with `moaisim atlas --play`")
    rows = [atlas_row(s) for k, s in sorted(found.items()) if k[0] in wanted]
    table = atlas_table(rows)
    return write_atlas(table, out, command), table
