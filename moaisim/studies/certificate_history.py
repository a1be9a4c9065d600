"""A shipped mixture's certificate history (`moaisim certificate-history`): every run that
measured challengers against the mixture file, kept beside it, the largest gain first.

One certify run says what its challengers gained; the next run, with other seeds or other
families, may find a stronger one. A certificate that showed only the latest run could hide
a challenger an earlier run found (the field study of seed 7026 found CMA-ES weights gaining
+0.136 at 4 players while `nash-4p.certificate.md` still showed the first run's +0.087). So
every run is recorded in `<mixture>.certificate-history.json` beside the mixture file, and
the certificate page (`<mixture>.certificate.md`) opens with the **largest gain ever
measured** against this very file (its SHA-256), then lists every run, the largest first, then
the latest run in full. Runs against earlier versions of the file stay in the history, shown
apart: they measured another mixture.

A run is read from a certificate table (`Certificate.table()`: one row per challenger, each
family's best with its held-out gain), written by `moaisim certify` as
`certificate-<P>p.csv` and by a field study as `certificate_families-<P>p.csv`; the mixture
file the run measured is named, with the first 16 hex digits of its SHA-256, in the Markdown
beside the table (`certificate-<P>p.md`, the study's `report.md`).

A history is of one game (its `game` key, `moaisim.files.GAME_KEY`; a history written before
files named their game is Moai's), the game of its mixture file: a history beside a mixture of
another game is refused when read, and so is a run of another game (its table's `game`
column; for a table written before tables named their game, its certify state's or its field
study's `report.json`), before anything is written.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from moaisim.analysis import text
from moaisim.errors import UserError
from moaisim.files import (
    GAME_KEY,
    check_game,
    check_writable_file,
    game_in_file,
    read_text,
    shipped,
    shown,
    write_atomic,
)
from moaisim.registry import file_game
from moaisim.rundir import recorded_game
from moaisim.weight_files import named_weights

#: How a certificate's Markdown names the mixture file it measured: its path, then the first
#: 16 hex digits of its SHA-256 (`certify.section`).
_NAMED = re.compile(r"`([^`]+\.toml)` \(SHA-256 `([0-9a-f]{16})`\)")


@dataclass
class FamilyBest:
    """One family's best challenger in a run, measured on held-out games."""

    family: str
    challengers: int
    challenger: str
    gain: float  # screened
    held_out_gain: float
    held_out_lo: float
    held_out_hi: float
    held_out_games: int


@dataclass
class Run:
    """One run's measure of the mixture: where it is kept, when it was recorded, the
    mixture's digest (16 hex digits) and epsilon, and each family's best."""

    source: str
    recorded: str
    digest: str
    epsilon: float
    families: list[FamilyBest] = field(default_factory=list)

    @property
    def best(self) -> FamilyBest:
        """The family best with the largest held-out gain."""
        return max(self.families, key=lambda f: f.held_out_gain)

    @property
    def certified(self) -> bool:
        """Every family's held-out upper bound is below epsilon."""
        return all(f.held_out_hi < self.epsilon for f in self.families)


@dataclass
class History:
    """Every recorded run against one mixture file (by name; each run says its digest), of
    the mixture's game."""

    mixture: str
    players: int
    runs: list[Run] = field(default_factory=list)
    #: the game of the mixture and of every run (`moaisim.files.GAME_KEY`)
    game: str = field(kw_only=True)


def history_path(mixture: str | Path) -> Path:
    """The history file beside a mixture file (`nash-3p.certificate-history.json`)."""
    m = Path(mixture)
    return m.with_name(f"{m.stem}.certificate-history.json")


def page_path(mixture: str | Path) -> Path:
    """The certificate page beside a mixture file: `nash-3p.certificate.md`."""
    m = Path(mixture)
    return m.with_name(f"{m.stem}.certificate.md")


def digest16(mixture: str | Path) -> str:
    """The first 16 hex digits of a mixture file's SHA-256 (as certificates print it)."""
    try:
        return hashlib.sha256(Path(mixture).read_bytes()).hexdigest()[:16]
    except OSError as exc:
        raise UserError(f"mixture file {str(mixture)!r}: {exc.strerror}") from None


