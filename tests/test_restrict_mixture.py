"""`restrict` (a strategy with kinds of move forbidden) and `mixture` (a strategy drawn per game
and seat from a mixture): restricted play never makes a forbidden move (R3.3, R4.1, R4.3,
R5.3-R5.7, R6.4, R7.3, R7.4) and is the inner strategy's play where nothing forbidden is
chosen; a mixture's game is exactly the game of the component it drew, the draw depends on
the root seed, game and seat only (the same in every cell, both engines, any batch size), and
a bad mixture is one clear line (docs/strategies.md, "restrict" and "mixture")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import moaisim
from moaisim.cli import main
from moaisim.engine.mixture import drawn_components, seat_keys, stream_of
from moaisim.errors import StrategyError, UnknownStrategyError
from moaisim.games.moai.engine.decisions import BIRTH_STOP, Kind, feed_codec, work_codec
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.seats import Seats
from moaisim.games.moai.engine.views import FIELDS
from moaisim.games.moai.rules import Rules, epoch_table
from moaisim.games.moai.rules.codes import FOREST, OCEAN
from moaisim.games.moai.rules.epoch_cards import LOSS_BOAT, LOSS_MOAI, LOSS_PAWN
from moaisim.mixture_parts import sub_view, view_with
from moaisim.registry import load_strategy, parse_lineup
from moaisim.rng import SeatRandom
from moaisim.strategies.moai.base import Strategy
from moaisim.strategies.moai.mixture import MixtureStrategy
from moaisim.strategies.moai.restrict import FORBID, RestrictStrategy

ROOT = Path(__file__).parents[1]
MIX = "mixture(weights={'greedy': 0.5, 'forester': 0.3, 'random': 0.2})"


def restrict(inner: str, *forbid: str) -> str:
    return f"restrict(strategy={inner!r}, forbid={list(forbid)!r})"


def play(rules: Rules, lineup: list[str], seed: int, games, log=None) -> Games:
    specs = [load_strategy(lineup[k % len(lineup)]) for k in range(rules.players)]
    games = Games.new(rules, seed, np.asarray(games), log=log)
    return games.play([s() for s in specs], names=[s.label for s in specs])


def same_games(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Two result tables describe the same games (their strategies' names aside)."""
    drop = [c for c in ("strategy", "lineup") if c in a.columns]
    pd.testing.assert_frame_equal(
        a.drop(columns=drop).reset_index(drop=True), b.drop(columns=drop).reset_index(drop=True)
    )


def one_line(exc: pytest.ExceptionInfo) -> str:
    text = str(exc.value)
    assert "\n" not in text and text
    return text


# --- restrict: parameters and label -------------------------------------------------------------


def test_restrict_label_names_the_inner_strategy_and_the_forbid_list():
    spec = load_strategy("restrict(strategy='tuned', forbid=['boat','raid'])")
    assert spec.label == "restrict(strategy='tuned', forbid=['boat', 'raid'])"
    r = spec()
    assert r.forbidden == {"boat", "raid"} and r.inner_spec.label == "tuned"
    nested = load_strategy("restrict(strategy='greedy(moai_height=8)', forbid='bid')")()
    assert nested.inner.moai_height == 8 and nested.forbidden == {"bid"}
    for typed in ("forbid=[boat,raid]", "forbid=boat+raid", "forbid='boat, raid'"):
        assert load_strategy(f"restrict(strategy=greedy, {typed})")().forbidden == {"boat", "raid"}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("restrict(strategy='greedy', forbid=['boats'])", "unknown forbid name 'boats'"),
        ("restrict(strategy='greedy', forbid=[1])", "unknown forbid name 1"),
        ("restrict(strategy='greedy', forbid=3)", "forbid must be a list"),
        ("restrict(forbid=['boat'])", "give the strategy to restrict"),
        ("restrict(strategy='gredy', forbid=['boat'])", "unknown strategy 'gredy'"),
        ("restrict(strategy='greedy', forbid=['boat'], x=1)", "unknown parameter 'x'"),
    ],
)
def test_restrict_parameter_mistakes_are_one_line(spec, message):
    with pytest.raises(UnknownStrategyError) as exc:
        load_strategy(spec)
    assert message in one_line(exc)
    if "forbid name" in message:
        assert all(name in str(exc.value) for name in FORBID)


