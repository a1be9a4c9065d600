"""The reference engine: one game of Moai in plain Python, phases in rulebook order.

It is the oracle the fast engine is tested against and the engine to read beside docs/rules.md.
Every decision goes through `ReferenceGame.ask`, which builds the seat's view, checks the strategy's
answer against the legal mask (IllegalActionError otherwise) and logs it. Every chance
outcome and every decision is appended to `ReferenceGame.events`, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from moaisim import interrupts
from moaisim.errors import GameLengthError
from moaisim.games.moai.engine import warm
from moaisim.games.moai.engine.answers import BadAnswer, answer, failure
from moaisim.games.moai.engine.chance import reshuffle_order
from moaisim.games.moai.engine.decisions import (
    BIRTH_PAIRS,
    BIRTH_STOP,
    PAIR_STRENGTH,
    Kind,
    action_size,
    feed_codec,
    work_codec,
)
from moaisim.games.moai.engine.events import Event, EventMaker
from moaisim.games.moai.engine.state import State
from moaisim.games.moai.engine.steps import Step, round_bound
from moaisim.games.moai.engine.views import check_reads, make_view, parts_for, start_strategies
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import (
    CAMP,
    N_CARD_TYPES,
    N_RAID_COMBOS,
    RESERVE,
    TILE_OUT,
    card_value,
    feeds,
    finishable,
    hill_order,
    holds_pair,
    moai_tile,
    new_volcano_space,
    placed_face_up,
    raid_cards,
    raidable,
    statue_heights,
    swap_place,
    volcano_open,
)
from moaisim.games.moai.rules.epoch_cards import LOSS_BOAT, LOSS_MOAI, LOSS_PAWN
from moaisim.rng import Streams

# The rule functions of `codes`, in plain Python (this engine reads one value at a time).
card_value, feeds, holds_pair, moai_tile = (
    card_value.py_func,
    feeds.py_func,
    holds_pair.py_func,
    moai_tile.py_func,
)
placed_face_up, raid_cards, raidable, swap_place = (
    placed_face_up.py_func,
    raid_cards.py_func,
    raidable.py_func,
    swap_place.py_func,
)
finishable, hill_order, new_volcano_space, statue_heights, volcano_open = (
    finishable.py_func,
    hill_order.py_func,
    new_volcano_space.py_func,
    statue_heights.py_func,
    volcano_open.py_func,
)


class ReferenceGame:
    """One seeded game. `play()` runs it to the end; the phase methods run one phase each
    (scenario tests set up `state` by hand and call them)."""

    def __init__(
        self,
        rules: Rules,
        strategies: Sequence[Any],
        seed: int = 0,
        game: int = 0,
        names: Sequence[str] | None = None,
        state: State | None = None,
    ) -> None:
        if len(strategies) != rules.players:
            raise ValueError(f"{rules.players} players need {rules.players} strategies")
        self.rules, self.seed, self.game = rules, seed, game
        self.strategies = list(strategies)
        self.names = list(names) if names else [type(s).__name__ for s in strategies]
        self.streams = Streams(seed, [game], rules.players)
        self.events: list[Event] = []
        self.make_event = EventMaker(rules)
        self.cards = rules.components.epoch_cards
        self.work_codec = work_codec(rules)
        self.feed_codec = feed_codec(rules)
        self._sizes = {k: action_size(rules, k) for k in Kind}
        self.bound = round_bound(rules)  # the rounds after which the game is stopped as broken
        self.asked = 0  # decisions put to the strategy (forced ones excluded)
        self.decided = 0  # all decisions, forced ones included
        for strategy, name in zip(self.strategies, self.names, strict=True):
            check_reads(strategy, name)
        start_strategies(
            self.strategies, rules, np.array([game], dtype=np.int64), self.names, self.seed
        )
        if state is None:
            state = State.setup(rules, self.streams)
            self.log(
                "setup",
                epoch_deck=list(state.epoch_deck),
                deck=list(state.deck),
                hands=state.hand.tolist(),
                covered=state.covered,
                bid_order=list(state.bid_order),
            )
        self.state = state

    # --- plumbing ----------------------------------------------------------------------
    def log(self, e: str, **data: Any) -> None:
        """Append an event to the game's log (docs/events.md)."""
        self.events.append(self.make_event(e, **data))

    def ask(self, seat: int, kind: Kind, legal: np.ndarray, **info: Any) -> Any:
        """Ask `seat` for a decision of `kind` with a legal mask; validate and log the answer.

        A decision with a single legal action is taken without asking (both engines do so).
        For BID, `legal` holds the hand counts that bound the bid.
        """
        forced = not legal.any() if kind is Kind.BID else int(legal.sum()) == 1
        self.decided += 1
        if forced:
            action: Any = (
                np.zeros(N_CARD_TYPES, dtype=np.int16)
                if kind is Kind.BID
                else int(np.argmax(legal))
            )
        else:
            action = self._ask_strategy(seat, kind, legal, info)
        self.log(
            "decision",
            seat=seat,
            kind=kind.value,
            action=[int(a) for a in action] if kind is Kind.BID else int(action),
            forced=forced,
        )
        return action

    def _ask_strategy(self, seat: int, kind: Kind, legal: np.ndarray, info: dict[str, Any]) -> Any:
        """Ask the seat's strategy through a sealed view of this game (a batch of one) and
        check its answer as the batch engine does."""
        rows, games = np.zeros(1, dtype=np.int64), np.array([self.game])
        rng = self.streams.seat(seat, rows)
        info = {k: np.asarray(v)[None] for k, v in info.items()}
        s = self.state
        secrets = (s.hand[None], s.loc[None], s.up[None], s.moai_owner[None])
        parts = parts_for(self.strategies[seat], kind)
        view = make_view(kind, seat, self.rules, parts, s.record(), secrets, rows, games,
                         legal[None], rng, info, s.cursor_record())  # fmt: skip
        self.asked += 1
        try:
            action = answer(getattr(self.strategies[seat], kind.value), view, kind, legal[None])
        except BadAnswer as bad:
            raise failure(bad, self.names[seat], kind, games, self.seed, seat) from bad.raised
        self.streams.advance(seat, rows, rng)
        return action[0] if kind is Kind.BID else int(action[0])

    def discard_wood(self) -> None:
        """R3.1: a wood token discarded or spent goes back to the supply, or out of the game
        under `spent_wood = out` (A1)."""
        if self.rules.spent_wood == "out":
            self.state.wood_out += 1
        else:
            self.state.wood_supply += 1

    def mask(self, kind: Kind) -> np.ndarray:
        """An all-False legal mask of the decision kind's action space."""
        return np.zeros(self._sizes[kind], dtype=bool)

    def position(self, seat: int) -> int:
        """The seat's position in the turn order (R2) this round."""
        return int(np.argmax(self.state.turn == seat))

    # --- the game ----------------------------------------------------------------------
    @interrupts.passes_signals
    def play(self) -> list[Event]:
        """R2: rounds of five phases until the review of the last round (R8)."""
        s = self.state
        with warm.compiling("reference"):  # the views' kernels, the first time: said so
            while True:
                if s.round >= self.bound:  # past any legal game's length (R8.1): never loop
                    raise GameLengthError(self.game, self.seed, self.bound, "rounds")
                self.birdman_phase()
                self.epoch_phase()
                self.work_phase()
                self.production_phase()
                self.review_phase()
                if s.last_round:
                    break
        self.log("end", scores=[s.score(p) for p in range(self.rules.players)], rounds=s.round)
        return self.events

    def final_scores(self) -> list[int]:
        """R8.2: each seat's score (once the game is played: the batch's `scores()` row)."""
        return [int(self.state.score(p)) for p in range(self.rules.players)]

    # --- R3 bird-man phase ---------------------------------------------------------------
    def birdman_phase(self) -> None:
        """R3: cards revealed and wood in the forest (R3.1-R3.2), bids (R3.3), the hill order
        (R3.4-R3.5)."""
        s, p = self.state, self.rules.players
        s.round += 1
        s.bids[:] = -1
        self.log("round", round=s.round)
        # R3.1-R3.2: reveal players + 1 cards; the Admiral is set aside and marks the last round
        offer: list[int] = []
        admiral = False
        while len(offer) < p + 1 and s.epoch_deck:
            cid = s.epoch_deck.pop(0)
            s.revealed[cid] = True  # R3.1: every player sees it
            if self.cards[cid].is_admiral:
                admiral = True
                continue
            offer.append(cid)
        if admiral or not s.epoch_deck:  # R8.1
            s.last_round = True
        s.offer[:] = -1
        s.offer[: len(offer)] = offer
        c = self.rules.components
        tokens = c.wood_per_palm * sum(self.cards[k].palm for k in offer)  # R3.1 per palm
        spaces = []
        for space in range(c.forest_spaces):  # R3.1: spaces 1, 2, 3...
            if tokens == 0 or s.wood_supply == 0:
                break
            s.forest_wood[space] = True
            s.wood_supply -= 1
            tokens -= 1
            spaces.append(space)
        self.log("reveal", cards=offer, admiral=admiral, wood=spaces, last_round=s.last_round)
        self.bidding()

    def bidding(self) -> None:
        """R3.3 sealed bids (V2/V4: face up, one at a time), then R3.4-R3.5."""
        s, p = self.state, self.rules.players
        if self.rules.open_bidding:
            for k, seat in enumerate(s.bid_order):
                s.at(Step.BID, pos=k)
                bid = self.ask(seat, Kind.BID, s.hand[seat].copy())
                self._pay_bid(seat, bid)
        else:
            s.at(Step.BID)
            bids = [self.ask(seat, Kind.BID, s.hand[seat].copy()) for seat in range(p)]
            for seat in range(p):
                self._pay_bid(seat, bids[seat])
        self.log("bids", totals=s.bids.tolist())
        self.hill_order()

    def _pay_bid(self, seat: int, bid: np.ndarray) -> None:
        s = self.state
        s.hand[seat] -= bid
        s.discard += bid  # R3.5: bid cards go to the discard pile
        s.bids[seat] = sum(card_value(t) * int(n) for t, n in enumerate(bid))
        self.log("bid", seat=seat, cards=[int(x) for x in bid], total=int(s.bids[seat]))

    def hill_order(self) -> None:
        """R3.4 (V4: its own tie rule): bids in descending order, ties ordered by the bird-man
        (`codes.hill_order`: the places a bid fills alone, then the bird-man's choices)."""
        s, p = self.state, self.rules.players
        strict = self.rules.has("open-bidding-strict")
        hill = np.full(p, -1, dtype=np.int64)
        pos = 0
        while True:
            legal, tied = self.mask(Kind.ORDER_TIES), np.zeros(p, dtype=bool)
            pos, total = hill_order(hill, pos, s.bids, s.birdman, strict, legal, tied)
            if pos == p:
                break
            s.at(Step.HILL, pos=pos, hill=hill[:pos].tolist())
            hill[pos] = self.ask(s.birdman, Kind.ORDER_TIES, legal, tied=tied, bid=int(total))
            pos += 1
        order = hill.tolist()
        s.order[:] = order
        s.birdman = order[0]  # R3.5
        s.counters["birdman_rounds"][s.birdman] += 1
        if self.rules.turn_order == "hill":  # R2
            s.turn[:] = order
        else:
            s.turn[:] = [(s.birdman + k) % p for k in range(p)]
        s.bid_order = list(order)  # V2/V4: next round's bids follow this hill order
        self.log("hill", order=list(order), birdman=s.birdman, turn=s.turn.tolist())

    # --- R4 epoch phase ------------------------------------------------------------------
    def epoch_phase(self) -> None:
        """R4: each clan takes an epoch card in turn; disasters hit (R4.1-R4.4)."""
        s = self.state
        for pos, seat in enumerate(s.turn.tolist()):
            legal = s.offer >= 0
            if not legal.any():  # R4.2: the last in order take none
                self.log("no_card", seat=seat)
                continue
            s.at(Step.PICK, pos=pos)
            slot = self.ask(seat, Kind.PICK_EPOCH, legal)
            cid = int(s.offer[slot])
            s.offer[slot] = -1
            s.held[seat] = cid
            self.log("pick", seat=seat, card=cid)
            if self.cards[cid].is_disaster:  # R4.3: at once
                self.disaster(seat, pos, cid)
        left = [int(c) for c in s.offer if c >= 0]
        s.offer[:] = -1  # R4.1: the card no one takes leaves the game
        self.log("unpicked", cards=left)

    def disaster(self, taker: int, pos: int, cid: int) -> None:
        """R4.3-R4.4 and C3: the card's effect (`epoch_cards.EFFECTS`)."""
        s, p = self.state, self.rules.players
        effect = self.cards[cid].effect
        assert effect is not None
        if effect.erosion:  # no target: a supply token covers a free field
            hit = s.disaster_supply > 0 and s.free_fields() > 0
            if hit:
                s.disaster_supply -= 1
                s.covered += 1
            self.log("erosion", seat=taker, covered=hit)
            return
        if self.rules.has("fixed-disasters"):  # V5: the next player in turn order
            target = int(s.turn[(pos + 1) % p])
        else:
            s.at(Step.TARGET, pos=pos, card=cid)
            target = self.ask(taker, Kind.DISASTER_TARGET, np.ones(p, dtype=bool), card=cid)
        s.counters["disasters_aimed"][taker] += 1
        s.counters["disasters_suffered"][target] += 1
        self.log("disaster", seat=taker, card=cid, target=target)
        if effect.burns and s.wood[target] > 0:  # fire, fire-boat
            s.wood[target] -= 1
            self.discard_wood()
            self.log("burn", seat=target)
        s.at(Step.LOSS, pos=pos, card=cid, target=target)  # if the victim has something to lose
        if effect.loss == LOSS_BOAT:  # fire-boat, storm
            self.lose_boat(target, cid)
        elif effect.loss == LOSS_PAWN:  # famine
            self.lose_pawn(target, cid)
        elif effect.loss == LOSS_MOAI:  # topple
            self.lose_moai(target, cid)

    def lose_pawn(self, seat: int, cid: int) -> None:
        """Famine: a pawn from the board, or from the camp if none is on it, to the reserve."""
        s = self.state
        pawns = s.on_board(seat)
        if len(pawns) == 0:
            pawns = s.camp(seat)
        if len(pawns) == 0:
            return
        legal = self.mask(Kind.DISASTER_LOSS)
        legal[pawns] = True
        pawn = self.ask(seat, Kind.DISASTER_LOSS, legal, what=LOSS_PAWN, card=cid)
        self.log(
            "lose_pawn",
            seat=seat,
            pawn=pawn,
            strength=int(s.strength[pawn]),
            at=int(s.loc[seat, pawn]),
        )
        s.loc[seat, pawn] = RESERVE
        s.up[seat, pawn] = False

    def lose_boat(self, seat: int, cid: int) -> None:
        """Storm, fire-boat: the victim picks a boat; its card leaves the game, its pawn to camp."""
        s = self.state
        slots = np.flatnonzero(s.boats[seat] >= 0)
        if len(slots) == 0:
            return
        legal = self.mask(Kind.DISASTER_LOSS)
        legal[slots] = True
        slot = self.ask(seat, Kind.DISASTER_LOSS, legal, what=LOSS_BOAT, card=cid)
        s.boats[seat, slot] = -1
        sailor = s.pawns_at(seat, self.rules.layout.ocean0 + slot)
        s.loc[seat, sailor] = CAMP
        s.up[seat, sailor] = False
        self.log("lose_boat", seat=seat, slot=slot, sailor=[int(x) for x in sailor])

    def lose_moai(self, seat: int, cid: int) -> None:
        """Topple: the victim picks one of its Moai tiles; it leaves the game."""
        s = self.state
        tiles = np.flatnonzero(s.moai_owner == seat)
        if len(tiles) == 0:
            return
        legal = self.mask(Kind.DISASTER_LOSS)
        legal[tiles] = True
        tile = self.ask(seat, Kind.DISASTER_LOSS, legal, what=LOSS_MOAI, card=cid)
        s.moai_owner[tile] = TILE_OUT
        self.log("lose_moai", seat=seat, tile=tile, height=self.rules.components.moai_heights[tile])

    # --- R5 work phase -------------------------------------------------------------------
    def work_phase(self) -> None:
        """R5.1: in turn order, one action per turn, until every camp is empty."""
        s, p = self.state, self.rules.players
        count = 0  # work actions so far this phase
        while (s.loc == CAMP).any():
            for seat in s.turn.tolist():
                if not (s.loc == CAMP).any():
                    break
                legal = self.work_mask(seat)
                s.at(Step.WORK, pos=count % p, count=count)
                action = self.ask(seat, Kind.WORK, legal)
                self.apply_work(seat, action)
                count += 1

    def work_mask(self, seat: int) -> np.ndarray:
        """R5: the seat's legal work actions now (place, pass or swap)."""
        s, lay, codec = self.state, self.rules.layout, self.work_codec
        legal = self.mask(Kind.WORK)
        camp = s.camp(seat)
        if len(camp):  # R5.2: must place
            target = np.zeros(codec.targets, dtype=bool)
            target[: lay.forest] = True  # R5.4
            target[lay.fields] = s.free_fields() > 0  # R5.5
            own = s.loc[seat]
            used = np.zeros(lay.volcano, dtype=bool)  # R5.6: own spaces, or a new one
            volcano_pawns = own[(own >= lay.volcano0) & (own < lay.ocean0)]
            used[volcano_pawns - lay.volcano0] = True
            new = new_volcano_space(used)
            for v in range(lay.volcano):
                target[lay.volcano0 + v] = volcano_open(used, v, new)
            target[codec.boat_target] = self.free_boat(seat) >= 0  # R5.7
            for strength in {int(x) for x in s.strength[camp]}:
                legal[codec.place(strength, 0) : codec.place(strength, 0) + codec.targets] = target
            return legal
        legal[codec.pass_action] = True  # R5.3: pass or swap
        loc, up, st = s.loc[seat], s.up[seat], s.strength
        for k, (i, j) in enumerate(codec.pairs.tolist()):
            if loc[i] < 0 or loc[j] < 0 or swap_place(lay, loc[i]) == swap_place(lay, loc[j]):
                continue  # both on the board, in different places
            if st[i] != st[j] or up[i] != up[j]:  # and a change: strength or face (A2)
                legal[codec.swap0 + k] = True
        return legal

    def free_boat(self, seat: int) -> int:
        """The first built boat of the seat with no pawn on it, or -1."""
        s, lay = self.state, self.rules.layout
        for slot in np.flatnonzero(s.boats[seat] >= 0):
            if not (s.loc[seat] == lay.ocean0 + slot).any():
                return int(slot)
        return -1

    def apply_work(self, seat: int, action: int) -> None:
        """R5: apply one work action of the seat."""
        s, lay = self.state, self.rules.layout
        what, a, b = self.work_codec.decode(action)
        if what == "place":
            strength, target = a, b
            pawn = int(next(i for i in s.camp(seat) if s.strength[i] == strength))
            loc = (
                lay.ocean0 + self.free_boat(seat)
                if target == self.work_codec.boat_target
                else target
            )
            s.loc[seat, pawn] = loc
            s.up[seat, pawn] = placed_face_up(lay, loc, self.rules.has("open-pawns"))
            self.log("place", seat=seat, strength=strength, loc=int(loc), up=bool(s.up[seat, pawn]))
        elif what == "pass":
            self.log("pass", seat=seat)
        else:
            i, j = a, b
            s.loc[seat, i], s.loc[seat, j] = s.loc[seat, j], s.loc[seat, i]
            for pawn in (i, j):  # a pawn that lands in the fields is face up
                if s.loc[seat, pawn] == lay.fields:
                    s.up[seat, pawn] = True
            self.log(
                "swap", seat=seat, pawns=[i, j], locs=[int(s.loc[seat, i]), int(s.loc[seat, j])]
            )

    # --- R6 production phase -------------------------------------------------------------
    def production_phase(self) -> None:
        """R6: the forest (R6.1), the volcano (R6.2), feeding and raids (R6.3-R6.4)."""
        self.forest()
        self.volcano()
        self.feeding()

    def forest(self) -> None:
        """R6.1: each forest space in order. Pawns of several clans on a space are revealed,
        whether or not it holds wood (A3); a wood token goes to the strongest clan there."""
        s, p = self.state, self.rules.players
        for space in range(self.rules.layout.forest):
            here = s.loc == space
            clans = [q for q in range(p) if here[q].any()]
            wood = bool(s.forest_wood[space])
            totals: dict[int, int] = {}
            if len(clans) > 1:
                s.up[here] = True
                totals = {q: int(s.strength[here[q]].sum()) for q in clans}
            if not wood:
                if totals:
                    self.log("forest", space=space, wood=False, strengths=_keys(totals), winner=-1)
                continue
            if not clans:  # no pawn beside it: the token is discarded (R3.1)
                s.forest_wood[space] = False
                self.discard_wood()
                self.log("forest", space=space, wood=True, strengths={}, winner=-1)
                continue
            if len(clans) == 1:
                winner = clans[0]  # pawns stay face down
            else:
                best = max(totals.values())
                tied = [q for q in clans if totals[q] == best]
                if len(tied) == 1:
                    winner = tied[0]
                else:
                    legal = self.mask(Kind.FOREST_TIE)
                    legal[tied] = True
                    s.at(Step.FOREST, count=space)
                    winner = self.ask(s.birdman, Kind.FOREST_TIE, legal, space=space)
            s.forest_wood[space] = False  # the token leaves its space only when awarded
            s.wood[winner] += 1
            s.counters["forest_wood"][winner] += 1
            self.log("forest", space=space, wood=True, strengths=_keys(totals), winner=winner)

    def volcano(self) -> None:
        """R6.2: in turn order, finish any volcano spaces, one at a time (`codes.finishable`:
        a statue not finished this turn, a wood to pay, a tile not taller than the statue)."""
        s, lay = self.state, self.rules.layout
        heights = np.asarray(self.rules.components.moai_heights)
        for pos, seat in enumerate(s.turn.tolist()):
            done: set[int] = set()
            while True:
                legal = self.mask(Kind.FINISH_MOAI)
                finished = np.zeros(lay.volcano, dtype=bool)
                finished[sorted(done)] = True
                statues = self.statue_heights(seat)
                if not finishable(statues, finished, s.wood[seat], s.moai_owner, heights, legal):
                    break
                legal[lay.volcano] = True  # stop
                s.at(Step.VOLCANO, pos=pos, done=done)
                k = self.ask(seat, Kind.FINISH_MOAI, legal)
                if k == lay.volcano:
                    break
                self.finish_moai(seat, k)
                done.add(k)

    def finish_moai(self, seat: int, k: int) -> None:
        """R6.2: the seat finishes the statue of volcano space k (its pawns face up, one wood paid,
        a tile taken)."""
        s, lay = self.state, self.rules.layout
        heights = np.asarray(self.rules.components.moai_heights)
        pawns = s.pawns_at(seat, lay.volcano0 + k)
        s.up[seat, pawns] = True
        height = int(self.statue_heights(seat)[k])
        s.wood[seat] -= 1  # transport
        self.discard_wood()
        tile = moai_tile(s.moai_owner, heights, height)  # tallest tile not taller than it
        s.moai_owner[tile] = seat
        s.counters["moai_finished"][seat] += 1
        if self.rules.volcano_after_moai == "camp":
            s.loc[seat, pawns] = CAMP
            s.up[seat, pawns] = False
        self.log(
            "moai", seat=seat, space=k, height=height, tile=tile, tile_height=int(heights[tile])
        )

    def statue_heights(self, seat: int) -> np.ndarray:
        """R6.2: the height of the statue on each of the seat's volcano spaces [V]."""
        lay = self.rules.layout
        height = np.zeros(lay.volcano, dtype=np.int64)
        statue_heights(lay, self.state.loc[seat], height)
        return height

    def feeding(self) -> None:
        """R6.3-R6.4: in turn order, feed; each pawn short of food starves or is saved by a raid."""
        s, lay, st = self.state, self.rules.layout, self.state.strength
        for pos, seat in enumerate(s.turn.tolist()):
            board = s.on_board(seat)
            food = sum(int(st[i]) for i in board if feeds(lay, int(s.loc[seat, i])))
            deficit = max(0, len(board) - food)
            self.log("feed", seat=seat, food=food, mouths=len(board), deficit=deficit)
            for step in range(deficit):
                s.at(Step.FEED, pos=pos, left=deficit - step)
                action = self.ask(seat, Kind.FEED, self.feed_mask(seat), deficit=deficit - step)
                self.apply_feed(seat, action)

    def feed_mask(self, seat: int) -> np.ndarray:
        """R6.3-R6.4: the seat's legal feeding actions (starve an own pawn, or raid)."""
        s, lay, codec = self.state, self.rules.layout, self.feed_codec
        legal = self.mask(Kind.FEED)
        for i in s.on_board(seat):  # R6.3: forest and volcano pawns starve
            legal[i] = raidable(lay, int(s.loc[seat, i]))
        hand = s.hand[seat]
        for q in range(self.rules.players):  # R6.4: raid a face-up rival pawn there
            if q == seat:
                continue
            for j in range(lay.pawns):
                if not (s.up[q, j] and raidable(lay, int(s.loc[q, j]))):
                    continue
                for c in range(N_RAID_COMBOS):
                    legal[codec.raid(q, j, c)] = holds_pair(
                        hand, *raid_cards(c, int(s.strength[j]))
                    )
        return legal

    def apply_feed(self, seat: int, action: int) -> None:
        """R6.3-R6.4: apply one feeding action of the seat."""
        s = self.state
        what, a, b, c = self.feed_codec.decode(action)
        if what == "starve":
            self.log(
                "starve", seat=seat, pawn=a, at=int(s.loc[seat, a]), strength=int(s.strength[a])
            )
            s.loc[seat, a] = RESERVE
            s.up[seat, a] = False
            s.counters["starved"][seat] += 1
            return
        victim, pawn = a, b
        raid, second = raid_cards(c, int(s.strength[pawn]))
        for t in (raid, second):
            s.hand[seat, t] -= 1
            s.discard[t] += 1
        self.log(
            "raid",
            seat=seat,
            victim=victim,
            pawn=pawn,
            at=int(s.loc[victim, pawn]),
            strength=int(s.strength[pawn]),
            cards=[raid, second],
        )
        s.loc[victim, pawn] = RESERVE
        s.up[victim, pawn] = False
        s.counters["raids_made"][seat] += 1
        s.counters["raids_suffered"][victim] += 1

    # --- R7 review phase -----------------------------------------------------------------
    def review_phase(self) -> None:
        """R7: in turn order, each player draws, rests, gives births and builds its boat."""
        s = self.state
        for pos, seat in enumerate(s.turn.tolist()):
            cid = int(s.held[seat])
            card = self.cards[cid] if cid >= 0 else None
            self.draw_cards(seat, card.draw if card else 0)  # R7.1
            if not s.last_round:  # R7.2: no rest in the last round
                self.rest(seat, card.hut if card else 0)
            self.births(seat)  # R7.3
            if card and card.is_boat and s.wood[seat] >= 1:  # R7.4
                legal = np.ones(2, dtype=bool)
                s.at(Step.BOAT, pos=pos, card=cid)
                if self.ask(seat, Kind.BOAT, legal, card=cid) == 1:
                    s.wood[seat] -= 1
                    self.discard_wood()
                    slot = int(np.argmin(s.boats[seat] >= 0))
                    s.boats[seat, slot] = cid
                    s.counters["boats_built"][seat] += 1
                    self.log("boat", seat=seat, card=cid, slot=slot)
            s.held[seat] = -1  # the card is kept as a boat or discarded

    def draw_cards(self, seat: int, n: int) -> None:
        """R7.1: the seat draws n Rapa Nui cards (the discard pile reshuffled when the deck runs
        out)."""
        s = self.state
        drawn = []
        for _ in range(n):
            if not s.deck:
                if s.discard.sum() == 0:
                    break
                self.reshuffle()
            t = s.deck.pop(0)
            s.hand[seat, t] += 1
            drawn.append(t)
        self.log("draw", seat=seat, cards=drawn)

    def reshuffle(self) -> None:
        """R7.1: the discard pile, shuffled, becomes the deck (`chance.reshuffle_order`)."""
        s = self.state
        row = np.zeros(1, dtype=np.int64)
        deck = reshuffle_order(
            self.rules, self.streams, row, np.array([s.reshuffles]), s.discard[None]
        )[0]
        s.deck = [int(t) for t in deck if t >= 0]
        s.discard[:] = 0
        s.reshuffles += 1
        self.log("reshuffle", deck=list(s.deck))

    def rest(self, seat: int, hut: int) -> None:
        """R7.2: `hut` pawns from the board to camp, taken as evenly as possible across zones."""
        s, lay = self.state, self.rules.layout
        taken = np.zeros(4, dtype=int)
        times = min(hut, len(s.on_board(seat)))
        for k in range(times):
            board = s.on_board(seat)
            zones = lay.zones(s.loc[seat, board])
            present = np.unique(zones)
            allowed = present[taken[present] == taken[present].min()]
            legal = self.mask(Kind.REST)
            legal[board[np.isin(zones, allowed)]] = True
            s.at(Step.REST, pos=self.position(seat), left=times - k, taken=taken)
            pawn = self.ask(seat, Kind.REST, legal)
            zone = lay.zone(int(s.loc[seat, pawn]))
            taken[zone] += 1
            self.log(
                "rest",
                seat=seat,
                pawn=pawn,
                at=int(s.loc[seat, pawn]),
                shown=bool(s.up[seat, pawn]),
            )
            s.loc[seat, pawn] = CAMP
            s.up[seat, pawn] = False

    def births(self, seat: int) -> None:
        """R7.3: any number of times, two cards for a pawn of the lower card's strength; in
        the last round while a birth is possible (the player still picks the pair)."""
        s = self.state
        per = self.rules.components.pawns_per_strength
        while True:
            hand = s.hand[seat]
            reserve = [
                int((s.loc[seat, k * per : (k + 1) * per] == RESERVE).sum()) for k in range(3)
            ]
            legal = self.mask(Kind.BIRTH)
            for k, (a, b) in enumerate(BIRTH_PAIRS):
                legal[k] = holds_pair(hand, a, b) and reserve[PAIR_STRENGTH[k] - 1] > 0
            if not legal.any():
                return
            legal[BIRTH_STOP] = not s.last_round  # A4: compulsory in the last round
            s.at(Step.BIRTH, pos=self.position(seat))
            k = self.ask(seat, Kind.BIRTH, legal)
            if k == BIRTH_STOP:
                return
            a, b = BIRTH_PAIRS[k]
            strength = int(PAIR_STRENGTH[k])
            s.hand[seat, a] -= 1
            s.hand[seat, b] -= 1
            s.discard[a] += 1
            s.discard[b] += 1
            pawn = int(np.flatnonzero((s.loc[seat] == RESERVE) & (s.strength == strength))[0])
            s.loc[seat, pawn] = CAMP
            s.counters["births"][seat] += 1
            self.log("birth", seat=seat, cards=[a, b], strength=strength)


def _keys(totals: dict[int, int]) -> dict[str, int]:
    """A forest event's strengths: JSON object keys are strings."""
    return {str(q): v for q, v in totals.items()}