# --- reading and writing ---------------------------------------------------------------------
def check_mixture(mixture: str | Path, game: str) -> None:
    """The mixture file is of `game` (its `game` key, or the shipped weights folder it lies
    in; a file that says neither is taken as it is), or a `UserError` naming both games."""
    check_game(file_game(mixture), game, mixture, "a mixture file")


def load(mixture: str | Path, players: int, game: str) -> History:
    """The `game` mixture's history (empty when none is recorded yet); a history of another
    game (a file beside it written for another game's mixture of that name) or a mixture
    file of another game is a `UserError` naming both games."""
    check_mixture(mixture, game)
    path = history_path(mixture)
    if not path.exists():
        return History(Path(mixture).name, players, game=game)
    try:
        data = json.loads(read_text(path, "certificate history"))
        runs = [Run(**{**r, "families": [FamilyBest(**f) for f in r["families"]]})
                for r in data["runs"]]  # fmt: skip
        # a history written before histories named their game: `recorded_game`
        got = History(data["mixture"], int(data["players"]), runs,
                      game=recorded_game(data))  # fmt: skip
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise UserError(f"{path}: not a certificate history ({exc})") from None
    check_game(got.game, game, path, "a certificate history")
    if got.players != players:
        raise UserError(f"{path} is the history of a {got.players}-player mixture, not "
                        f"{players} players")  # fmt: skip
    return got


def save(mixture: str | Path, history: History) -> Path:
    """Write the history file beside the mixture (atomically), its game first."""
    path = history_path(mixture)
    doc = asdict(history)
    data = json.dumps({GAME_KEY: doc.pop(GAME_KEY), **doc}, indent=1, allow_nan=True) + "\n"
    write_atomic(path, data.encode(), "certificate history")
    return path


def run_from_table(table: pd.DataFrame, source: str, digest: str, recorded: str | None = None
                   ) -> Run:  # fmt: skip
    """A run from a certificate table (`Certificate.table()`): each family's best, the one
    measured on held-out games. A table without any is a `UserError` (nothing measured)."""
    need = {"family", "challenger", "gain", "held_out_gain", "held_out_lo", "held_out_hi",
            "held_out_games", "epsilon"}  # fmt: skip
    missing = sorted(need - set(table.columns))
    if missing:
        raise UserError(f"{source}: not a certificate table (no column {missing[0]!r})")
    best = table[table["held_out_games"] > 0]
    if best.empty:
        raise UserError(f"{source}: no challenger was measured on held-out games yet")
    sizes = table.groupby("family", sort=False).size()
    families = [
        FamilyBest(
            str(r.family),
            int(sizes[r.family]),
            str(r.challenger),
            float(r.gain),
            float(r.held_out_gain),
            float(r.held_out_lo),
            float(r.held_out_hi),
            int(r.held_out_games),
        )  # fmt: skip
        for r in best.itertuples()
    ]
    when = recorded or datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return Run(source, when, digest, float(best["epsilon"].iloc[0]), families)


def tables_of(source: str | Path, players: int) -> tuple[Path, Path]:
    """A run's certificate table at `players` and the Markdown naming its mixture: a certify
    directory (`certificate-<P>p.csv`, `.md`), a field study's report directory
    (`certificate_families-<P>p.csv`, `report.md`), or a table file given directly (its
    Markdown: the `.md` of the same name, else `report.md` beside it)."""
    s = Path(source)
    if s.is_dir():
        for csv, md in ((f"certificate-{players}p.csv", f"certificate-{players}p.md"),
                        (f"certificate_families-{players}p.csv", "report.md")):  # fmt: skip
            if (s / csv).is_file() and (s / md).is_file():
                return s / csv, s / md
        raise UserError(f"{s}: no certificate at {players} players (neither "
                        f"certificate-{players}p.csv nor certificate_families-{players}p.csv "
                        "with its Markdown)")  # fmt: skip
    if s.suffix == ".csv" and s.is_file():
        for md in (s.with_suffix(".md"), s.parent / "report.md"):
            if md.is_file():
                return s, md
        raise UserError(f"{s}: no Markdown beside it names the mixture it measured")
    raise UserError(f"{s}: give a certify directory, a field study's report directory or a "
                    "certificate table (.csv)")  # fmt: skip


