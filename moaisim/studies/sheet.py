"""`moaisim sheet`: a balance sheet for one player count, on one page a publisher can read.

It plays three sets of games and reads a field study's report (`--field`):

1. the strongest fixed field's self-play (L3, the shipped Nash mixture): seat fairness over
   every seat, decisiveness (the leader after each round), length and where the points come
   from (`analysis.sheet`);
2. the skill matrix: each level L0-L3 as one seat against copies of each level, seats rotated
   (`studies.versus`), and look-ahead search (L4) as one seat against each of them with fewer
   games (its decisions cost about a second of CPU per game);
3. luck: the same deals replayed with the strategies' own draws renewed (`Games.new`'s
   `strategy_seed`), in the L2 pool (each seat draws its strategy per game) and in L3;

and from the field study: strategic diversity (the Nash mixture, alpha-Rank), mechanism value
(restricted play: the strongest strategy without each mechanism) and where strong play's
points come from (L4 against L3). `write_sheet` writes sheet.md, sheet.html, a CSV per table
and the figures; its paragraph for a publisher is generated from the tables, with its caveats.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from moaisim.analysis import plots, text
from moaisim.analysis import sheet as measure
from moaisim.analysis.report import held_output
from moaisim.analysis.verdicts import FieldStatus, field_status
from moaisim.checks import SEEDS, check_count, check_seed
from moaisim.engine.forward import Games
from moaisim.errors import UserError
from moaisim.files import swap_in
from moaisim.progress import Progress
from moaisim.registry import LEVELS, level_spec, load_strategy
from moaisim.rules import Rules
from moaisim.runner import check_jobs, make_study, run_in_memory
from moaisim.studies.versus import SEARCH_SECONDS, versus

#: The levels of the skill matrix's fields (L4, search, plays only as the one seat).
FIELD_LEVELS = ("L0", "L1", "L2", "L3")
#: CPU seconds per game and seat of the fixed levels, for the up-front estimate (thousands
#: of games per second; search's cost is `versus.SEARCH_SECONDS`).
SECONDS_PER_GAME = 0.0006
#: The most games a sheet plays of each kind (L3 self-play, each skill pairing: kept in
#: memory with their per-round tables), of search's pairings (about a second of CPU a game)
#: and deals for luck (each replay's shares are held at once).
MAX_GAMES = 1_000_000
MAX_SEARCH_GAMES = 10_000
MAX_DEALS = 100_000
#: A sheet plays root seeds `seed` to `seed + SEED_SPAN - 1` (luck's replays the last).
SEED_SPAN = 1052
#: The settings a sheet's numbers depend on (all but the jobs): a sheet replaces only a
#: sheet of the same ones.
IDENTITY = ("players", "games", "skill_games", "search_games", "deals", "replays", "seed",
            "field", "rules")  # fmt: skip


@dataclass(frozen=True)
class SheetSettings:
    """What a sheet plays: games of L3 self-play, games per skill pairing (and per L4
    pairing: 0 leaves search out), deals and replays of each for luck, the root seed, the
    field study's report and the jobs."""

    players: int
    games: int = 20_000
    skill_games: int = 2_000
    search_games: int = 100
    deals: int = 2_000
    replays: int = 4
    seed: int = 2026
    field: Path | None = None
    jobs: int = 1
    #: the rules played (None: the base game), e.g. a balance search's finalist
    rules: Rules | None = None

    def check(self) -> SheetSettings:
        """The settings, checked (one clear line per mistake)."""
        if isinstance(self.players, bool) or self.players not in (2, 3, 4, 5):
            raise UserError(f"players must be from 2 to 5, got {self.players!r}")
        check_count(self.games, "games", 10, MAX_GAMES)
        check_count(self.skill_games, "skill games", 10, MAX_GAMES)
        check_count(self.search_games, "search games", 0, MAX_SEARCH_GAMES)
        check_count(self.deals, "deals", 2, MAX_DEALS)
        check_count(self.replays, "replays", 2, 50)
        check_seed(self.seed)
        if self.seed > SEEDS - SEED_SPAN:
            raise UserError(f"seed must be at most 2**64-{SEED_SPAN} (a sheet plays root seeds "
                            f"seed to seed + {SEED_SPAN - 1}), got {self.seed}")  # fmt: skip
        check_jobs(self.jobs)
        if self.rules is not None and self.rules.players != self.players:
            raise UserError(f"the rules are for {self.rules.players} players, not {self.players}")
        if self.field is not None and not (Path(self.field) / "report.md").is_file():
            raise UserError(f"{self.field} is not a field study's report (no report.md)")
        return self

    def identity(self) -> dict[str, Any]:
        """What the sheet's numbers depend on (`IDENTITY`: every setting but the jobs), as
        sheet.json records it: the field study's directory as given, the rules by their
        set-up ('base' for the base game)."""
        return _identity(self.__dict__)

    def seconds(self) -> float:
        """About how many CPU seconds the sheet plays (the up-front estimate)."""
        p = self.players
        cheap = (self.games + self.skill_games * len(FIELD_LEVELS) ** 2
                 + 2 * self.deals * self.replays) * SECONDS_PER_GAME * p  # fmt: skip
        search = self.search_games * len(FIELD_LEVELS) * SEARCH_SECONDS
        return cheap + search


