"""Rapa Nui's game log (docs/rapa-nui-rules.md; engine/events.py, engine/record.py): a game's
JSON log replays to the same events and results, a log edited in any way fails with one line
naming what is wrong, the log holds the whole deal and every decision with its legal actions,
the text reads as the rules book does, and the schema documents every event the engine logs."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rapa_nui_reference import OPTIONS

from moaisim.errors import UserError
from moaisim.games.rapa_nui.engine import reference as reference_module
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.events import EVENTS, SCHEMA_VERSION, schema_markdown
from moaisim.games.rapa_nui.engine.record import GameRecord, Told, read_log
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.engine.results import frame, seat_rows
from moaisim.games.rapa_nui.rules.codes import HG, LUMBERJACK, MOAI, PRIEST
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.strategies.rapa_nui.base import Strategy
from moaisim.strategies.rapa_nui.replay import replay

#: A few set-ups that between them make every common event: the defaults, a start sacrifice
#: chosen (D0), stuck hands that pass, a round to finish, takes from one column, shared
#: majorities, H&G income per card, a rule parameter changed.
SETUPS: list[tuple[int, dict[str, Any], dict[str, int]]] = [
    (3, {}, {}),
    (2, {"start_sacrifice": "one_choice", "refill_columns": "same"}, {}),
    (4, {"stuck_hand": "pass", "end_timing": "round", "hg_income": "per_card"}, {}),
    (3, {"majority_rule": "shared", "display_deal": "by_row", "refill_bottom": "first"},
     {"moai_cost": 5, "bonus_moai": 3}),
]  # fmt: skip


def record(players: int, seed: int = 7, game: int = 0, params: dict[str, int] | None = None,
           **options: str) -> GameRecord:  # fmt: skip
    """Game `game` of seed `seed` played by random seats, as `moaisim play` records it."""
    rules = Rules.make(players, params=params, **options)
    names = [f"random{q}" for q in range(players)]
    g = ReferenceGame(rules, [Strategy() for _ in range(players)], seed=seed, game=game,
                      names=names)  # fmt: skip
    events = g.play()
    result = frame(seat_rows(g.state, seed, game, names))
    return GameRecord(rules, seed, game, names, events, result)


def lines(rec: GameRecord) -> list[dict[str, Any]]:
    return [json.loads(x) for x in rec.jsonl().splitlines()]


def jsonl(objects: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x) + "\n" for x in objects)


def one_line_error(log: str, match: str) -> str:
    with pytest.raises(UserError, match=match) as info:
        replay(log)
    assert "\n" not in str(info.value)
    return str(info.value)


# --- replaying ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "options", "params"), SETUPS)
def test_a_games_log_replays_to_the_same_events_and_results(players, options, params):
    for game in range(3):
        rec = record(players, game=game, params=params, **options)
        again = replay(rec.jsonl())
        assert again.events == rec.events
        pd.testing.assert_frame_equal(again.result, rec.result)
        assert again.strategies == rec.strategies and again.rules == rec.rules
        assert again.jsonl() == rec.jsonl()


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), options=OPTIONS)
def test_every_option_sets_logs_replay(players, seed, options):
    rec = record(players, seed=seed, **options)
    assert replay(rec.jsonl()).events == rec.events


def test_a_log_replays_whatever_strategies_played_it():
    """The header's names label the seats; the decisions alone make the game."""
    rec = record(3)
    header, *events = lines(rec)
    header["strategies"] = ["alice", "bob", "carol"]
    again = replay(jsonl([header, *events]))
    assert again.events == rec.events and again.result["strategy"].tolist() == header["strategies"]


# --- edited logs ----------------------------------------------------------------------------
def first_unforced(events: list[dict[str, Any]], kind: str) -> int:
    return next(k for k, e in enumerate(events)
                if e["e"] == "decision" and e["kind"] == kind and not e["forced"])  # fmt: skip


