"""A field study (`[field]` in an experiment file): is the field the findings rest on a
defensible one?

At each player count it plays and reports, in this order:

1. **the meta-game** of a library of strategies (`analysis.metagame`): its Nash mixture with
   the bootstrap spread, the invasion matrix, alpha-Rank and Nash averaging, and each
   strategy's self-play statue rate (a strategy whose self-play never carves a Moai is
   **degenerate**: kept in the field only if the meta-game gives it weight);
2. **the exploitability certificate** (`moaisim.studies.population`): a PSRO loop from the library
   (meta-game, CMA-ES best response to its Nash mixture, held-out gain) until the gain's
   upper bound is below epsilon or the iterations run out; the last gain is the certificate;
3. **restricted play** (`moaisim.studies.restricted`): the meta-game's strongest strategy (the
   heaviest in the Nash mixture) against the Nash mixture, with each mechanism forbidden.

Everything played is kept under the run directory (the meta-games' tables, the population
loop's state), so a stopped study resumes; the report directory gets report.md,
report.html, a CSV per table and report.json, which names the study's game (its readers,
`analysis.verdicts.field_game`, refuse another game's report). What is kept is keyed by
the game too.

    [field]
    players = [3, 4]
    library = "L2"            # the pool of shipped strategies, or a list of specs
    games = 240               # per composition of the meta-game
    seed = 2026
    bootstrap = 200

    [field.population]        # the certificate (omit the table to skip it)
    iterations = 2
    epsilon = 0.02
    meta_games = 120
    games = 100
    generations = 15
    held_out_games = 1000
    start = "tuned"           # the best responses' starting weights (default heuristic's)

    [field.restricted]        # restricted play (omit to skip)
    games = 1000              # per seat rotation
    retune_generations = 10   # also re-tune under each restriction (default 0: masked only)
    retune_games = 100        # the re-tuning's training games per seat rotation
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from moaisim.analysis import metagame as mg
from moaisim.analysis import text
from moaisim.analysis.report import swap_dir
from moaisim.analysis.verdicts import FIELD_MARK, field_game
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_game, game_in_file, write_atomic
from moaisim.fingerprint import file_digest, play_digest, strategy_fingerprint
from moaisim.games import load_game
from moaisim.registry import load_strategy
from moaisim.rundir import identity_game, make_dir, recorded_game
from moaisim.studies import restricted as rp
from moaisim.studies import strong_play as sp
from moaisim.studies import tune
from moaisim.studies.certify import FAMILIES, Certificate, certify
from moaisim.studies.certify import section as certify_section
from moaisim.studies.metagame import play as meta_play
from moaisim.studies.population import certificate_table
from moaisim.studies.population import population as run_population
from moaisim.weight_files import WEIGHTS_ARG

FIELD = {"players", "library", "games", "seed", "bootstrap", "alphas", "population",
         "restricted", "certificate", "strong_play"}  # fmt: skip
CERTIFICATE = {"families", "games", "held_out_games", "epsilon", "step", "random_starts",
               "cma_generations", "cma_games"}  # fmt: skip
STRONG_PLAY = {"search", "games", "min_games", "self_play_games", "components"}
POPULATION = {"iterations", "epsilon", "meta_games", "games", "generations", "popsize",
              "held_out_games", "start"}  # fmt: skip
RESTRICTED = {"games", "forbid", "strategy", "retune_generations", "retune_games"}


def check_field(table: Any) -> dict[str, Any]:
    """A [field] table, every key checked (one line per mistake), with its defaults."""
    if not isinstance(table, dict):
        raise UserError("[field] must be a table")
    for key in table:
        if key not in FIELD:
            raise UserError(f"unknown key field.{key} (expected {', '.join(sorted(FIELD))})")
    out: dict[str, Any] = {"players": table.get("players", [3, 4]),
                           "library": table.get("library", "L2"), "games": table.get("games", 240),
                           "seed": table.get("seed", 0), "bootstrap": table.get("bootstrap", 200),
                           "alphas": table.get("alphas", list(mg.ALPHAS))}  # fmt: skip
    players = out["players"] if isinstance(out["players"], list) else [out["players"]]
    if not players or not all(_whole(p) and 2 <= p <= 5 for p in players):
        raise UserError(f"field.players must be from 2 to 5, got {out['players']!r}")
    out["players"] = players
    lib = out["library"]
    if lib != "L2" and not (isinstance(lib, list) and len(lib) >= 2
                            and all(isinstance(s, str) and s.strip() for s in lib)):  # fmt: skip
        raise UserError(f'field.library must be "L2" or a list of 2 or more specs, got {lib!r}')
    for key in ("games", "bootstrap"):
        if not _whole(out[key]) or out[key] < (1 if key == "games" else 0):
            raise UserError(f"field.{key} must be a whole number, got {out[key]!r}")
    if not _whole(out["seed"]) or not 0 <= out["seed"] < 2**64:
        raise UserError(f"field.seed must be a whole number from 0 to 2**64-1, got {out['seed']!r}")
    alphas = out["alphas"]
    if (
        not isinstance(alphas, list)
        or not alphas
        or not all(isinstance(a, int | float) and not isinstance(a, bool) and a > 0 for a in alphas)
    ):
        raise UserError(f"field.alphas must be a list of positive numbers, got {alphas!r}")
    for name, keys in (("certificate", CERTIFICATE), ("strong_play", STRONG_PLAY)):
        sub = table.get(name)
        if sub is not None and (not isinstance(sub, dict) or any(k not in keys for k in sub)):
            raise UserError(f"[field.{name}] takes only {', '.join(sorted(keys))}")
        out[name] = None if sub is None else _checked_sub(name, sub)
    for name, keys in (("population", POPULATION), ("restricted", RESTRICTED)):
        sub = table.get(name)
        if sub is None:
            out[name] = None
            continue
        if not isinstance(sub, dict) or any(k not in keys for k in sub):
            raise UserError(f"[field.{name}] takes only {', '.join(sorted(keys))}")
        for k, v in sub.items():
            if k == "epsilon":
                if not isinstance(v, int | float) or isinstance(v, bool) or not 0 < v < 1:
                    raise UserError(f"field.population.epsilon must be from 0 to 1, got {v!r}")
            elif k == "forbid":
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise UserError(f"field.restricted.forbid must be a list of names, got {v!r}")
            elif k == "start":
                if v != "tuned" and not (isinstance(v, str) and v.endswith(".toml")):
                    raise UserError(f'field.population.start must be "tuned" or a weights '
                                    f"file (.toml), got {v!r}")  # fmt: skip
            elif k == "strategy":
                if not isinstance(v, str) or not v.strip():
                    raise UserError(f"field.restricted.strategy must be a spec, got {v!r}")
            elif not _whole(v) or v < 1:
                raise UserError(f"field.{name}.{k} must be a whole number of at least 1, got {v!r}")
        out[name] = dict(sub)
    return out


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _checked_sub(name: str, sub: dict[str, Any]) -> dict[str, Any]:
    """A [field.certificate] or [field.strong_play] table, its values checked."""
    for k, v in sub.items():
        if k in ("epsilon", "step"):
            if not isinstance(v, int | float) or isinstance(v, bool) or not 0 < v <= 2:
                raise UserError(f"field.{name}.{k} must be a positive number, got {v!r}")
        elif k in ("families", "components"):
            if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
                raise UserError(f"field.{name}.{k} must be a list of names, got {v!r}")
        elif k == "search":
            if not isinstance(v, str) or not v.strip():
                raise UserError(f"field.{name}.search must be a search spec, got {v!r}")
        elif not _whole(v) or v < (0 if k == "random_starts" else 1):
            raise UserError(f"field.{name}.{k} must be a whole number of at least 1, got {v!r}")
    return dict(sub)


def library_of(spec: Any, game: str) -> list[str]:
    """The library of a [field] table: "L2" is the pool of shipped strategies."""
    return list(load_game(game).LEVEL_POOL) if spec == "L2" else list(spec)


@dataclass
class FieldResult:
    """One player count's results."""

    players: int
    analysis: mg.Analysis
    carving: pd.DataFrame
    certificate: pd.DataFrame | None
    restricted: pd.DataFrame | None
    families: Certificate | None = None
    strong: StrongPlay | None = None
    #: the game played (its words name the tables' columns and say the sentences)
    game: str = field(kw_only=True)


