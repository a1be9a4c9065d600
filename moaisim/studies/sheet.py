"""`moaisim sheet`: a balance sheet for one player count, on one page a publisher can read.

It plays four sets of games and reads a field study's report (`--field`):

1. the strongest fixed field's self-play (L3, the shipped Nash mixture): seat fairness over
   every seat, decisiveness (the leader after each round), length and where the points come
   from (`analysis.sheet`);
2. the skill matrix: each level L0-L3 as one seat against copies of each level, seats rotated
   (`studies.versus`), and look-ahead search (L4) as one seat against each of them with fewer
   games (its decisions cost about 0.10 s of CPU per game);
3. luck: the same deals replayed with the strategies' own draws renewed (`Games.new`'s
   `strategy_seed`), in the L2 pool (each seat draws its strategy per game) and in L3;
4. the check field: L4 self-play (search in every seat) on the first `check_games` deals of
   the L3 self-play, each headline measure of L3 beside L4's on the same deals with the
   paired difference, so the page says whether each finding holds under search play (and,
   on a comparison sheet, whether the set-up's effect does);

and from the field study (the base game's): strategic diversity (the Nash mixture,
alpha-Rank), mechanism value (restricted play: the strongest strategy without each mechanism)
and where strong play's points come from (L4 against L3).

A sheet plays any set-up (`SheetSettings.rules`: variants, rule options and parameters, a
component file) and names it everywhere; with `SheetSettings.against` it also plays another
set-up's self-play and luck replays on the same root seeds and sets the two side by side,
each headline measure with the paired difference and its interval (`analysis.sheet.compare`).
`write_sheet` writes sheet.md, sheet.html, a CSV per table and the figures; its paragraph for
a publisher is generated from the tables in plain words, with its caveats.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
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
from moaisim.analysis.verdicts import (
    FieldStatus,
    field_game,
    field_status,
    said,
    seat_share_metric,
)
from moaisim.checks import SEEDS, check_count, check_seed
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_game, swap_in
from moaisim.games import load_game
from moaisim.games.base import RulesLike
from moaisim.progress import Progress
from moaisim.registry import level_spec, load_strategy
from moaisim.rundir import recorded_game
from moaisim.runner import check_jobs, make_study, run_in_memory
from moaisim.studies.versus import search_seconds, versus

#: The levels of the skill matrix's fields (L4, search, plays only as the one seat).
FIELD_LEVELS = ("L0", "L1", "L2", "L3")
#: CPU seconds per game and seat of the fixed levels, for the up-front estimate (thousands
#: of games per second; search's cost is `versus.search_seconds`).
SECONDS_PER_GAME = 0.0006
#: The most games a sheet plays of each kind (L3 self-play, each skill pairing: kept in
#: memory with their per-round tables), of search's pairings (about 0.10 s of CPU a game)
#: and deals for luck (each replay's shares are held at once).
MAX_GAMES = 1_000_000
MAX_SEARCH_GAMES = 10_000
MAX_DEALS = 100_000
#: A sheet plays root seeds `seed` to `seed + SEED_SPAN - 1` (luck's replays the last).
SEED_SPAN = 1052
#: The settings a sheet's numbers depend on (all but the jobs), its game first: a sheet
#: replaces only a sheet of the same ones (never another game's).
IDENTITY = ("game", "players", "games", "skill_games", "search_games", "deals", "replays",
            "seed", "field", "rules", "against", "check_games")  # fmt: skip
#: The luck replays' levels: the L2 pool (each seat draws its strategy per game) and L3.
LUCK_LEVELS = ("L2", "L3")


@dataclass(frozen=True)
class SheetSettings:
    """What a sheet plays: games of L3 self-play, games per skill pairing (and per L4
    pairing: 0 leaves search out), deals and replays of each for luck, the root seed, the
    field study's report, the jobs, the rules played (None: the base game) and the rules
    it is compared with on the same deals (None: no comparison)."""

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
    rules: RulesLike | None = None
    #: the rules the sheet puts beside them on the same deals (a comparison sheet), or None
    against: RulesLike | None = None
    #: the game played (`moaisim.games`; given rules are of it)
    game: str = dataclasses.field(kw_only=True)
    #: games of L4 self-play, the check field: the L3 self-play's first deals, at most
    #: `games` of them (0: none; `moaisim sheet` plays 100 by default)
    check_games: int = 0

    def check(self) -> SheetSettings:
        """The settings, checked (one clear line per mistake)."""
        if isinstance(self.players, bool) or self.players not in (2, 3, 4, 5):
            raise UserError(f"players must be from 2 to 5, got {self.players!r}")
        check_count(self.games, "games", 10, MAX_GAMES)
        check_count(self.skill_games, "skill games", 10, MAX_GAMES)
        check_count(self.search_games, "search games", 0, MAX_SEARCH_GAMES)
        check_count(self.check_games, "check games", 0, MAX_SEARCH_GAMES)
        if self.check_games == 1:
            raise UserError("check games must be 0 (none) or at least 2 (a paired interval)")
        check_count(self.deals, "deals", 2, MAX_DEALS)
        check_count(self.replays, "replays", 2, 50)
        check_seed(self.seed)
        if self.seed > SEEDS - SEED_SPAN:
            raise UserError(f"seed must be at most 2**64-{SEED_SPAN} (a sheet plays root seeds "
                            f"seed to seed + {SEED_SPAN - 1}), got {self.seed}")  # fmt: skip
        check_jobs(self.jobs)
        for r in (self.rules, self.against):
            if r is not None and r.game != self.game:
                raise UserError(f"the rules are of the game {r.game!r}, the sheet of {self.game!r}")
        if self.rules is not None and self.rules.players != self.players:
            raise UserError(f"the rules are for {self.rules.players} players, not {self.players}")
        if self.against is not None and self.against.players != self.players:
            raise UserError(f"the rules compared with are for {self.against.players} players, "
                            f"not {self.players}")  # fmt: skip
        if self.field is not None and not (Path(self.field) / "report.md").is_file():
            raise UserError(f"{self.field} is not a field study's report (no report.md)")
        if self.field is not None:  # another game's field study: one line
            check_game(field_game(self.field), self.game, self.field, "a field study's report")
        return self

    @property
    def checked(self) -> int:
        """Games of L4 self-play played: `check_games`, at most `games` (the L3 self-play's
        first deals)."""
        return min(self.check_games, self.games)

    def identity(self) -> dict[str, Any]:
        """What the sheet's numbers depend on (`IDENTITY`: every setting but the jobs), as
        sheet.json records it: the field study's directory as given, the rules by their
        set-up ('base' for the base game), the rules compared with by theirs (None: no
        comparison)."""
        return _identity(self.__dict__)

    def seconds(self) -> float:
        """About how many CPU seconds the sheet plays (the up-front estimate)."""
        p = self.players
        cheap = (self.games + self.skill_games * len(FIELD_LEVELS) ** 2
                 + 2 * self.deals * self.replays) * SECONDS_PER_GAME * p  # fmt: skip
        cost = search_seconds(self.game, p)
        search = self.search_games * len(FIELD_LEVELS) * cost
        setups = 1 if self.against is None else 2
        check = self.checked * p * cost * setups  # every seat searches
        compared = 0 if self.against is None else (self.games + 2 * self.deals * self.replays)
        return cheap + compared * SECONDS_PER_GAME * p + search + check

    @property
    def played(self) -> RulesLike:
        """The rules the sheet plays (the base game's when `rules` is None)."""
        return (self.rules if self.rules is not None
                else load_game(self.game).make_rules(self.players))  # fmt: skip

    @property
    def setup(self) -> str:
        """The set-up's label (`Rules.setup`): 'base', 'fixed-disasters', 'short,
        wood_supply=10'."""
        return "base" if self.rules is None else self.rules.setup

    def name(self) -> str:
        """The sheet's folder name: sheet-<P>p for the base game, <set-up>-<P>p for another
        set-up, <set-up>-vs-<other>-<P>p for a comparison sheet (a set-up's label made a
        file name: 'short+fixed-disasters-wood_supply=10')."""
        if self.against is None and self.setup == "base":
            return f"sheet-{self.players}p"
        name = _file_name(self.setup)
        if self.against is not None:
            name += f"-vs-{_file_name(self.against.setup)}"
        return f"{name}-{self.players}p"


def _file_name(setup: str) -> str:
    """A set-up's label as part of a folder name: any run of other characters than
    letters, digits and + . _ = made one '-'."""
    return re.sub(r"[^A-Za-z0-9+._=]+", "-", setup).strip("-")


def in_words(rules: Any | None) -> str:
    """The set-up in words, for the page's sentences: 'the base game', 'the
    fixed-disasters variant', 'the set-up fixed-disasters, wood_supply=10'."""
    if rules is None or rules.setup == "base":
        return "the base game"
    if rules.differences() == [rules.variant]:
        return f"the {rules.variant} variant" + ("s" if "+" in rules.variant else "")
    return f"the set-up {rules.setup}"


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
    #: beside `settings.against` on the same deals (`analysis.sheet.compare`), or None
    compare: pd.DataFrame | None = None
    #: the check field (`check_games` > 0): L4's headline measures beside L3's on the same
    #: deals (`analysis.sheet.compare`, L4 as the set-up), L4's seats and seat fairness, and
    #: on a comparison sheet the set-up beside the other under L4; None without it
    check: pd.DataFrame | None = None
    check_seats: pd.DataFrame | None = None
    check_fairness: dict[str, float] | None = None
    check_compare: pd.DataFrame | None = None


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
    compared = 0 if s.against is None else s.games + len(LUCK_LEVELS) * s.deals * s.replays
    check = s.checked * (1 if s.against is None else 2)
    return (s.games + s.skill_games * len(FIELD_LEVELS) ** 2
            + s.search_games * len(FIELD_LEVELS) + len(LUCK_LEVELS) * s.deals * s.replays
            + compared + check)  # fmt: skip


def play_sheet(settings: SheetSettings, progress: Progress | None = None) -> Sheet:
    """Play a sheet's games and read its field study (the module's docstring); with
    `settings.against`, also the compared set-up's self-play and luck replays on the same
    root seeds, and the paired comparison."""
    s = settings.check()
    p, stage = s.players, _Stage(progress)
    results, rounds = _self_play(s, s.rules, stage)
    shares = results["win_share"].to_numpy().reshape(-1, p)
    seats, fairness = measure.seat_fairness(shares, s.seed)
    pairs = []
    for cand in (*FIELD_LEVELS, "L4"):
        games = s.search_games if cand == "L4" else s.skill_games
        if not games:
            continue
        for opp in FIELD_LEVELS:
            table = versus(cand, opp, p, games, seed=s.seed + 1, n_jobs=s.jobs, progress=stage,
                           rules=s.rules, game=s.game)  # fmt: skip
            pairs.append(table.assign(candidate=cand, field=opp))
    skill = measure.skill_matrix(pd.concat(pairs, ignore_index=True))
    replays = {lvl: _replays(s, s.played, lvl, stage) for lvl in LUCK_LEVELS}
    luck = pd.DataFrame([{"field": lvl, **measure.luck(y, s.seed)} for lvl, y in replays.items()])
    compare = None
    if s.against is not None:
        other, other_rounds = _self_play(s, s.against, stage)
        games_of = (measure.per_game(results, rounds), measure.per_game(other, other_rounds))
        luck_of = {lvl: (y, _replays(s, s.against, lvl, stage)) for lvl, y in replays.items()}
        compare = measure.compare(games_of, luck_of, s.seed, seat_share(s.game))
    sheet = Sheet(
        s, seats, fairness, skill, measure.better_wins(skill, load_game(s.game).LEVELS), luck,
        measure.decisiveness(rounds, results), measure.lead_changes(rounds),
        measure.length(results), measure.score_sources(results), read_field(s.field, p, s.game),
        compare,
    )  # fmt: skip
    if s.checked:
        _check(sheet, results, rounds, stage)
    return sheet


def _check(sh: Sheet, results: pd.DataFrame, rounds: pd.DataFrame, stage: Progress) -> None:
    """The check field: L4 self-play on the L3 self-play's first `checked` deals, its
    headline measures beside L3's on those deals (paired), its seats, and on a comparison
    sheet the set-up beside the other under L4 (the same deals again)."""
    s, n = sh.settings, sh.settings.checked
    l4, l4_rounds = _self_play(s, s.rules, stage, "L4", n)
    first = results[results["game"] < n]
    first_rounds = rounds[rounds["game"] < n]
    mine = measure.per_game(l4, l4_rounds)
    sh.check = measure.compare(
        (mine, measure.per_game(first, first_rounds)), {}, s.seed, seat_share(s.game)
    )
    shares = l4.sort_values(["game", "seat"])["win_share"].to_numpy()
    sh.check_seats, sh.check_fairness = measure.seat_fairness(shares.reshape(-1, s.players),
                                                              s.seed)  # fmt: skip
    if s.against is not None:
        other, other_rounds = _self_play(s, s.against, stage, "L4", n)
        sh.check_compare = measure.compare((mine, measure.per_game(other, other_rounds)), {},
                                           s.seed, seat_share(s.game))  # fmt: skip


def _self_play(
    s: SheetSettings,
    rules: RulesLike | None,
    stage: Progress,
    level: str = "L3",
    games: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A level's self-play under `rules` (L3 by default): games 0 to `games - 1` (the
    sheet's `games` by default) of root seed `seed`, with the per-round table (two set-ups'
    or two levels' games pair up: the same deals)."""
    p = s.players
    study = make_study(p, s.games if games is None else games, {p: [level]}, seed=s.seed,
                       rounds=True, rules=rules, game=s.game)  # fmt: skip
    results, rounds = run_in_memory(study, n_jobs=s.jobs, progress=stage)
    assert rounds is not None
    return results, rounds


def _replays(s: SheetSettings, rules: RulesLike, level: str, stage: Progress) -> np.ndarray:
    """Luck in a level's self-play: the deals of root seed `seed + 2`, each replayed with
    the strategies' draws of `replays` other root seeds: the win shares [D, K, P]."""
    p = s.players
    Games = load_game(rules.game).Games  # noqa: N806
    spec = load_strategy(level_spec(level, p, rules.game), rules.game)
    seed = s.seed + 2
    y = np.empty((s.deals, s.replays, p))
    for k in range(s.replays):
        for start in range(0, s.deals, 1000):
            block = np.arange(start, min(start + 1000, s.deals))
            g = Games.new(rules, seed, block, strategy_seed=seed + 1000 + k)
            g.play([spec() for _ in range(p)], names=[level] * p)
            y[block, k] = g.results()["win_share"].to_numpy().reshape(-1, p)
            stage.update(len(block))
    return y


def read_field(report: Path | None, players: int, game: str) -> dict[str, Any]:
    """What the field study says at this player count: its Nash mixture's diversity, the
    shipped L3's certificate (`verdicts.field_status`), restricted play and the search gap
    with where L4's points come from (the strong-play table, under the game's headline part:
    `_part`); {} without a report."""
    if report is None:
        return {}
    report = Path(report)
    check_game(field_game(report), game, report, "a field study's report")

    def csv(name: str) -> pd.DataFrame | None:
        path = report / f"{name}-{players}p.csv"
        return pd.read_csv(path) if path.is_file() else None

    out: dict[str, Any] = {"report": str(report)}
    mixture = csv("mixture")
    if mixture is not None:
        out["diversity"] = measure.diversity(mixture, csv("alpha_rank"))
    out["l3"] = field_status(report, players, "L3", game)
    restricted = csv("restricted")
    if restricted is not None:
        out["restricted"] = restricted[["strategy", "mechanism", "description", "delta", "lo",
                                        "hi", "games", "flag"]]  # fmt: skip
    spec = load_game(game)
    part = spec.INFO.vocabulary["headline_part"]
    gap, strong = csv("search_gap"), csv(part)
    if gap is not None:
        out["search_gap"] = gap.iloc[0].to_dict()
    if strong is not None:  # L4's seat against L3 in the base game
        at_table = strong[(strong["games"] == "L4 seat against L3")
                          & (strong["components"] == "base")]  # fmt: skip
        shares = [f"from_{k}" for k in spec.INFO.score_parts]
        out[part] = at_table[["who", "seats", "score", *shares, "carves"]].reset_index(drop=True)
    return out


# --- the page ------------------------------------------------------------------------------------


def _pair(skill: pd.DataFrame, candidate: str, field_level: str) -> pd.Series | None:
    """The skill matrix's row of one `candidate` seat among copies of `field_level`."""
    row = skill[(skill["candidate"] == candidate) & (skill["field"] == field_level)]
    return row.iloc[0] if len(row) else None


def _share(x: float, lo: float, hi: float) -> str:
    """A share with its 95 % interval in words a playtester reads: "20.7 % (20.1 %-21.3 %)"."""
    return f"{text.pct(x)} ({text.pct_interval(lo, hi)})"


#: How far from chance (points of share) a replay's same-winner interval must reach before
#: the cards dealt are said to weigh on who wins, not to weigh "a little" on it.
LITTLE_LUCK = 0.05


def luck_said(l3: pd.Series, weaker: pd.Series | None, p: int) -> str:
    """Luck in words a playtester reads correctly: how often a weaker bot still wins among
    ours, and how often a replayed deal (the same cards and draws) has the same winner
    beside two unrelated games. Not "the deal explains x %", which reads as "x % luck"."""
    said = []
    if weaker is not None:
        said.append(f"one weaker bot among ours still wins "
                    f"{_share(weaker['win_share'], weaker['lo'], weaker['hi'])}")  # fmt: skip
    same, lo, hi, free = (float(l3[k]) for k in ("same_winner", "same_winner_lo",
                                                 "same_winner_hi", "independent"))  # fmt: skip
    if l3["deal_share"] >= 1 - 1e-9:
        weight = ("by construction: every replay of a deal ended alike, since the L3 seats "
                  "draw nothing at this count")  # fmt: skip
    elif lo <= free <= hi:
        weight = "the cards dealt alone hardly decide who wins"
    else:  # the interval leaves chance out: how far it can reach from chance says how much
        far = max(abs(lo - free), abs(hi - free)) >= LITTLE_LUCK
        verb = ("weigh on" if far else "weigh a little on") if same > free else (
            "work against" if far else "work a little against")  # fmt: skip
        weight = f"the cards dealt {verb} who wins"
    said.append(f"a deal replayed with the same cards and draws has the same winner "
                f"{_share(same, lo, hi)} of the time, against {text.pct(free)} for two "
                f"unrelated games: {weight}")  # fmt: skip
    return ". ".join(x[:1].upper() + x[1:] for x in said)


def largest_change(compare: pd.DataFrame) -> pd.Series | None:
    """A comparison sheet's largest paired change over its games: of the shares whose 95 %
    interval leaves 0 out (seat 0's and the leader's aside, said on their own), the largest
    in points; else
    the measure in other units whose interval is farthest from 0 relative to its width."""
    rows = compare[(compare["over"] == "games") & ~compare["key"].isin(["seat0", "leader_wins"])]
    moved = rows[(rows["lo"] > 0) | (rows["hi"] < 0)]
    if moved.empty:
        return None
    shares = moved[moved["unit"] == "share"]
    if len(shares):
        return shares.loc[shares["diff"].abs().idxmax()]
    z = moved["diff"].abs() / (moved["hi"] - moved["lo"]).clip(lower=1e-12)
    return moved.loc[z.idxmax()]


def seat_share(game: str) -> str:
    """Seat 0's win share in the game's words ("the first bird-man's win share"), as every
    box, check and headline names it."""
    return said(seat_share_metric(load_game(game)))


def _change_said(row: pd.Series) -> str:
    """A paired change in words: "the share of the points from statues goes from 46.4 % to
    48.2 % (+1.8 points, +1.7 to +2.0)"."""
    if row["unit"] == "share":
        return (f"the {row['measure']} goes from {text.pct(row['against'])} to "
                f"{text.pct(row['setup'])} ({text.points(row['diff'])} points, "
                f"{text.points_interval(row['lo'], row['hi'])})")  # fmt: skip
    return (f"the {row['measure']} goes from {text.num(row['against'], '.2f')} to "
            f"{text.num(row['setup'], '.2f')} ({text.num(row['diff'], '+.2f')}, "
            f"{text.num(row['lo'], '+.2f')} to {text.num(row['hi'], '+.2f')})")  # fmt: skip


def paragraph(sh: Sheet) -> str:
    """The sheet's paragraph for a publisher: plain words (no test statistics, no internal
    names), from its tables only, every estimate with its 95 % interval or its number of
    games, luck in a playtester's words (`luck_said`), a comparison's largest paired change
    (`largest_change`), with its caveats. The rest of the page keeps the technical detail."""
    s, p = sh.settings, sh.settings.players
    words = load_game(s.game).INFO.vocabulary
    seat0, others = sh.seats.iloc[0], sh.seats.iloc[1:]
    where = in_words(s.rules).removeprefix("the ").removeprefix("set-up ")
    lead = (f"At {p} players ({where}), in {int(seat0['games']):,} games between our strongest "
            f"fast bots (level L3), {words['seat_zero_player']} wins "
            f"{_share(seat0['win_share'], seat0['lo'], seat0['hi'])} against a fair "
            f"{text.pct(1 / p)} (in brackets, here and below: 95 % intervals)")  # fmt: skip
    if p > 2 and sh.compare is None:  # a comparison sheet's words go to the comparison
        lo, hi = others["win_share"].min(), others["win_share"].max()
        half = float(((others["hi"] - others["lo"]) / 2).max())
        lead += (f"; the others win {text.pct(lo)} to {text.pct(hi)} (each within "
                 f"±{text.points(half, sign=False)} points)")  # fmt: skip
    said = [lead + "."]
    up, down = _pair(sh.skill, "L3", "L2"), _pair(sh.skill, "L2", "L3")
    if up is not None:
        said.append(f"One of ours among weaker bots (level L2) wins "
                    f"{_share(up['win_share'], up['lo'], up['hi'])}.")  # fmt: skip
    said.append(luck_said(sh.luck.set_index("field").loc["L3"], down, p) + ".")
    c = None if sh.compare is None else sh.compare.set_index("key", drop=False)
    if c is None:
        at3 = sh.decisive[sh.decisive["round"] == measure.LEADER_ROUND]
        if len(at3):
            r3 = at3.iloc[0]
            said.append(f"The leader after round {measure.LEADER_ROUND} wins "
                        f"{_share(r3['leader_wins'], r3['lo'], r3['hi'])} of games; a game "
                        f"lasts {text.num(sh.length['mean'], '.1f')} rounds on average "
                        f"({text.num(sh.length['lo'], '.2f')}-"
                        f"{text.num(sh.length['hi'], '.2f')}).")  # fmt: skip
    else:
        assert s.against is not None
        seat, lead = c.loc["seat0"], c.loc["leader_wins"]
        said.append(
            f"Beside {in_words(s.against)} on the same deals, that player's share moves by "
            f"{text.points(seat['diff'])} points "
            f"({text.points_interval(seat['lo'], seat['hi'])}), and the leader after round "
            f"{measure.LEADER_ROUND} wins {text.pct(lead['setup'])} instead of "
            f"{text.pct(lead['against'])} ({text.points(lead['diff'])} points, "
            f"{text.points_interval(lead['lo'], lead['hi'])})."
        )
        big = largest_change(sh.compare)
        if big is not None:
            said.append(f"The largest change on the same deals: {_change_said(big)}.")
    caveats = ["these are programs, not people", "card contents are assumed"]
    if s.setup != "base":
        caveats.append("ours were tuned for the base game")
    status: FieldStatus | None = sh.field.get("l3")
    if status is not None and not status.certified and np.isfinite(status.gain):
        there = "" if s.setup == "base" else " there"
        if np.isfinite(status.lo) and status.lo > 0:
            caveats.append(f"a better-tuned bot wins {text.points(status.gain, False)} "
                           f"percentage points above its fair share against ours{there} "
                           f"({text.points_interval(status.lo, status.hi)})")  # fmt: skip
        else:  # no challenger is shown to gain: say only how much one might
            caveats.append(f"no better-tuned bot is shown to beat ours, but one might win up to "
                           f"{text.points(status.hi, False)} percentage points above its fair "
                           f"share{there}")  # fmt: skip
    return " ".join(said) + " Caveats: " + "; ".join(caveats) + "."


def _is_rules(value: Any) -> bool:
    """A rules object (any game's), not its set-up's label read back from sheet.json."""
    return isinstance(value, RulesLike)


def _identity(settings: dict[str, Any]) -> dict[str, Any]:
    """The `IDENTITY` part of a sheet's settings (a `SheetSettings`' fields, or sheet.json's
    `settings`), comparable across the two."""
    out = {k: settings.get(k) for k in IDENTITY}
    field_, rules = out["field"], out["rules"]
    out["field"] = None if field_ is None else os.path.normpath(str(field_))
    out["rules"] = "base" if rules is None else (rules.setup if _is_rules(rules) else rules)
    against = out["against"]  # None: no comparison (and a sheet.json made before one could be)
    out["against"] = against.setup if _is_rules(against) else against
    out["check_games"] = out["check_games"] or 0  # None: a sheet.json made before the check field
    out["game"] = recorded_game(out["game"])  # None: a sheet.json made before games had names
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
    check_game(have["game"], want["game"], out, "a balance sheet")  # never replaced by another's
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


def title(sh: Sheet) -> str:
    """The sheet's title: its player count and set-up (and the one compared with)."""
    s = sh.settings

    def named(setup: str) -> str:
        return "the base game" if setup == "base" else setup

    head = f"Balance sheet: {s.players} players, {named(s.setup)}"
    return head if s.against is None else f"{head}, beside {named(s.against.setup)}"


def length_table(sh: Sheet) -> pd.DataFrame:
    """The game's length and its lead changes, one row each, with their 95 % intervals (the
    shortest and longest game beside the length): what `moaisim atlas` reads of a sheet."""
    changes, lo, hi = sh.lead_changes
    n = sh.length
    return pd.DataFrame([
        {"measure": "rounds", "mean": n["mean"], "lo": n["lo"], "hi": n["hi"], "min": n["min"],
         "max": n["max"]},
        {"measure": "lead changes", "mean": changes, "lo": lo, "hi": hi},
    ])  # fmt: skip


def _write(sh: Sheet, out: Path, command: str) -> None:
    s, p = sh.settings, sh.settings.players
    tables = {"seats": sh.seats, "skill": sh.skill, "luck": sh.luck,
              "decisiveness": sh.decisive, "sources": sh.sources,
              "length": length_table(sh)}  # fmt: skip
    if sh.compare is not None:
        tables["compare"] = sh.compare
    for name in ("check", "check_seats", "check_compare"):
        if getattr(sh, name) is not None:
            tables[name] = getattr(sh, name)
    for k in ("restricted", _part(sh)):
        if k in sh.field:
            tables[k] = sh.field[k]
    for name, df in tables.items():
        df.to_csv(out / "tables" / f"{name}.csv", index=False)
    figs = {
        "seats": plots.sheet_seats(sh.seats, sh.settings.game),
        "skill": plots.sheet_skill(sh.skill, load_game(sh.settings.game).LEVELS),
        "sources": plots.sheet_sources(sh.sources, sh.field.get(_part(sh)), sh.settings.game),
    }
    for name, fig in figs.items():
        plots.save(fig, out / "figures" / f"{name}.png")
    page = _markdown(sh, command)
    (out / "sheet.md").write_text(page)
    (out / "sheet.html").write_text(text.html_page(title(sh), page, out))
    settings = {k: str(v) if isinstance(v, Path) else (v.setup if _is_rules(v) else v)
                for k, v in s.__dict__.items()}  # fmt: skip
    (out / "sheet.json").write_text(
        json.dumps(
            {GAME_KEY: s.game, "players": p, "title": title(sh), "settings": settings}, indent=1
        )
    )


def _markdown(sh: Sheet, command: str) -> str:
    s = sh.settings
    fair, words = sh.fairness, in_words(s.rules)
    said = load_game(s.game).INFO.vocabulary
    rounds = text.estimate(sh.length["mean"], sh.length["lo"], sh.length["hi"], ".2f")
    played = f"The set-up played: {words}" + (
        f" ({s.setup}: `moaisim variants` lists what it changes)." if s.setup != "base" else "."
    )
    if s.against is not None:
        played += (f" Beside it, on the same deals (the same root seeds), {in_words(s.against)}: "
                   "its L3 self-play and luck replays (the section below).")  # fmt: skip
    lines = [
        f"# {title(sh)}",
        "",
        f"> {paragraph(sh)}",
        "",
        played,
        "",
        f"Made {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, root seed {s.seed}. Reproduce:",
        "",
        "```sh",
        command,
        "```",
        "",
        "## Seat fairness",
        "",
        f"L3 self-play in {words}, {fair['games']:,} games: each seat's win share (a shared win "
        f"split) with its Wilson 95 % interval. Equal seats: chi-square p "
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
        *_skill_section(sh),
        *_luck_section(sh),
        *_compare_section(sh),
        *_check_section(sh),
        *_field_sections(sh),
        "## Decisiveness and length",
        "",
        f"L3 self-play in {words}: the lead changes {text.estimate(*sh.lead_changes, '.2f')} "
        f"times a game (sole leader between rounds); a game lasts {rounds} rounds "
        f"({sh.length['min']:.0f} to {sh.length['max']:.0f}). How often the sole leader after "
        "each round wins:",
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
        f"Shares of the score ({said['score_rule']}) from {said['score_parts_said']}, in L3 "
        f"self-play in {words} (this sheet's {fair['games']:,} games: every seat, and the "
        "winners weighted by their share of the win)"
        + (
            f", and for L4 and L3 in the field study's own games of one L4 seat against L3 "
            f"({_base_note(s)}other games than this sheet's)."
            if _part(sh) in sh.field
            else "."
        ),  # fmt: skip
        "",
        text.markdown_table(_sources_table(sh)),
        "",
        "![Score by source](figures/sources.png)",
        "",
    ]
    return "\n".join(lines)


def _base_note(s: SheetSettings) -> str:
    """'the base game, ' where the page shows a field study's figure on a sheet of another
    set-up (the field study plays the base game)."""
    return "" if s.setup == "base" else "the base game, not this set-up; "


def _skill_section(sh: Sheet) -> list[str]:
    """The skill matrix, from this sheet's own games (L4 too: one figure per claim; the
    field study's L4 gain is shown only when this sheet leaves L4 out)."""
    s = sh.settings
    b = sh.better
    l4 = (f"L4 (look-ahead search) {s.search_games:,} (its row is this sheet's own games; the "
          "field study's figure for L4 against L3, from other games, is not repeated here)"
          if s.search_games else "L4 (look-ahead search) is not played here "
          "(`--search-games 0`)")  # fmt: skip
    gap = sh.field.get("search_gap")
    if not s.search_games and gap:
        where = "the base game" + ("" if s.setup == "base" else ", not this set-up")
        interval = text.bracket(gap["gap_lo"], gap["gap_hi"], text.points)
        l4 += (f"; the field study's own {int(gap['games']):,} games of one L4 seat against L3 "
               f"({where}) give it {text.points(gap['gap'])} {interval} points over "
               "fair")  # fmt: skip
    return [
        "## Skill",
        "",
        f"In {in_words(s.rules)}, each level as one seat against copies of a level (rows: the "
        "one seat; columns: the field), seats rotated: its win share's gap from fair in points, "
        f"with its 95 % interval. L0-L3 play {s.skill_games:,} games a pairing, {l4}. A "
        f"stronger level beats a weaker one's field in {b['better_wins']} of {b['pairs_up']} "
        f"pairings; a weaker one loses to a stronger one's field in {b['weaker_loses']} of "
        f"{b['pairs_down']}.",
        "",
        text.markdown_table(_skill_table(sh.skill)),
        "",
        "![Skill matrix](figures/skill.png)",
        "",
    ]


#: Said of a field whose replays of a deal all ended alike (no variation within a deal): its
#: seats draw nothing (one deterministic strategy), so the deal decides by construction.
_IDENTICAL_REPLAYS = (" (by construction: every replay of a deal ended alike, since the L3 "
                      "seats draw nothing at this count)")  # fmt: skip


def _luck_section(sh: Sheet) -> list[str]:
    """Luck two ways: how often a weaker bot still wins (from the skill matrix) and the
    deal's share of the variation (the replays)."""
    s, p = sh.settings, sh.settings.players
    rank = {x: k for k, x in enumerate(FIELD_LEVELS)}
    upsets = sh.skill[sh.skill["candidate"].map(rank).lt(sh.skill["field"].map(rank))]
    upsets = upsets.sort_values(["field", "candidate"], ascending=[False, False])
    return [
        "## Luck",
        "",
        f"In {in_words(s.rules)}. *A weaker bot still wins*: one seat of a weaker level among "
        f"copies of a stronger one, and the share of the games it wins against a fair "
        f"{text.pct(1 / p)} (the skill matrix's games, {s.skill_games:,} a pairing; the "
        "stronger the level, the less a win is luck).",
        "",
        text.markdown_table(pd.DataFrame({
            "one seat": upsets["candidate"], "among": upsets["field"],
            "it wins (95 % interval)": [text.share_estimate(r["win_share"], r["lo"], r["hi"])
                                        for _, r in upsets.iterrows()],
            "fair": text.pct(1 / p),
        })),
        "",
        f"*The deal's share*: {s.deals:,} deals, each replayed {s.replays} times with the same "
        "cards and draws and only the strategies' own random choices renewed; the share of the "
        "variation in which seat wins (a seat's win share) that the deal itself explains "
        "(one-way random effects: 100 % if the deal alone decided the winner, 0 % if it did not "
        "matter; it is not the share of games luck decides). *Same winner*: how often two "
        "replays of a deal have the same winner, beside two unrelated games. L2 draws each "
        "seat's strategy per game from the L2 pool; in L3, a seat whose strategy draws nothing "
        "plays every replay alike.",
        "",
        text.markdown_table(
            pd.DataFrame(
                {
                    "field": sh.luck["field"],
                    "the deal's share (95 % interval)": [
                        text.share_estimate(r["deal_share"], r["deal_share_lo"], r["deal_share_hi"])
                        for _, r in sh.luck.iterrows()
                    ],
                    "same winner (95 % interval)": [
                        text.share_estimate(
                            r["same_winner"], r["same_winner_lo"], r["same_winner_hi"]
                        )
                        for _, r in sh.luck.iterrows()
                    ],
                    "unrelated games": [text.pct(x) for x in sh.luck["independent"]],
                }
            )
        ),  # fmt: skip
        "",
    ]  # fmt: skip


def _compare_section(sh: Sheet) -> list[str]:
    """The set-up beside the one compared with, on the same deals (a comparison sheet)."""
    s, c = sh.settings, sh.compare
    if c is None or s.against is None:
        return []
    return [
        f"## Beside {in_words(s.against)}",
        "",
        f"{in_words(s.rules).capitalize()} and {in_words(s.against)} on the same deals: L3 "
        f"self-play, games 0 to {s.games - 1:,} of root seed {s.seed} in both (paired game by "
        f"game), and the luck replays of the same {s.deals:,} deals. Each measure in each, and "
        "the set-up's minus the other's (shares and their differences: in points) with its 95 % "
        "interval: a paired t "
        "interval for a mean per game, else the percentile interval of a bootstrap that "
        "resamples the pairs.",
        "",
        text.markdown_table(pd.DataFrame({
            "measure": c["measure"],
            s.setup: [_show(r["setup"], r["unit"]) for _, r in c.iterrows()],
            s.against.setup: [_show(r["against"], r["unit"]) for _, r in c.iterrows()],
            "difference (95 % interval)": [_interval(r) for _, r in c.iterrows()],
            "pairs": [f"{int(r['n']):,} {r['over']}" for _, r in c.iterrows()],
            "interval": c["method"],
        })),
        "",
    ]  # fmt: skip


def _show(x: float, unit: str, diff: bool = False) -> str:
    """A compared measure's value (or difference) in its unit: shares as percentages
    (differences in points), points of share, else a count."""
    if unit == "share":
        return text.points(x) if diff else text.pct(x)
    if unit == "points":
        return text.points(x, sign=diff)
    return text.num(x, "+.3f" if diff else ".3f")


def _interval(r: pd.Series) -> str:
    """A compared measure's difference with its 95 % interval."""
    u = r["unit"]
    return f"{_show(r['diff'], u, True)} [{_show(r['lo'], u, True)}, {_show(r['hi'], u, True)}]"


def check_summary(sh: Sheet) -> str:
    """The check field in one clause, for a report that links the sheet (a balance report):
    seat 0's win share under L4 beside L3 on the same deals, and on a comparison sheet
    whether the set-up's effect on it holds under search play; '' without a check field."""
    s, c = sh.settings, sh.check
    if c is None or "seat0" not in set(c["key"]):
        return ""
    n = s.checked
    r = c.set_index("key").loc["seat0"]
    said = (f"under search play (L4, {n:,} deals) {seat_share(s.game)} is "
            f"{_show(r['setup'], 'share')} against L3's {_show(r['against'], 'share')} on "
            "the same deals, L4 - L3 "
            f"{_interval(r)} points: "
            + {"yes": "the finding holds under search play",
               "no": "search play moves it"}.get(measure.holds_under_search(r["lo"], r["hi"]),
                                                 "not measured"))  # fmt: skip
    if sh.check_compare is not None and sh.compare is not None:
        l3, l4 = sh.compare.set_index("key"), sh.check_compare.set_index("key")
        if "seat0" in l3.index and "seat0" in l4.index:
            a, b = l3.loc["seat0"], l4.loc["seat0"]
            said += (
                f"; the set-up's effect on it (points): L3 {_interval(a)}, L4 {_interval(b)}, "
                f"{measure.effect_holds((a['lo'], a['hi']), (b['lo'], b['hi']))}"
            )
    return said


def _check_section(sh: Sheet) -> list[str]:
    """The check field: does each finding of L3 self-play hold under search play?"""
    s, c = sh.settings, sh.check
    if c is None or sh.check_seats is None or sh.check_fairness is None:
        return []
    n, words = s.checked, in_words(s.rules)
    fair = sh.check_fairness
    lines = [
        "## Under search play (L4, the check field)",
        "",
        f"L4 self-play in {words}: look-ahead search in every seat, games 0 to {n - 1:,} of "
        f"root seed {s.seed}, the first {n:,} deals of the L3 self-play above. Each headline "
        "measure in L3 and in L4 on these deals, and L4's minus L3's with its 95 % interval "
        "(paired game by game: a paired t interval for a mean per game, else a bootstrap "
        "over the pairs). A finding of L3 self-play holds under search play where that "
        f"interval holds 0; with {n:,} games only large differences show.",
        "",
        text.markdown_table(pd.DataFrame({
            "measure": c["measure"],
            f"L3 ({n:,} games)": [_show(r["against"], r["unit"]) for _, r in c.iterrows()],
            f"L4 ({n:,} games)": [_show(r["setup"], r["unit"]) for _, r in c.iterrows()],
            "L4 - L3 (95 % interval)": [_interval(r) for _, r in c.iterrows()],
            "holds under search play": [measure.holds_under_search(r["lo"], r["hi"])
                                        for _, r in c.iterrows()],
        })),
        "",
        f"Seats under search play ({n:,} games; equal seats: chi-square p "
        f"{text.p_value(fair['p_equal'])}), beside L3's {sh.fairness['games']:,} games above:",
        "",
        text.markdown_table(pd.DataFrame({
            "seat": sh.check_seats["seat"],
            "L4 win share (95 % interval)": [
                text.share_estimate(r["win_share"], r["lo"], r["hi"])
                for _, r in sh.check_seats.iterrows()],
            "L3 win share (95 % interval)": [
                text.share_estimate(r["win_share"], r["lo"], r["hi"])
                for _, r in sh.seats.iterrows()],
        })),
        "",
    ]  # fmt: skip
    if sh.check_compare is not None and sh.compare is not None and s.against is not None:
        l3 = sh.compare.set_index("key")
        rows = [(r, l3.loc[r["key"]]) for _, r in sh.check_compare.iterrows()
                if r["key"] in l3.index]  # fmt: skip
        lines += [
            f"{in_words(s.rules).capitalize()} beside {in_words(s.against)} under search play: "
            f"L4 self-play of both on the same {n:,} deals, the set-up's minus the other's "
            "(95 % interval), beside the same difference in L3 self-play (the section above, "
            f"{s.games:,} games). An effect holds under search play when both intervals leave "
            "0 out on the same side.",
            "",
            text.markdown_table(pd.DataFrame({
                "measure": [r["measure"] for r, _ in rows],
                f"in L3 ({s.games:,} games)": [_interval(b) for _, b in rows],
                f"in L4 ({n:,} games)": [_interval(r) for r, _ in rows],
                "under search play": [measure.effect_holds((b["lo"], b["hi"]), (r["lo"], r["hi"]))
                                      for r, b in rows],
            })),
            "",
        ]  # fmt: skip
    return lines


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


def _part(sh: Sheet) -> str:
    """The game's headline part: what the field study's strong-play table is named by."""
    return load_game(sh.settings.game).INFO.vocabulary["headline_part"]


def _sources_table(sh: Sheet) -> pd.DataFrame:
    names = tuple(load_game(sh.settings.game).INFO.score_parts)
    rows = [{"who": f"L3 self-play, {r['who']} (this sheet)", **_parts(r, names)}
            for _, r in sh.sources.iterrows()]  # fmt: skip
    strong = sh.field.get(_part(sh))
    if strong is not None:
        base = "" if sh.settings.setup == "base" else ", base game"
        rows += [{"who": f"{r['who']} (field study: L4 seat against L3{base}, "
                         f"{int(r['seats']):,} seats)", **_parts(r, names)}
                 for _, r in strong.iterrows()]  # fmt: skip
    return pd.DataFrame(rows)


def _parts(r: pd.Series, names: tuple[str, ...]) -> dict[str, str]:
    return {k: text.pct(r[f"from_{k}"], 0) for k in names}


def _field_sections(sh: Sheet) -> list[str]:
    """Diversity and mechanism value, from the field study (or a note that none was read);
    on a sheet of another set-up, marked as the base game's."""
    f, s = sh.field, sh.settings
    if not f:
        return ["## Strategic diversity and mechanisms", "",
                "No field study was read (`--field`): the Nash mixture, alpha-Rank and "
                "restricted play are not shown.", ""]  # fmt: skip
    of = "" if s.setup == "base" else " (the base game)"
    in_base = "The" if s.setup == "base" else "In the base game, the"
    note = ("" if s.setup == "base" else
            f"The field study plays the base game, not {in_words(s.rules)}: its figures "
            "below are the base game's. ")  # fmt: skip
    out = [f"## Strategic diversity{of}", ""]
    div = f.get("diversity")
    if div:
        out += [
            f"{note}The Nash mixture of the library (field study `{f['report']}`): "
            f"{div['support']} ({div['support_size']} "
            f"strateg{'y' if div['support_size'] == 1 else 'ies'}, effective number "
            f"{text.num(div['effective'], '.2f')}, the exponential of its entropy)."
            + (f" alpha-Rank at alpha {div['alpha']:g} puts {div['alpha_leader']} first "
               f"({text.pct(div['alpha_mass'])} of the mass)." if "alpha" in div else ""),
            "",
        ]  # fmt: skip
    l3: FieldStatus = f["l3"]
    if np.isfinite(l3.gain):
        out += [f"{in_base} shipped L3 is {'certified' if l3.certified else 'not certified'}: its "
                f"best challenger ({l3.who}) gains {text.points(l3.gain)} "
                f"{text.bracket(l3.lo, l3.hi, text.points)} points of win share against it "
                f"(measured in {l3.source or 'the field study'}; the paragraph's caveat).",
                ""]  # fmt: skip
    if "restricted" in f:
        r = f["restricted"]
        out += [
            f"## Mechanism value{of}", "",
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
