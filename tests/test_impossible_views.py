"""`determinize` refuses a view no game can show, in every game (issue 57, item 2): one
`UserError` naming the broken count, and nothing changed; a view it accepts gives worlds
that show exactly that view, wait for its decision and play to their end.

Rapa Nui's `determinize` once built worlds from an active seat of 7 (heap corruption), a
column of 99 cards (a segmentation fault), a column of -1 cards (a hang) and 99 more stock
cards (a seat scoring 1 254). The compiled machine indexes its arrays by these counts without
checking them in its loops, so they are checked at the door (`engine/possible.py`)."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moaisim.errors import UserError
from moaisim.games.rapa_nui.engine import forward as rn
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.engine.views import FIELDS, SeatView
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.strategies.rapa_nui.base import Strategy, random_choice
from moaisim.strategies.rapa_nui.greedy import GreedyStrategy

OPTIONS = [{}, {"start_sacrifice": "one_choice", "stuck_hand": "pass"},
           {"end_timing": "round", "refill_columns": "same"}]  # fmt: skip


class Keep(Strategy):
    """Random play that keeps every view it is asked through."""

    def __init__(self, kept: list[SeatView]) -> None:
        self.kept = kept

    def by_policy(self, view: SeatView) -> np.ndarray:
        self.kept.append(view)
        return random_choice(view)


def _views() -> list[SeatView]:
    kept: list[SeatView] = []
    for players in (2, 3, 4):
        for k, options in enumerate(OPTIONS):
            rules = Rules.make(players, **options)
            ReferenceGame(rules, [Keep(kept) for _ in range(players)], seed=k, game=0).play()
    return kept


VIEWS = _views()


def edited(view: SeatView, **changes: Any) -> SeatView:
    """The view with some fields replaced (a hand-made view)."""
    fields = {f: np.array(getattr(view, f)) for f in FIELDS}
    fields.update({k: np.asarray(v) for k, v in changes.items()})
    return SeatView(view.rules, view.seat, view.kind, view.legal, view.info, view.rng, fields)


def first(kind: Kind, players: int = 3) -> SeatView:
    return next(v for v in VIEWS if v.kind is kind and v.players == players)


def test_rapa_nui_views_the_engines_make_are_all_accepted():
    for view in VIEWS[::25]:
        worlds = rn.determinize(view, 1, 2)
        assert [(p.kind, p.player) for p in worlds.pending()] == [(view.kind, view.seat)]


def _bump(view: SeatView, name: str, index: tuple[int, ...], by: int | str) -> SeatView:
    """The view with one count moved by `by`, or set to it (`"=v"`)."""
    arr = np.array(getattr(view, name))
    if isinstance(by, str):
        arr[(0, *index)] = int(by[1:])
    else:
        arr[(0, *index)] += by
    return edited(view, **{name: arr})


@pytest.mark.parametrize(
    ("kind", "name", "index", "by", "message"),
    [
        (Kind.TAKE, "active", (), "=7", "active seat 7"),  # heap corruption, once
        (Kind.PLAY, "active", (), 7, "active seat"),
        (Kind.TAKE, "column_size", (0,), 99, "column 0 holds"),  # a segmentation fault, once
        (Kind.TAKE, "column_size", (1,), "=-1", "column 1 holds -1 cards"),  # a hang, once
        (Kind.BUY, "stock", (0,), 99, "stock"),  # a seat scoring 1 254, once
        (Kind.BUY, "wood", (1,), 10**12, "wood and .* glory after"),
        (Kind.BUY, "glory", (0,), f"={2**63 - 1}", "wood and .* glory after"),  # summed, wrapped
        (Kind.BUY, "revealed", (), "=99", "revealed card kind 99"),
        (Kind.TAKE, "first_column", (), 50, "first column"),
        (Kind.PLAY, "display", (0, 0), 99, "column 0's cards"),
        (Kind.PLAY, "supply", (2,), 1, "do not add up to 25 of each type"),
        (Kind.PLAY, "village", (1, 0), 1, "villages"),
        (Kind.PLAY, "hand", (0,), 1, "public record"),
        (Kind.PLAY, "pile", (), -3, "do not add up"),
        (Kind.PLAY, "pile", (), 3, "37 cards in the draw pile"),
        (Kind.PLAY, "turn", (), 1, "active seat"),
    ],
)
def test_a_rapa_nui_view_no_game_can_show_is_one_user_error(kind, name, index, by, message):
    view = first(kind)
    bad = _bump(view, name, index, by)
    before = bad.rng.position.copy()
    with pytest.raises(UserError, match=rf"no game can show this view \(game 0\): .*{message}"):
        rn.determinize(bad, 1, 2)
    with pytest.raises(UserError, match="no game can show"):
        rn.determinize(bad, bad.rng, 2)  # seeded from the seat's stream: the stream unmoved
    assert (bad.rng.position == before).all()


def test_a_rapa_nui_view_of_a_decision_with_one_legal_action_is_refused():
    """R6.2 under `refill_columns = same`: after a first take the column is the only one, so
    the take is not asked (a decision with one legal action is taken without asking)."""
    view = next(v for v in VIEWS if v.kind is Kind.TAKE and v.rules.refill_columns == "same"
                and int(v.first_column[0]) < 0)  # fmt: skip
    column = int(np.argmax(view.column_size[0] > 0))
    with pytest.raises(UserError, match=f"first take from column {column}"):
        rn.determinize(edited(view, first_column=[column]), 1, 2)


def test_a_rapa_nui_view_of_the_wrong_shape_is_refused():
    view = first(Kind.PLAY)
    with pytest.raises(UserError, match=r"hand has shape \(1, 3\)"):
        rn.determinize(edited(view, hand=np.zeros((1, 3), dtype=np.int64)), 1, 2)
    with pytest.raises(UserError, match="not whole numbers"):
        rn.determinize(edited(view, wood=np.array(view.wood, dtype=float)), 1, 2)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_edited_rapa_nui_view_is_refused_or_its_worlds_show_it_and_play_out(data):
    """Hand edits of one or two counts of a real view (by -99 to +99, or 10^12): refused with
    a `UserError`, or every world shows the edited view field by field, waits for its
    decision, and plays to the end with scores no game exceeds (R9: far below 1 000)."""
    view = data.draw(st.sampled_from(VIEWS))
    fields = {f: np.array(getattr(view, f)) for f in FIELDS}
    for _ in range(data.draw(st.integers(1, 2))):
        name = data.draw(st.sampled_from(sorted(FIELDS)))
        arr = fields[name]
        index = tuple(data.draw(st.integers(0, s - 1)) for s in arr.shape)
        arr[index] += data.draw(st.sampled_from([-99, -2, -1, 1, 2, 7, 99, 10**12]))
    bad = SeatView(view.rules, view.seat, view.kind, view.legal, view.info, view.rng, fields)
    try:
        worlds = rn.determinize(bad, 3, 2)
    except UserError:
        return
    seen = worlds.observe(view.seat, kind=view.kind)
    for f in FIELDS:
        assert (np.asarray(getattr(seen, f)) == fields[f][0]).all(), f
    assert [(p.kind, p.player) for p in worlds.pending()] == [(view.kind, view.seat)]
    worlds.play([GreedyStrategy() for _ in range(view.players)])
    assert worlds.over().all() and worlds.scores().max() < 1000


# --- Moai -------------------------------------------------------------------------------------
from moaisim.games.moai.engine import forward as mo  # noqa: E402
from moaisim.games.moai.engine.views import FIELDS as MOAI_FIELDS  # noqa: E402
from moaisim.games.moai.rules import Rules as MoaiRules  # noqa: E402
from moaisim.strategies.moai.greedy import GreedyStrategy as MoaiGreedy  # noqa: E402


def _moai_positions() -> list[tuple[mo.Games, int, str]]:
    """Games of 2-5 players stopped at decisions of every kind (a copy each, the deciding
    seat, the kind), played by a random legal action of a seeded generator (a bid of
    nothing)."""
    out: list[tuple[mo.Games, int, str]] = []
    pick = np.random.default_rng(57)
    for players in (2, 3, 4, 5):
        games = mo.Games.new(MoaiRules.make(players, "short"), players, [0])
        seen: dict[str, int] = {}
        while not games.over().all():
            for pend in games.pending():
                kind = pend.kind.value
                if seen.get(kind, 0) < 3:
                    seen[kind] = seen.get(kind, 0) + 1
                    out.append((games.clone(rows=[0]), int(pend.seat[0]), kind))
                legal = np.asarray(pend.legal)
                acts = (np.zeros(legal.shape, dtype=np.int64) if legal.dtype != bool
                        else np.array([pick.choice(np.flatnonzero(m)) for m in legal]))  # fmt: skip
                games.apply(pend, acts)
    return out


MOAI_POSITIONS = _moai_positions()


def moai_view(kind: str, players: int = 3) -> Any:
    """A fresh view (its own arrays, to edit) of the first position of `kind`."""
    games, seat, _ = next(p for p in MOAI_POSITIONS
                          if p[2] == kind and p[0].rules.players == players)  # fmt: skip
    copy = games.clone(rows=[0])
    copy.pending()
    return copy.observe(seat)


def test_every_moai_position_kept_is_accepted():
    kinds = {kind for _, _, kind in MOAI_POSITIONS}
    assert {"bid", "pick_epoch", "work", "feed", "rest", "order_ties"} <= kinds
    for games, seat, _ in MOAI_POSITIONS[::4]:
        copy = games.clone(rows=[0])
        copy.pending()
        mo.determinize(copy.observe(seat), 1, 2)


def _set(view: Any, name: str, index: tuple[int, ...], value: int | str) -> None:
    """One number of a view's field set (`value`) or moved (`"+k"`, `"-k"`), in place."""
    arr = getattr(view, name)
    where = (0, *index)
    arr[where] = arr[where] + int(value) if isinstance(value, str) else value