def measured_digest(md: Path, mixture_name: str) -> str:
    """The digest (16 hex digits) of the mixture file named `mixture_name` that a run's
    Markdown says it measured; a `UserError` when it names none."""
    found = {Path(name).name: d for name, d in _NAMED.findall(read_text(md, "report"))}
    if mixture_name not in found:
        raise UserError(f"{md} does not name the mixture {mixture_name} with its SHA-256")
    return found[mixture_name]


def add(mixture: str | Path, players: int, *runs: Run, game: str) -> History:
    """Record runs in the `game` mixture's history (a run of the same source and digest is
    replaced: recording a run again updates its figures and keeps the day it was first
    recorded) and save it."""
    history = load(mixture, players, game)
    for run in runs:
        same = [r for r in history.runs if (r.source, r.digest) == (run.source, run.digest)]
        if same:
            run = replace(run, recorded=same[0].recorded)
        history.runs = [r for r in history.runs
                        if (r.source, r.digest) != (run.source, run.digest)] + [run]  # fmt: skip
    save(mixture, history)
    return history


def run_of(mixture: str | Path, players: int, source: str | Path, game: str) -> Run:
    """The run kept at `source` (`tables_of`) against the `game` mixture: its table, and the
    digest its Markdown names; a run of another game (`table_game`) is a `UserError` naming
    both games."""
    csv, md = tables_of(source, players)
    try:
        table = pd.read_csv(csv)
    except (OSError, ValueError) as exc:
        raise UserError(f"{csv}: not a certificate table ({exc})") from None
    check_game(table_game(table, csv), game, csv, "a certificate table")
    digest = measured_digest(md, Path(mixture).name)
    return run_from_table(table, shown(str(csv.resolve())), digest)


def table_game(table: pd.DataFrame, csv: Path) -> str:
    """The game a certificate table is of: its `game` column; for a table written before
    tables named their game, its certify state's (`certificate-<P>p.json` beside it) or
    its field study's (`report.json` beside it), else `recorded_game`'s."""
    if GAME_KEY in table.columns:
        names = sorted({str(x) for x in table[GAME_KEY].dropna()})
        if len(names) > 1:
            raise UserError(f"{csv}: a certificate table of several games ({', '.join(names)})")
        if names:
            return names[0]
    for beside in (csv.with_suffix(".json"), csv.parent / "report.json"):
        found = game_in_file(beside) if beside.is_file() else None
        if found is not None:
            return found
    return recorded_game()


def players_of(mixture: str | Path) -> int:
    """A mixture file's player count (its `players` key), or a `UserError`."""
    try:
        doc = tomllib.loads(read_text(mixture, "mixture file"))
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"mixture file {str(mixture)!r} is not TOML ({exc})") from None
    players = doc.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise UserError(f"mixture file {str(mixture)!r} must say its player count (players = 2-5)")
    return players


def check_recordable(mixture: str | Path, game: str) -> None:
    """Before a run is recorded: the mixture file is readable and of `game`, its history (if
    any) is one, of `game`, and the history and the page can be written beside it."""
    load(mixture, players_of(mixture), game)
    for path in (history_path(mixture), page_path(mixture),
                 page_path(mixture).with_suffix(".csv")):  # fmt: skip
        check_writable_file(path, "certificate history")


# --- the page --------------------------------------------------------------------------------
def _gain(f: FamilyBest) -> str:
    return (f"{text.num(f.held_out_gain, '+.3f')} "
            f"{text.bracket(f.held_out_lo, f.held_out_hi, '+.3f')}")  # fmt: skip


def headline(history: History, digest: str) -> str:
    """One line: the largest gain ever measured against this version of the mixture, by whom
    and in which run, and whether every run certifies it."""
    mine = [r for r in history.runs if r.digest == digest]
    if not mine:
        return "no run has measured this version of the mixture yet"
    top = max(mine, key=lambda r: r.best.held_out_gain)
    b = top.best
    said = (f"{challenger_said(b.challenger)} ({b.family}) gains {_gain(b)} over "
            f"{b.held_out_games:,} held-out "
            f"games in {cited(top)}")  # fmt: skip
    eps = max(r.epsilon for r in mine)
    if all(r.certified for r in mine):
        return (f"certified at epsilon {eps:g} by {_runs(len(mine))}: the largest gain ever "
                f"measured against it is {said}")  # fmt: skip
    shown_gain = "beaten" if b.held_out_lo > 0 else "not certified"
    return (f"{shown_gain} at epsilon {eps:g}: the largest gain ever measured against it "
            f"({_runs(len(mine))}) is {said}")  # fmt: skip


