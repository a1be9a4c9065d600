"""Rapa Nui's composite strategies: mixtures (a game's drawn component plays exactly its own
game, compiled or through views), the meta-game's dispatch, restricted play, the skill
levels, and search (the same games in both engines, reproducible from the seed)."""

from __future__ import annotations

import numpy as np
import pytest

from moaisim.errors import UnknownStrategyError
from moaisim.games import load_game
from moaisim.games.rapa_nui.engine.forward import Games
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.rules.codes import PLAY_MOAI
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.mixture_parts import Choice
from moaisim.registry import load_strategy
from moaisim.strategies.rapa_nui.mixture import DispatchStrategy, MixtureStrategy

RULES = Rules.make(3)
GAME = "rapa-nui"


def batch_scores(specs: list[str], seed: int, games: int, rules: Rules = RULES) -> list[int]:
    seats = [load_strategy(s, GAME)() for s in specs]
    return Games.new(rules, seed, np.arange(games)).play(seats).results()["score"].tolist()


def reference_scores(specs: list[str], seed: int, games: int, rules: Rules = RULES) -> list[int]:
    out: list[int] = []
    for i in range(games):
        g = ReferenceGame(rules, [load_strategy(s, GAME)() for s in specs], seed=seed, game=i)
        g.play()
        out += list(g.scores or [])
    return out


def test_a_mixture_with_all_its_weight_on_one_strategy_plays_that_strategys_games():
    pure = batch_scores(["greedy", "priest", "random"], 3, 10)
    mixed = batch_scores(["mixture(weights={'greedy': 1.0})", "priest", "random"], 3, 10)
    assert mixed == pure


def test_a_mixtures_games_are_the_same_compiled_and_asked_through_views():
    spec = "mixture(weights={'greedy': 0.4, 'builder': 0.3, 'random': 0.3})"
    lineup = [spec, "heuristic", spec]
    assert isinstance(load_strategy(spec, GAME)().compiled(RULES), Choice)
    assert batch_scores(lineup, 8, 12) == reference_scores(lineup, 8, 12)


def test_each_game_draws_its_component_from_its_own_seat_stream_whatever_the_batch():
    spec = "mixture(weights={'greedy': 0.5, 'priest': 0.5})"
    whole = batch_scores([spec, "greedy", "greedy"], 5, 12)
    halves = []
    for part in (np.arange(6), np.arange(6, 12)):
        seats = [load_strategy(s, GAME)() for s in (spec, "greedy", "greedy")]
        halves += Games.new(RULES, 5, part).play(seats).results()["score"].tolist()
    assert halves == whole
    mix = load_strategy(spec, GAME)()
    drawn = mix.draw(np.arange(400, dtype=np.uint64) * 7919 + 1)
    assert 0.4 < drawn.mean() < 0.6  # both components drawn, about half each


def test_mixture_mistakes_are_one_line():
    with pytest.raises(UnknownStrategyError, match="sum to"):
        MixtureStrategy(weights={"greedy": 0.5})
    with pytest.raises(UnknownStrategyError, match="below 0"):
        MixtureStrategy(weights={"greedy": 1.5, "priest": -0.5})
    with pytest.raises(UnknownStrategyError, match="for 4 players"):
        MixtureStrategy(weights={"players": 4, "mixture": {"greedy": 1.0}}).check_players(3)


def test_dispatch_plays_the_strategy_its_table_gives_each_game_of_the_batch():
    specs = [load_strategy(s, GAME) for s in ("greedy", "random")]
    deals = Games.new(RULES, 2, np.arange(4))
    rows = deals.clone(rows=np.tile(np.arange(4), 2))  # copy c of game j: row c * 4 + j
    table = np.repeat([0, 1], 4)  # seat 0: greedy in the first copy, random in the second
    seats = [DispatchStrategy(specs, table), *(load_strategy("greedy", GAME)() for _ in "ab")]
    scores = rows.play(seats).results()["score"].to_numpy().reshape(8, 3)
    first = batch_scores(["greedy", "greedy", "greedy"], 2, 4)
    second = batch_scores(["random", "greedy", "greedy"], 2, 4)
    assert scores[:4].reshape(-1).tolist() == first
    assert scores[4:].reshape(-1).tolist() == second