def test_a_forest_tie_with_its_token_moved_is_one_user_error():
    """R6.1: at a tie on forest space k the spaces before k were given out and k holds a
    token. A token moved from k to an earlier space keeps the wood count (C5) but no game
    shows it; taken in, the worlds went on to the next space (hypothesis found it)."""
    view = moai_view("forest_tie", players=4)
    k = int(view.step_count[0])
    wood = view.forest_wood[0]
    assert k >= 1 and wood[k] and not wood[:k].any()
    later = int(np.flatnonzero(wood[k + 1 :])[0]) + k + 1  # a token on a space after k
    for moved in ((k, 0), (later, 0)):  # the tied space's token, or a later one's, before k
        edited = moai_view("forest_tie", players=4)
        edited.forest_wood[0, moved[0]] = False
        edited.forest_wood[0, moved[1]] = True
        with pytest.raises(UserError, match=r"at a tie on forest space 1 \(R6\.1"):
            mo.determinize(edited, 1, 2)


@pytest.mark.parametrize(
    ("kind", "name", "index", "value", "message"),
    [
        ("work", "own_loc", (3,), 99, "own pawns at locations"),  # heap corruption, once
        ("rest", "own_loc", (17,), -99, "own pawns at locations"),
        ("feed", "step_left", (), -99, "pawns left at FEED"),  # a hang, once
        ("work", "turn", (2,), "+2", "turn order"),  # a hang, once
        ("order_ties", "step_pos", (), "+1", "hill order so far|turn position"),  # a hang, once
        ("disaster_loss", "round", (), "+7", "epoch cards revealed by round"),  # never ended
        ("work", "step", (), 0, "not a step that waits"),
        ("pick_epoch", "offer", (0,), 999, "offer"),
        ("work", "hidden_count", (1, 0), 3, "pawns on the board|own pawns"),
        ("work", "free_fields", (), "+1", "free fields"),
        ("work", "boats_manned", (1, 0), True, "manned boats|pawns on the boats"),
        ("bid", "bids", (0,), -5, "bids"),
        ("bid", "bids", (0,), 0, "bids .* while bidding"),  # sealed: none shown yet
        ("work", "bids", (1,), -1, "every bid is shown"),
        ("work", "held", (0,), 32767, "held"),
        ("order_ties", "step_hill", (0,), 127, "hill order so far"),
        ("pick_epoch", "next_epoch", (), -7, "epoch deck's top card"),
    ],
)
def test_a_moai_view_no_game_can_show_is_one_user_error(kind, name, index, value, message):
    view = moai_view(kind)
    _set(view, name, index, value)
    before = view.rng.position.copy()
    with pytest.raises(UserError, match=rf"no game can show this view \(game 0\): .*({message})"):
        mo.determinize(view, 1, 2)
    with pytest.raises(UserError, match="no game can show this view"):
        mo.determinize(view, view.rng, 2)
    assert (view.rng.position == before).all()  # a refused call draws nothing


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_edited_moai_view_is_refused_or_its_worlds_show_it_and_play_out(data):
    """Hand edits of one or two numbers of a real view: refused with a `UserError`, or every
    world shows the edited view field by field and plays to the end (R8) with scores no game
    reaches far past (R8.2: statues, pawns and wood, well under 1 000)."""
    games, seat, _ = data.draw(st.sampled_from(MOAI_POSITIONS))
    copy = games.clone(rows=[0])
    copy.pending()
    view = copy.observe(seat)
    for _ in range(data.draw(st.integers(1, 2))):
        name = data.draw(st.sampled_from(sorted(MOAI_FIELDS)))
        arr = getattr(view, name)
        index = tuple(data.draw(st.integers(0, s - 1)) for s in arr.shape[1:])
        if arr.dtype == bool:
            arr[(0, *index)] = not arr[(0, *index)]
        else:
            info = np.iinfo(arr.dtype)
            moved = int(arr[(0, *index)]) + data.draw(st.sampled_from([-99, -2, -1, 1, 2, 7, 99]))
            arr[(0, *index)] = min(max(moved, info.min), info.max)
    try:
        worlds = mo.determinize(view, 3, 2)
    except UserError:
        return
    seen = worlds.observe(seat)
    for f in MOAI_FIELDS:
        assert (np.asarray(getattr(seen, f)) == np.asarray(getattr(view, f))[0]).all(), f
    worlds.play([MoaiGreedy() for _ in range(view.rules.players)])
    assert worlds.over().all() and worlds.results()["score"].max() < 1000


