"""The commands about strategies' strength: one strategy `versus` a field, the `metagame` of
a library, `tune` heuristic weights (or a population: the PSRO loop), and `bench` the engines.

`moaisim.analysis` and `moaisim.studies` are imported inside the commands that use them: they
pull scipy, matplotlib, cma and choix, which would double the start of every command."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from moaisim.cli.common import (
    OPTION_FLAGS,
    Field,
    GameName,
    GamesSeed,
    Jobs,
    Param,
    PlayerCounts,
    Players,
    RuleOption,
    RuleOptionGrid,
    SpentWood,
    TurnOrder,
    VolcanoAfterMoai,
    app,
    assignments,
    command_line,
    library_names,
    rule_option_grid,
    rule_options,
    say,
    single_params,
    stop_code,
    stopped,
)
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_writable_dir, check_writable_file, write_atomic
from moaisim.games import available, check_name, load_game
from moaisim.progress import bar as make_bar
from moaisim.rundir import is_run, make_dir

if TYPE_CHECKING:
    from moaisim.games.base import RulesLike
    from moaisim.studies.sheet import SheetSettings
    from moaisim.studies.tune import TuneProgress, TuneResult


@app.command(short_help="One strategy against a field, seats rotated: win share vs fair.")
def versus(
    strategy: Annotated[str, typer.Argument(help="The strategy to measure (a spec).")],
    field: Field = "greedy",
    players: PlayerCounts = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per set-up.")] = 2000,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", help="Variants, '+' combining (repeat for several)."),
    ] = None,
    option: RuleOptionGrid = None,
    param: Param = None,
    seed: GamesSeed = 0,
    jobs: Jobs = 1,
    csv: Annotated[Path | None, typer.Option("--csv", help="Also write the table as CSV.")] = None,
    *,
    game: GameName,
) -> None:
    """My strategy against this field in one command: the candidate takes one seat, the
    field's strategies fill the others, and the seats rotate (game i in rotation i mod P), at
    each player count and set-up. Prints its win share (shared wins split) with its 95 %
    interval, the difference from the fair share 1/P, its mean rank and its score parts,
    beside the field's."""
    from moaisim.studies.versus import search_cpu, search_notice, searches
    from moaisim.studies.versus import text as versus_text
    from moaisim.studies.versus import versus as versus_table

    options = rule_option_grid(game, option)
    if csv is not None:
        check_writable_file(csv, "CSV table")
    counts = players or [3, 4]
    searching = searches(strategy) or searches(field)
    progress = None
    if searching or sys.stderr.isatty():
        if searching:  # search thinks at every decision: say what it costs before the wait
            cpu = search_cpu(strategy, field, counts, games, game)
            say(f"{search_notice(cpu, game, counts)} ({games * len(counts)} games); a bar "
                "shows progress")  # fmt: skip
        progress = make_bar(games * len(counts)) if sys.stderr.isatty() else None
    try:
        table = versus_table(strategy, field, counts, games, variant or None, seed, jobs,
                             params=assignments(param, game), progress=progress,
                             game=game, **options)  # fmt: skip
    finally:
        if progress is not None:
            progress.close()
    typer.echo(versus_text(table))
    if csv is not None:  # the table names its game (a column)
        write_atomic(csv, table.assign(**{GAME_KEY: game}).to_csv(index=False).encode(),
                     "CSV table")  # fmt: skip
        typer.echo(f"table: {csv}")


#: --against of `sheet`: the set-up a comparison sheet puts beside the one played.
Against = Annotated[
    str | None,
    typer.Option(
        help="A comparison sheet: put the set-up beside this one on the same deals (the same "
        "seeds), each headline measure with the paired difference and its 95 % interval: "
        "'base' (the base game) or variants joined by '+', with the rulebook's rule options, "
        "parameters and components."
    ),
]


