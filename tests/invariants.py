"""Invariants that hold after every event of any game, the legal actions of every decision
worked out from the rules book independently of the engines, and the final scores counted from
the event log (used by the property tests)."""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.games.moai.engine.decisions import (
    BIRTH_PAIRS,
    Kind,
    action_size,
    feed_codec,
    work_codec,
)
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.state import State
from moaisim.games.moai.rules import CAMP, RESERVE, Rules
from moaisim.games.moai.rules.codes import RAID_COMBOS


def check_state(s: State) -> None:
    """Conservation of pawns, wood, cards, tiles and disaster tokens; sane locations."""
    r, c, lay = s.rules, s.rules.components, s.rules.layout
    p = r.players
    # 18 pawns per colour: camp + board + reserve; every location code valid
    assert s.loc.shape == (p, c.pawns)
    assert ((s.loc >= RESERVE) & (s.loc < lay.size)).all()
    assert not s.up[s.loc < 0].any(), "pawns off the board have no face"
    # a pawn in the fields is always face up (R5.5, R5.3); V1: every board pawn
    assert s.up[lay.zones(s.loc) == 1].all()
    if r.has("open-pawns"):
        assert s.up[s.loc >= 0].all()
    # a volcano space is one clan's (by construction); a boat holds one pawn, and only a built one
    for seat in range(p):
        for k in range(lay.boats):
            on = int((s.loc[seat] == lay.ocean0 + k).sum())
            assert on <= 1
            assert on == 0 or s.boats[seat, k] >= 0
    # fields: pawns + covered <= fields
    assert (s.loc == lay.fields).sum() + s.covered <= c.fields
    # 15 wood: supply + forest + clans + out of the game (spent_wood = out, R3.1)
    assert s.wood_supply + s.forest_wood.sum() + s.wood.sum() + s.wood_out == c.wood
    assert (s.wood >= 0).all() and s.wood_supply >= 0
    assert s.wood_out == 0 or r.spent_wood == "out"
    # 40 Rapa Nui cards: deck + discard + hands (bids go straight to the discard)
    per_type = (
        np.bincount(np.asarray(s.deck, dtype=int), minlength=6) + s.discard + s.hand.sum(axis=0)
    )
    assert per_type.tolist() == list(c.cards)
    assert (s.hand >= 0).all() and (s.discard >= 0).all()
    # 21 Moai tiles: supply + clans + out of game
    assert s.moai_owner.shape == (c.n_tiles,)
    assert ((s.moai_owner >= -2) & (s.moai_owner < p)).all()
    # disaster tokens: supply + covered fields
    assert s.disaster_supply + s.covered == c.disaster_tokens
    assert s.disaster_supply >= 0
    # boats are boat cards, each held once
    held = s.boats[s.boats >= 0]
    assert len(set(held.tolist())) == len(held)
    assert all(c.epoch_cards[i].is_boat for i in held)


# --- legal actions, from the rules book (docs/rules.md) -------------------------------------
#
# Written apart from the engines: none of their mask code nor the rule functions of
# Moai's `rules.codes` is used, only the encodings of locations and actions (Layout codes,
# the work and feed codecs, BIRTH_PAIRS, RAID_COMBOS) and the component set.

VALUE = (1, 2, 3, 1, 2, 3)  # card types 1, 2, 3, Raid 1, Raid 2, Raid 3 (C1)
RAID_TYPE = {1: 3, 2: 4, 3: 5}  # the Raid card of each value
PLAIN_TYPE = {1: 0, 2: 1, 3: 2}


def zone(rules: Rules, loc: int) -> str | None:
    """R0: the zone of a location code (None off the board)."""
    lay = rules.layout
    if loc < 0:
        return None
    if loc < lay.forest:
        return "forest"
    if loc == lay.fields:
        return "fields"
    if loc < lay.ocean0:
        return "volcano"
    return "ocean"


def strength(rules: Rules, pawn: int) -> int:
    """R1.5: pawns of a colour are numbered by strength (per_strength of each)."""
    return pawn // rules.components.pawns_per_strength + 1


def holds(hand: np.ndarray, a: int, b: int) -> bool:
    """The hand holds a card of type a and another one of type b."""
    return hand[a] >= 2 if a == b else hand[a] >= 1 and hand[b] >= 1


def since(events: list[dict], e: str, seat: int | None = None) -> list[dict]:
    """The events after the last event of kind `e` (of `seat` if given); all when none."""
    starts = [k for k, x in enumerate(events) if x["e"] == e and seat in (None, x.get("seat"))]
    return events[starts[-1] + 1 :] if starts else list(events)