# --- restrict: never a forbidden move ------------------------------------------------------------


def forbidden(kind: Kind, rules: Rules, names: frozenset[str], snap: dict, a: np.ndarray) -> bool:
    """Whether action `a` of a decision is one the forbid list rules out (written apart from
    strategies/moai/restrict.py, from the action encodings and the rules)."""
    if kind is Kind.BID:
        return "bid" in names and bool(np.any(a > 0))
    a = int(a)
    if kind is Kind.BOAT:
        return "boat" in names and a == 1
    if kind is Kind.FEED:
        return "raid" in names and feed_codec(rules).decode(a)[0] == "raid"
    if kind is Kind.BIRTH:
        return "birth" in names and a != BIRTH_STOP
    if kind is Kind.PICK_EPOCH:
        return "disasters" in names and bool(epoch_table(rules).targeted[snap["offer"][a]])
    if kind is Kind.DISASTER_TARGET:
        return "disasters" in names and bool(snap["loses"][a])
    if kind is Kind.WORK and names & {"forest", "boat", "swap"}:
        what, x, y = work_codec(rules).decode(a)
        lay = rules.layout
        if what == "place":
            return ("forest" in names and y < lay.forest) or ("boat" in names and y == lay.ocean0)
        if what == "swap":
            zones = lay.zones(snap["own_loc"][[x, y]])
            moves_in = {z for z in (FOREST, OCEAN) if (zones == z).sum() == 1}
            named = {"forest": FOREST, "boat": OCEAN}
            return "swap" in names or any(named[n] in moves_in for n in names & set(named))
    return False


def loses(view, cards: np.ndarray) -> np.ndarray:
    """[n, P] bool, from C3's words: the clan has what the disaster card takes (wood to burn,
    a boat, a pawn on the board or in camp, a Moai tile)."""
    table = epoch_table(view.rules)
    burns, loss = table.burns[cards][:, None], table.loss[cards][:, None]
    living = (view.on_board + view.camp_size) > 0
    return (
        (burns & (view.wood > 0))
        | ((loss == LOSS_BOAT) & view.boats.any(axis=2))
        | ((loss == LOSS_PAWN) & living)
        | ((loss == LOSS_MOAI) & (view.moai_count > 0))
    )


