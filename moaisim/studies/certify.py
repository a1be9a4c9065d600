"""The exploitability certificate of a shipped mixture (`moaisim certify`): every kind of
challenger, each measured against the exact mixture file.

A field such as L3 (strategies/moai/weights/nash-<P>p.toml) is only as strong as the best
strategy nobody tried against it. The certificate tries families of challengers, each one
seat against P - 1 seats of the mixture (`mixture(file=...)`, the file itself), seats rotated,
the same games for every challenger (common random numbers). A challenger's **gain** is its
win share minus the fair 1/P (a mixture seat earns 1/P against the mixture by symmetry).

Families (anchors: PSRO's diverse best-response oracles; TAG's OneStepDeviations):

- `library`: every strategy of the library pool (the game's `LEVEL_POOL`);
- `weights`: `heuristic` playing every shipped weights file of every player count;
- `files`: `heuristic` playing every known challenger file (default: every field study's
  `reports/*/challengers/*.toml` under the working directory, of this game, at any count):
  a challenger found once is tried against every later mixture;
- `learned`: every learned policy (`moaisim learn`'s model files) made for this player count:
  the shipped models (the weights folder's JSON files of the learned format, gates and
  rankers) and `reports/*/learned/*.json` (a game without a `learned`
  strategy has none);
- `restrict`: each support member with each mechanism forbidden (`restrict(member,
  forbid=[m])`, strategies/moai/restrict.py);
- `deviations`: one weight of a weight-vector member moved by `step` (x (1 +- step), or
  +- step x the weight's scale when it is 0), every weight, both ways;
- `cma`: CMA-ES best responses (`tune.tune`) to the mixture from several starts: every
  shipped weights file and `random_starts` random points.

Two stages, so that choosing the best of many does not flatter it: every challenger is
**screened** on `games` games per seat rotation (root seed `seed`; its interval adjusted for
the family's size, Bonferroni); each family's best screened challenger is then measured on
`held_out_games` fresh games per rotation (root seed `seed + 1`; intervals simultaneous over
the families). The mixture is **certified at epsilon** only if every family's held-out upper
bound is below epsilon; else the certificate names the best challenger.

Only shipped strategies can be certified (`shipped_mixture`): a member whose files are not
among the package's weights cannot be replayed by a user, so its certificate is refused.
Every measured challenger is saved as it finishes (`certificate-<P>p.json` under `out`), so a
stopped certificate resumes; the deviations' and the CMA runs' weights files are kept there.
Every file records the game (`moaisim.files.GAME_KEY`: the state's key, the table's column,
the weights files' key): a certificate of another game in `out` is refused, and so is a
mixture file of another game.
"""

from __future__ import annotations

import glob
import hashlib
import json
import math
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from moaisim.analysis import text
from moaisim.analysis.stats import LEVEL, wilson
from moaisim.engine.restrict import Restrict
from moaisim.errors import UnknownStrategyError, UserError
from moaisim.files import GAME_KEY, check_game, read_text, shown, write_atomic
from moaisim.fingerprint import play_digest
from moaisim.games import DEFAULT, load_game
from moaisim.registry import file_game, load_strategy, strategy_class
from moaisim.rundir import check_own_dir, make_dir, recorded_game
from moaisim.studies import certificate_history as history
from moaisim.studies import tune
from moaisim.weight_files import read_weights_file

#: The challenger families, in the order they are screened.
FAMILIES: tuple[str, ...] = ("library", "weights", "files", "learned", "restrict",
                             "deviations", "cma")  # fmt: skip

#: Where the `files` family finds challenger files (a glob, relative to the working directory):
#: every field study's challengers, `reports/<run>/challengers/<P>p-<family>.toml`.
CHALLENGER_FILES = "reports/*/challengers/*.toml"
#: Where the `learned` family finds model files besides the shipped ones (a glob, as above).
LEARNED_FILES = "reports/*/learned/*.json"
#: What another command leaves in its directory (a report, a balance study, a balance sheet):
#: a certificate is never written among them (`check_out`).
#: What certify itself writes into its directory: each player count's certificate and the
#: deviations' and CMA runs' folders (and the temporary files of an atomic write).
OWN_FILES = re.compile(r"certificate-[2-9]p\.(json|csv|md)|deviations|cma|\..*")