def expected_legal(
    s: State, seat: int, kind: Kind, info: dict[str, Any], events: list[dict]
) -> np.ndarray:
    """The legal mask of a decision (for a bid: the hand that bounds it) as the rules book
    gives it, from the position before the decision and the game's events so far (for the
    parts of a decision already taken: tied bidders placed, statues finished, pawns rested)."""
    r = s.rules
    lay, comp, p = r.layout, r.components, r.players
    legal = np.zeros(action_size(r, kind), dtype=bool)
    pawns = range(comp.pawns)
    mine = s.loc[seat]
    if kind is Kind.BID:  # R3.3: any part of the hand
        return s.hand[seat].copy()
    if kind is Kind.ORDER_TIES:  # R3.4 (V4): the bird-man names the next tied bidder
        assert seat == s.birdman
        tied, bid = np.asarray(info["tied"], dtype=bool), int(info["bid"])
        assert tied.tolist() == (s.bids == bid).tolist()
        placed = [
            x["action"]
            for x in since(events, "bids")
            if x["e"] == "decision" and x["kind"] == "order_ties" and tied[x["action"]]
        ]
        left = [q for q in range(p) if tied[q] and q not in placed]
        assert len(left) > 1
        legal[left] = True
        if s.birdman in left:
            if not r.has("open-bidding-strict"):
                legal[s.birdman] = False  # R3.4: behind all the others he ties with
            elif bid == s.bids.max() and not placed:
                legal[s.birdman] = False  # V4: never first when tied for first
        return legal
    if kind is Kind.PICK_EPOCH:  # R4.1: a card still on offer
        return np.asarray(s.offer >= 0)
    if kind is Kind.DISASTER_TARGET:  # R4.3: any clan, himself included (not under V5)
        assert not r.has("fixed-disasters")
        legal[:p] = True
        return legal
    if kind is Kind.DISASTER_LOSS:  # R4.4, C3: the victim picks among what it has
        what = int(info["what"])
        if what == 0:  # famine: a pawn on the board, else one in camp
            board = [i for i in pawns if mine[i] >= 0]
            legal[board or [i for i in pawns if mine[i] == CAMP]] = True
        elif what == 1:  # storm, fire-boat: a built boat
            legal[[k for k in range(lay.boats) if s.boats[seat, k] >= 0]] = True
        else:  # topple: one of its Moai tiles
            legal[[t for t in range(comp.n_tiles) if s.moai_owner[t] == seat]] = True
        return legal
    if kind is Kind.WORK:
        return _work(s, seat, legal)
    if kind is Kind.FOREST_TIE:  # R6.1: the strongest clans on the space, wood still there
        assert seat == s.birdman
        space = int(info["space"])
        assert s.forest_wood[space]
        total = [sum(strength(r, i) for i in pawns if s.loc[q, i] == space) for q in range(p)]
        assert sum(t > 0 for t in total) > 1
        legal[[q for q in range(p) if total[q] == max(total)]] = True
        return legal
    if kind is Kind.FINISH_MOAI:  # R6.2: pay 1 wood, a tile no taller than the statue
        finished = [
            x["space"] for x in since(events, "round") if x["e"] == "moai" and x["seat"] == seat
        ]
        free = [comp.moai_heights[t] for t in range(comp.n_tiles) if s.moai_owner[t] == -1]
        for k in range(lay.volcano):
            height = sum(strength(r, i) for i in pawns if mine[i] == lay.volcano0 + k)
            if s.wood[seat] >= 1 and height and k not in finished:
                legal[k] = any(h <= height for h in free)
        legal[lay.volcano] = True  # stop
        return legal
    if kind is Kind.FEED:  # R6.3-R6.4: starve a forest/volcano pawn, or raid to save it
        codec = feed_codec(r)
        for i in pawns:
            legal[i] = zone(r, int(mine[i])) in ("forest", "volcano")
        hand = s.hand[seat]
        for q in range(p):
            for j in pawns:
                exposed = s.up[q, j] and zone(r, int(s.loc[q, j])) in ("forest", "volcano")
                if q == seat or not exposed:
                    continue
                v = strength(r, j)
                for c, (raid_value, second_raid) in enumerate(RAID_COMBOS):
                    second = RAID_TYPE[v] if second_raid else PLAIN_TYPE[v]
                    legal[codec.raid(q, j, c)] = holds(hand, RAID_TYPE[raid_value], second)
        return legal
    if kind is Kind.REST:  # R7.2: a pawn of a zone that has given up the fewest so far
        taken = {"forest": 0, "fields": 0, "volcano": 0, "ocean": 0}
        for x in since(events, "draw", seat):
            if x["e"] == "rest" and x["seat"] == seat:
                taken[zone(r, x["at"])] += 1
        board = [i for i in pawns if mine[i] >= 0]
        fewest = min(taken[zone(r, int(mine[i]))] for i in board)
        legal[[i for i in board if taken[zone(r, int(mine[i]))] == fewest]] = True
        return legal
    if kind is Kind.BIRTH:  # R7.3: two cards, a pawn of the lower value from the reserve
        for k, (a, b) in enumerate(BIRTH_PAIRS):
            x = min(VALUE[a], VALUE[b])
            in_reserve = any(mine[i] == RESERVE and strength(r, i) == x for i in pawns)
            legal[k] = holds(s.hand[seat], a, b) and in_reserve
        legal[len(BIRTH_PAIRS)] = not s.last_round  # A4: no stopping in the last round
        return legal
    if kind is Kind.BOAT:  # R7.4: a boat card and a wood to pay
        card = int(s.held[seat])
        assert card >= 0 and comp.epoch_cards[card].is_boat and s.wood[seat] >= 1
        legal[:] = True
        return legal
    raise AssertionError(f"unknown decision kind {kind}")