@dataclass
class Sheet:
    """A balance sheet's tables and figures' data (`play_sheet`)."""

    settings: SheetSettings
    seats: pd.DataFrame
    fairness: dict[str, float]
    skill: pd.DataFrame
    better: dict[str, float]
    luck: pd.DataFrame
    decisive: pd.DataFrame
    lead_changes: tuple[float, float, float]
    length: dict[str, float]
    sources: pd.DataFrame
    field: dict[str, Any] = field(default_factory=dict)


class _Stage(Progress):
    """A sub-run's progress counted into the sheet's bar (its own plan ignored)."""

    def __init__(self, outer: Progress | None) -> None:
        super().__init__(total=0)
        self.outer = outer

    def plan(self, total: int) -> None:
        """The sheet planned every game up front."""

    def update(self, games: int) -> None:
        """Count the games into the sheet's bar."""
        super().update(games)
        if self.outer is not None:
            self.outer.update(games)


def planned_games(s: SheetSettings) -> int:
    """Every game the sheet plays (its progress bar's total)."""
    return (s.games + s.skill_games * len(FIELD_LEVELS) ** 2
            + s.search_games * len(FIELD_LEVELS) + 2 * s.deals * s.replays)  # fmt: skip


def play_sheet(settings: SheetSettings, progress: Progress | None = None) -> Sheet:
    """Play a sheet's games and read its field study (the module's docstring)."""
    s = settings.check()
    p, stage = s.players, _Stage(progress)
    study = make_study(p, s.games, {p: ["L3"]}, seed=s.seed, rounds=True, rules=s.rules)
    results, rounds = run_in_memory(study, n_jobs=s.jobs, progress=stage)
    assert rounds is not None
    shares = results["win_share"].to_numpy().reshape(-1, p)
    seats, fairness = measure.seat_fairness(shares, s.seed)
    pairs = []
    for cand in (*FIELD_LEVELS, "L4"):
        games = s.search_games if cand == "L4" else s.skill_games
        if not games:
            continue
        for opp in FIELD_LEVELS:
            table = versus(cand, opp, p, games, seed=s.seed + 1, n_jobs=s.jobs, progress=stage,
                           rules=s.rules)  # fmt: skip
            pairs.append(table.assign(candidate=cand, field=opp))
    skill = measure.skill_matrix(pd.concat(pairs, ignore_index=True))
    luck = pd.DataFrame([{"field": lvl, **_luck(s, lvl, stage)} for lvl in ("L2", "L3")])
    return Sheet(
        s, seats, fairness, skill, measure.better_wins(skill, LEVELS), luck,
        measure.decisiveness(rounds, results), measure.lead_changes(rounds),
        measure.length(results), measure.score_sources(results), read_field(s.field, p),
    )  # fmt: skip


def _luck(s: SheetSettings, level: str, stage: Progress) -> dict[str, float]:
    """Luck in a level's self-play: the deals of root seed `seed + 2`, each replayed with
    the strategies' draws of `replays` other root seeds."""
    p, rules = s.players, s.rules if s.rules is not None else Rules.make(s.players)
    spec = load_strategy(level_spec(level, p))
    seed = s.seed + 2
    y = np.empty((s.deals, s.replays, p))
    for k in range(s.replays):
        for start in range(0, s.deals, 1000):
            block = np.arange(start, min(start + 1000, s.deals))
            g = Games.new(rules, seed, block, strategy_seed=seed + 1000 + k)
            g.play([spec() for _ in range(p)], names=[level] * p)
            y[block, k] = g.results()["win_share"].to_numpy().reshape(-1, p)
            stage.update(len(block))
    return measure.luck(y, s.seed)