@app.command(short_help="A balance sheet per player count: fairness, skill, luck, diversity.")
def sheet(
    players: PlayerCounts = None,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Directory for the sheets: sheet-<P>p each for the base game, <set-up>-<P>p "
            "for another set-up, <set-up>-vs-<other>-<P>p with --against.",
        ),
    ] = Path("out/sheets"),
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games of L3 self-play (seats, length).")
    ] = 20_000,
    skill_games: Annotated[
        int, typer.Option(help="Games per pairing of levels L0-L3 in the skill matrix.")
    ] = 2_000,
    search_games: Annotated[
        int, typer.Option(help="Games per pairing of search (L4) with L0-L3 (0: leave it out).")
    ] = 100,
    deals: Annotated[int, typer.Option(help="Deals replayed for luck.")] = 2_000,
    replays: Annotated[int, typer.Option(help="Replays of each deal (2-50).")] = 4,
    check_games: Annotated[
        int,
        typer.Option(
            help="Games of L4 self-play, the check field (search in every seat, on the "
            "L3 self-play's first deals): does each finding hold under search play? "
            "(0: leave it out)."
        ),  # fmt: skip
    ] = 100,
    field: Annotated[
        Path | None,
        typer.Option(
            help="A field study's report (diversity, mechanisms, strong play's points); "
            "default: the game's newest shipped field study (`moaisim report`'s notes name it)."
        ),  # fmt: skip
    ] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="base, or variants joined by '+'.")
    ] = None,
    components: Annotated[
        Path | None,
        typer.Option(
            "--components", help="A TOML component set replacing the default (see `rules`)."
        ),
    ] = None,
    turn_order: TurnOrder = None,
    volcano_after_moai: VolcanoAfterMoai = None,
    spent_wood: SpentWood = None,
    option: RuleOption = None,
    param: Param = None,
    against: Against = None,
    seed: GamesSeed = 2026,
    jobs: Jobs = 1,
    *,
    game: GameName,
) -> None:
    """A balance sheet for each player count, of the base game or of any set-up (variants,
    rule options, rule parameters, a component file: the options of `play`): seat fairness
    over all seats, the skill matrix of levels L0-L4, luck (how often a weaker bot still
    wins; the deal's share, from the same deals replayed with the bots' own draws renewed),
    strategic diversity and mechanism value (from a field study of the base game),
    decisiveness, length and where the points come from; each with its interval, figures,
    and a paragraph a publisher can print; and the check field: L4 self-play on the first
    deals, saying whether each finding holds under search play. --against puts the set-up
    beside another on the same deals. Writes <out>/<name>/sheet.md and sheet.html."""
    from moaisim.analysis.verdicts import newest_field_study
    from moaisim.studies.sheet import (
        SheetSettings,
        check_sheet_dir,
        planned_games,
        play_sheet,
        write_sheet,
    )

    counts = list(dict.fromkeys(players or [3, 4]))
    # the game's newest shipped field study, the one the shipped sheets read (Moai's
    # reports/field-seed2044, Rapa Nui's reports/rapa-nui-field); none when the checkout
    # ships none of the game
    if field is None:
        field = newest_field_study(game)
    params = single_params(param, game)
    options = rule_options(game, option, turn_order=turn_order,
                           volcano_after_moai=volcano_after_moai,
                           spent_wood=spent_wood)  # fmt: skip
    spec = load_game(game)
    plans = []
    for p in counts:  # every mistake in the set-up, one line, before anything is made
        rules = spec.make_rules(p, variant, None, components, params, **options)
        other = None if against is None else spec.make_rules(p, against)
        plans.append(SheetSettings(p, games, skill_games, search_games, deals, replays, seed,
                                   field, jobs, None if rules.setup == "base" else rules,
                                   other, game=game, check_games=check_games).check())  # fmt: skip
    # where the sheets go, checked before any game: a file, a run, a sheet of other
    # settings or a directory that takes no file is refused now, not after the play
    if out.is_symlink() and not out.exists():
        raise UserError(f"{out} is a symbolic link to nothing: remove it or choose another --out")
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is a file, not a directory: choose another --out")
    if out.is_dir() and is_run(out):
        raise UserError(f"{out} holds a run, not balance sheets: choose another --out")
    for plan in plans:
        check_sheet_dir(out / plan.name(), plan)
    check_writable_dir(out, "--out")
    minutes = sum(p.seconds() for p in plans) / max(min(jobs, 2), 1) / 60
    say(f"{len(plans)} sheet(s), about {minutes:.0f} min with {jobs} job(s) (search, L4, "
        "is most of it: --search-games 0 and --check-games 0 leave it out)")  # fmt: skip
    setup = _setup_args(game, variant, components, param, against, **options)
    done: list[int] = []
    try:
        for p, plan in zip(counts, plans, strict=True):
            progress = (
                make_bar(planned_games(plan), label=f"{p} players") if sys.stderr.isatty() else None
            )
            try:
                got = play_sheet(plan, progress)
            finally:
                if progress is not None:
                    progress.close()
            command = _sheet_line(plan, out, setup)
            path = write_sheet(got, out / plan.name(), command)
            done.append(p)
            typer.echo(f"{p} players: {path}")
    except KeyboardInterrupt as exc:
        kept = f"the sheets of {', '.join(f'{p}p' for p in done)} are written" if done else (
            "no sheet written")  # fmt: skip
        typer.echo(f"moaisim: {stopped(exc)}; {kept}", err=True)
        raise typer.Exit(stop_code(exc)) from None


@app.command(short_help="One table of every game's balance: seats, skill, luck, length.")
def atlas(
    sheets: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Folders holding balance sheets (searched; default: reports). The newest "
            "base-game sheet of each game and player count is read.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Directory for the atlas (atlas.md, .html, .csv).")
    ] = Path("out/atlas"),
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--game",
            metavar="GAME",
            help="Only these games (repeat; default: every game with sheets).",
            callback=lambda names: None if names is None else [check_name(n) for n in names],
        ),
    ] = None,
    play: Annotated[
        bool,
        typer.Option(
            "--play",
            help="Make the sheets first, every game at every player count, into OUT/sheets "
            "(the sheet options below), and read those.",
        ),
    ] = False,
    games: Annotated[
        int, typer.Option("--games", "-n", help="With --play: L3 self-play games.")
    ] = 20_000,
    skill_games: Annotated[int, typer.Option(help="With --play: games per skill pairing.")] = 2_000,
    search_games: Annotated[
        int, typer.Option(help="With --play: games per L4 pairing (0: no L4 on the ladder).")
    ] = 100,
    deals: Annotated[int, typer.Option(help="With --play: deals replayed for luck.")] = 2_000,
    replays: Annotated[int, typer.Option(help="With --play: replays of each deal.")] = 4,
    seed: GamesSeed = 2026,
    jobs: Jobs = 1,
) -> None:
    """The atlas: for each game and player count, the same measures side by side, each with
    its 95 % interval, read from the game's base-game balance sheets (L3 self-play): the start
    seat's edge over fair, the skill ladder L0-L4, luck (how often one weaker bot wins; the
    same winner on a replayed deal; the deal's share), how often the leader after the first
    third of the game wins, length, lead changes and where the points come from; with a
    figure. Rows whose L3 a field study shows exploitable are marked. Writes
    OUT/atlas.md, atlas.html, atlas.csv and figures/atlas.png."""
    from moaisim.analysis.verdicts import newest_field_study
    from moaisim.studies.atlas import check_atlas_dir, make_atlas
    from moaisim.studies.sheet import SheetSettings, check_sheet_dir, play_sheet, write_sheet

    names = list(dict.fromkeys(only or available()))
    roots = list(sheets or [Path("reports")])
    check_atlas_dir(out)
    command = command_line("atlas")
    if play:
        if sheets:
            raise UserError("--play makes its own sheets into OUT/sheets: give no folders")
        plans = []
        for g in names:
            field = newest_field_study(g)
            for p in load_game(g).INFO.players:
                plans.append((g, SheetSettings(p, games, skill_games, search_games, deals,
                                               replays, seed, field, jobs, None, None, game=g,
                                               check_games=0).check()))  # fmt: skip
        for g, plan in plans:
            check_sheet_dir(out / "sheets" / g / plan.name(), plan)
        minutes = sum(plan.seconds() for _, plan in plans) / max(min(jobs, 2), 1) / 60
        say(f"{len(plans)} sheet(s), about {minutes:.0f} min with {jobs} job(s)")
        for g, plan in plans:
            say(f"{g}, {plan.players} players ...")
            got = play_sheet(plan, None)
            line = _sheet_line(plan, out / "sheets" / g, f" --game {shlex.quote(g)}")
            write_sheet(got, out / "sheets" / g / plan.name(), line)
        roots = [out / "sheets"]
    path, table = make_atlas(roots, out, command, names if only else None)
    read = ", ".join(f"{t} {p}p" for t, p in zip(table["title"], table["players"], strict=True))
    typer.echo(f"atlas of {read}: {path}")