def spy(strategy: RestrictStrategy, rules: Rules, log: list) -> None:
    """Record every decision put to `strategy`: what was legal, what it answered, and whether
    some allowed (not forbidden) action was legal."""
    names = strategy.forbidden
    for kind in Kind:
        method = getattr(strategy, kind.value)

        def wrapped(view, method=method, kind=kind):
            legal = np.array(view.legal, copy=True)
            snap = {}
            if kind is Kind.PICK_EPOCH and "disasters" in names:
                snap["offer"] = view.offer.copy()
            if kind is Kind.DISASTER_TARGET and "disasters" in names:
                snap["loses"] = loses(view, view.info["card"])
            if kind is Kind.WORK and names & {"forest", "boat", "swap"}:
                snap["own_loc"] = view.own_loc.copy()
            answer = np.asarray(method(view))
            for k in range(len(view)):
                row = {key: v[k] for key, v in snap.items()}
                if kind is Kind.BID:
                    some = True  # the empty bid is always legal
                else:
                    acts = np.flatnonzero(legal[k])
                    some = any(not forbidden(kind, rules, names, row, x) for x in acts)
                log.append((kind, forbidden(kind, rules, names, row, answer[k]), some))
            return answer

        setattr(strategy, kind.value, wrapped)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 5),
    forbid=st.sets(st.sampled_from(sorted(FORBID)), min_size=1),
    inner=st.sampled_from(["greedy", "random", "raider", "fisher", "bidder"]),
    variant=st.sampled_from(["base", "fixed-disasters", "open-bidding+short"]),
)
def test_restricted_play_never_makes_a_forbidden_move(seed, players, forbid, inner, variant):
    rules = Rules.make(players, variant)
    games = [0, 1, 2]
    spec = load_strategy(restrict(inner, *sorted(forbid)))
    strategies = [spec()] + [load_strategy("greedy")() for _ in range(players - 1)]
    decisions: list = []
    spy(strategies[0], rules, decisions)
    game = Games.new(rules, seed, np.array(games), log=games).play(strategies)
    # decision by decision: a forbidden answer only where nothing allowed was legal
    assert decisions
    assert all(some is False for _, bad, some in decisions if bad)
    forced = sum(1 for _, bad, some in decisions if not some)
    assert forced == sum(strategies[0].forced.values())
    # and in the games' event logs and results (R3.3, R5.3-R5.7, R6.4, R7.3, R7.4)
    lay, res = rules.layout, game.results()
    mine = res[res.seat == 0]
    for g in games:
        events = game.events[g]
        last = max(e["round"] for e in events if e["e"] == "round")
        now = 0
        for e in events:
            now = e.get("round", now) if e["e"] == "round" else now
            if e.get("seat") != 0:
                continue
            if "bid" in forbid and e["e"] == "bid":
                assert e["total"] == 0
            if "boat" in forbid:
                assert e["e"] != "boat" and not (e["e"] == "place" and e["loc"] >= lay.ocean0)
            if "raid" in forbid:
                assert e["e"] != "raid"
            if "birth" in forbid and e["e"] == "birth":
                assert now == last  # R7.3, A4: compulsory in the last round only
            if "swap" in forbid:
                assert e["e"] != "swap"
            if "forest" in forbid:  # a volcano space is always free (R5.6): never forced
                assert not (e["e"] == "place" and e["loc"] < lay.forest)
                assert not (e["e"] == "swap" and min(e["locs"]) in range(lay.forest))
    for name, column in (("boat", "boats_built"), ("raid", "raids_made"),
                         ("forest", "forest_wood")):  # fmt: skip
        if name in forbid:
            assert (mine[column] == 0).all(), column


def test_restrict_decisions_on_the_bids_boats_and_disasters_it_answers_itself():
    """`bid` and `boat` leave one action (not asked); `disasters` aims at a clan that loses
    nothing by the card, else by lot (R4.3, C3)."""
    rules = Rules.make(4)
    r = load_strategy(restrict("greedy", "bid", "boat", "disasters"))()
    assert r.reads["bid"] == () and r.reads["boat"] == ()
    assert "disaster_target" not in r.reads  # every field: its mask is the kernels'
    assert "pick_epoch" not in r.reads
    games = play(rules, [restrict("greedy", "bid", "boat", "disasters"), "greedy"], 5,
                 range(40))  # fmt: skip
    res = games.results()
    me = res[res.seat.isin([0, 2])]
    assert (me.boats_built == 0).all()
    # aimed far less than greedy, which aims every disaster it takes at the leader
    others = res[res.seat.isin([1, 3])]
    assert me.disasters_aimed.sum() < 0.5 * others.disasters_aimed.sum()


class Fixed(Strategy):
    """Answers a given work action whatever its view says (a strategy ignoring the mask)."""

    name = "fixed-work"
    action = 0

    def work(self, view):
        return np.full(len(view), self.action, dtype=np.int64)


