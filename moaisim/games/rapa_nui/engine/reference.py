"""Rapa Nui's reference engine: one game, in plain Python, readable beside the rules book
(docs/rapa-nui-rules.md; each step cites its rule). It is the oracle the fast machine is
tested against.

A game is set up from its seed and number (R1: the deck shuffled on the game's own chance
stream, so the deal is the same under every rule option and parameter), then played turn by
turn (R2) until it ends (R8) and is scored (R9). Every decision with more than one legal
action is asked of the seat's strategy through a `SeatView` of this one game, drawing from
the seat's own stream; a decision with one legal action is taken without asking. Every step
is recorded in the event log (`events`, `play()`'s result; its kinds and fields are
engine/events.py's `EVENTS`): the deal's whole order, and every decision with its legal
actions where it is made (a forced one marked `forced`), so that the log alone lets another
engine play the game again (strategies/rapa_nui/replay.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from moaisim.errors import GameLengthError, StrategyError
from moaisim.games.rapa_nui.engine.chance import Chance
from moaisim.games.rapa_nui.engine.decisions import Kind, action_size
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.games.rapa_nui.rules.codes import (
    BUY_NOTHING,
    HG,
    KINDS,
    LUMBERJACK,
    MAX_GROUP,
    MOAI,
    N_FOODS,
    N_KINDS,
    N_PLAY,
    PLAY_LUMBERJACK,
    PLAY_MOAI,
    PLAY_PRIEST,
    PRIEST,
    offered,
    play_hg,
    played,
)
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.games.rapa_nui.rules.scoring import (
    PARTS,
    TIES,
    bonus_holders,
    sacrifice_price,
    score_parts,
    type_values,
)
from moaisim.rng import Streams

# The rules' kernels of `scoring`, in plain Python (this engine reads one value at a time).
sacrifice_price, score_parts = sacrifice_price.py_func, score_parts.py_func

#: The bound on a game's length is this many times the most turns a legal game can take
#: (`turn_bound`): a margin for a case the count might miss.
MARGIN = 2


def turn_bound(rules: Rules) -> int:
    """The turns after which both engines stop a game that has not ended, as broken
    (`GameLengthError`): `MARGIN` times (P + 1)(H + 2), for P players and H the cards that
    can ever be in a hand (the start hands, R1.2, and the deck, C1), which no legal game
    reaches (the default set at 4 players: 2 x 5 x 64 = 640 turns; games measured last at
    most 80).

    A legal game's turns number less than (P + 1)(H + 2). Each turn either moves at least
    one card out of a hand for good (a play, R4.1; a discard, R4.3): at most H turns; or
    passes (R4.3 under `pass`): at most P after each such turn and before the first, the P-th
    ending the game (R4.5); or begins with an empty hand (R6.7), which needs the display run
    dry (after every play the hand is refilled to its size, at least 1 card, R6.1, C7, and
    an emptied column is refilled while the draw pile lasts, R6.3): the draw pile is used
    up, so the game ends within the round (R8.2, R8.3; a component set leaving no draw pile
    is refused, R8.1): fewer than P turns. So H + P(H + 1) + P - 1 < (P + 1)(H + 2).
    """
    p = rules.players
    cards = rules.components.n_cards + sum(sum(rules.start_hand(q)) for q in range(p))
    return MARGIN * (p + 1) * (cards + 2)


def deck(rules: Rules) -> list[int]:
    """C1: the Rapa Nui cards in their fixed order before the shuffle, by kind."""
    c = rules.components
    cards = [LUMBERJACK] * c.lumberjacks + [PRIEST] * c.priests + [MOAI] * c.moai
    for food, count in enumerate(c.hunter_gatherers):
        cards += [HG + food] * count
    return cards


def shuffled(rules: Rules, streams: Streams, row: int = 0) -> list[int]:
    """R1.3: the deck in its shuffled order, first card first: card i of `deck` goes to the
    place its uniform of the game's DEAL stream ranks (ties by card order)."""
    cards = deck(rules)
    keys = streams.chance(Chance.DEAL, np.array([row]), len(cards))[0]
    return [cards[i] for i in np.argsort(keys, kind="stable").tolist()]