def _sheet_line(plan: SheetSettings, out: Path, setup: str) -> str:
    """A sheet's Reproduce line: `moaisim sheet` with its settings (`setup`: the set-up's
    options as given, `_setup_args`)."""
    return (f"moaisim sheet -p {plan.players} -o {out}{setup} -n {plan.games} "
            f"--skill-games {plan.skill_games} --search-games {plan.search_games} "
            f"--deals {plan.deals} --replays {plan.replays} --check-games {plan.check_games} "
            f"--seed {plan.seed} --jobs {plan.jobs}"
            + (f" --field {plan.field}" if plan.field else ""))  # fmt: skip


def _setup_args(game: str, variant: str | None, components: Path | None,
                param: list[str] | None, against: str | None, **options: str) -> str:  # fmt: skip
    """The set-up's options of a sheet's Reproduce line, as given (the game; the rule options
    that are not their default: by their own flags where they have one, `OPTION_FLAGS`, else
    as --option), each with a leading space."""
    out = f" --game {shlex.quote(game)}"
    out += "" if variant is None else f" --variant {shlex.quote(variant)}"
    if components is not None:
        out += f" --components {shlex.quote(str(components))}"
    defaults = load_game(game).OPTIONS
    for name, value in options.items():
        if value != defaults[name][0] and name in OPTION_FLAGS:
            out += f" --{name.replace('_', '-')} {shlex.quote(value)}"
        elif value != defaults[name][0]:
            out += f" --option {shlex.quote(f'{name}={value}')}"
    out += "".join(f" --param {shlex.quote(x)}" for x in param or [])
    return out + ("" if against is None else f" --against {shlex.quote(against)}")


@app.command(short_help="The meta-game of a library: invasion, alpha-Rank, Nash mixture.")
def metagame(
    players: PlayerCounts = None,
    library: Annotated[
        str, typer.Option(help="The strategies, comma-separated (default: the L2 pool).")
    ] = "",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per composition (a multiple of P).")
    ] = 240,
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="One variant.")] = None,
    option: RuleOption = None,
    seed: GamesSeed = 0,
    jobs: Jobs = 1,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples of the Nash mixture (0: none).")
    ] = 200,
    alphas: Annotated[str, typer.Option(help="alpha-Rank's alphas, comma-separated.")] = (
        "0.1,1,10,100"
    ),
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Directory for the tables (CSV), metagame.md and the mixtures (nash-<P>p.toml).",
        ),  # fmt: skip
    ] = None,
    *,
    game: GameName,
) -> None:
    """Play every composition of a library of strategies (the same games in each, seats
    rotated; under --variant and --option when given) and report its meta-game: the
    symmetric Nash mixture of the population game with its bootstrap spread, the invasion
    matrix (one copy of X among copies of Y), alpha-Rank over alphas and Nash averaging.
    With --out, writes each table as CSV, metagame.md, and each mixture as TOML for
    `mixture(file=...)`, each naming the game (another game's mixture there is refused)."""
    from moaisim.analysis.metagame import check_mixture_file

    try:
        alpha_list = [float(a) for a in alphas.split(",") if a.strip()]
    except ValueError:
        raise UserError(f"--alphas: expected numbers separated by commas, got {alphas!r}") from None
    names = library_names(library, game)
    counts = players or [3, 4]
    options = rule_options(game, option)
    spec = load_game(game)  # the rules of each count, checked before any game is played
    rules = {p: spec.make_rules(p, variant, **options) if options else None for p in counts}
    if out is not None:  # another game's mixture is refused before any game is played
        for p in counts:
            check_mixture_file(out / f"nash-{p}p.toml", game)
        make_dir(out)
    parts = [f"# Meta-game of {len(names)} strategies\n",
             f"Command: `{command_line('metagame')}`\n", f"Game: `{game}`\n"]  # fmt: skip
    for p in counts:
        parts.append(_metagame_of(names, p, games, seed, jobs, variant, bootstrap, alpha_list,
                                  out, game, rules[p]))  # fmt: skip
    if out is not None:
        write_atomic(out / "metagame.md", "\n".join(parts).encode(), "report")
        say(f"tables: {out}")