def test_a_forbidden_answer_of_an_inner_strategy_that_ignores_the_mask_is_replaced():
    rules = Rules.make(3)
    g = Games.new(rules, 4, [0])
    while True:  # play on with the first legal action to the first work decision
        [pend] = g.pending()
        if pend.kind is Kind.WORK:
            break
        bid = pend.kind is Kind.BID
        g.apply(pend, np.zeros((len(pend), 6), int) if bid else np.argmax(pend.legal, axis=1))
    legal = pend.legal.copy()
    view = view_with(g.observe(int(pend.seat[0]), kind=Kind.WORK), legal=legal.copy())
    codec, lay = work_codec(rules), rules.layout
    strengths = [s for s in (1, 2, 3) if legal[0, codec.place(s, 0)]]
    assert strengths  # a pawn in camp may always go to the forest (R5.4)
    r = load_strategy(restrict("greedy", "forest"))()
    r.inner = Fixed()
    r.inner.action = codec.place(strengths[0], 0)  # forest space 1: legal, but forbidden
    allowed = legal[0].copy()
    allowed[[codec.place(s, t) for s in (1, 2, 3) for t in range(lay.forest)]] = False
    assert r.work(view).tolist() == [int(np.argmax(allowed))]
    assert r.replaced == {"work": 1} and r.forced == {}
    assert np.array_equal(view.legal, legal)  # the view it was given is left as it was


# --- restrict: the inner strategy's games where nothing forbidden is chosen ----------------------


def test_restrict_with_nothing_forbidden_or_nothing_chosen_plays_the_inner_strategys_games():
    kw = dict(seed=7, rotation="none")
    base = moaisim.simulate(4, 12, strategies=["greedy", "raider", "fisher", "bidder"], **kw)
    for first in (restrict("greedy"), restrict("greedy", "swap")):  # greedy never swaps
        got = moaisim.simulate(4, 12, strategies=[first, "raider", "fisher", "bidder"], **kw)
        same_games(got, base)
    a = moaisim.play(3, 2, game=1, strategies=[restrict("random"), "greedy"])
    b = moaisim.play(3, 2, game=1, strategies=["random", "greedy"])
    assert a.events == b.events


def test_restrict_plays_the_inner_strategys_games_when_nothing_forbidden_is_ever_legal(tmp_path):
    """A deck without boat cards (R7.4: no boat, R5.7: no sea) and without disasters that
    strike a chosen clan (R4.3): `boat` and `disasters` restrict nothing."""
    text = (ROOT / "moaisim" / "games" / "moai" / "rules" / "default.toml").read_text()
    for kind in ("fire-boat", "fire", "famine", "storm", "topple"):
        text = text.replace(f'"{kind} ', '"erosion ')
    text = text.replace('"boat ', '"neutral ')
    deck = tmp_path / "peaceful.toml"
    deck.write_text(text)
    kw = dict(seed=3, rotation="none", components=deck)
    lineup = ["fisher", "bidder", "greedy"]
    base = moaisim.simulate(3, 10, strategies=lineup, **kw)
    assert base.boats_built.sum() == 0 and base.disasters_aimed.sum() == 0
    first = restrict("fisher", "boat", "disasters")
    same_games(moaisim.simulate(3, 10, strategies=[first, *lineup[1:]], **kw), base)


# --- mixture: parameters, files, mistakes --------------------------------------------------------