@dataclass
class StrongPlay:
    """What strong play does at one player count: the search gap (L4 against L3) and the
    parts table (`strong_play.parts_table`: L4 and L3 in those games, L3's self-play under
    each component set)."""

    gap: dict[str, float]
    parts: pd.DataFrame


def _meta(run: Path, lib: list[str], players: int, cfg: dict[str, Any], games: int,
          jobs: int, say: Any, game: str) -> mg.MetaGame:  # fmt: skip
    """The meta-game at `players`, played once and kept in the run directory."""
    path = run / f"metagame-{players}p.npz"
    specs = [load_strategy(s, game) for s in lib]
    strategies = {s.label: strategy_fingerprint(s) for s in specs}  # a user's code too
    key = json.dumps({"library": lib, "players": players, "games": games, "seed": cfg["seed"],
                      "code": play_digest(), "strategies": strategies, **_game_key(game)},
                     sort_keys=True)  # fmt: skip
    if path.exists():
        data = np.load(path, allow_pickle=False)
        if str(data["key"]) == key:
            return mg.MetaGame(players, list(data["names"]), data["counts"], data["per_game"],
                               cfg["seed"], {"carved": data["carved"]})  # fmt: skip
    say(f"field: {players} players, the meta-game of {len(lib)} strategies "
        f"({len(mg.compositions(len(lib), players))} compositions x {games:,} games)")  # fmt: skip
    meta = meta_play(lib, players, games, cfg["seed"], jobs, game=game)
    tmp = run / f".metagame-{players}p.npz"
    with open(tmp, "wb") as f:
        np.savez(f, key=np.array(key), names=np.array(meta.names), counts=meta.counts,
                 per_game=meta.per_game, carved=meta.meta["carved"])  # fmt: skip
    tmp.replace(path)
    return meta