def _metagame_of(names: list[str], players: int, games: int, seed: int, jobs: int,
                 variant: str | None, bootstrap: int, alphas: list[float],
                 out: Path | None, game: str,
                 rules: RulesLike | None = None) -> str:  # fmt: skip
    """`metagame` at one player count: play the compositions (a progress bar on a terminal),
    analyse them, print the Markdown section (returned) and write the tables and the Nash
    mixture into `out`; `rules` (of `players`), when given, are the set-up played (the
    variant with rule options) instead of the variant's."""
    from moaisim.analysis import metagame as mg
    from moaisim.studies.metagame import play as meta_play

    compositions = len(mg.compositions(len(names), players))
    say(f"metagame: {players} players, {compositions} compositions x {games:,} games")
    progress = make_bar(compositions * games) if sys.stderr.isatty() else None
    try:
        meta = meta_play(names, players, games, seed, jobs, variant, progress=progress,
                         rules=rules, game=game)  # fmt: skip
    finally:
        if progress is not None:
            progress.close()
    an = mg.analyse(meta, bootstrap, alphas, seed)
    text = mg.markdown(an)
    typer.echo(text)
    if out is not None:
        for name, table in an.tables.items():  # each table names its game (a column)
            write_atomic(out / f"{name}-{players}p.csv",
                         table.assign(**{GAME_KEY: game}).to_csv(index=False).encode(),
                         "CSV table")  # fmt: skip
        path = mg.write_mixture(out / f"nash-{players}p.toml", meta.names, an.mixture, players,
                                source=command_line("metagame"), gain=an.gain,
                                game=game)  # fmt: skip
        say(f"mixture: {path}")
    return text


# Options of `tune`, declared apart to keep its signature short: the held-out evaluation, the
# restriction, and --population (the PSRO loop) with its own.
HeldOutGames = Annotated[
    int, typer.Option(help="Games per rotation of the final, held-out evaluation.")
]
HeldOutSeed = Annotated[
    int | None, typer.Option(help="Root seed of the held-out games (default seed + 1).")
]
Forbid = Annotated[
    str,
    typer.Option(
        help="Restricted play: tune under restrict(..., forbid=...), the names "
        "comma-separated: the game's own (an unknown name's error lists them)."
    ),
]
Population = Annotated[
    bool,
    typer.Option(
        "--population",
        help="PSRO loop: solve the meta-game of --library, tune a "
        "best response to its Nash mixture, add it, repeat (see --epsilon).",
    ),
]
Library = Annotated[
    str, typer.Option(help="--population: the starting strategies (default: the L2 pool).")
]
Epsilon = Annotated[
    float,
    typer.Option(
        help="--population: stop when the best response's held-out gain over the "
        "fair share has its 95 % upper bound below this."
    ),
]
Iterations = Annotated[int, typer.Option(help="--population: at most this many.")]
MetaGames = Annotated[
    int, typer.Option(help="--population: games per composition of each meta-game.")
]
Absorb = Annotated[
    list[str] | None,
    typer.Option(
        help="--population: known challengers, a glob of weights files (repeatable; another "
        "game's are left out), each a candidate best response at every iteration beside the "
        "CMA-ES runs, e.g. 'reports/*/challengers/*.toml'."
    ),
]


@app.command(short_help="Find strong heuristic weights by simulation (CMA-ES).")
def tune(
    players: Players,
    field: Field = "greedy",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Training games per seat rotation and candidate.")
    ] = 300,
    generations: Annotated[int, typer.Option(help="CMA-ES generations in all.")] = 40,
    popsize: Annotated[
        int | None, typer.Option(help="Candidates per generation (default: CMA-ES's).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Root seed of the training games.")] = 0,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Where tuned-<P>p.toml, .log and .state go.")
    ] = Path("."),
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="base, or variants joined by '+'.")
    ] = None,
    turn_order: TurnOrder = None,
    volcano_after_moai: VolcanoAfterMoai = None,
    spent_wood: SpentWood = None,
    option: RuleOption = None,
    start: Annotated[
        list[Path] | None,
        typer.Option(
            help="Starting weights (TOML); default heuristic's. With --population, repeat it "
            "for one CMA-ES run per start at each iteration."
        ),
    ] = None,
    sigma: Annotated[
        float, typer.Option(help="Initial step, in units of each weight's scale.")
    ] = 0.3,
    held_out_games: HeldOutGames = 2000,
    held_out_seed: HeldOutSeed = None,
    objective: Annotated[str, typer.Option(help="win (win share) or rank (mean rank).")] = "win",
    names: Annotated[
        str | None, typer.Option(help="Only these weights, comma-separated (default: all).")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Candidates played in parallel.")] = 1,
    restart: Annotated[
        bool, typer.Option(help="Start again instead of resuming the saved search in --out.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No line per generation.")] = False,
    forbid: Forbid = "",
    population: Population = False,
    library: Library = "",
    epsilon: Epsilon = 0.02,
    iterations: Iterations = 3,
    meta_games: MetaGames = 120,
    absorb: Absorb = None,
    *,
    game: GameName,
) -> None:
    """Search heuristic's weight space with CMA-ES: every candidate plays the same training
    games, seats rotated, against the field; the best weights go to OUT/tuned-<P>p.toml with
    how they were made and their win share on held-out games. Ctrl-C keeps the last finished
    generation; the same command resumes. The field may be a mixture
    (`--field "mixture(file=nash-3p.toml)"`). With --population, the field is the Nash
    mixture of a growing library instead (a PSRO loop), and the last best response's
    held-out gain is the mixture's exploitability certificate."""
    from moaisim.studies.tune import TuneSettings, search

    if start and len(start) > 1 and not population:
        raise UserError("give one --start (several start a population loop's runs: "
                        "--population)")  # fmt: skip
    if absorb and not population:
        raise UserError("--absorb names a population loop's known challengers: add --population")
    options = rule_options(game, option, turn_order=turn_order,
                           volcano_after_moai=volcano_after_moai,
                           spent_wood=spent_wood)  # fmt: skip
    defaults = load_game(game).OPTIONS
    changed = {k: v for k, v in options.items() if v != defaults[k][0]}
    if population and changed:
        raise UserError("--population plays the game's default rule options: leave out "
                        f"{', '.join(f'{k}={v}' for k, v in changed.items())}")  # fmt: skip
    if population:
        _population(players, library, out, epsilon, iterations, meta_games, games, generations,
                    popsize, held_out_games, seed, start, jobs, field, restart, game,
                    absorb or [])  # fmt: skip
        return
    forbids = [f.strip() for f in forbid.split(",") if f.strip()]
    settings = TuneSettings(
        players, field, games, generations, popsize, seed, variants=variant,
        options=changed,
        start=start[0] if start else None,
        sigma=sigma, held_out_games=held_out_games, held_out_seed=held_out_seed,
        objective=objective, names=names.split(",") if names else None, forbid=forbids,
        game=game,
    )  # fmt: skip
    try:
        result = search(settings, out, resume=not restart, n_jobs=jobs,
                        progress=None if quiet else _tune_progress(held_out_games),
                        command=command_line("tune"))  # fmt: skip
    except KeyboardInterrupt as exc:
        typer.echo(f"moaisim: {stopped(exc)}; the last finished generation is saved: run the "
                   "same command again to resume", err=True)  # fmt: skip
        raise typer.Exit(stop_code(exc)) from None
    _print_tuned(result, forbids)