def test_a_mixture_file_with_metadata_and_a_mixture_table(tmp_path):
    f = tmp_path / "sigma.toml"
    f.write_text('players = [3, 4]\nsource = "a test"\n[mixture]\n'
                 '"greedy(moai_height=8)" = 0.25\nforester = 0.5\ngreedy = 0.25\n')  # fmt: skip
    spec = load_strategy(f"mixture(file={str(f)!r})")
    assert spec.label == f"mixture(file={str(f)!r})"
    m = spec()
    assert m.labels == ("forester", "greedy", "greedy(moai_height=8)")
    assert m.probs.tolist() == [0.5, 0.25, 0.25] and m.meta["source"] == "a test"
    same = load_strategy(f"mixture(weights={str(f)!r})")()
    inline = load_strategy(
        "mixture(weights={'greedy': 0.25, 'greedy(moai_height=8)': 0.25, 'forester': 0.5})"
    )()
    games = np.arange(200)
    draws = m.components(11, games, 1)
    assert draws == same.components(11, games, 1) == inline.components(11, games, 1)
    assert set(draws) == set(m.labels)
    # players = [3, 4]: not at 2 players, refused as the lineup is read (a user error, issue
    # 25), before any game; a game started another way still refuses it (a strategy error)
    with pytest.raises(UnknownStrategyError) as exc:
        moaisim.simulate(2, 1, strategies=[f"mixture(file={str(f)!r})", "greedy"])
    assert "the mixture is for 3 or 4 players, this game has 2" in one_line(exc)
    with pytest.raises(StrategyError, match="the mixture is for 3 or 4 players"):
        Games.new(Rules.make(2), 0, [0]).play([m, load_strategy("greedy")()])


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ("{'greedy': 0.5, 'random': 0.4}", "the probabilities sum to 0.9, not 1"),
        ("{'greedy': 1.2, 'random': -0.2}", "the probability of 'random' is -0.2, below 0"),
        ("{'greedy': '1'}", "the probability of 'greedy' must be a finite number"),
        ("{'greedy': True}", "the probability of 'greedy' must be a finite number"),
        ("{'greedy': 1e999}", "the probability of 'greedy' must be a finite number, got inf"),
        ("{'gredy': 1.0}", "unknown strategy 'gredy'"),
        ("{'greedy': 0.5, 'greedy()': 0.5}", "'greedy' is listed twice"),
        ("{}", "give weights={spec: probability, ...} or file=FILE.toml"),
        ("{'mixture': 3}", "[mixture] must be a table"),
        ("{'greedy(moai_height=0)': 1.0}", "parameter moai_height must be from 1 to 60"),
    ],
)
def test_mixture_mistakes_are_one_line(weights, message):
    with pytest.raises(UnknownStrategyError) as exc:
        load_strategy(f"mixture(weights={weights})")
    assert message in one_line(exc)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[mixture]\ngreedy = 0.5\nrandom = 0.5000001\n", "not 1 (within 1e-09)"),
        ("[mixture]\ngreedy = 0.5\nrandom = 0.5000000000001\n", None),  # within 1e-9
        ("[mixture\ngreedy = 1\n", "is not valid TOML"),
        ("players = 9\n[mixture]\ngreedy = 1.0\n", "players must be a player count"),
        ("[mixture]\n", "the mixture has no strategy"),
        ("[mixture]\nnope = 1.0\n", "unknown strategy 'nope'"),
    ],
)
def test_mixture_file_mistakes_are_one_line(tmp_path, text, message):
    f = tmp_path / "m.toml"
    f.write_text(text)
    if message is None:
        assert load_strategy(f"mixture(file={str(f)!r})")().labels == ("greedy", "random")
        return
    with pytest.raises(UnknownStrategyError) as exc:
        load_strategy(f"mixture(file={str(f)!r})")
    assert message in one_line(exc)