def test_restricted_play_never_makes_a_forbidden_move_and_is_the_same_in_both_engines():
    spec = "restrict(strategy='builder', forbid=['moai', 'buy'])"
    seats = [load_strategy(s, GAME)() for s in (spec, "builder", "greedy")]
    table = Games.new(RULES, 6, np.arange(20)).play(seats).results()
    assert (table.loc[table["seat"] == 0, "bought"] == 0).all()  # buying nothing is legal
    lineup = [spec, "builder", "greedy"]
    assert table["score"].tolist() == reference_scores(lineup, 6, 20)
    # a Moai is played only when the rules leave nothing else (a hand of Moai, R4.1)
    forced = free = 0
    for i in range(20):
        g = ReferenceGame(RULES, [load_strategy(s, GAME)() for s in lineup], seed=6, game=i)
        g.play()
        for d in g.decisions:
            if d["seat"] == 0 and d["kind"] == "play" and d["action"] == PLAY_MOAI:
                assert d["legal"] == [PLAY_MOAI]
                forced += 1
            elif d["seat"] == 1 and d["kind"] == "play" and d["action"] == PLAY_MOAI:
                free += len(d["legal"]) > 1
    assert free > forced  # the plan itself builds by choice
    with pytest.raises(UnknownStrategyError, match="unknown forbid name"):
        load_strategy("restrict(strategy='greedy', forbid=['statues'])", GAME)()


def test_heuristic_shipped_names_a_shipped_weights_file_from_any_directory(tmp_path, monkeypatch):
    from moaisim.strategies.rapa_nui import heuristic as h

    monkeypatch.chdir(tmp_path)  # not the checkout: a path would not resolve, a name does
    game = "rapa-nui"
    three = load_strategy("heuristic(shipped='tuned-3p.toml')", game)()
    assert np.array_equal(three.w, h.vector(h.shipped("tuned-3p.toml")))
    assert not np.array_equal(three.w, h.vector({}))
    name = h.NAMES[0]
    over = load_strategy(f"heuristic(shipped='tuned-3p.toml', weights={{'{name}': 1.25}})",
                         game)()  # fmt: skip
    assert over.w[0] == 1.25 and np.array_equal(over.w[1:], three.w[1:])
    for bad, message in (("x.toml", "no shipped weights file 'x.toml'"),
                         ("../priest.toml", "by its name"), ("nash-3p.toml", "by its name"),
                         ("tuned-3p", "by its name")):  # fmt: skip
        with pytest.raises(UnknownStrategyError, match=message):
            load_strategy(f"heuristic(shipped={bad!r})", game)()
    with pytest.raises(UnknownStrategyError, match="heuristic's parameter"):
        load_strategy("priest(shipped='builder.toml')", game)()


def test_the_skill_levels_name_strategies_of_this_game():
    spec = load_game(GAME)
    assert spec.level_spec("L0", 3) == "random" and spec.level_spec("L1", 3) == "greedy"
    assert spec.level_spec("L4", 3) == "search"
    pool = load_strategy(spec.level_spec("L2", 3), GAME)()
    assert set(pool.labels) == set(spec.LEVEL_POOL)
    with pytest.raises(UnknownStrategyError, match="unknown skill level"):
        spec.level_spec("L9", 3)


def test_search_plays_the_same_game_in_both_engines_from_the_same_seed():
    lineup = ["search(worlds=3)", "greedy", "heuristic"]
    assert batch_scores(lineup, 4, 2) == reference_scores(lineup, 4, 2)
    assert batch_scores(lineup, 4, 2) == batch_scores(lineup, 4, 2)
    with pytest.raises(UnknownStrategyError, match="rollouts cannot search"):
        load_strategy("search(rollout='search')", GAME)()


def test_tune_search_tunes_rapa_nuis_search_from_its_shipped_defaults(capsys, tmp_path,
                                                                       monkeypatch):  # fmt: skip
    """Rapa Nui's search has the knobs tune-search tunes: a tiny search runs (trial 0 its
    shipped horizon=-1 and candidates=256, outside Moai's ranges: the ranges reach out to
    them); a bad setting, or a search without a knob, is one line (exit 2), nothing made."""
    import tomllib

    import pandas as pd

    from moaisim.cli import main
    from moaisim.studies.search_knobs import defaults

    out = tmp_path / "t"
    code = main(["tune-search", "--game", GAME, "--out", str(out), "-p", "2", "--trials", "2",
                 "--games", "1", "--verify-games", "0", "--worlds", "1"])  # fmt: skip
    said, err = capsys.readouterr()
    assert code == 0 and "recommended: search(worlds=1, horizon=-1, candidates=256" in said
    assert "candidates 4 to 256 (log scale)" in err and "horizon in (-1, 0, 1, 2)" in err
    shipped = defaults(GAME)
    assert shipped["horizon"] == -1 and shipped["candidates"] == 256
    trials = pd.read_csv(out / "trials.csv")
    assert len(trials) == 2 and set(trials["game"]) == {GAME}
    assert {k: trials.loc[0, k].item() for k in shipped} == shipped  # trial 0: the defaults
    written = tomllib.loads((out / "search-knobs.toml").read_text())
    assert written["game"] == GAME and {k: written["search"][k] for k in shipped} == shipped

    code = main(["tune-search", "--game", GAME, "--out", str(tmp_path / "w"), "--worlds", "0"])
    said, err = capsys.readouterr()
    assert code == 2 and said == "" and err.count("\n") == 1 and "--worlds" in err
    cls = load_strategy("search", GAME).cls
    monkeypatch.setattr(cls, "params", {k: v for k, v in cls.params.items() if k != "lead"})
    code = main(["tune-search", "--game", GAME, "--out", str(tmp_path / "k")])
    said, err = capsys.readouterr()
    assert code == 2 and said == "" and err.count("\n") == 1 and "has none of lead" in err
    assert not (tmp_path / "w").exists() and not (tmp_path / "k").exists()