def _work(s: State, seat: int, legal: np.ndarray) -> np.ndarray:
    """R5.2-R5.7 (place a camp pawn) or R5.3 (pass or swap)."""
    r = s.rules
    lay, comp = r.layout, r.components
    codec = work_codec(r)
    mine = s.loc[seat]
    pawns = range(comp.pawns)
    camp = [i for i in pawns if mine[i] == CAMP]
    if camp:
        targets = list(range(lay.forest))  # R5.4: any forest space
        if comp.fields - s.covered - int((s.loc == lay.fields).sum()) > 0:
            targets.append(lay.fields)  # R5.5: a free field
        spaces = [k for k in range(lay.volcano) if (mine == lay.volcano0 + k).any()]
        new = [k for k in range(lay.volcano) if k not in spaces]
        targets += [lay.volcano0 + k for k in spaces + new[:1]]  # R5.6: own or a new space
        built = [k for k in range(lay.boats) if s.boats[seat, k] >= 0]
        if any(not (mine == lay.ocean0 + k).any() for k in built):
            targets.append(codec.boat_target)  # R5.7: an empty boat of its own
        for x in {strength(r, i) for i in camp}:
            legal[[codec.place(x, t) for t in targets]] = True
        return legal
    legal[codec.pass_action] = True  # R5.3: pass, or swap two pawns that makes a difference

    def place(i: int) -> Any:  # the fields are one place, and so are the clan's boats
        return "boats" if zone(r, int(mine[i])) == "ocean" else int(mine[i])

    board = [i for i in pawns if mine[i] >= 0]
    for a, i in enumerate(board):
        for j in board[a + 1 :]:
            differ = strength(r, i) != strength(r, j) or s.up[seat, i] != s.up[seat, j]
            if place(i) != place(j) and differ:
                legal[codec.swap(i, j)] = True
    return legal


def check_legal(
    s: State, seat: int, kind: Kind, legal: np.ndarray, info: dict[str, Any], events: list[dict]
) -> None:
    """The engine's legal mask (a bid's bound) is the one the rules book gives."""
    want = expected_legal(s, seat, kind, info, events)
    got = np.asarray(legal)
    assert got.tolist() == want.tolist(), (
        f"{kind.value} of seat {seat}: the engine allows {np.flatnonzero(got).tolist()}, "
        f"the rules {np.flatnonzero(want).tolist()}"
    )


# --- the score, counted from the event log (R8.2) --------------------------------------------


def scores_from_events(rules: Rules, events: list[dict]) -> list[dict[str, int]]:
    """Per seat: Moai height, living pawns, wood and score (R8.2) as the events tell them:
    statues taken (moai) and lost (lose_moai); 9 pawns at the start (R1.5), plus births,
    minus starved, raided and famine pawns; wood won in the forest, minus transports,
    boats and fires; the points per metre and per wood token are the rules' (`moai_points`,
    `wood_points`: 1 and 2 by default)."""
    p, c = rules.players, rules.components
    moai, wood = [0] * p, [0] * p
    living = [3 * rules.components.camp_per_strength] * p
    for x in events:
        e = x["e"]
        if e == "moai":
            moai[x["seat"]] += x["tile_height"]
            wood[x["seat"]] -= 1
        elif e == "lose_moai":
            moai[x["seat"]] -= x["height"]
        elif e == "forest" and x["wood"] and x["winner"] >= 0:
            wood[x["winner"]] += 1
        elif e in ("boat", "burn"):
            wood[x["seat"]] -= 1
        elif e == "birth":
            living[x["seat"]] += 1
        elif e in ("starve", "lose_pawn"):
            living[x["seat"]] -= 1
        elif e == "raid":
            living[x["victim"]] -= 1
    return [
        {
            "moai_height": moai[q],
            "pawns": living[q],
            "wood": wood[q],
            "score": c.moai_points * moai[q] + living[q] + c.wood_points * wood[q],
        }
        for q in range(p)
    ]


class CheckedGame(ReferenceGame):
    """A reference game that checks the invariants after every event, and every legal mask
    against the rules book's (`expected_legal`) before the decision is taken."""

    def log(self, e: str, **data: Any) -> None:
        super().log(e, **data)
        if hasattr(self, "state"):  # set up (the setup event comes first)
            check_state(self.state)

    def ask(self, seat, kind, legal, **info):  # type: ignore[no-untyped-def]
        check_legal(self.state, seat, kind, legal, info, self.events)
        return super().ask(seat, kind, legal, **info)


def camp_count(s: State, seat: int) -> int:
    return int((s.loc[seat] == CAMP).sum())