#: The file that names the game of a field study's run directory (what it keeps).
RUN_MARK = "field.json"


def run_game(run: Path) -> str:
    """The game of a field study's run directory: its `RUN_MARK`'s (a run directory written
    before runs named their game: `recorded_game`)."""
    mark = run / RUN_MARK
    return recorded_game(game_in_file(mark) if mark.is_file() else None)


def check_field_dirs(run: Path, report: Path, game: str) -> None:
    """A field study of `game` may use its run directory and replace its report: each is
    new, empty, or of `game` (`run_game`, `verdicts.field_game`); a `UserError` naming both
    games otherwise, before anything is played or written."""
    if run.is_dir() and any(run.iterdir()):
        check_game(run_game(run), game, run, "a field study's run directory")
    if report.is_dir() and any(report.iterdir()):
        check_game(field_game(report), game, report, "a field study's report")


def _game_key(game: str) -> dict[str, str]:
    """The game in a key of what is kept (a key made before games had names keeps its games:
    `identity_game`)."""
    return identity_game(game)


def carving(meta: mg.MetaGame, x: np.ndarray, game: str) -> pd.DataFrame:
    """Each strategy's self-play: the headline part's pieces made per seat and game (Moai
    carved, for Moai: the column `self_play_pieces` names), and whether it is degenerate
    (never makes one) and kept (not degenerate, or weighted by the mixture)."""
    column = load_game(game).INFO.vocabulary["self_play_pieces"]
    rows = []
    for i, name in enumerate(meta.names):
        c = np.zeros(meta.k, dtype=np.int64)
        c[i] = meta.players
        made = float(meta.meta["carved"][meta.rows(c), i])
        rows.append({"strategy": name, column: made, "degenerate": made == 0.0,
                     "nash_weight": float(x[i]), "kept": made > 0 or x[i] > 1e-6})  # fmt: skip
    return pd.DataFrame(rows)