def _tune_progress(held_out_games: int) -> Callable[[TuneProgress], None]:
    """What `tune` says as it goes, on stderr: a line per generation, then the held-out
    games it plays."""

    def report(p: TuneProgress) -> None:
        if p.phase == "search":
            again = " (resumed)" if p.resumed else ""
            typer.echo(
                f"generation {p.generation}/{p.generations}{again}: best {p.best:.4f}, "
                f"mean point {p.mean:.4f}, sigma {p.sigma:.3f}, {p.evaluations} candidates, "
                f"{p.elapsed:.0f} s",
                err=True,
            )
        elif p.phase == "held-out":
            typer.echo(f"playing {held_out_games} held-out games per seat...", err=True)

    return report


def _print_tuned(result: TuneResult, forbids: list[str]) -> None:
    """What `tune` prints at the end: the held-out win shares, and how to play the weights."""
    typer.echo(f"held-out win share: tuned {result.held_out}; start {result.start_held_out}")
    spec = f"heuristic(weights={result.path})"
    if forbids:
        spec = f"restrict(strategy={spec!r}, forbid={forbids!r})"
    typer.echo(f"weights: {result.path} (play them: --strategies {shlex.quote(spec)}); "
               f"log: {result.log}")  # fmt: skip


def _population(players: int, library: str, out: Path, epsilon: float, iterations: int,
                meta_games: int, games: int, generations: int, popsize: int | None,
                held_out_games: int, seed: int, start: list[Path] | None, jobs: int, field: str,
                restart: bool, game: str, absorb: list[str] | None = None
                ) -> None:  # fmt: skip
    """`tune --population`: the PSRO loop (moaisim.studies.population)."""
    from moaisim.studies.certify import challenger_files
    from moaisim.studies.population import certificate_table, state_path
    from moaisim.studies.population import population as run_population

    if field != "greedy":
        raise UserError("--population tunes against the library's Nash mixture: give the "
                        "starting strategies with --library, not --field")  # fmt: skip
    if restart and state_path(out, players).exists():
        raise UserError(f"--restart: remove {out} (a population loop keeps one state per "
                        "directory) or choose another --out")  # fmt: skip
    names = library_names(library, game)
    known: list[Path] = []
    for pattern in absorb or []:
        found = challenger_files(pattern, game=game)
        if not found:
            raise UserError(f"--absorb {pattern!r}: no weights file of {game} matches")
        known += [p for p in found if p not in known]
    result = run_population(players, names, out, epsilon, iterations, meta_games, games,
                            generations, popsize, held_out_games, seed,
                            start[0] if start and len(start) == 1 else start, jobs, say,
                            command_line("tune"), game=game, known=known)  # fmt: skip
    for row in certificate_table(result):
        runs = f" (runs' held-out shares: {row['starts']})" if row["starts"] else ""
        typer.echo(f"iteration {row['iteration']}: {row['members']} strategies, mixture "
                   f"{row['support']}; best-response gain {row['gain']:+.3f} "
                   f"[{row['gain_lo']:+.3f}, {row['gain_hi']:+.3f}]{runs}")  # fmt: skip
    last = result.certificate
    verdict = "certified" if result.certified else "NOT certified (more iterations needed)"
    if last is not None:
        typer.echo(f"exploitability certificate ({players} players): gain {last.gain:+.3f}, "
                   f"upper bound {last.gain_hi:+.3f} vs epsilon {epsilon}: {verdict}")  # fmt: skip
    typer.echo(f"state: {state_path(out, players)}")