def test_a_changed_legal_action_is_named_where_the_game_departs_from_the_log():
    header, *events = lines(record(3))
    k = first_unforced(events, "take")
    d = events[k]
    d["action"] = next(a for a in d["legal"] if a != d["action"])
    # the decision itself is the log's (it was fed back); the take it brings about is not
    message = one_line_error(jsonl([header, *events]), "the log does not replay")
    assert f"event {k + 2} (take)" in message and "its column is" in message


def test_a_changed_illegal_action_is_refused_as_the_seats_decision():
    header, *events = lines(record(3))
    k = first_unforced(events, "buy")
    events[k]["action"] = 9  # D1 has actions 0-4
    one_line_error(jsonl([header, *events]), r"seat \d's decision 'buy': .*illegal action 9")


def test_a_changed_forced_decision_is_named():
    header, *events = lines(record(2, refill_columns="same"))
    k = next(k for k, e in enumerate(events) if e["e"] == "decision" and e["forced"])
    events[k]["action"] += 1
    one_line_error(jsonl([header, *events]), f"event {k + 1} \\(decision\\)")


@pytest.mark.parametrize(("key", "value", "match"), [
    ("rules_digest", "0" * 64, "other rules than it was played with.*was it edited"),
    ("options", {"end_timing": "round"}, "other rules than it was played with"),
    ("params", {"moai_cost": 6}, "other rules than it was played with"),
    ("components", {"name": "mine", "digest": "1" * 64}, "component set 'mine'.*--components"),
    ("schema", 99, "event schema 99"),
    ("game_name", "moai", "a game of 'moai', not of rapa-nui"),
    ("seed", -1, "seed and game must be whole numbers"),
])  # fmt: skip
def test_an_edited_header_is_one_line_naming_what_is_wrong(key, value, match):
    header, *events = lines(record(3))
    header[key] = value
    one_line_error(jsonl([header, *events]), match)


def test_a_header_missing_a_key_is_named():
    header, *events = lines(record(2))
    del header["strategies"]
    one_line_error(jsonl([header, *events]), "does not record its strategies")


def test_a_truncated_log_does_not_replay():
    log = lines(record(3))
    one_line_error(jsonl(log[:-1]), r"it has \d+ events, the game makes \d+")  # no end event
    cut = first_unforced(log[1:], "take") + 1  # up to a decision: later ones are missing
    one_line_error(jsonl(log[: cut + 1]), "no more decisions for this seat|it has")


def test_a_line_that_is_not_json_is_named():
    text = record(2).jsonl().splitlines()
    text[4] = '{"e": "take", oops'
    one_line_error("\n".join(text), "line 5 is not JSON")


def test_what_is_not_a_log_says_so():
    one_line_error("", "its first line must be the header")
    one_line_error('{"e": "turn", "turn": 1, "seat": 0}\n', "its first line must be the header")
    one_line_error("[1, 2]\n", "its first line must be the header")


def test_a_moai_log_is_refused_by_its_game_name():
    """A hand-made header of the other game's log (Moai's schema 2)."""
    moai = {"e": "game", "schema": 2, "game_name": "moai", "seed": 1, "game": 0}
    with pytest.raises(UserError, match="a game of 'moai', not of rapa-nui"):
        read_log(json.dumps(moai) + "\n")


# --- what the log holds -----------------------------------------------------------------------
def test_the_deal_holds_the_whole_shuffled_deck_and_the_start():
    """R1.3: 16 cards in 4 columns of 4, the other 34 the draw pile, all 50 of C1 (12
    lumberjacks, 9 priests, 9 Moai, 5 H&G of each type); R1.2, R1.6, C2a: the start."""
    header, deal, *rest = lines(record(4))
    assert deal["e"] == "deal"
    assert [len(col) for col in deal["columns"]] == [4, 4, 4, 4] and len(deal["pile"]) == 34
    cards = Counter(c for col in deal["columns"] for c in col) + Counter(deal["pile"])
    assert [cards[k] for k in range(7)] == [12, 9, 9, 5, 5, 5, 5]
    assert deal["wood"] == [2, 3, 4, 5]
    missing = [0, 1, 2, 3]  # colour q lacks food type q (C2a)
    for q, hand in enumerate(deal["hands"]):
        assert hand == [0, 0, 0] + [0 if f == missing[q] else 1 for f in range(4)]
    assert deal["stock"] == [[1, 1, 1, 1]] * 4
    assert header["players"] == 4 and header["game_name"] == "rapa-nui"
    assert header["schema"] == SCHEMA_VERSION