def built_in(game: str) -> str:
    """The package of a game's built-in strategies (a shipped member is one of them): its
    tunable strategy's package (the base class may live with the game's engine, Kaivai's)."""
    return load_game(game).TUNABLE.__module__.rpartition(".")[0] + "."


@dataclass(frozen=True)
class Mixture:
    """A shipped mixture file: its path, player count, members (label -> weight) and the
    SHA-256 of its bytes (what the certificate was computed against)."""

    path: Path
    players: int
    members: dict[str, float]
    digest: str
    #: the game the mixture plays
    game: str = field(kw_only=True)

    @property
    def spec(self) -> str:
        """The field's spec: the mixture file itself."""
        return f"mixture(file={str(self.path)!r})"


@dataclass
class Challenger:
    """One challenger: its family, its spec (replayable), how it was made, and its
    measured win share against the mixture (screening; then held-out for a family's best)."""

    family: str
    spec: str
    made: str
    share: float = math.nan
    games: int = 0
    held_out_share: float = math.nan
    held_out_games: int = 0


@dataclass
class Certificate:
    """The certificate at one player count: the mixture, the settings, every challenger."""

    mixture: str
    digest: str
    players: int
    epsilon: float
    games: int
    held_out_games: int
    seed: int
    families: list[str]
    challengers: list[Challenger] = field(default_factory=list)
    #: `fingerprint.play_digest()`: the members' code and weights files (a shipped `tuned`
    #: file can change while the mixture file does not)
    strategies: str = ""
    #: the game played (`moaisim.files.GAME_KEY`)
    game: str = field(kw_only=True)

    def table(self) -> pd.DataFrame:
        """One row per challenger: family, spec, screening gain with its interval adjusted
        for the family's size (Bonferroni), held-out gain with its interval simultaneous over
        the families (only for each family's best)."""
        fair = 1.0 / self.players
        rows = []
        sizes = {f: sum(c.family == f for c in self.challengers) for f in self.families}
        for c in self.challengers:
            lo, hi = wilson(c.share * c.games, c.games, 1 - (1 - LEVEL) / max(sizes[c.family], 1))
            hlo, hhi = wilson(c.held_out_share * c.held_out_games, c.held_out_games,
                              1 - (1 - LEVEL) / len(self.families))  # fmt: skip
            rows.append({
                "family": c.family, "challenger": relative(c.spec), "made": c.made,
                "gain": c.share - fair, "gain_lo": float(lo) - fair, "gain_hi": float(hi) - fair,
                "games": c.games, "held_out_gain": c.held_out_share - fair,
                "held_out_lo": float(hlo) - fair, "held_out_hi": float(hhi) - fair,
                "held_out_games": c.held_out_games, "epsilon": self.epsilon,
                GAME_KEY: self.game,
            })  # fmt: skip
        return pd.DataFrame(rows)

    def best(self) -> pd.DataFrame:
        """Each family's best challenger (the one measured on held-out games), by family."""
        t = self.table()
        return t[t["held_out_games"] > 0].set_index("family").reindex(self.families)

    @property
    def certified(self) -> bool:
        """Every family's best challenger's held-out upper bound is below epsilon."""
        best = self.best()
        return bool(best["held_out_games"].notna().all() and (best["held_out_hi"] < self.epsilon
                                                              ).all())  # fmt: skip

    def verdict(self) -> str:
        """One line: certified at epsilon, or not and by which challenger."""
        best = self.best().dropna(subset=["held_out_gain"])
        if best.empty:
            return "not measured yet"
        if self.certified:
            worst = best["held_out_hi"].max()
            return (f"certified at epsilon {self.epsilon:g}: no challenger family's upper bound "
                    f"reaches it (largest {worst:+.3f})")  # fmt: skip
        top = best.sort_values("held_out_gain", ascending=False).iloc[0]
        said = (f"{top['challenger']} ({top.name}): {top['held_out_gain']:+.3f} "
                f"{text.bracket(top['held_out_lo'], top['held_out_hi'], '+.3f')} over "
                f"{int(top['held_out_games']):,} held-out games")  # fmt: skip
        if top["held_out_lo"] > 0:
            return f"not certified at epsilon {self.epsilon:g}: beaten by {said}"
        reach = best["held_out_hi"].max()
        return (f"not certified at epsilon {self.epsilon:g}: no challenger is shown to gain, "
                f"but the upper bounds reach {reach:+.3f} (best: {said}); more held-out games "
                "would narrow them")  # fmt: skip