def deal(rules: Rules, cards: list[int]) -> tuple[list[list[int]], list[int]]:
    """R1.3: the display's columns (each most covered card first, bottom card last) and the
    draw pile (top first), by `display_deal`."""
    c = rules.components
    n = c.display_cards
    if rules.display_deal == "by_column":
        columns = [cards[c.depth * k : c.depth * (k + 1)] for k in range(c.columns)]
    else:  # by_row: the first row dealt is the most covered
        columns = [[cards[c.columns * r + k] for r in range(c.depth)] for k in range(c.columns)]
    return columns, cards[n:]


@dataclass
class Table:
    """The state of one game (every list indexed by seat, then kind or food type)."""

    hand: list[list[int]]
    village: list[list[int]]
    stock: list[list[int]]
    down: list[list[int]]  # face-down sacrifices by owner and type (R5.4: hidden)
    wood: list[int]
    glory: list[int]
    supply: list[int]
    stone: list[int]  # face-up sacrifices by type
    columns: list[list[int]]
    pile: list[int]
    out: list[int] = field(default_factory=lambda: [0] * N_KINDS)  # discarded (R4.3)
    # the public record (R10.3)
    taken: list[list[int]] = field(default_factory=list)
    played: list[list[int]] = field(default_factory=list)
    discarded: list[list[int]] = field(default_factory=list)
    bought: list[list[int]] = field(default_factory=list)
    gained: list[list[int]] = field(default_factory=list)
    given: list[list[int]] = field(default_factory=list)
    turn: int = 0
    active: int = 0
    revealed: int = -1
    turns: list[int] = field(default_factory=list)  # turns each seat played
    passes: int = 0  # R4.5: turns in a row without a play
    first_column: int = -1  # R6.2: the column of the turn's first take, while taking
    pile_out: bool = False  # R8.1: a refill took the draw pile's last card