@pytest.mark.parametrize(("players", "options", "params"), SETUPS)
def test_the_refills_deal_the_draw_pile_in_its_logged_order(players, options, params):
    """R6.3: each refill takes the next (up to) 4 cards of the logged draw pile; with
    refill_bottom=first the card drawn first is the new bottom card."""
    rec = record(players, params=params, **options)
    pile = list(rec.events[0]["pile"])
    refills = [e for e in rec.events if e["e"] == "refill"]
    assert refills
    for e in refills:
        drawn, pile = pile[:4], pile[4:]
        assert e["cards"] == (drawn if options.get("refill_bottom") != "first" else drawn[::-1])
        assert e["pile"] == len(pile)


@pytest.mark.parametrize(("players", "options", "params"), SETUPS)
def test_every_decision_is_logged_with_its_legal_actions_before_what_it_brings(players, options,
                                                                               params):  # fmt: skip
    events = record(players, params=params, **options).events
    decisions = [e for e in events if e["e"] == "decision"]
    assert decisions
    for d in decisions:
        assert d["legal"] == sorted(set(d["legal"])) and d["action"] in d["legal"]
        assert d["forced"] == (len(d["legal"]) == 1)
        assert d["kind"] in {k.value for k in Kind}
    turns = [e for e in events if e["e"] == "turn"]
    buys = [d for d in decisions if d["kind"] == "buy"]
    assert len(buys) == len(turns) and all(0 in d["legal"] for d in buys)  # R3.1: optional
    assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1))
    assert [t["seat"] for t in turns] == [k % players for k in range(len(turns))]  # R2
    for k, e in enumerate(events):  # each take follows the decision that chose its column
        if e["e"] == "take":
            d = events[k - 1]
            assert (d["e"], d["kind"], d["action"]) == ("decision", "take", e["column"])
        if e["e"] == "buy":
            d = events[k - 1]
            assert (d["kind"], d["action"]) == ("buy", 1 + e["food"])


def test_a_told_seat_answers_a_view_of_one_game_and_refuses_another_kind():
    g = ReferenceGame(Rules.make(2), [Strategy(), Strategy()], seed=1)
    mask = np.array([True, True, False, False, True])
    view = g.view(0, Kind.BUY, mask, {})
    told = Told([{"kind": "buy", "action": 4}, {"kind": "take", "action": 1}])
    assert told.buy(view).tolist() == [4] and told.compiled(g.rules) is None
    with pytest.raises(ValueError, match="next decision of this seat is a 'take'"):
        told.buy(view)
    told.decisions.clear()
    with pytest.raises(ValueError, match="no more decisions"):
        told.take(view)


# --- the text ---------------------------------------------------------------------------------
def test_the_text_names_each_seat_and_ends_with_the_score_table():
    rec = record(3, seed=1)
    text = rec.text()
    assert text.startswith("Rapa Nui - 3 players, seed 1, game 0\n")
    assert "seats: P0 random0, P1 random1, P2 random2" in text
    turns = [e for e in rec.events if e["e"] == "turn"]
    assert len(re.findall(r"^Turn \d+, P\d: ", text, flags=re.M)) == len(turns)
    tail = text.splitlines()[-5:]
    heading = "seat strategy score glory Moai pts wood pts stock pts Moai wood stock cards rank"
    assert tail[0].split() == heading.split()
    for q, row in enumerate(tail[1:4]):
        assert row.split()[:2] == [f"P{q}", f"random{q}"]
        score, *parts = map(int, row.split()[2:7])
        assert score == sum(parts)  # R9.1
    assert tail[4].startswith("Winner: P") and tail[4].endswith(f"after {len(turns)} turns")