def test_play_prints_a_readable_rapa_nui_game_and_its_log_replays(capsys, tmp_path):
    from moaisim.cli import main

    assert main(["play", "--game", GAME, "-p", "3", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Rapa Nui - 3 players, seed 1, game 0")
    assert "Turn 1, P0:" in text and "Winner:" in text
    assert main(["play", "--game", GAME, "-p", "3", "--seed", "1", "--json"]) == 0
    log = tmp_path / "game.jsonl"
    log.write_text(capsys.readouterr().out)
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out == text
    assert main(["play", "--game", GAME, "-p", "3", "--seed", "1", "--engine", "batch"]) == 0
    assert capsys.readouterr().out == text  # the same game, logged by the reference engine


def test_distill_fits_heuristic_weights_to_rapa_nuis_search(capsys, tmp_path):
    from moaisim.cli import main
    from moaisim.strategies.rapa_nui.heuristic import read_weights

    out = tmp_path / "d"
    code = main(["distill", "--game", GAME, "-p", "3", "--out", str(out), "-n", "3",
                 "--held-out-games", "2", "--generations", "2", "--strength-games", "0",
                 "--field", "L1", "--teacher", "search(worlds=2)"])  # fmt: skip
    said = capsys.readouterr().out
    assert code == 0 and "agreement with the teacher" in said
    import tomllib

    weights = read_weights(tomllib.loads((out / "distilled-3p.toml").read_text()), "distilled")
    assert weights and set(weights) <= set(load_game(GAME).WEIGHT_NAMES)


def test_drawn_components_reads_each_rows_game_from_the_table():
    import moaisim
    from moaisim.engine.mixture import drawn_components

    spec = "mixture(weights={'greedy': 0.5, 'priest': 0.5})"
    df = moaisim.simulate(3, 12, strategies=[spec, "greedy", "random"], seed=4, game_name=GAME)
    played = drawn_components(df)
    mine = df[df["strategy"] == spec]
    want = []
    for seat, group in mine.groupby("seat"):
        drawn = MixtureStrategy(weights={"greedy": 0.5, "priest": 0.5}).components(
            4, group["game"].to_numpy(), int(seat)
        )
        want += list(zip(group.index, drawn, strict=True))
    assert {played[i] for i, _ in want} == {"greedy", "priest"}
    assert all(played[i] == label for i, label in want)
    others = df["strategy"] != spec
    assert (played[others] == df.loc[others, "strategy"].astype(str)).all()


def test_a_mixture_plays_the_same_games_when_play_goes_on_from_decisions_answered_outside():
    """A game in which a seat drew C is C's game however it is driven: the first decisions
    answered from outside (`answer`, `apply`) or left paused by `pending()`, then `play`.
    The mixture's component draws through views are counted before it plays on compiled, and
    a play that goes on keeps the seating (the start hooks are not called again)."""
    spec = "mixture(weights={'greedy': 0.5, 'random': 0.5})"

    def scores(answered: int, paused: bool) -> list[int]:
        seats = [load_strategy(spec, GAME)() for _ in range(3)]
        g = Games.new(RULES, 3, np.arange(20))
        for _ in range(answered):
            for pend in g.pending():
                g.apply(pend, g.answer(pend, seats))
        if paused:
            g.pending()
        return g.play(seats).results()["score"].tolist()

    whole = scores(0, False)
    assert scores(0, True) == whole
    assert scores(1, False) == whole
    assert scores(3, True) == whole