@app.command(short_help="Time both engines on the same games; measure memory.")
def bench(
    players: Annotated[
        str, typer.Option("--players", "-p", help="Player counts to time, e.g. '2,3,4,5'.")
    ] = "2,3,4,5",
    lineups: Annotated[
        str,
        typer.Option(help="Lineups to time, one strategy in every seat: 'greedy,tuned,random'."),
    ] = "greedy,tuned,random",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Batch-engine games per configuration.")
    ] = 20_000,
    reference_games: Annotated[
        int, typer.Option(help="Reference-engine games per configuration (the first of them).")
    ] = 40,
    repeat: Annotated[
        int, typer.Option(help="Timings per configuration; the best of each engine is kept.")
    ] = 3,
    batch_size: Annotated[
        int, typer.Option(help="Games per batch of the batch engine (as simulate plays them).")
    ] = 10_000,
    memory_games: Annotated[
        str, typer.Option(help="Batch sizes whose peak memory is measured, e.g. '10000,100000'.")
    ] = "10000,100000",
    memory_players: Annotated[
        str, typer.Option(help="Player counts of the memory runs (greedy lineup).")
    ] = "4,5",
    memory: Annotated[
        bool, typer.Option("--memory/--no-memory", help="Measure peak memory in child processes.")
    ] = True,
    seed: GamesSeed = 0,
    markdown: Annotated[
        Path | None, typer.Option("--markdown", help="Also write the Markdown table to this file.")
    ] = None,
    csv: Annotated[
        Path | None, typer.Option("--csv", help="Also write every measured column as CSV.")
    ] = None,
    runner_games: Annotated[
        int, typer.Option(help="Games of the runner benchmark (4p greedy to disk); 0: skip.")
    ] = 1_000_000,
    runner_speedup_games: Annotated[
        int, typer.Option(help="Games timed with --jobs 1 and --runner-jobs (the speed-up).")
    ] = 100_000,
    runner_jobs: Annotated[int, typer.Option(help="Jobs of the runner benchmark.")] = 2,
    *,
    game: GameName,
) -> None:
    """Time the batch and reference engines on the same games; measure a batch's memory.

    Progress goes to stderr, the Markdown table (with machine and command) to stdout.
    """
    from moaisim.studies import bench as bench_lib

    config = bench_lib.main_args(
        players=players, lineups=lineups, games=games, reference_games=reference_games,
        memory_games=memory_games, memory_players=memory_players, memory=memory, seed=seed,
        repeat=repeat, batch_size=batch_size, game=game,
    )  # fmt: skip
    bench_lib.check_runner_args(runner_games, runner_speedup_games, runner_jobs)
    bench_lib.check_outputs(str(markdown) if markdown else None, str(csv) if csv else None)
    text = bench_lib.report(
        config,
        "moaisim bench",
        markdown_path=str(markdown) if markdown else None,
        csv_path=str(csv) if csv else None,
        progress=_err,
    )
    sys.stdout.write(text)
    if runner_games > 0 or runner_speedup_games > 0:
        _bench_runner(runner_games, runner_speedup_games, runner_jobs, seed, markdown, text)


def _err(line: str) -> None:
    """A line of a benchmark's progress, on stderr as it is."""
    typer.echo(line, err=True)


def _bench_runner(games: int, speedup_games: int, jobs: int, seed: int, markdown: Path | None,
                  text: str) -> None:  # fmt: skip
    """`bench`'s runner benchmark: its table to stdout, and after the engines' `text` in the
    --markdown file."""
    from moaisim.studies import bench as bench_lib

    df = bench_lib.runner_speed(games, speedup_games, jobs, seed=seed, progress=_err)
    command = (f"moaisim simulate -p 4 -n N --strategies greedy -s {seed} -j J -o DIR -q "
               f"(N = {speedup_games:,} with J = 1 and {jobs}; "
               f"N = {games:,} with J = {jobs})")  # fmt: skip
    runner = "\n" + bench_lib.runner_markdown(df, command)
    sys.stdout.write(runner)
    if markdown:
        write_atomic(markdown, (text + runner).encode(), "Markdown table")


@app.command(short_help="Heuristic weights that decide as a teacher (search) decides.")
def distill(
    players: Players,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="Directory of the weights file and kept positions."),
    ],
    teacher: Annotated[
        str, typer.Option(help="The strategy imitated (a spec or a level, L0-L4).")
    ] = "search",
    field: Annotated[
        str, typer.Option("--field", help="The other seats while positions are kept.")
    ] = "L3",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games whose teacher decisions are fitted.")
    ] = 120,
    held_out_games: Annotated[
        int, typer.Option(help="Games (root seed + 1) whose decisions measure agreement.")
    ] = 60,
    start: Annotated[
        Path | None, typer.Option(help="Start weights file (default: heuristic's defaults).")
    ] = None,
    weights: Annotated[
        str | None,
        typer.Option(help="The weights moved, comma-separated (default: all of them)."),
    ] = None,
    kinds: Annotated[
        str,
        typer.Option(
            help="Decision kinds imitated, comma-separated (default: every kind; search "
            "searches bid,pick_epoch,work,feed)."
        ),
    ] = "",
    generations: Annotated[int, typer.Option(help="CMA-ES generations.")] = 30,
    popsize: Annotated[
        int | None, typer.Option(help="Candidates per generation (default: CMA-ES's).")
    ] = None,
    strength_games: Annotated[
        int, typer.Option(help="Games per seat rotation against --field after the fit (0: none).")
    ] = 500,
    seed: GamesSeed = 0,
    jobs: Jobs = 1,
    *,
    game: GameName,
) -> None:
    """Keep the teacher's decisions in games against a field (exact copies of each position),
    then move heuristic weights by CMA-ES until they answer as the teacher did at as many of
    them as possible (agreement); measure agreement on held-out games and the fitted weights'
    win share against the field. Writes distilled-<P>p.toml into --out (positions are kept
    there and reused by a run of the same settings)."""
    from moaisim.studies.distill import distill as run_distill
    from moaisim.studies.distill import summary

    names = [w.strip() for w in weights.split(",") if w.strip()] if weights else None
    wanted = [k.strip() for k in kinds.split(",") if k.strip()] or None
    try:
        got = run_distill(players, out, teacher, field, games, held_out_games, start, names,
                          wanted, generations, popsize, 0.3, seed, strength_games, jobs, say,
                          command_line("distill"), game=game)  # fmt: skip
    except KeyboardInterrupt as exc:
        typer.echo(f"moaisim: {stopped(exc)}; kept positions are saved: run the same command "
                   "again to reuse them", err=True)  # fmt: skip
        raise typer.Exit(stop_code(exc)) from None
    typer.echo(summary(got))