@pytest.mark.parametrize(
    "spec",
    ["mixture(weights={'greedy': 0.5})", "restrict(strategy=greedy, forbid=[boats])"],
)
def test_the_command_line_says_a_bad_mixture_or_restriction_in_one_line_exit_2(capsys, spec):
    assert main(["play", "-p", "3", "--strategies", spec]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("moaisim: error: strategy")


def test_a_missing_mixture_file_or_two_mixtures_are_one_line(tmp_path):
    with pytest.raises(UnknownStrategyError) as exc:
        load_strategy(f"mixture(file={str(tmp_path / 'none.toml')!r})")
    assert "no such TOML file" in one_line(exc)
    f = tmp_path / "m.toml"
    f.write_text("[mixture]\ngreedy = 1.0\n")
    with pytest.raises(UnknownStrategyError) as exc:
        load_strategy(f"mixture(file={str(f)!r}, weights={{'greedy': 1.0}})")
    assert "(not both)" in one_line(exc)


# --- mixture: the games it plays ----------------------------------------------------------------


@pytest.mark.parametrize("weights", ["{'greedy': 1.0}", "{'forester': 1, 'greedy': 0.0}"])
def test_a_mixture_with_weight_one_plays_that_strategys_games(weights):
    pure = [k for k, v in eval(weights).items() if v][0]  # noqa: S307 - a literal of the test
    kw = dict(seed=21, rotation="none")
    got = moaisim.simulate(3, 15, strategies=[f"mixture(weights={weights})", "raider"], **kw)
    same_games(got, moaisim.simulate(3, 15, strategies=[pure, "raider"], **kw))


def test_a_mixture_game_is_the_game_of_the_component_it_drew_in_every_cell():
    """Two cells (another variant, other rivals): the seat draws the same component in
    each game, and each game is exactly the one played with that component in the seat."""
    seed, games = 13, np.arange(24)
    m = load_strategy(MIX)()
    drawn = np.array(m.components(seed, games, 1))
    assert len(set(drawn.tolist())) == 3
    cells = [(Rules.make(3), ["greedy", MIX, "raider"]),
             (Rules.make(3, "short+fixed-disasters"), ["bidder", MIX, "random"])]  # fmt: skip
    for rules, lineup in cells:
        played = play(rules, lineup, seed, games)
        assert played.strategies[1].drawn == dict(zip(games.tolist(), drawn.tolist(), strict=True))
        res = played.results()
        for label in set(drawn.tolist()):
            sel = games[drawn == label]
            pure = play(rules, [lineup[0], label, lineup[2]], seed, sel).results()
            same_games(res[res.game.isin(sel)], pure)


def test_mixture_and_restrict_play_the_same_games_in_both_engines_and_any_batch():
    lineup = [MIX, restrict("greedy", "raid", "disasters", "forest"), MIX,
              restrict(MIX, "bid", "birth")]  # fmt: skip
    kw = dict(strategies=lineup, seed=17, variants="open-bidding")
    games = [0, 3, 5, 8]
    ref = moaisim.simulate(4, games, engine="reference", **kw)
    for size in (1, 3, 100):
        pd.testing.assert_frame_equal(moaisim.simulate(4, games, batch_size=size, **kw), ref)
    # and the reference engine's instances drew what the draw function says
    rules = Rules.make(4, "open-bidding")
    for g in games:
        specs = [load_strategy(s) for s in lineup]
        game = ReferenceGame(rules, [s() for s in specs], seed=17, game=g)
        game.play()
        for seat in (0, 2):
            assert game.strategies[seat].drawn == {g: m_draw(MIX, 17, g, seat)}
    # what each row's seat played, from the results alone
    played = drawn_components(ref)
    mixed = ref.strategy == MIX
    assert (played[~mixed] == ref.strategy[~mixed].astype(str)).all()
    want = [m_draw(MIX, 17, g, s) for g, s in zip(ref.game[mixed], ref.seat[mixed], strict=True)]
    assert played[mixed].tolist() == want


def m_draw(spec: str, seed: int, game: int, seat: int) -> str:
    return load_strategy(spec)().components(seed, [game], seat)[0]


def test_the_draw_is_the_seed_game_and_seat_only_and_fair():
    m = load_strategy(MIX)()
    games = np.arange(30_000)
    draws = np.array(m.components(5, games, 2))
    share = {x: float(np.mean(draws == x)) for x in m.labels}
    assert share == pytest.approx({"forester": 0.3, "greedy": 0.5, "random": 0.2}, abs=0.015)
    assert m.components(5, games[:50], 2) == draws[:50].tolist()  # any subset: the same
    assert m.components(5, games[:50], 1) != draws[:50].tolist()  # seats draw apart
    assert m.components(6, games[:50], 2) != draws[:50].tolist()  # so do root seeds
    # monotone coupling: more weight on a component only moves draws towards it
    more = load_strategy("mixture(weights={'greedy': 0.7, 'forester': 0.1, 'random': 0.2})")()
    moved = np.array(more.components(5, games, 2))
    changed = draws != moved
    pairs = set(zip(draws[changed].tolist(), moved[changed].tolist(), strict=True))
    assert pairs == {("forester", "greedy")}


def test_sub_views_are_the_views_of_their_games_and_the_stream_keys_are_the_seats():
    rules = Rules.make(4)
    g = Games.new(rules, 8, np.arange(6))
    g.pending()
    view = g.observe(2)
    rows = np.array([1, 4, 5])
    keys, start = stream_of(view.rng)
    assert (keys == seat_keys(8, np.arange(6), 2)).all() and (start == 0).all()
    handle = SeatRandom(keys[rows].copy(), start[rows].copy())
    sub = sub_view(view, rows, handle)
    want = g.observe(2, rows=rows)
    assert sub.games.tolist() == want.games.tolist() == [1, 4, 5]
    for name in FIELDS:
        assert np.array_equal(getattr(sub, name), getattr(want, name)), name
    assert np.array_equal(sub.rng.uniform(3), want.rng.uniform(3))
    sub.own_loc[:] = 99  # a sub-view's arrays are its own
    assert not (view.own_loc == 99).any()


def test_mixture_reads_what_its_components_read():
    # random reads nothing; greedy's policy reads every field: the union, every field
    m = load_strategy("mixture(weights={'random': 1.0})")()
    assert all(m.reads[k.value] == () for k in Kind)
    m = load_strategy("mixture(weights={'greedy': 0.5, 'random': 0.5})")()
    assert m.reads == {}
    h = load_strategy("mixture(weights={'greedy': 0.5, 'search': 0.5})")()
    assert isinstance(h, MixtureStrategy) and h.reads == {}  # search reads every field
    # a restriction reads every field of the kinds it narrows (the kernels' masks), and
    # what its inner strategy reads of the others
    assert "work" not in load_strategy(restrict("random", "forest"))().reads
    r = load_strategy(restrict("random", "forest", "raid"))()
    assert r.reads["boat"] == () and "feed" not in r.reads


def _bid_left_to_the_machine(lineup: str, answered: bool) -> np.ndarray:
    """Scores of 20 games whose first sealed bid (R3.3) has seat 0's row applied from outside
    (no card) and the rivals' rows answered through views (`answered`) or left to the
    machine's play."""
    specs = parse_lineup(lineup, 3)
    players = [s() for s in specs]
    g = Games.new(Rules.make(3), 3, np.arange(20))
    [pend] = g.pending()
    own = pend.seat == 0
    if answered:
        acts = g.answer(pend, players, seats=[1, 2])
        acts[own] = 0
        g.apply(pend, acts)
    else:
        mine = pend.subset(own)
        g.apply(mine, np.zeros((len(mine), 6), dtype=np.int64))
    g.play(players)
    return g.scores()


def test_a_mixture_left_to_the_machine_mid_bid_plays_as_its_component(monkeypatch):
    """R3.3: a mixture with weight 1 on `tuned` is `tuned`, whichever way the rest of a
    partly answered sealed bid is decided: through views, or by the machine's play, whose
    kernels decide the paused rows of the seats that play compiled (asking no view: search's
    rollouts leave the rivals' bids to them); and a two-component mixture plays the same
    games both ways."""
    pure, mix = "tuned,tuned,tuned", ",".join(["mixture(weights={'tuned': 1.0})"] * 3)
    assert np.array_equal(_bid_left_to_the_machine(pure, True), _bid_left_to_the_machine(mix, True))
    assert np.array_equal(
        _bid_left_to_the_machine(pure, False), _bid_left_to_the_machine(pure, True)
    )
    assert np.array_equal(
        _bid_left_to_the_machine(mix, False), _bid_left_to_the_machine(pure, False)
    )
    two = ",".join(["mixture(weights={'greedy': 0.5, 'tuned': 0.5})"] * 3)
    asked: list[str] = []
    answer = Seats.answer
    monkeypatch.setattr(Seats, "answer", lambda self, m, pend, seats=None: (
        asked.append(pend.kind.value), answer(self, m, pend, seats))[1])  # fmt: skip
    left = _bid_left_to_the_machine(two, False)
    assert asked == []  # the machine's kernels decided every seat
    monkeypatch.undo()
    assert np.array_equal(left, _bid_left_to_the_machine(two, True))