@pytest.mark.parametrize("kind", ["bid", "order_ties", "pick_epoch", "work", "rest"])
def test_a_moai_field_replaced_on_a_copy_of_the_view_is_checked_as_it_shows_it(kind):
    """The door read the public record and the cursor from the view's own copy of them, the
    worlds too: a field replaced (not written into) on a copy of the view, as a search's
    what-if does, went unchecked, and bids, offer, held, next_epoch and the step fields at -7
    or their type's largest were accepted. Each is refused, and a field replaced by a value
    in range is refused as not what the record the worlds are built from holds."""
    view = moai_view(kind)
    names = [f for f in MOAI_FIELDS if MOAI_FIELDS[f][0] in ("record", "cursor")]
    for name in names:
        value = np.array(getattr(view, name))
        if value.dtype == bool:
            continue
        for wrong in (-7, np.iinfo(value.dtype).max):
            bad = copy.copy(view)
            replaced = value.copy()
            replaced.flat[0] = wrong
            setattr(bad, name, replaced)
            with pytest.raises(UserError, match="no game can show this view"):
                mo.determinize(bad, 1, 2)
    if kind == "work":  # a count in range that its record does not hold
        bad = copy.copy(view)
        bad.step_count = view.step_count + view.rules.players
        with pytest.raises(UserError, match="step_count .* is not its view's record's"):
            mo.determinize(bad, 1, 2)


def test_a_moai_view_whose_turn_position_seat_has_no_choice_is_refused():
    """R6.2: a finish-Moai view edited to an earlier turn position, whose seat has nothing to
    finish: the machine would go on to the next seat that has, so no game shows the view (its
    worlds would wait for another seat's decision)."""
    shown = 0
    for games, seat, kind in MOAI_POSITIONS:
        if kind != "finish_moai" or seat != 0:
            continue
        copy = games.clone(rows=[0])
        copy.pending()
        view = copy.observe(seat)
        if int(view.step_pos[0]) < 2:
            continue
        view.step_pos[0] -= 2
        mo_seat = int(view.turn[0, int(view.step_pos[0])])
        try:
            worlds = mo.determinize(view, 3, 2)
        except UserError as err:
            assert "no game can show this view" in str(err)
            shown += 1
            continue
        assert all(set(p.seat.tolist()) == {mo_seat} for p in worlds.pending())
    assert shown >= 1