@app.command(short_help="A policy learned from search's decisions (expert iteration).")
def learn(
    players: Players,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="Directory of the model files and kept positions."),
    ],
    experts: Annotated[
        str,
        typer.Option(
            help="The strategies the policy asks, comma-separated (heuristic-family specs or "
            "greedy; a spec's own commas kept): a gate picks one, a ranker values each one's "
            "proposal; a ranker's first expert plays before any tree is learned."
        ),
    ],
    mode: Annotated[
        str,
        typer.Option(
            help="gate: trees pick from the seat's context which expert decides (trained on "
            "search's choices); ranker: trees value every expert's proposal (trained on "
            "search's rollout values of them)."
        ),
    ] = "gate",
    teacher: Annotated[
        str, typer.Option(help="A gate's first teacher (a spec or a level, L0-L4).")
    ] = "search",
    field: Annotated[
        str, typer.Option("--field", help="The other seats while decisions are kept.")
    ] = "L3",
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            help="Games whose teacher decisions are learned (default: 120, a ranker 600).",
        ),
    ] = None,
    held_out_games: Annotated[
        int | None,
        typer.Option(
            help="Games (root seed + 1) that measure agreement (default: 60, a ranker 150)."
        ),
    ] = None,
    iterations: Annotated[
        int,
        typer.Option(help="Rounds; each next teacher searches with the last policy as rollout."),
    ] = 1,
    worlds: Annotated[int, typer.Option(help="A ranker's teacher: worlds per decision.")] = 12,
    trees: Annotated[
        int | None,
        typer.Option(help="Boosted trees (a gate's per expert; default 100, a ranker 200)."),
    ] = None,
    depth: Annotated[int, typer.Option(help="A gate's trees: their depth.")] = 3,
    leaves: Annotated[int, typer.Option(help="A ranker's trees: most leaves of each.")] = 31,
    history: Annotated[
        int,
        typer.Option(
            help="A ranker's fit: the decisions of this round and of the "
            "rounds before, this many rounds in all."
        ),
    ] = 1,
    candidates: Annotated[
        str,
        typer.Option(
            help="A ranker's candidates: proposals (its experts' distinct proposals) or legal "
            "(those, then every other legal action; Rapa Nui)."
        ),
    ] = "proposals",
    rate: Annotated[
        float | None,
        typer.Option(help="The boosting's learning rate (default: 0.1, a ranker 0.05)."),
    ] = None,
    strength_games: Annotated[
        int, typer.Option(help="Games per seat rotation against --field per round (0: none).")
    ] = 300,
    seed: GamesSeed = 0,
    jobs: Jobs = 1,
    *,
    game: GameName,
) -> None:
    """Expert iteration. A gate: keep the teacher's decisions (search) in games against a
    field, ask every expert at each, and train gradient-boosted trees (scikit-learn) that pick,
    from the seat's context, the expert likeliest to decide as the teacher did. A ranker:
    search over the experts' proposals (with the ranker as rollout policy) values each, and
    trees learn those values from each proposal's features; its compiled play is checked
    against the trees. Each round measures agreement on held-out games and the win share
    against the field. Writes learned-<P>p-<i>.json and learned-<P>p.json (the last) into
    --out; play one with learned(model=FILE)."""
    from moaisim.studies import learn as gate_study
    from moaisim.studies import rank as rank_study

    if mode not in ("gate", "ranker"):
        raise UserError(f"--mode is gate or ranker, not {mode!r}")
    known = rank_study.CANDIDATES
    if candidates not in known or (candidates != known[0] and mode != "ranker"):
        raise UserError(f"--candidates is {' or '.join(known)}, and only a ranker's "
                        f"(--mode ranker), not {candidates!r}")  # fmt: skip
    names = library_names(experts, game)
    ranker = mode == "ranker"
    if games is None:
        games = 600 if ranker else 120
    if held_out_games is None:
        held_out_games = 150 if ranker else 60
    if trees is None:
        trees = rank_study.TREES if ranker else gate_study.TREES
    if rate is None:
        rate = rank_study.RATE if ranker else gate_study.RATE
    try:
        if ranker:
            got = rank_study.rank(players, out, names, field, games, held_out_games, iterations,
                                  worlds, trees, leaves, rate, seed, strength_games,
                                  history=history, n_jobs=jobs, progress=say,
                                  command=command_line("learn"), candidates=candidates,
                                  game=game)  # fmt: skip
            typer.echo(rank_study.summary(got))
            return
        got = gate_study.learn(players, out, names, teacher, field, games, held_out_games,
                               iterations, trees, depth, rate, seed, strength_games, jobs, say,
                               command_line("learn"), game=game)  # fmt: skip
    except KeyboardInterrupt as exc:
        typer.echo(f"moaisim: {stopped(exc)}; kept positions are saved: run the same command "
                   "again to reuse them", err=True)  # fmt: skip
        raise typer.Exit(stop_code(exc)) from None
    typer.echo(gate_study.summary(got))


@app.command("tune-search", short_help="Tune search's own knobs against L3 (L4's defaults).")
def tune_search(
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="Run directory (resumed if it holds the same search)."),
    ],
    players: PlayerCounts = None,
    trials: Annotated[int, typer.Option(help="Trials in all (trial 0: today's defaults).")] = 24,
    games: Annotated[
        int,
        typer.Option("--games", "-n", help="Games per seat rotation and player count, per trial."),
    ] = 20,
    verify_games: Annotated[
        int,
        typer.Option(
            help="New games per seat rotation pitting the best against the defaults (0: none)."
        ),
    ] = 100,
    worlds: Annotated[
        int, typer.Option(help="Worlds per decision (held fixed: the cost knob).")
    ] = 32,
    max_seconds: Annotated[
        float,
        typer.Option(help="Most CPU seconds per game of a searching seat a chosen trial may take."),
    ] = 2.0,
    seed: GamesSeed = 0,
    jobs: Jobs = 1,
    *,
    game: GameName,
) -> None:
    """Search search's knobs (horizon, candidates, bid temperature, lead scale) with Optuna's
    TPE: each trial plays one search seat against L3, seats rotated, on the same games at
    every player count (-p, default 3 and 4); then the best trial and the defaults play new
    games, paired. Writes trials.csv and search-knobs.toml into --out."""
    try:  # a stop while the study's modules load is told like one during the trials
        from moaisim.studies.search_knobs import summary
        from moaisim.studies.search_knobs import tune_search as run

        got = run(players or [3, 4], out, trials, games, verify_games, worlds, max_seconds, seed,
                  jobs, say, command_line("tune-search"),
                  game=game)  # fmt: skip
    except KeyboardInterrupt as exc:
        typer.echo(f"moaisim: {stopped(exc)}; finished trials are kept: run the same command "
                   "again to go on", err=True)  # fmt: skip
        raise typer.Exit(stop_code(exc)) from None
    typer.echo(summary(got))