class ReferenceGame:
    """One game of Rapa Nui between `strategies` (one per seat, labelled `names`: by default
    each strategy's `name`, else its class name), game `game` of root seed `seed`. `play()`
    plays it to the end and returns its log (`events`); the scores are then `scores`."""

    def __init__(self, rules: Rules, strategies: Sequence[Any], seed: int = 0, game: int = 0,
                 names: Sequence[str] | None = None) -> None:  # fmt: skip
        if len(strategies) != rules.players:
            raise ValueError(f"{rules.players} players need {rules.players} strategies")
        self.rules, self.strategies = rules, list(strategies)
        if names is None:
            names = [str(getattr(s, "name", type(s).__name__)) for s in self.strategies]
        if len(names) != rules.players:
            raise ValueError(f"{rules.players} players need {rules.players} names")
        self.names = [str(n) for n in names]
        self.seed, self.game = int(seed), int(game)
        self.bound = turn_bound(rules)  # the turns after which the game is stopped as broken
        self.streams = Streams(self.seed, np.array([self.game]), rules.players)
        self.events: list[dict[str, Any]] = []
        self.over = False
        self.ended_by = "pile"  # why the game ended (the end event's reason): pile or passes
        self.scores: list[int] | None = None
        self.t = self._setup()

    @property
    def state(self) -> ReferenceGame:
        """What `results.seat_rows` reads of a finished game: the game itself (its table `t`,
        its rules and its score's `parts()`)."""
        return self

    @property
    def asked(self) -> int:
        """Decisions put to the strategies (forced ones excluded), as `moaisim bench` counts."""
        return sum(not e["forced"] for e in self.decisions)

    @property
    def decided(self) -> int:
        """Every decision of the game, forced ones included."""
        return len(self.decisions)

    @property
    def decisions(self) -> list[dict[str, Any]]:
        """The log's decisions, in the order they were made (forced ones included)."""
        return [e for e in self.events if e["e"] == "decision"]

    # --- R1 -----------------------------------------------------------------------------
    def _setup(self) -> Table:
        r, c, p = self.rules, self.rules.components, self.rules.players
        cards = shuffled(r, self.streams)
        columns, pile = deal(r, cards)
        zeros = [[0] * N_FOODS for _ in range(p)]
        t = Table(
            hand=[r.start_hand(q) for q in range(p)],  # R1.2
            village=[[0] * N_KINDS for _ in range(p)],
            stock=[list(row) for row in zeros],
            down=[list(row) for row in zeros],
            wood=[r.start_wood(q) for q in range(p)],  # R1.6
            glory=[0] * p,  # R1.7
            supply=[c.supply] * N_FOODS,
            stone=[0] * N_FOODS,
            columns=columns,
            pile=pile,
            taken=[[0] * N_KINDS for _ in range(p)],
            played=[[0] * N_KINDS for _ in range(p)],
            discarded=[[0] * N_KINDS for _ in range(p)],
            bought=[list(row) for row in zeros],
            gained=[list(row) for row in zeros],
            given=[list(row) for row in zeros],
            turns=[0] * p,
        )
        for q in range(p):
            t.village[q][LUMBERJACK] = c.start_lumberjacks  # R1.2
        self.t = t
        if r.start_sacrifice == "one_each":  # R1.4
            for q in range(p):
                for food in range(N_FOODS):
                    t.stock[q][food] += c.start_stock
                    t.supply[food] -= c.start_stock
        # R1.3: the whole deal (the draw pile's order is hidden from the seats, R10.2, but a
        # replaying engine needs it), and what each seat starts with
        self.log("deal", columns=[list(col) for col in columns], pile=list(pile),
                 hands=[list(h) for h in t.hand], wood=list(t.wood),
                 stock=[list(s) for s in t.stock])  # fmt: skip
        if r.start_sacrifice == "one_choice":  # R1.4 one_choice: D0 in seat order, public
            for q in range(p):
                legal = [t.supply[f] > 0 for f in range(N_FOODS)]
                food = self.ask(q, Kind.START_SACRIFICE, legal)
                t.stock[q][food] += 1
                t.supply[food] -= 1
                t.gained[q][food] += 1
                self.log("start_sacrifice", seat=q, food=food)
        return t

    # --- asking a seat --------------------------------------------------------------------
    def view(self, seat: int, kind: Kind, legal: np.ndarray, info: dict[str, Any]) -> SeatView:
        """Seat `seat`'s view of this game at a decision (R10)."""
        t, c = self.t, self.rules.components
        display = np.full((c.columns, c.depth), -1, dtype=np.int64)
        for k, col in enumerate(t.columns):
            display[k, : len(col)] = col
        one = lambda x: np.asarray([x], dtype=np.int64)  # noqa: E731 - a batch of one game
        fields = {
            "turn": one(t.turn), "active": one(t.active), "hand": one(t.hand[seat]),
            "stock": one(t.stock[seat]), "own_down": one(t.down[seat]),
            "village": one(t.village), "wood": one(t.wood), "glory": one(t.glory),
            "hand_size": one([sum(h) for h in t.hand]),
            "stock_size": one([sum(s) for s in t.stock]),
            "down": one([sum(d) for d in t.down]), "taken": one(t.taken),
            "played": one(t.played), "discarded": one(t.discarded), "bought": one(t.bought),
            "gained": one(t.gained), "given": one(t.given), "display": display[None],
            "column_size": one([len(col) for col in t.columns]), "pile": one(len(t.pile)),
            "supply": one(t.supply), "stone": one(t.stone), "revealed": one(t.revealed),
            "passes": one(t.passes), "first_column": one(t.first_column),
        }  # fmt: skip
        rng = self.streams.seat(seat, np.array([0]))
        info_arrays = {k: one(v) for k, v in info.items()}
        return SeatView(self.rules, seat, kind, legal[None], info_arrays, rng, fields,
                        np.array([self.game]))  # fmt: skip

    def ask(self, seat: int, kind: Kind, legal: Sequence[bool], **info: Any) -> int:
        """Seat `seat`'s action at a decision of `kind` (its legal mask `legal`): the only
        legal action without asking, else its strategy's answer through a view, checked.
        Either is logged as a decision event, with its legal actions and whether it was
        forced (section D: the log keeps every choice, so that a second engine can replay
        it)."""
        mask = np.zeros(action_size(self.rules, kind), dtype=bool)
        mask[: len(legal)] = legal
        choices = np.flatnonzero(mask)
        if len(choices) == 0:
            raise AssertionError(f"no legal action of {kind.value} for seat {seat}")
        forced = len(choices) == 1
        if forced:
            action = int(choices[0])
        else:
            view = self.view(seat, kind, mask, info)
            strategy = self.strategies[seat]
            try:
                answer = getattr(strategy, kind.value)(view)
            except Exception as exc:  # the strategy's own failure, named as such
                problem = f"raised {type(exc).__name__}: {exc}"
                raise self.failed(seat, kind, problem) from exc
            self.streams.advance(seat, np.array([0]), view.rng)
            checked = _checked(answer, mask)
            if isinstance(checked, str):
                raise self.failed(seat, kind, checked)
            action = checked
        self.log("decision", seat=seat, kind=kind.value, legal=choices.tolist(), action=action,
                 forced=forced)  # fmt: skip
        return action

    def failed(self, seat: int, kind: Kind, problem: str) -> StrategyError:
        """The one-line error of a strategy that failed at a decision of this game."""
        return StrategyError(self.names[seat], kind.value, self.game, self.seed, seat, problem)

    def log(self, event: str, **what: Any) -> None:
        """An event of the log (its kind `event` and fields, engine/events.py's `EVENTS`), in
        the order things happen."""
        self.events.append({"e": event, **what})

    # --- R2: the game ---------------------------------------------------------------------
    def play(self) -> list[dict[str, Any]]:
        """Play the game to its end (R8) and score it (R9, `scores`); returns its log."""
        while not self.over:
            self.play_turn()
        self.score()
        return self.events

    def play_turn(self) -> None:
        """One turn of the active seat (R2), then the next seat's turn or the end (R8)."""
        t = self.t
        a = t.active
        t.revealed = -1
        self.log("turn", turn=t.turn + 1, seat=a)
        emptied = False  # R8.2: the last card left the draw pile this turn
        self.buy(a)  # R3
        need = 0
        if sum(t.hand[a]) == 0:  # R6.7: an empty hand skips the play step
            self.log("empty_hand", seat=a)
        else:
            need = self.play_cards(a)  # R4, R5
        if need:
            emptied = self.refill(a, need)  # R6
        if t.revealed >= 0:
            self.evaluate(t.revealed)  # R7
        r = self.rules
        t.turns[a] += 1
        t.turn += 1
        t.pile_out = t.pile_out or emptied
        if t.passes >= r.players:  # R4.5: a whole round of passes
            self.over, self.ended_by = True, "passes"
        elif t.pile_out and (r.end_timing == "turn" or a == r.players - 1):
            self.over = True  # R8.2 (this turn), R8.3 (the round's last seat)
        if not self.over and t.turn >= self.bound:  # past any legal game's length (R8.1)
            raise GameLengthError(self.game, self.seed, self.bound, "turns")
        t.active = (a + 1) % r.players

    # --- R3 ------------------------------------------------------------------------------
    def buy(self, a: int) -> None:
        """R3: buy at most one sacrifice card, of a type whose stack is not empty, at its
        price (R3.2); the type is public (R3.3)."""
        t, c = self.t, self.rules.components
        prices = [sacrifice_price(c.sacrifice_price, t.village[a][HG + f]) for f in range(N_FOODS)]
        legal = [True] + [t.supply[f] > 0 and t.wood[a] >= prices[f] for f in range(N_FOODS)]
        choice = self.ask(a, Kind.BUY, legal)
        if choice == BUY_NOTHING:
            return
        food = choice - 1
        t.wood[a] -= prices[food]
        t.supply[food] -= 1
        t.stock[a][food] += 1
        t.bought[a][food] += 1
        self.log("buy", seat=a, food=food, price=prices[food])

    # --- R4, R5 --------------------------------------------------------------------------
    def plays(self, a: int) -> list[bool]:
        """R4.1-R4.2: the legal plays (D2's actions) of seat a."""
        t, r = self.t, self.rules
        hand, wood = t.hand[a], t.wood[a]
        legal = [False] * N_PLAY
        legal[PLAY_LUMBERJACK] = hand[LUMBERJACK] > 0
        legal[PLAY_PRIEST] = hand[PRIEST] > 0
        legal[PLAY_MOAI] = hand[MOAI] > 0 and wood >= r.components.moai_cost
        for food in range(N_FOODS):
            for k in range(1, MAX_GROUP + 1):
                legal[play_hg(food, k)] = hand[HG + food] >= k and wood >= r.group_cost(k)
        return legal

    def play_cards(self, a: int) -> int:
        """R4: play cards into the village (a Moai is followed by a sacrifice round, R5); a
        stuck hand discards or passes (R4.3). Returns the cards to take (R4.4)."""
        t, r = self.t, self.rules
        legal = self.plays(a)
        if not any(legal):  # R4.3
            if r.stuck_hand == "pass":
                t.passes += 1
                self.log("pass", seat=a)
                return 0
            kind = self.ask(a, Kind.DISCARD, [n > 0 for n in t.hand[a]])
            t.hand[a][kind] -= 1
            t.out[kind] += 1
            t.discarded[a][kind] += 1
            t.passes = 0
            self.log("discard", seat=a, card=kind)
            return 1
        action = self.ask(a, Kind.PLAY, legal)
        kind, count = played(action)
        cost = r.components.moai_cost if kind == MOAI else r.group_cost(count) if kind >= HG else 0
        t.wood[a] -= cost  # R4.2
        t.hand[a][kind] -= count
        t.village[a][kind] += count
        t.played[a][kind] += count
        t.passes = 0
        self.log("play", seat=a, card=kind, count=count, cost=cost)
        if kind == MOAI:
            self.sacrifice_round(a)
        return count

    def sacrifice_round(self, a: int) -> None:
        """R5: each other seat, clockwise from the active seat's left, sacrifices a card of
        its stock face up (R5.1); then the active seat one of its own face down and one of the
        supply face up (R5.2); an empty stock gives nothing, an empty supply nothing (R5.3)."""
        t, p = self.t, self.rules.players
        for k in range(1, p):
            q = (a + k) % p
            if sum(t.stock[q]) == 0:
                continue
            food = self.ask(q, Kind.SACRIFICE, [n > 0 for n in t.stock[q]], active=a)
            t.stock[q][food] -= 1
            t.stone[food] += 1
            t.given[q][food] += 1
            self.log("sacrifice", seat=q, food=food)
        own = [n > 0 for n in t.stock[a]]
        sup = [n > 0 for n in t.supply]
        if not any(own) and not any(sup):
            return
        legal = [(own[d] if any(own) else d == 0) and (sup[s] if any(sup) else s == 0)
                 for d in range(N_FOODS) for s in range(N_FOODS)]  # fmt: skip
        d, s = offered(self.ask(a, Kind.OFFERING, legal, own=int(any(own)), supply=int(any(sup))))
        if any(own):
            t.stock[a][d] -= 1
            t.down[a][d] += 1  # R5.4: face down, its type known to its owner only
            self.log("offering_down", seat=a, food=d)  # the referee's record: its type too
        if any(sup):
            t.supply[s] -= 1
            t.stone[s] += 1
            self.log("offering_up", seat=a, food=s)

    # --- R6 ------------------------------------------------------------------------------
    def refill(self, a: int, played_cards: int) -> bool:
        """R6: take cards from the bottoms of the columns until the hand holds its size again
        (R6.1), a column emptied refilled from the draw pile (R6.3); the card revealed by the
        last take is evaluated (R6.5). Returns whether the draw pile ran out this turn."""
        t, r, c = self.t, self.rules, self.rules.components
        need = max(0, c.hand - sum(t.hand[a]))
        emptied, first, k = False, -1, -1
        for _ in range(need):
            sizes = [len(col) for col in t.columns]
            if not any(sizes):  # R6.4: the display has no more cards
                break
            legal = [n > 0 for n in sizes]
            if r.refill_columns == "same" and first >= 0 and sizes[first] > 0:
                legal = [k == first for k in range(c.columns)]  # R6.2, R6.6
            k = self.ask(a, Kind.TAKE, legal)
            if first < 0:
                first = t.first_column = k
            card = t.columns[k].pop()
            t.hand[a][card] += 1
            t.taken[a][card] += 1
            self.log("take", seat=a, column=k, card=card)
            if not t.columns[k] and t.pile:  # R6.3: refilled at once
                drawn, t.pile = t.pile[: c.depth], t.pile[c.depth :]
                t.columns[k] = drawn if r.refill_bottom == "last" else drawn[::-1]
                emptied = emptied or not t.pile
                self.log("refill", column=k, cards=list(t.columns[k]), pile=len(t.pile))
            t.revealed = t.columns[k][-1] if t.columns[k] else -1  # R6.5
        t.first_column = -1  # the takes are over
        if t.revealed >= 0:
            self.log("revealed", column=k, card=t.revealed)
        return emptied

    # --- R7 ------------------------------------------------------------------------------
    def evaluate(self, kind: int) -> None:
        """R7: the revealed card's kind pays every seat by its village (R7.2-R7.5), and the
        majority bonus (R7.6), in turn order from the active seat (R7.8-R7.9)."""
        t, r, c, p = self.t, self.rules, self.rules.components, self.rules.players
        order = [(t.active + k) % p for k in range(p)]
        counts = [t.village[q][kind] for q in range(p)]
        leaders = bonus_holders(counts, r.majority_rule)  # R7.6
        food = kind - HG if kind >= HG else 0
        before = (list(t.wood), list(t.glory), [s[food] for s in t.stock])  # for the log
        if kind == LUMBERJACK:  # R7.2
            for q in order:
                t.wood[q] += counts[q] + (c.bonus_lumberjack if q in leaders else 0)
        elif kind == PRIEST:  # R7.3
            for q in order:
                t.glory[q] += counts[q] + (c.bonus_priest if q in leaders else 0)
        elif kind == MOAI:  # R7.4, R7.9: every seat's choice, then the bonus
            for q in order:
                if counts[q]:
                    self.split(q, Kind.MOAI_INCOME, counts[q])
            for q in order:
                if q in leaders and c.bonus_moai:
                    self.split(q, Kind.BONUS, c.bonus_moai)
        else:  # R7.5, R7.8: sacrifice cards of the type, while the stack lasts
            due = [(n if r.hg_income == "per_card" else min(n, 1)) for n in counts]
            self.hand_out(food, order, due)
            self.hand_out(food, order, [c.bonus_hg if q in leaders else 0 for q in range(p)])
        wood, glory, cards = before
        self.log("evaluate", card=kind, counts=list(counts), leaders=list(leaders),
                 wood=[t.wood[q] - wood[q] for q in range(p)],
                 glory=[t.glory[q] - glory[q] for q in range(p)],
                 cards=[t.stock[q][food] - cards[q] if kind >= HG else 0
                        for q in range(p)])  # fmt: skip

    def split(self, q: int, kind: Kind, units: int) -> None:
        """R7.4, R7.6: `units` of wood-or-glory to seat q, as many glory as it chooses."""
        t = self.t
        glory = self.ask(q, kind, [True] * (units + 1), units=units)
        t.glory[q] += glory
        t.wood[q] += units - glory
        self.log("split", seat=q, kind=kind.value, glory=glory, wood=units - glory)

    def hand_out(self, food: int, order: list[int], due: list[int]) -> None:
        """R7.8: sacrifice cards of type `food` handed out one per seat still due one, pass
        after pass in turn order, while the stack lasts."""
        t = self.t
        due = list(due)
        while t.supply[food] > 0 and any(due):
            for q in order:
                if due[q] and t.supply[food] > 0:
                    due[q] -= 1
                    t.supply[food] -= 1
                    t.stock[q][food] += 1
                    t.gained[q][food] += 1
                    self.log("gain", seat=q, food=food)

    # --- R9 ------------------------------------------------------------------------------
    def stone_counts(self) -> list[int]:
        """R9.2: the stone's cards of each type, the face-down ones turned up."""
        t = self.t
        return [t.stone[f] + sum(d[f] for d in t.down) for f in range(N_FOODS)]

    def parts(self) -> dict[str, list[int]]:
        """R9.1: each seat's score split into its parts (`PARTS`), the stone's face-down
        cards turned up (R9.2)."""
        t, r, c, p = self.t, self.rules, self.rules.components, self.rules.players
        stone, down = np.array(t.stone), np.sum(t.down, axis=0)
        values, tie = np.array(c.sacrifice_values), TIES[r.sacrifice_tie]
        seats = [score_parts(t.glory[q], t.village[q][MOAI], t.wood[q], t.stock[q], stone, down,
                             values, tie, c.moai_glory, c.wood_per_glory)
                 for q in range(p)]  # fmt: skip
        return {name: [int(s[k]) for s in seats] for k, name in enumerate(PARTS)}

    def score(self) -> list[int]:
        """R9.1: the final scores (the sum of the parts), logged with how they were made."""
        t, r = self.t, self.rules
        parts = self.parts()
        self.scores = [sum(col[q] for col in parts.values()) for q in range(r.players)]
        stone = self.stone_counts()
        values = type_values(stone, r.components.sacrifice_values, r.sacrifice_tie)
        self.log("end", reason=self.ended_by, turns=t.turn, down=[list(d) for d in t.down],
                 stone=stone, values=list(values), parts=parts, scores=list(self.scores),
                 winners=self.winners())  # fmt: skip
        return self.scores

    def final_scores(self) -> list[int]:
        """R9.1: each seat's score (once the game is played: the batch's `scores()` row)."""
        assert self.scores is not None, "the game is not played yet"
        return list(self.scores)

    def winners(self) -> list[int]:
        """R9.4: the seats that share the win (`winner_tie`: most wood first, then share)."""
        assert self.scores is not None
        best = max(self.scores)
        top = [q for q, s in enumerate(self.scores) if s == best]
        if self.rules.winner_tie == "most_wood":
            wood = max(self.t.wood[q] for q in top)
            top = [q for q in top if self.t.wood[q] == wood]
        return top


def _checked(answer: Any, mask: np.ndarray) -> int | str:
    """A strategy's answer for a view of one game: the legal action, or what is wrong with it."""
    arr = np.asarray(answer)
    if arr.shape not in ((1,), ()) or not np.issubdtype(arr.dtype, np.integer):
        return f"answered {answer!r}: expected one whole number per game of the view"
    action = int(arr.reshape(-1)[0])
    if not 0 <= action < len(mask) or not mask[action]:
        return f"answered the illegal action {action} (legal: {np.flatnonzero(mask).tolist()})"
    return action


__all__ = ["KINDS", "ReferenceGame", "Table", "deal", "deck", "shuffled", "turn_bound"]