def read_field(report: Path | None, players: int) -> dict[str, Any]:
    """What the field study says at this player count: its Nash mixture's diversity, the
    shipped L3's certificate (`verdicts.field_status`), restricted play and the search gap
    with where L4's points come from; {} without a report."""
    if report is None:
        return {}
    report = Path(report)

    def csv(name: str) -> pd.DataFrame | None:
        path = report / f"{name}-{players}p.csv"
        return pd.read_csv(path) if path.is_file() else None

    out: dict[str, Any] = {"report": str(report)}
    mixture = csv("mixture")
    if mixture is not None:
        out["diversity"] = measure.diversity(mixture, csv("alpha_rank"))
    out["l3"] = field_status(report, players, "L3")
    restricted = csv("restricted")
    if restricted is not None:
        out["restricted"] = restricted[["strategy", "mechanism", "description", "delta", "lo",
                                        "hi", "games", "flag"]]  # fmt: skip
    gap, statues = csv("search_gap"), csv("statues")
    if gap is not None:
        out["search_gap"] = gap.iloc[0].to_dict()
    if statues is not None:  # L4's seat against L3 in the base game
        at_table = statues[(statues["games"] == "L4 seat against L3")
                           & (statues["components"] == "base")]  # fmt: skip
        out["statues"] = at_table[["who", "seats", "score", "from_statues", "from_pawns",
                                   "from_wood", "carves"]].reset_index(drop=True)  # fmt: skip
    return out


# --- the page ------------------------------------------------------------------------------------


def paragraph(sh: Sheet) -> str:
    """The sheet's paragraph for a publisher, from its tables only, with its caveats."""
    p = sh.settings.players
    seat0 = sh.seats.iloc[0]
    equal = "cannot be told apart" if sh.fairness["p_equal"] >= 0.05 else "are not equal"
    said = [
        f"At {p} players, between our strongest fixed bots (L3), seat 0 (who holds the "
        f"bird-man token before round 1) wins {text.pct(seat0['win_share'])} "
        f"[{text.pct_interval(seat0['lo'], seat0['hi'])}] of {int(seat0['games']):,} games "
        f"against a fair {text.pct(1 / p)}; the seats' shares {equal} (chi-square p "
        f"{text.p_value(sh.fairness['p_equal'])}), {text.num(100 * sh.fairness['rms'], '.1f')} "
        "points from fair on average (root mean square)."
    ]
    b = sh.better
    if b["pairs_up"]:
        said.append(
            f"Skill: a stronger level as one seat against a weaker one's copies wins more than "
            f"its share in {b['better_wins']} of {b['pairs_up']} pairings (its gain over fair "
            f"ranges from {text.points(b['gain_min'])} to {text.points(b['gain_max'])} points of "
            "win share)."
        )
    luck = sh.luck.set_index("field")
    l3, l2 = luck.loc["L3"], luck.loc["L2"]
    said.append(
        f"Luck: replaying a deal with the bots' own random draws renewed (L3), the same seat "
        f"wins {text.pct(l3['same_winner'])} of the time, against "
        f"{text.pct(l3['independent'])} for two unrelated games; the deal carries "
        f"{text.pct(l3['deal_share'], 0)} of the variance of who wins (in the L2 pool, where "
        f"each seat also draws its strategy per game, {text.pct(l2['deal_share'], 0)})."
    )
    div = sh.field.get("diversity")
    if div:
        said.append(
            f"The Nash mixture of the library's strategies (the field study's meta-game) holds "
            f"{div['support_size']} "
            f"strateg{'y' if div['support_size'] == 1 else 'ies'} ({div['support']}; effective "
            f"number {text.num(div['effective'], '.2f')})."
        )
    gap = sh.field.get("search_gap")
    statues = sh.field.get("statues")
    if gap and statues is not None and len(statues[statues["who"] == "L4"]):
        l4 = statues[statues["who"] == "L4"].iloc[0]
        said.append(
            f"Look-ahead search (L4) beats L3 by {text.points(gap['gap'])} points of win share "
            f"and takes {text.pct(l4['from_statues'], 0)} of its points from statues, "
            f"{text.pct(l4['from_pawns'], 0)} from pawns and {text.pct(l4['from_wood'], 0)} from "
            "wood."
        )
    at3 = sh.decisive[sh.decisive["round"] == 3]
    if len(at3):
        r = at3.iloc[0]
        said.append(
            f"The leader after round 3 goes on to win {text.pct(r['leader_wins'])} of games; "
            f"the lead changes {text.num(sh.lead_changes[0], '.1f')} times a game, and a game "
            f"lasts {text.num(sh.length['mean'], '.1f')} rounds."
        )
    caveats = [
        "these are games between programs, not people",
        "the card-by-card contents of the decks and tiles are assumed (only their totals are "
        "published)",
    ]
    l3: FieldStatus | None = sh.field.get("l3")
    if l3 is not None and not l3.certified and np.isfinite(l3.gain):
        caveats.append(
            f"the L3 field is not certified: {l3.who} gains {text.points(l3.gain)} points "
            "against it"
        )
    return " ".join(said) + " Caveats: " + "; ".join(caveats) + "."