def test_the_text_tells_a_turn_in_the_rules_books_words():
    """A hand-made log of one turn: a purchase, a Moai and its sacrifice round (R5), a take
    that empties a column and is refilled (R6.3), the evaluation of a lumberjack (R7.2)."""
    from moaisim.games.rapa_nui.engine.events import narrate

    events = [
        {"e": "turn", "turn": 5, "seat": 1},
        {"e": "decision", "seat": 1, "kind": "buy", "legal": [0, 1], "action": 1,
         "forced": False},
        {"e": "buy", "seat": 1, "food": 0, "price": 5},
        {"e": "play", "seat": 1, "card": MOAI, "count": 1, "cost": 7},
        {"e": "sacrifice", "seat": 0, "food": 3},
        {"e": "offering_down", "seat": 1, "food": 2},
        {"e": "offering_up", "seat": 1, "food": 1},
        {"e": "take", "seat": 1, "column": 2, "card": PRIEST},
        {"e": "refill", "column": 2, "cards": [HG, MOAI, PRIEST, LUMBERJACK], "pile": 10},
        {"e": "revealed", "column": 2, "card": LUMBERJACK},
        {"e": "evaluate", "card": LUMBERJACK, "counts": [1, 3], "leaders": [1],
         "wood": [1, 5], "glory": [0, 0], "cards": [0, 0]},
    ]  # fmt: skip
    assert narrate(events).splitlines() == [
        "Turn 5, P1: buys a fish sacrifice card (5 wood); plays a Moai (7 wood).",
        "    sacrifice round: P0 gives grain, P1 lays sweet potato face down, P1 adds "
        "mulberry from the supply.",
        "    then takes a priest from column 3; column 3 is refilled with 4 cards (10 left in "
        "the draw pile); uncovers a lumberjack in column 3.",
        "    lumberjack evaluated (sole majority P1): P0 +1 wood, P1 +5 wood",
    ]


def test_the_summary_has_one_line_per_round_of_turns():
    rec = record(3, seed=2)
    turns = sum(e["e"] == "turn" for e in rec.events)
    rounds = [x for x in rec.summary().splitlines() if x.startswith("Round ")]
    assert len(rounds) == -(-turns // 3)
    assert rounds[0].startswith("Round 1: P0: ") and " | P1: " in rounds[0]


# --- the schema ---------------------------------------------------------------------------------
def logged_events() -> list[dict[str, Any]]:
    """The events of games under every set-up of `SETUPS`, and of two turns rare in play: an
    empty hand (R6.7) and a stuck hand that discards (R4.3)."""
    out: list[dict[str, Any]] = []
    for players, options, params in SETUPS:
        for game in range(4):
            out += record(players, game=game, params=params, **options).events
    for hand in ([0] * 7, [0, 0, 3, 0, 0, 0, 0]):  # nothing; three Moai and no wood
        g = ReferenceGame(Rules.make(2), [Strategy(), Strategy()], seed=3)
        g.t.hand[0], g.t.wood[0] = list(hand), 0
        g.play_turn()
        out += g.events
    return out


def test_the_schema_documents_every_event_the_engine_logs_with_its_fields():
    events = logged_events()
    names = {e["e"] for e in events}
    assert names == set(EVENTS)
    markdown = schema_markdown()
    for e in events:
        kind = EVENTS[e["e"]]
        assert set(e) == {"e", *(f.name for f in kind.fields)}, e["e"]
    for kind in EVENTS.values():
        assert f"## `{kind.name}` (" in markdown
        assert all(f"| `{f.name}` |" in markdown for f in kind.fields)


def test_every_event_the_engines_source_logs_is_in_the_schema():
    """Statically, so that an event too rare to be played here is documented too."""
    source = Path(reference_module.__file__).read_text()
    logged = set(re.findall(r'self\.log\(\s*"(\w+)"', source))
    assert logged == set(EVENTS)