def relative(spec: str) -> str:
    """A spec as tables show it: paths under the working directory made relative (a
    report read on another machine names the shipped files as a checkout has them)."""
    return shown(spec)


# --- the mixture -----------------------------------------------------------------------------
def shipped_mixture(path: str | Path, game: str) -> Mixture:
    """A mixture file whose members are all shipped (built-in strategies, files among the
    package's weights), with its player count (its `players` key). Anything else is a
    `UserError` naming what cannot be replayed."""
    path = Path(path)
    check_game(file_game(path) if path.is_file() else None, game, path, "a mixture file")
    try:
        raw = path.read_bytes()
        doc = tomllib.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise UserError(f"mixture file {str(path)!r}: {exc.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"mixture file {str(path)!r} is not TOML ({exc})") from None
    entries = doc.get("mixture")
    if not isinstance(entries, dict) or not entries:
        raise UserError(f"mixture file {str(path)!r} has no [mixture] table of strategies")
    players = doc.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise UserError(f"mixture file {str(path)!r} must say its player count (players = 2-5)")
    try:
        load_strategy(f"mixture(file={str(path)!r})", game)
        members = {load_strategy(k, game).label: float(v) for k, v in entries.items()}
    except UnknownStrategyError as exc:
        raise UserError(f"mixture file {str(path)!r}: {exc}") from None
    for key in entries:
        why = _not_shipped(key, game)
        if why:
            raise UserError(f"mixture file {str(path)!r}: member {key!r} is not shipped ({why}); "
                            "a certificate is computed against shipped strategies only, so "
                            "that anyone can replay it")  # fmt: skip
    return Mixture(path.resolve(), players, members, hashlib.sha256(raw).hexdigest(), game=game)


def _not_shipped(spec: str, game: str) -> str:
    """Why a strategy spec is not shipped ('' if it is): not a built-in, or a file that is
    not among the package's weights; a wrapped strategy (`restrict`'s) is checked too."""
    loaded = load_strategy(spec, game)
    if not loaded.cls.__module__.startswith(built_in(game)):
        return f"{loaded.cls.__module__}.{loaded.cls.__name__} is not a built-in strategy"
    home = tune.weights_home(game).resolve()
    for name, value in loaded.params:
        if name == "shipped":  # heuristic(shipped=<name>): checked among the shipped files
            continue
        if name == "model" and isinstance(value, str):  # learned(model=...): a model file
            if ("/" in value or "\\" in value) and Path(value).resolve().parent != home.resolve():
                return f"{value} is not among the shipped model files ({home})"
        elif isinstance(value, str) and value.endswith(".toml"):
            if Path(value).resolve().parent != home:
                return f"{value} is not among the shipped weights ({home})"
        elif name == "strategy" and isinstance(value, str):
            why = _not_shipped(value, game)
            if why:
                return why
        elif isinstance(value, dict):  # an inline mixture: each of its members
            for key in value:
                why = _not_shipped(key, game)
                if why:
                    return why
    return ""


# --- the challengers -------------------------------------------------------------------------
def weights_files(game: str) -> list[Path]:
    """Every shipped `heuristic` weights file (the mixtures, nash-<P>p.toml, left out)."""
    home = tune.weights_home(game)
    return sorted(p for p in home.glob("*.toml") if not p.name.startswith("nash-"))


def challenger_files(pattern: str = CHALLENGER_FILES, *, game: str) -> list[Path]:
    """Every weights file matching `pattern` (a glob: relative to the working directory, or
    absolute) that is the game's: it names no other game (`registry.file_game`) and its
    weights are all among the game's names (another game's challengers, and files that are
    not weights, are left out)."""
    names = load_game(game).WEIGHT_NAMES
    mine = []
    for p in sorted(Path(f).resolve() for f in glob.glob(pattern, recursive=True)):
        try:
            if p.is_file() and file_game(p) in (None, game) and read_weights_file(p, names):
                mine.append(p)
        except (UnknownStrategyError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            continue
    return mine


def learned_files(players: int, pattern: str = LEARNED_FILES, *,
                  game: str = DEFAULT,  # transitional: tests/test_reliability_five.py names none
                  ) -> list[Path]:  # fmt: skip
    """Every learned policy's model file for `players` of the game: the shipped ones (every
    JSON file of the learned format among the weights: gates and rankers) and those matching
    `pattern` (a glob, relative to the working directory or absolute). What is no model of
    the game is left out (a game without a `learned` strategy, a JSON document of another
    format, another game's model), and so is a model of another player count; a broken model
    (one its strategy refuses, or a file that is not JSON) is a one-line `UserError` naming
    it, never dropped unsaid."""
    try:
        cls = strategy_class("learned", game)
    except UnknownStrategyError:
        return []
    home = tune.weights_home(game)
    found = {p.resolve() for p in home.glob("*.json")}  # the format says which are models
    found |= {Path(f).resolve() for f in glob.glob(pattern, recursive=True)}
    mine = []
    for p in sorted(found, key=lambda q: (q.name, str(q))):  # by name: the same order in any clone
        try:
            doc = json.loads(read_text(p, "model file"))
        except (UserError, ValueError):
            doc = None  # unreadable, or not JSON: the strategy says why, below
        # a model naming no game was written before files named theirs: a game whose
        # learned policies are newer (`UNNAMED` False) has none
        ours = (game, None) if getattr(cls, "UNNAMED", True) else (game,)
        if doc is not None and (not isinstance(doc, dict) or doc.get("format") != cls.FORMAT
                                or file_game(p) not in ours):  # fmt: skip
            continue
        try:
            inst = load_strategy(f"learned(model={str(p)!r})", game)()
        except UnknownStrategyError as exc:
            raise UserError(f"learned family: {exc}; fix or remove it, or narrow "
                            "--learned-files") from None  # fmt: skip
        try:
            inst.check_players(players)
        except UnknownStrategyError:
            continue  # a model of another player count
        mine.append(p)
    return mine


def challengers(mix: Mixture, families: Sequence[str], out: Path, step: float,
                files: str = CHALLENGER_FILES, learned: str = LEARNED_FILES
                ) -> list[Challenger]:  # fmt: skip
    """The challengers of every family but `cma` (whose come from its runs)."""
    found: list[Challenger] = []
    spec = load_game(mix.game)
    if "library" in families:
        found += [Challenger("library", load_strategy(s, mix.game).label, "the library pool")
                  for s in spec.LEVEL_POOL]  # fmt: skip
    if "weights" in families:
        for path in weights_files(mix.game):
            found.append(Challenger("weights", f"heuristic(weights={str(path)!r})",
                                    f"heuristic with the shipped {path.name}"))  # fmt: skip
    if "files" in families:
        for path in challenger_files(files, game=mix.game):
            found.append(Challenger("files", f"heuristic(weights={str(path)!r})",
                                    f"the challenger file {shown(str(path))}"))  # fmt: skip
    if "learned" in families:
        for path in learned_files(mix.players, learned, game=mix.game):
            found.append(Challenger("learned", f"learned(model={str(path)!r})",
                                    f"the learned policy {shown(str(path))}"))  # fmt: skip
    if "restrict" in families:
        for member in mix.members:
            inner, forbidden = restricted_member(member, mix.game)
            for m in spec.FORBID:
                if m in forbidden:  # the member forbids it already: the same strategy
                    continue
                names = [*sorted(forbidden), m]
                label = load_strategy(f"restrict(strategy={inner!r}, forbid={names!r})",
                                      mix.game).label  # fmt: skip
                found.append(Challenger("restrict", label, f"{member} without {m}"))
    if "deviations" in families:
        found += deviations(mix, out / "deviations", step)
    return found


def restricted_member(member: str, game: str) -> tuple[str, frozenset[str]]:
    """A member's inner strategy and its forbidden mechanisms: a `restrict(...)` member is
    widened by one more name (its own names kept), any other member restricted afresh."""
    inst = load_strategy(member, game)()
    if isinstance(inst, Restrict):
        return inst.strategy, inst.forbidden
    return member, frozenset()


def member_weights(label: str, players: int, game: str) -> dict[str, float] | None:
    """The weight vector a member plays at this player count, if it is one (an instance of
    the game's `TUNABLE` that decides as it does: heuristic, tuned and the plans; fisher's
    own logic and other strategies: None)."""
    spec = load_game(game)
    inst = load_strategy(label, game)()
    cls = spec.TUNABLE
    if not isinstance(inst, cls) or any(getattr(type(inst), k.value) is not getattr(cls, k.value)
                                        for k in spec.Kind):  # fmt: skip
        return None
    if isinstance(inst, spec.TUNED):  # its weights are the player count's: set by `start`
        inst.start(spec.make_rules(players), 0, np.arange(1))
    return {n: float(x) for n, x in zip(spec.WEIGHT_NAMES, inst.w, strict=True)}


def deviations(mix: Mixture, folder: Path, step: float) -> list[Challenger]:
    """One-step deviations of every weight-vector member: each weight x (1 +- step), or +-
    step x its scale when it is 0; written as weights files under `folder`."""
    out = []
    folder.mkdir(parents=True, exist_ok=True)
    spec = load_game(mix.game)
    for member in mix.members:
        w = member_weights(member, mix.players, mix.game)
        if w is None:
            continue
        slug = hashlib.sha256(member.encode()).hexdigest()[:8]
        for k, name in enumerate(spec.WEIGHT_NAMES):
            for sign, way in ((1, "up"), (-1, "down")):
                moved = dict(w)
                base = w[name]
                moved[name] = float(base * (1 + sign * step) if base != 0
                                    else sign * step * spec.WEIGHT_SCALES[k])  # fmt: skip
                path = folder / f"{slug}-{name}-{way}.toml"
                made = f"{member} with {name} {base:.6g} -> {moved[name]:.6g}"
                _write_weights(path, moved, f"A one-step deviation (moaisim certify): {made}",
                               mix.game)  # fmt: skip
                out.append(Challenger("deviations", f"heuristic(weights={str(path)!r})", made))
    return out


def _write_weights(path: Path, w: dict[str, float], note: str, game: str) -> None:
    """A weights file of `game` (its `GAME_KEY`): a note, then `[weights]`."""
    lines = [f"# {note}", "", f"{GAME_KEY} = {json.dumps(game)}", "", "[weights]"]
    lines += [f"{k} = {float(v)!r}" for k, v in w.items()]
    write_atomic(path, ("\n".join(lines) + "\n").encode(), "weights")


# --- measuring -------------------------------------------------------------------------------
def certify(
    mixture: str | Path,
    out: str | Path,
    families: Sequence[str] = FAMILIES,
    games: int = 200,
    held_out_games: int = 1000,
    epsilon: float = 0.02,
    seed: int = 0,
    step: float = 0.5,
    random_starts: int = 2,
    cma_generations: int = 8,
    cma_games: int = 60,
    cma_popsize: int | None = None,
    n_jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    starts: Sequence[str | Path] | None = None,
    *,
    game: str,
    files: str = CHALLENGER_FILES,
    learned: str = LEARNED_FILES,
) -> Certificate:
    """Certify (or not) a shipped mixture file at epsilon (see the module's docstring):
    screen every challenger of `families`, measure each family's best on held-out games,
    save everything under `out` (resumed when called again with the same settings; a
    directory holding anything else is refused before anything is written: `check_out`).
    `starts` names the CMA runs' start files (default: every shipped weights file, then
    `random_starts` random points); `files` the `files` family's glob, `learned` the
    `learned` family's (beside the shipped model files)."""
    say = progress or (lambda _m: None)
    families = _check(families, games, held_out_games, epsilon, step, random_starts,
                      cma_generations, cma_games)  # fmt: skip
    mix = shipped_mixture(mixture, game)
    out = Path(out)
    check_out(out)
    if "learned" in families:  # a broken model file is one line before anything is written
        learned_files(mix.players, learned, game=mix.game)
    state = out / f"certificate-{mix.players}p.json"
    cert = Certificate(str(mix.path), mix.digest, mix.players, float(epsilon), games,
                       held_out_games, seed, list(families), strategies=play_digest(),
                       game=mix.game)  # fmt: skip
    # a certificate of another game or other settings in `out` is refused before anything
    # is written there
    cert = _resumed(state, cert)
    # `files` and `learned` may find nothing (the others never do) and write nothing: listed
    # before the directory is made, so that an empty run is refused with nothing written
    listed = set(families) <= {"files", "learned"}
    found = challengers(mix, families, out, step, files, learned) if listed else None
    if listed and not found:
        raise UserError(f"no challenger of the {' and '.join(families)} famil"
                        f"{'ies' if len(families) > 1 else 'y'} at {mix.players} players: "
                        f"nothing to certify against")  # fmt: skip
    make_dir(out)
    if found is None:  # the deviations write their weights files under `out`
        found = challengers(mix, families, out, step, files, learned)
    known = {c.spec for c in cert.challengers}
    for c in found:
        if c.spec not in known:
            cert.challengers.append(c)
            known.add(c.spec)
    if "cma" in families:
        begin = cma_starts(random_starts, seed, starts, game=game)
        for c in _cma(mix, out / "cma", begin, cma_generations, cma_games, cma_popsize, seed,
                      n_jobs, say):  # fmt: skip
            if c.spec not in known:
                cert.challengers.append(c)
                known.add(c.spec)
    todo = [c for c in cert.challengers if c.games == 0]
    say(f"certificate {mix.players}p: screening {len(todo)} of {len(cert.challengers)} "
        f"challengers against {mix.path.name}, {games} games per seat rotation")  # fmt: skip
    for start in range(0, len(todo), max(2 * n_jobs, 8)):
        part = todo[start : start + max(2 * n_jobs, 8)]
        got = tune.shares(mix.players, [c.spec for c in part], mix.spec, games, seed, n_jobs,
                          game=mix.game)  # fmt: skip
        for c, share in zip(part, got, strict=True):
            c.share, c.games = share, games * mix.players
        _save(state, cert)
        say(f"certificate {mix.players}p: screened {start + len(part)} of {len(todo)}")
    for fam in families:
        mine = [c for c in cert.challengers if c.family == fam]
        if not mine or any(c.held_out_games for c in mine):
            continue
        best = max(mine, key=lambda c: c.share)
        say(f"certificate {mix.players}p: the {fam} family's best, {relative(best.spec)}, on "
            f"{held_out_games} held-out games per seat rotation")  # fmt: skip
        best.held_out_share = tune.shares(
            mix.players, [best.spec], mix.spec, held_out_games, seed + 1, game=mix.game
        )[0]
        best.held_out_games = held_out_games * mix.players
        _save(state, cert)
    table = cert.table()
    write_atomic(out / f"certificate-{mix.players}p.csv", table.to_csv(index=False).encode(),
                 "table")  # fmt: skip
    write_atomic(out / f"certificate-{mix.players}p.md", markdown(cert).encode(), "report")
    return cert


def check_out(out: Path) -> None:
    """A certificate may go into `out` if it is new, empty or holds only what certify writes
    (`OWN_FILES`); a run, a report or anything else there is refused in one line, before
    anything is written (as `moaisim tune-search` and `moaisim balance` refuse theirs)."""
    check_own_dir(out, "a certificate",
                  lambda d: all(OWN_FILES.fullmatch(p.name) for p in d.iterdir()))  # fmt: skip


def _check(families: Sequence[str], games: int, held_out_games: int, epsilon: float,
           step: float, random_starts: int, cma_generations: int, cma_games: int
           ) -> list[str]:  # fmt: skip
    """The settings checked (one line per mistake); the families in their order."""
    if isinstance(families, str):
        families = [f.strip() for f in families.split(",") if f.strip()]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown or not families:
        said = f"unknown challenger family {unknown[0]!r}" if unknown else "no challenger family"
        raise UserError(f"{said} (families: {', '.join(FAMILIES)})")
    for what, value, least in (("games", games, 1), ("held-out games", held_out_games, 1),
                               ("random starts", random_starts, 0),
                               ("CMA generations", cma_generations, 1),
                               ("CMA games", cma_games, 1)):  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UserError(f"{what} must be a whole number of at least {least}, got {value!r}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 < epsilon < 1:
        raise UserError(f"epsilon must be a win-share margin above 0 and below 1, got {epsilon!r}")
    if isinstance(step, bool) or not isinstance(step, int | float) or not 0 < step <= 2:
        raise UserError(f"step must be a relative move above 0 and at most 2, got {step!r}")
    return [f for f in FAMILIES if f in families]


def _resumed(state: Path, cert: Certificate) -> Certificate:
    """The saved certificate of the same mixture and settings, or `cert` (new)."""
    if not state.exists():
        return cert
    try:
        data = json.loads(state.read_text(encoding="utf-8"))
        # a state saved before states named their game: `recorded_game`
        data = {**data, GAME_KEY: recorded_game(data)}
        saved = Certificate(**{**data, "challengers": [Challenger(**c)
                                                       for c in data["challengers"]]})  # fmt: skip
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise UserError(f"{state}: not a certificate state file ({exc}); remove it or choose "
                        "another --out") from None  # fmt: skip
    check_game(saved.game, cert.game, state, "a certificate state")
    mine = {k: v for k, v in asdict(cert).items() if k != "challengers"}
    theirs = {k: v for k, v in asdict(saved).items() if k != "challengers"}
    if mine != theirs:
        what = ", ".join(k for k in mine if mine[k] != theirs.get(k))
        raise UserError(f"{state} holds a certificate with other settings ({what}): choose "
                        "another --out")  # fmt: skip
    return saved


def _save(state: Path, cert: Certificate) -> None:
    data = json.dumps(asdict(cert), indent=1, allow_nan=True) + "\n"
    write_atomic(state, data.encode(), "state")


# --- CMA-ES from several starts --------------------------------------------------------------
def cma_starts(random_starts: int, seed: int, files: Sequence[str | Path] | None = None,
               *, game: str) -> list[tuple[str, dict[str, float] | Path]]:  # fmt: skip
    """The CMA runs' starts: the weights files (default: every shipped one), then
    `random_starts` points drawn around heuristic's defaults (each weight + N(0, 1) x its
    scale, from `seed`)."""
    paths = weights_files(game) if files is None else [Path(f) for f in files]
    starts: list[tuple[str, dict[str, float] | Path]] = [(p.stem, p) for p in paths]
    rng = np.random.default_rng([seed, 0xC3A])
    base = member_weights("heuristic", 3, game)
    assert base is not None
    spec = load_game(game)
    for k in range(random_starts):
        noise = rng.standard_normal(len(spec.WEIGHT_NAMES)) * spec.WEIGHT_SCALES
        starts.append((f"random-{k}", {n: base[n] + float(d) for n, d in
                                       zip(spec.WEIGHT_NAMES, noise, strict=True)}))  # fmt: skip
    return starts


def _cma(mix: Mixture, folder: Path, starts: list[tuple[str, dict[str, float] | Path]],
         generations: int, games: int, popsize: int | None, seed: int, n_jobs: int,
         say: Callable[[str], None]) -> list[Challenger]:  # fmt: skip
    """One CMA-ES best response to the mixture from each start (`tune.tune`, resumable in
    its own folder); each run's best weights are a challenger."""
    out = []
    for k, (name, start) in enumerate(starts):
        say(f"certificate {mix.players}p: CMA-ES best response from {name} "
            f"({generations} generations)")  # fmt: skip
        got = tune.tune(mix.players, mix.spec, games, generations, popsize, seed + 100 + k,
                        folder / name, start=start, held_out_games=1, n_jobs=n_jobs,
                        command=f"moaisim certify {mix.path} (CMA-ES from {name})",
                        game=mix.game)  # fmt: skip
        out.append(Challenger("cma", f"heuristic(weights={str(got.path.resolve())!r})",
                              f"CMA-ES from {name}, {generations} generations"))  # fmt: skip
    return out


# --- the report ------------------------------------------------------------------------------
def markdown(cert: Certificate) -> str:
    """The certificate as a Markdown page: a title, then `section`."""
    return f"# Certificate of {Path(cert.mixture).name} ({cert.players} players)\n\n" + section(
        cert
    )


def section(cert: Certificate) -> str:
    """The certificate as Markdown: what was played, the verdict, each family's best."""
    best = cert.best()
    t = cert.table()
    lines = [
        f"Mixture file: `{relative(cert.mixture)}` (SHA-256 `{cert.digest[:16]}`). Each "
        f"challenger plays one seat against {cert.players - 1} seats of the mixture, seats "
        f"rotated; gain = win share - 1/{cert.players}. Screening: {cert.games} games per "
        f"rotation (seed {cert.seed}), intervals Bonferroni-adjusted for the family's size; "
        f"each family's best: {cert.held_out_games} held-out games per rotation (seed "
        f"{cert.seed + 1}), intervals simultaneous over {len(cert.families)} families.",
        "",
        f"**{cert.verdict()}**",
        "",
        "| family | challengers | best challenger | screened gain | held-out gain | interval |",
        "| --- | ---: | --- | ---: | ---: | --- |",
    ]
    for fam in cert.families:
        n = int((t["family"] == fam).sum()) if len(t) else 0
        if fam not in best.index or pd.isna(best.loc[fam, "held_out_gain"]):
            lines.append(f"| {fam} | {n} | – | – | – | – |")
            continue
        row = best.loc[fam]
        interval = text.bracket(row["held_out_lo"], row["held_out_hi"], "+.3f")
        lines.append(f"| {fam} | {n} | `{row['challenger']}` | {row['gain']:+.3f} | "
                     f"{row['held_out_gain']:+.3f} | {interval} |")  # fmt: skip
    return "\n".join(lines) + "\n"


# --- the history -----------------------------------------------------------------------------
def record_run(cert: Certificate, out: str | Path) -> Path:
    """Add a certify run (kept in `out`) to its mixture's certificate history and rewrite
    the certificate page and table beside the mixture (`certificate_history`): the page
    opens with the largest gain any recorded run measured, this run in full below it."""
    mixture = Path(cert.mixture)
    table = cert.table()
    run = history.run_from_table(
        table, relative(str((Path(out) / f"certificate-{cert.players}p.csv").resolve())),
        cert.digest[:16])  # fmt: skip
    got = history.add(mixture, cert.players, run, game=cert.game)
    write_atomic(history.page_path(mixture).with_suffix(".csv"),
                 table.to_csv(index=False).encode(), "table")  # fmt: skip
    return history.write_page(mixture, got, section(cert))