def _identity(settings: dict[str, Any]) -> dict[str, Any]:
    """The `IDENTITY` part of a sheet's settings (a `SheetSettings`' fields, or sheet.json's
    `settings`), comparable across the two."""
    out = {k: settings.get(k) for k in IDENTITY}
    field_, rules = out["field"], out["rules"]
    out["field"] = None if field_ is None else os.path.normpath(str(field_))
    out["rules"] = "base" if rules is None else (rules.setup if isinstance(rules, Rules) else rules)
    return out


def check_sheet_dir(out: Path, settings: SheetSettings) -> None:
    """A sheet of `settings` may be written into `out` if it is new, empty, or holds a sheet
    of the same settings (`SheetSettings.identity`); one clear line otherwise (a sheet of
    other settings, a run or anything else is never replaced). Checked before any game."""
    out = Path(out)
    if not held_output(out, "a balance sheet"):
        return
    try:
        held = json.loads((out / "sheet.json").read_text("utf-8"))["settings"]
        if not isinstance(held, dict):
            raise TypeError(held)
    except (OSError, ValueError, KeyError, TypeError):
        raise UserError(f"{out} exists and does not hold a balance sheet: choose another --out "
                        "or remove it") from None  # fmt: skip
    have, want = _identity(held), settings.identity()
    shown = {None: "none"}
    diff = [f"{k} {shown.get(have[k], have[k])} there, {shown.get(want[k], want[k])} here"
            for k in IDENTITY if have[k] != want[k]]  # fmt: skip
    if diff:
        raise UserError(f"{out} holds a balance sheet of other settings ({'; '.join(diff)}): "
                        "choose another --out or remove it")  # fmt: skip