#: How a page cites a run whose files were not kept (`files.shipped`): its figures are
#: the history's own.
NOT_KEPT = "a run whose files were not kept (its figures are this history's)"


def cited(run: Run, dated: bool = True) -> str:
    """A run as a page cites it: its table's path in backquotes when the checkout ships it,
    else `NOT_KEPT` (with the day it was recorded, when `dated`)."""
    if shipped(run.source):
        return f"`{run.source}`"
    return f"{NOT_KEPT[:-1]}, {run.recorded})" if dated else NOT_KEPT


def challenger_said(spec: str) -> str:
    """A challenger as a page names it: its spec in backquotes, and whether the weights file
    it names was not kept (a CMA-ES or deviation file of a run whose files were not kept)."""
    lost = [w for w in named_weights(spec) if not shipped(w)]
    return f"`{spec}`" + (" (its weights file was not kept)" if lost else "")


def _runs(n: int) -> str:
    return "1 run" if n == 1 else f"{n} runs"


def _runs_table(runs: list[Run], with_digest: bool = False) -> list[str]:
    head = "| run | recorded | families | best challenger | family | held-out gain | games |"
    rule = "| --- | --- | ---: | --- | --- | --- | ---: |"
    if with_digest:
        head, rule = head + " SHA-256 |", rule + " --- |"
    lines = [head, rule]
    for r in sorted(runs, key=lambda r: -r.best.held_out_gain):
        b = r.best
        row = (f"| {cited(r, dated=False)} | {r.recorded} | {len(r.families)} | "
               f"{challenger_said(b.challenger)} | "
               f"{b.family} | {_gain(b)} | {b.held_out_games:,} |")  # fmt: skip
        lines.append(row + (f" `{r.digest}` |" if with_digest else ""))
    return lines


def page(mixture: str | Path, history: History, latest: str = "") -> str:
    """The certificate page: the headline (largest gain ever against this version of the
    file), every run against it largest first, `latest` (the latest certify run in full, as
    `certify.section` writes it), and the runs against earlier versions."""
    digest = digest16(mixture)
    name = Path(mixture).name
    mine = [r for r in history.runs if r.digest == digest]
    older = [r for r in history.runs if r.digest != digest]
    lines = [
        f"# Certificate of {name} ({history.players} players)",
        "",
        f"Mixture file: `{shown(str(Path(mixture).resolve()))}` (SHA-256 `{digest}`). Every run "
        "that measured challengers against it is recorded in "
        f"`{history_path(mixture).name}` (`moaisim certificate-history`); a challenger's gain is "
        f"its win share minus 1/{history.players} as one seat against the mixture, seats "
        "rotated, on held-out games (95 % intervals, simultaneous over each run's families).",
        "",
        f"**{headline(history, digest)}**",
        "",
    ]
    if mine:
        lines += ["## Every run against this mixture, the largest gain first", "",
                  *_runs_table(mine), ""]  # fmt: skip
    if latest:
        lines += ["## The latest certify run", "", latest.rstrip(), ""]
    if older:
        lines += ["## Runs against earlier versions of the file", "",
                  "They measured another mixture (another SHA-256); kept for the record.", "",
                  *_runs_table(older, with_digest=True), ""]  # fmt: skip
    return "\n".join(lines)


def latest_section(mixture: str | Path) -> str:
    """The latest certify run's section of the current page (kept when a page is written
    again without a new certify run)."""
    p = page_path(mixture)
    if not p.is_file():
        return ""
    said = p.read_text("utf-8")
    start = said.find("## The latest certify run\n")
    if start < 0:
        return ""
    body = said[start + len("## The latest certify run\n") :]
    end = body.find("\n## ")
    return (body if end < 0 else body[:end]).strip() + "\n"


def write_page(mixture: str | Path, history: History, latest: str | None = None) -> Path:
    """Write the certificate page beside the mixture (`latest`: a new certify run's section;
    None keeps the page's current one)."""
    keep = latest_section(mixture) if latest is None else latest
    path = page_path(mixture)
    write_atomic(path, page(mixture, history, keep).encode(), "certificate page")
    return path