def run_field(
    exp: Any, run: Path, report: Path, jobs: int, games: int | None = None, say: Any = None
) -> Path:
    """Play the field study of an experiment (see the module's docstring) and write its
    report; `games` scales every count down (a quick look)."""

    say = say or (lambda _m: None)
    cfg = exp.field
    game = exp.game
    weights_path = load_game(game).weights_path
    lib = library_of(cfg["library"], game)
    check_field_dirs(run, report, game)  # another game's study is refused before anything
    make_dir(run)
    write_atomic(run / RUN_MARK, (json.dumps({GAME_KEY: game}) + "\n").encode(), "run mark")
    results = []
    for p in cfg["players"]:
        n = cfg["games"] if games is None else games
        meta = _meta(run, lib, p, cfg, n - n % p if n >= p else p, jobs, say, game)
        an = mg.analyse(meta, cfg["bootstrap"], cfg["alphas"], cfg["seed"])
        mix_file = mg.write_mixture(run / f"nash-{p}p.toml", meta.names, an.mixture, p,
                                    f"the {exp.name} study", an.gain, game=game)  # fmt: skip
        cert = None
        if cfg["population"] is not None:
            pc = dict(cfg["population"])
            if games is not None:
                pc.update(meta_games=max(p, games // 4), games=max(2, games // 10),
                          generations=min(pc.get("generations", 15), 2), popsize=4,
                          held_out_games=max(4, games // 2), iterations=1)  # fmt: skip
            start = pc.get("start")
            if start == "tuned":  # the shipped tuned weights of this player count
                start = weights_path(f"tuned-{p}p.toml")
            elif start is not None and not Path(start).is_absolute():
                start = Path(exp.path).parent / start
            again = f"moaisim experiment {exp.path}{getattr(exp, 'options', '')}"
            res = run_population(p, lib, run / f"population-{p}p", pc.get("epsilon", 0.02),
                                 pc.get("iterations", 2), pc.get("meta_games", 120),
                                 pc.get("games", 100), pc.get("generations", 15),
                                 pc.get("popsize"), pc.get("held_out_games", 1000),
                                 cfg["seed"], start, jobs, say,
                                 again, game=game)  # fmt: skip
            cert = pd.DataFrame(certificate_table(res))
            # best responses are named by their weights files: relative to here when inside
            cert["support"] = cert["support"].str.replace(f"{Path.cwd()}/", "", regex=False)
            cert["epsilon"] = res.epsilon
        restricted = None
        if cfg["restricted"] is not None:
            rc = cfg["restricted"]
            best = rc.get("strategy") or meta.names[int(np.argmax(an.mixture))]
            rg = rc.get("games", 1000) if games is None else max(2, games // 4)
            say(f"field: {p} players, restricted play of {best} against the Nash mixture "
                f"({rg:,} games per seat and mechanism)")  # fmt: skip
            opponents = f"mixture(file={mix_file.resolve()})"
            retuned = _retune(run, best, opponents, p, rc, cfg["seed"], jobs, games, say, game)
            restricted = rp.restricted_play(best, opponents, p, rg, cfg["seed"] + 2,
                                            rc.get("forbid"), retuned, n_jobs=jobs,
                                            game=game)  # fmt: skip
        families = None
        if cfg["certificate"] is not None:
            families = _certificate(run, p, cfg, games, jobs, say, game)
        strong = None
        if cfg["strong_play"] is not None:
            strong = _strong_play(run, p, cfg, Path(exp.path).parent, games, jobs, say, game)
        results.append(FieldResult(p, an, carving(meta, an.mixture, game), cert, restricted,
                                   families, strong, game=game))  # fmt: skip
    return write_report(exp, results, report, game)


def _certificate(run: Path, players: int, cfg: dict[str, Any], games: int | None, jobs: int,
                 say: Any, game: str) -> Certificate | None:  # fmt: skip
    """The shipped L3's certificate at `players` (`moaisim.studies.certify`), kept in the run
    directory; None (said) where no L3 ships for this player count."""
    weights_path = load_game(game).weights_path
    path = weights_path(f"nash-{players}p.toml")
    if not path.is_file():
        say(f"field: {players} players, no shipped L3 (nash-{players}p.toml) to certify")
        return None
    c = dict(cfg["certificate"])
    if games is not None:  # a quick look
        c.update(games=max(2, games // 10), held_out_games=max(4, games // 4),
                 cma_generations=1, cma_games=2, random_starts=0)  # fmt: skip
    families = c.get("families", list(FAMILIES))
    starts = None if games is None else [weights_path(f"tuned-{players}p.toml")]
    return certify(path, run / f"certificate-{players}p", families, c.get("games", 200),
                   c.get("held_out_games", 1000), c.get("epsilon", 0.02), cfg["seed"],
                   c.get("step", 0.5), c.get("random_starts", 2), c.get("cma_generations", 8),
                   c.get("cma_games", 60), None, jobs, say, starts=starts,
                   game=game)  # fmt: skip


def _strong_play(run: Path, players: int, cfg: dict[str, Any], home: Path, games: int | None,
                 jobs: int, say: Any, game: str) -> StrongPlay:  # fmt: skip
    """The search gap and the parts table at `players` (`moaisim.studies.strong_play`),
    every game kept in the run directory."""
    c = cfg["strong_play"]
    seed, search = cfg["seed"], c.get("search", "search")
    per = max(c.get("games", 100), -(-c.get("min_games", 320) // players))
    selfs = c.get("self_play_games", 4000)
    if games is not None:
        per, selfs = 1, max(players, games)
    folder = run / f"strong-play-{players}p"
    say(f"field: {players} players, {search} against L3 ({per} games per seat rotation)")
    # new weights, a new L3 or new engine code: the games are played again
    code = play_digest() + file_digest(load_game(game).weights_path(f"nash-{players}p.toml"))
    key = {"what": "search", "players": players, "games": per, "seed": seed + 4, "search": search,
           "code": code, **_game_key(game)}  # fmt: skip
    res, rnd = sp.kept(folder / "search", key,
                       lambda: sp.search_games(players, per, seed + 4, search, jobs,
                                               game=game))  # fmt: skip
    gap = sp.gap(res)
    tables = [sp.parts_table(res, rnd, game=game).assign(games="L4 seat against L3",
                                                          components="base")]  # fmt: skip
    for comp in [None, *c.get("components", [])]:
        stem = "base" if comp is None else Path(comp).stem
        name = "self-play" if comp is None else f"self-play-{stem}"
        where = None if comp is None else str(home / comp)
        say(f"field: {players} players, L3 self-play ({stem}, {selfs:,} games)")
        key = {"what": "self-play", "players": players, "games": selfs, "seed": seed + 5,
               "components": None if comp is None else Path(comp).name, "code": code,
               **_game_key(game)}  # fmt: skip
        play = lambda w=where: sp.self_play(players, selfs, seed + 5, w, jobs, game=game)  # noqa: E731
        res, rnd = sp.kept(folder / name, key, play)
        tables.append(sp.parts_table(res, rnd, game=game).assign(games="L3 self-play",
                                                                 components=stem))  # fmt: skip
    table = pd.concat(tables, ignore_index=True)
    table.insert(0, "players", players)
    return StrongPlay(gap, table[["players", "games", "components", *table.columns[1:-2]]])


def _retune(run: Path, best: str, opponents: str, players: int, rc: dict[str, Any],
            seed: int, jobs: int, games: int | None, say: Any, game: str
            ) -> dict[str, str]:  # fmt: skip
    """With `retune_generations`: for each mechanism, heuristic weights tuned under its
    restriction against the mixture (`tune --forbid`), from the strategy's own weights when
    it is `tuned` or a heuristic (else heuristic's defaults); forbid name -> the spec that
    plays them restricted. Each search is kept in the run directory (resumable)."""

    generations = rc.get("retune_generations", 0)
    if not generations:
        return {}
    per_seat = rc.get("retune_games", 100) if games is None else 2
    spec = load_game(game)
    start = None
    if best == "tuned":
        start = spec.weights_path(f"tuned-{players}p.toml")
    out: dict[str, str] = {}
    for f in rc.get("forbid") or list(spec.FORBID):
        say(f"field: {players} players, re-tuning under forbid={f} ({generations} generations)")
        res = tune.tune(players, opponents, per_seat, generations if games is None else 1,
                        None if games is None else 4, seed + 3, run / f"retune-{players}p-{f}",
                        start=start, held_out_games=2, n_jobs=jobs,
                        forbid=[f], game=game)  # fmt: skip
        inner = f"heuristic(weights={res.path.resolve()})"
        out[f] = rp.restricted_spec(inner, f)
    return out


def write_report(exp: Any, results: list[FieldResult], out: Path, game: str) -> Path:
    """report.md, report.html and a CSV per table in `out` (a fresh directory each time:
    written beside, then swapped in)."""
    tmp = out.with_name(f".{out.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    results = [
        r
        if r.families is None
        else replace(r, families=ship_challengers(r.families, out, tmp, game))
        for r in results
    ]
    md = [f"# {exp.title}\n"]
    if exp.question:
        md.append(f"**Question.** {exp.question}\n")
    md.append(_answer(results))
    md.append(f"Reproduce: `moaisim experiment {exp.path}{getattr(exp, 'options', '')}` "
              "(the tables below; CSV beside).\n")  # fmt: skip
    for r in results:
        part, tables = _players_section(r)
        md.append(part)
        for name, df in tables.items():
            write_atomic(tmp / f"{name}-{r.players}p.csv", df.to_csv(index=False).encode(), "CSV")
    page = "\n".join(md)
    (tmp / "report.md").write_text(page, encoding="utf-8")
    (tmp / "report.html").write_text(text.html_page(exp.title, page, tmp), encoding="utf-8")
    # `made`: reports read the newest shipped field study first (`verdicts.shipped_field_studies`)
    made = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    mark = {GAME_KEY: game, "title": exp.title, "kind": "field study", "made": made}
    (tmp / FIELD_MARK).write_text(json.dumps(mark, indent=1) + "\n", encoding="utf-8")
    swap_dir(tmp, out)
    return out / "report.md"


def ship_challengers(cert: Certificate, final: Path, tmp: Path, game: str
                     ) -> Certificate:  # fmt: skip
    """The certificate with each family's best challenger whose weights file lies in a run
    directory (a CMA-ES best response, a one-step deviation) copied into the report's
    `challengers/` folder (written into `tmp`, named as it will be under `final`), so the
    challengers a report names replay from the report alone."""
    shipped = tune.weights_home(game).resolve()
    out = []
    for c in cert.challengers:
        m = WEIGHTS_ARG.search(c.spec) if c.held_out_games > 0 else None
        path = Path(next(g for g in m.groups() if g)) if m else None
        if path is None or not path.is_file() or path.resolve().parent == shipped:
            out.append(c)
            continue
        name = f"{cert.players}p-{c.family}.toml"
        (tmp / "challengers").mkdir(exist_ok=True)
        shutil.copyfile(path, tmp / "challengers" / name)
        where = final / "challengers" / name
        out.append(replace(c, spec=c.spec.replace(m.group(0), f"weights='{where}'")))
    return replace(cert, challengers=out)


def _players_section(r: FieldResult) -> tuple[str, dict[str, pd.DataFrame]]:
    """One player count's part of the report (the meta-game, the self-play statues, the
    certificate, restricted play) and its tables by name."""
    p = r.players
    spec = load_game(r.game)
    words, part = spec.INFO.vocabulary, spec.INFO.vocabulary["headline_part"]
    md = [f"## {p} players\n", mg.markdown(r.analysis)]
    md.append(f"**Self-play {part}** ({words['pieces_made']} per seat and game when every seat "
              "plays the strategy; degenerate: none; kept in the field: not degenerate, "
              "or weighted by the Nash mixture):\n")  # fmt: skip
    digits = {words["self_play_pieces"]: ".2f", "nash_weight": ".3f"}
    md.append(text.markdown_table(r.carving, digits, code=["strategy"]) + "\n")
    tables = {**r.analysis.tables, "carving": r.carving}
    if r.certificate is not None:
        md.append("**Exploitability certificate** (PSRO: the best response to each "
                  "iteration's Nash mixture, tuned by CMA-ES; its held-out win share "
                  "over the fair 1/P, 95 % interval):\n")  # fmt: skip
        shown = r.certificate[["iteration", "members", "support", "gain", "gain_lo",
                               "gain_hi", "held_out_games", "certified"]]  # fmt: skip
        md.append(text.markdown_table(shown, dict.fromkeys(["gain", "gain_lo", "gain_hi"],
                                                           ".3f")) + "\n")  # fmt: skip
        last = r.certificate.iloc[-1]
        verdict = ("certified" if last["certified"] else
                   "not certified: a best response still gains")  # fmt: skip
        md.append(f"Certificate at {p} players: gain {_gain(last)} against epsilon "
                  f"{last['epsilon']}: **{verdict}**.\n")  # fmt: skip
        tables["certificate"] = r.certificate
    if r.families is not None:
        md.append(f"**Certificate of the shipped L3** (`moaisim certify`, against the file "
                  f"users play, `{words['weights_folder']}/nash-{p}p.toml`):\n")  # fmt: skip
        md.append(certify_section(r.families))
        tables["certificate_families"] = r.families.table()
    if r.strong is not None:
        g = r.strong.gap
        md.append(f"**Search gap**: `search` (L4, its rollouts and opponent model L3) in one "
                  f"seat against L3, seats rotated: win share {g['win_share']:.3f}, "
                  f"{_gap(g)} over the fair 1/{p} ({int(g['games']):,} games).\n")  # fmt: skip
        md.append("**Where strong play's points come from** (shares of all points scored: "
                  f"{words['strong_parts_said']}):\n")  # fmt: skip
        shown = r.strong.parts.drop(columns=["players"])
        digits = {"score": ".1f", **{f"from_{k}": ".1%" for k in spec.INFO.score_parts},
                  words["pieces_per_seat"]: ".2f", "carves": ".1%",
                  words["first_piece_round"]: ".1f"}  # fmt: skip
        md.append(text.markdown_table(shown, digits) + "\n")
        tables["search_gap"] = pd.DataFrame([g])
        tables[part] = r.strong.parts
    if r.restricted is not None:
        who = r.restricted["strategy"].iloc[0]
        md.append(f"**Restricted play**: `{who}` against the Nash mixture, each "
                  "mechanism forbidden (paired by game and seat; Holm over the "
                  "mechanisms):\n")  # fmt: skip
        md.append(rp.markdown(r.restricted) + "\n")
        tables["restricted"] = r.restricted
    return "\n".join(md), tables


def _gap(g: dict[str, float]) -> str:
    """The search gap with its interval: "+0.214 [+0.160, +0.270]"."""
    return f"{g['gap']:+.3f} {text.bracket(g['gap_lo'], g['gap_hi'], '+.3f')}"


def parts_answer(table: pd.DataFrame, game: str) -> str:
    """Does strong play score from the headline part (carve statues, for Moai)? L4's and
    L3's shares of points from it in the search games, and L3's self-play share under each
    component set."""
    words = load_game(game).INFO.vocabulary
    part, verb = words["headline_part"], words["headline_verb"]
    share = f"from_{part}"
    base = table[table["games"] != "L3 self-play"].set_index("who")
    parts = [f"{who}: {text.pct(base.loc[who, share], 0)} of points from {part}, "
             f"{verb}s in {text.pct(base.loc[who, 'carves'], 0)} of seats"
             for who in ("L4", "L3") if who in base.index]  # fmt: skip
    selfp = table[table["games"] == "L3 self-play"]
    shares = zip(selfp["components"], selfp[share], strict=True)
    comps = ", ".join(f"{c} {text.pct(x, 0)}" for c, x in shares)
    return "; ".join(parts) + (f" (L3 self-play: {comps})" if comps else "")


def _gain(row: pd.Series) -> str:
    """A certificate's gain with its interval: "+0.012 [-0.004, +0.028]"."""
    return f"{text.num(row['gain'], '+.3f')} {text.bracket(row['gain_lo'], row['gain_hi'], '+.3f')}"


def _answer(results: list[FieldResult]) -> str:
    """The answer box: per player count, the mixture, the certificate, degenerate
    strategies and the mechanisms that carry the game."""
    rows = []
    for r in results:
        mix = r.analysis.tables["mixture"]
        weights = zip(mix["strategy"], mix["weight"], strict=True)
        support = ", ".join(f"{s} {text.num(w)}" for s, w in weights if w > 1e-6)
        cert = text.NA
        if r.certificate is not None:
            last = r.certificate.iloc[-1]
            cert = (f"gain {text.num(last['gain'], '+.3f')} (upper "
                    f"{text.num(last['gain_hi'], '+.3f')}): "
                    + ("certified" if last["certified"] else "not certified"))  # fmt: skip
        deg = ", ".join(r.carving.loc[r.carving["degenerate"], "strategy"]) or "none"
        rest = text.NA
        if r.restricted is not None:
            masked = r.restricted[r.restricted["play"] == "masked"]
            parts = [f"{m}: {f}" for m, f in zip(masked["mechanism"], masked["flag"], strict=True)
                     if f in ("carries the game", "trap", "vestigial")]  # fmt: skip
            rest = "; ".join(parts) or "no mechanism flagged"
        row = {"players": r.players, "Nash mixture": support, "certificate": cert,
               "degenerate": deg, "restricted play": rest}  # fmt: skip
        if any(x.families is not None for x in results):
            row["shipped L3"] = r.families.verdict() if r.families is not None else text.NA
        if any(x.strong is not None for x in results):
            row["search gap"] = _gap(r.strong.gap) if r.strong is not None else text.NA
            words = load_game(r.game).INFO.vocabulary
            question = f"does strong play {words['headline_verb']} {words['headline_part']}?"
            row[question] = (
                parts_answer(r.strong.parts, r.game) if r.strong is not None else text.NA
            )  # fmt: skip
        if cert == text.NA:
            del row["certificate"]
        rows.append(row)
    return "**Answer.**\n\n" + text.markdown_table(pd.DataFrame(rows), right=["players"]) + "\n"