def write_sheet(sh: Sheet, out: Path, command: str = "") -> Path:
    """Write the sheet into `out` (replaced whole if it holds a sheet of the same settings;
    refused if it holds anything else, `check_sheet_dir`): sheet.md, sheet.html,
    tables/*.csv, figures/*.png, sheet.json."""
    out = Path(out)
    check_sheet_dir(out, sh.settings)
    tmp = out.parent / f".{out.name}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "tables").mkdir(parents=True)
    try:
        _write(sh, tmp, command)
        swap_in(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out / "sheet.md"


def _write(sh: Sheet, out: Path, command: str) -> None:
    s, p = sh.settings, sh.settings.players
    tables = {"seats": sh.seats, "skill": sh.skill, "luck": sh.luck,
              "decisiveness": sh.decisive, "sources": sh.sources}  # fmt: skip
    for k in ("restricted", "statues"):
        if k in sh.field:
            tables[k] = sh.field[k]
    for name, df in tables.items():
        df.to_csv(out / "tables" / f"{name}.csv", index=False)
    figs = {
        "seats": plots.sheet_seats(sh.seats),
        "skill": plots.sheet_skill(sh.skill, LEVELS),
        "sources": plots.sheet_sources(sh.sources, sh.field.get("statues")),
    }
    for name, fig in figs.items():
        plots.save(fig, out / "figures" / f"{name}.png")
    page = _markdown(sh, command)
    (out / "sheet.md").write_text(page)
    (out / "sheet.html").write_text(text.html_page(f"Balance sheet, {p} players", page, out))
    (out / "sheet.json").write_text(
        json.dumps(
            {
                "players": p,
                "settings": {
                    k: str(v) if isinstance(v, Path) else (v.setup if isinstance(v, Rules) else v)
                    for k, v in s.__dict__.items()
                },
            },
            indent=1,
        )
    )


def _markdown(sh: Sheet, command: str) -> str:
    s, p = sh.settings, sh.settings.players
    fair = sh.fairness
    rounds = text.estimate(sh.length["mean"], sh.length["lo"], sh.length["hi"], ".2f")
    lines = [
        f"# Balance sheet: {p} players"
        + ("" if s.rules is None or s.rules.setup == "base" else f", {s.rules.setup}"),
        "",
        f"> {paragraph(sh)}",
        "",
        f"Made {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, root seed {s.seed}. Reproduce:",
        "",
        "```sh",
        command,
        "```",
        "",
        "## Seat fairness",
        "",
        f"L3 self-play, {fair['games']:,} games: each seat's win share (a shared win split) "
        f"with its Wilson 95 % interval. Equal seats: chi-square p "
        f"{text.p_value(fair['p_equal'])}; root mean square gap from fair "
        f"{text.num(100 * fair['rms'], '.1f')} points "
        f"[{text.num(100 * fair['rms_lo'], '.1f')}, {text.num(100 * fair['rms_hi'], '.1f')}] "
        "(bootstrap over games).",
        "",
        text.markdown_table(
            pd.DataFrame(
                {
                    "seat": sh.seats["seat"],
                    "win share (95 % interval)": [
                        text.share_estimate(r["win_share"], r["lo"], r["hi"])
                        for _, r in sh.seats.iterrows()
                    ],
                    "against fair (points)": [
                        f"{text.points(r['vs_fair'])}" for _, r in sh.seats.iterrows()
                    ],
                }
            )
        ),  # fmt: skip
        "",
        "![Seat shares](figures/seats.png)",
        "",
        "## Skill",
        "",
        "Each level as one seat against copies of a level (rows: the one seat; columns: the "
        "field), seats rotated: its win share's gap from fair in points, with its 95 % interval. "
        f"L0-L3 play {s.skill_games:,} games a pairing, L4 (search) {s.search_games:,}. A "
        f"stronger level beats a weaker one's field in {sh.better['better_wins']} of "
        f"{sh.better['pairs_up']} pairings; a weaker one loses to a stronger one's field in "
        f"{sh.better['weaker_loses']} of {sh.better['pairs_down']}.",
        "",
        text.markdown_table(_skill_table(sh.skill)),
        "",
        "![Skill matrix](figures/skill.png)",
        "",
        "## Luck",
        "",
        f"{s.deals:,} deals, each replayed {s.replays} times with the strategies' own draws "
        "renewed (the same deals and chance). *Same winner*: how often two replays of a deal "
        "have the same winner, beside two unrelated games; *the deal's share*: the share of "
        "the variance of a seat's win share the deal carries (one-way random effects). In L3, "
        "a seat whose strategy draws nothing plays every replay alike.",
        "",
        text.markdown_table(
            pd.DataFrame(
                {
                    "field": sh.luck["field"],
                    "same winner (95 % interval)": [
                        text.share_estimate(
                            r["same_winner"], r["same_winner_lo"], r["same_winner_hi"]
                        )
                        for _, r in sh.luck.iterrows()
                    ],
                    "unrelated games": [text.pct(x) for x in sh.luck["independent"]],
                    "the deal's share (95 % interval)": [
                        text.share_estimate(r["deal_share"], r["deal_share_lo"], r["deal_share_hi"])
                        for _, r in sh.luck.iterrows()
                    ],
                }
            )
        ),  # fmt: skip
        "",
        *_field_sections(sh),
        "## Decisiveness and length",
        "",
        f"The lead changes {text.estimate(*sh.lead_changes, '.2f')} times a game (sole leader "
        f"between rounds); a game lasts {rounds} rounds ({sh.length['min']:.0f} to "
        f"{sh.length['max']:.0f}). How often the sole leader after each round wins:",
        "",
        text.markdown_table(
            pd.DataFrame(
                {
                    "after round": sh.decisive["round"],
                    "games with a sole leader": sh.decisive["games"],
                    "the leader wins (95 % interval)": [
                        text.share_estimate(r["leader_wins"], r["lo"], r["hi"])
                        for _, r in sh.decisive.iterrows()
                    ],
                }
            )
        ),  # fmt: skip
        "",
        "## Where the points come from",
        "",
        "Shares of the score (R8.2) from statues (Moai height), living pawns and wood, in L3 "
        "self-play (every seat, and the winners weighted by their share of the win)"
        + (
            ", and for L4 and L3 in the field study's games of one L4 seat against L3."
            if "statues" in sh.field
            else "."
        ),  # fmt: skip
        "",
        text.markdown_table(_sources_table(sh)),
        "",
        "![Score by source](figures/sources.png)",
        "",
    ]
    return "\n".join(lines)


def _skill_table(skill: pd.DataFrame) -> pd.DataFrame:
    """The skill matrix as a table: one row per one-seat level, a column per field level."""
    rows = []
    for cand, part in skill.groupby("candidate", sort=False):
        row = {"one seat": cand}
        for _, r in part.iterrows():
            interval = text.bracket(r["vs_fair_lo"], r["vs_fair_hi"], text.points)
            row[f"vs {r['field']}"] = f"{text.points(r['vs_fair'])} {interval}"
        rows.append(row)
    return pd.DataFrame(rows)


def _sources_table(sh: Sheet) -> pd.DataFrame:
    rows = [{"who": f"L3 self-play, {r['who']}", **_parts(r)} for _, r in sh.sources.iterrows()]
    statues = sh.field.get("statues")
    if statues is not None:
        rows += [{"who": f"{r['who']} (L4 seat against L3)", **_parts(r)}
                 for _, r in statues.iterrows()]  # fmt: skip
    return pd.DataFrame(rows)


def _parts(r: pd.Series) -> dict[str, str]:
    return {k: text.pct(r[f"from_{k}"], 0) for k in ("statues", "pawns", "wood")}


def _field_sections(sh: Sheet) -> list[str]:
    """Diversity and mechanism value, from the field study (or a note that none was read)."""
    f = sh.field
    if not f:
        return ["## Strategic diversity and mechanisms", "",
                "No field study was read (`--field`): the Nash mixture, alpha-Rank and "
                "restricted play are not shown.", ""]  # fmt: skip
    out = ["## Strategic diversity", ""]
    div = f.get("diversity")
    if div:
        out += [
            f"The Nash mixture of the library (field study `{f['report']}`): {div['support']} "
            f"({div['support_size']} strateg{'y' if div['support_size'] == 1 else 'ies'}, "
            "effective number "
            f"{text.num(div['effective'], '.2f')}, the exponential of its entropy)."
            + (f" alpha-Rank at alpha {div['alpha']:g} puts {div['alpha_leader']} first "
               f"({text.pct(div['alpha_mass'])} of the mass)." if "alpha" in div else ""),
            "",
        ]  # fmt: skip
    l3: FieldStatus = f["l3"]
    if np.isfinite(l3.gain):
        out += [f"The shipped L3 is {'certified' if l3.certified else 'not certified'}: its best "
                f"challenger ({l3.who}) gains {text.points(l3.gain)} "
                f"{text.bracket(l3.lo, l3.hi, text.points)} points of win share.", ""]  # fmt: skip
    if "restricted" in f:
        r = f["restricted"]
        out += [
            "## Mechanism value", "",
            "The strongest strategy forbidden one mechanism, against the field: the change in "
            "its win share (points, 95 % interval). A mechanism whose loss costs much carries "
            "the game.", "",
            text.markdown_table(pd.DataFrame({
                "strategy": r["strategy"], "forbidden": r["description"],
                "change (points)": [f"{text.points(x['delta'])} "
                                    f"{text.bracket(x['lo'], x['hi'], text.points)}"
                                    for _, x in r.iterrows()],
                "games": r["games"], "verdict": r["flag"],
            })), "",
        ]  # fmt: skip
    return out