@app.command(short_help="The exploitability certificate of a shipped mixture file.")
def certify(
    mixture: Annotated[
        Path,
        typer.Argument(help="A shipped mixture file, e.g. strategies/moai/weights/nash-3p.toml."),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Directory of the certificate (resumed if it holds one of the same settings).",
        ),  # fmt: skip
    ],
    families: Annotated[
        str,
        typer.Option(
            help="Challenger families, comma-separated: library, weights, files, learned, "
            "restrict, deviations, cma."
        ),  # fmt: skip
    ] = "library,weights,files,learned,restrict,deviations,cma",
    challenger_files: Annotated[
        str,
        typer.Option(
            help="The files family: a glob of challenger weights files (another game's are "
            "left out)."
        ),
    ] = "reports/*/challengers/*.toml",
    learned_files: Annotated[
        str,
        typer.Option(
            help="The learned family: a glob of learned policies' model files, beside the "
            "shipped ones (other player counts' and other games' are left out; a broken one "
            "is named in one line)."
        ),
    ] = "reports/*/learned/*.json",
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Add the run to the mixture's certificate history and rewrite its "
            "certificate page (<mixture>.certificate.md and .csv, beside the file).",
        ),
    ] = False,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Screening games per seat rotation.")
    ] = 200,
    held_out_games: Annotated[
        int, typer.Option(help="Held-out games per seat rotation for each family's best.")
    ] = 1000,
    epsilon: Annotated[float, typer.Option(help="The win-share margin certified.")] = 0.02,
    step: Annotated[
        float, typer.Option(help="One-step deviations: the relative move of one weight.")
    ] = 0.5,
    random_starts: Annotated[int, typer.Option(help="CMA-ES runs from random weights.")] = 2,
    cma_generations: Annotated[int, typer.Option(help="Generations of each CMA-ES run.")] = 8,
    cma_games: Annotated[
        int, typer.Option(help="Training games per seat rotation of each CMA-ES candidate.")
    ] = 60,
    seed: GamesSeed = 0,
    jobs: Jobs = 1,
    *,
    game: GameName,
) -> None:
    """Try every family of challengers against a shipped mixture file (one challenger seat
    against copies of the mixture, seats rotated): the library pool, heuristic with every
    shipped weights file, every known challenger file (every field study's challengers),
    every learned policy of the player count, each member with each mechanism forbidden,
    one-step deviations of each weight of each weight-vector member, CMA-ES best responses
    from every shipped weights file and random starts. Each family's best screened
    challenger is measured on held-out games; the mixture is certified at epsilon only if
    every family's upper bound is below it. Writes certificate-<P>p.md, .csv and .json (the
    state) into --out; with --record, the run also joins the mixture's certificate history
    (`moaisim certificate-history`)."""
    from moaisim.studies import certificate_history as history
    from moaisim.studies.certify import certify as run_certify
    from moaisim.studies.certify import markdown, record_run

    if record:  # a history that cannot be read or written is said before the run
        history.check_recordable(mixture, game)
    try:
        cert = run_certify(mixture, out, families.split(","), games, held_out_games, epsilon,
                           seed, step, random_starts, cma_generations, cma_games, None, jobs,
                           say, game=game, files=challenger_files,
                           learned=learned_files)  # fmt: skip
    except KeyboardInterrupt as exc:
        typer.echo(f"moaisim: {stopped(exc)}; every measured challenger is saved: run the "
                   "same command again to resume", err=True)  # fmt: skip
        raise typer.Exit(stop_code(exc)) from None
    typer.echo(markdown(cert))
    say(f"certificate: {out}")
    if record:
        say(f"certificate history: {record_run(cert, out)}")


@app.command(
    "certificate-history",
    short_help="A shipped mixture's certificate history: every run, largest gain first.",
)
def certificate_history(
    mixture: Annotated[
        Path,
        typer.Argument(help="A shipped mixture file (the game's L3: nash-<P>p.toml)."),
    ],
    add: Annotated[
        list[Path] | None,
        typer.Option(
            "--add",
            help="A run to record: a certify directory, a field study's report directory or "
            "a certificate table (.csv). Repeatable.",
        ),
    ] = None,
    *,
    game: GameName,
) -> None:
    """Print a mixture's certificate page: the largest gain ever measured against this
    version of the file, every recorded run (largest gain first) and the latest certify run.
    With --add, record runs first (a run recorded again is updated) and rewrite the page
    beside the mixture (<mixture>.certificate.md)."""
    from moaisim.studies import certificate_history as history
    from moaisim.studies.certify import shipped_mixture

    players = shipped_mixture(mixture, game).players  # the game's, its members shipped
    if add:
        history.check_recordable(mixture, game)
        runs = [history.run_of(mixture, players, s, game) for s in add]  # all read, then written
        path = history.write_page(mixture, history.add(mixture, players, *runs, game=game))
        typer.echo(path.read_text("utf-8"))
        say(f"certificate history: {history.history_path(mixture)}; page: {path}")
        return
    typer.echo(history.page(mixture, history.load(mixture, players, game),
                            history.latest_section(mixture)))  # fmt: skip
