"""Kaivai's reference engine: one game in plain Python, readable beside the rules book
(docs/kaivai-rules.md; each step cites its rule).

A game is set up from its seed and number (R1: the extra sites and the round-1 order drawn on
chance streams of their own), then played round by round (R2): bids (R3), founding in round 1
(R4), the god (R5), actions (R6-R8), decay (R9), and after the last round the final scoring
(R10). Every decision of section D is asked of the seat's strategy as `choose(view, kind,
options)`, `options` a list in a canonical order, the answer an index into it; a decision with
one option is still asked (section D) except the automatic pass (R6.7), an island choice with
one island (D7) and a continue with no legal step (D10). Every decision, chance draw and
automatic event goes to the event log (`Game.events`), so that another engine can replay the
game.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from moaisim.errors import GameLengthError, IllegalActionError, UserError
from moaisim.games.kaivai.engine.chance import DICE_PER_STEP, Chance
from moaisim.games.kaivai.rules.board import (
    BOAT_HUT,
    HUT_KINDS,
    MEETING,
    TEMPLE,
    Board,
    Hex,
    board_hexes,
    distance,
)
from moaisim.games.kaivai.rules.model import Rules
from moaisim.rng import Streams

#: The six actions (R6, R8) and the pass, in the order D4 lists them.
ACTIONS = ("build", "fish", "deliver", "move", "increase", "celebrate")
PASS = "pass"
#: The score's parts: glory from feasts (R8.6), huts (R10.1) and cult sites (R10.4), and the
#: glory piracy cost (R8.4.3, negative).
PARTS = ("feasts", "huts", "sites", "piracy")
#: Decisions a game may take before it is called broken (a legal game takes about 450).
MAX_DECISIONS = 20_000


class Strategy(Protocol):
    """What a seat's strategy answers: the index of its choice among `options`."""

    def choose(self, view: View, kind: str, options: Sequence[Any]) -> int: ...


@dataclass
class Seat:
    """One player's state (R0); its start (R1.4) is the component file's."""

    shells: list[int]  # values 1..5
    fish: list[int]  # freshness 1..5
    influence: int
    huts: int  # hut tiles in supply
    boats: int  # boats in supply
    statues: int  # temple statues in supply
    glory: int = 0
    bonus: int = 0  # movement-bonus position 0..8
    celebrations: int = 0  # feasts celebrated (R8.6)
    parts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))

    @property
    def money(self) -> int:
        return sum(self.shells)


class View:
    """What a seat sees when it decides (R11): the board, every seat's public state, this
    round's open bids, the action spaces and the god; its own influence, and another seat's
    unless `influence_visibility` is `hidden` (O6); never another seat's island bid before the
    reveal (bids are applied once all are in) nor a die or draw not yet made (the chance
    streams are not reachable from a view). `uniform()` draws from the seat's own stream."""

    def __init__(self, seat: int, game: Game) -> None:
        self.seat = seat
        self._game = game

    def influence(self, seat: int) -> int | None:
        """A seat's influence, or None when the rules hide it from this seat (O6)."""
        hidden = self._game.rules.influence_visibility == "hidden"
        return None if hidden and seat != self.seat else self._game.seats[seat].influence

    @property
    def rules(self) -> Rules:
        return self._game.rules

    @property
    def board(self) -> Board:
        """The board, to read (a strategy must not change it)."""
        return self._game.board

    @property
    def me(self) -> Seat:
        """A copy of the seat's own state."""
        x = self._game.seats[self.seat]
        return replace(x, shells=list(x.shells), fish=list(x.fish), parts=dict(x.parts))

    def glory(self, seat: int) -> int:
        return self._game.seats[seat].glory

    def fish(self, seat: int) -> list[int]:
        return list(self._game.seats[seat].fish)

    def shells(self, seat: int) -> list[int]:
        return list(self._game.seats[seat].shells)

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def bids(self) -> dict[int, int]:
        """This round's open bids so far (R3.2)."""
        return dict(self._game.bids)

    @property
    def god(self) -> Hex | None:
        return self._game.god

    def price(self, action: str) -> int:
        """R6.3: what the action costs now."""
        return self._game.price(action)

    def bonus(self, seat: int) -> int:
        """A seat's movement-bonus position (R8.5, public)."""
        return self._game.seats[seat].bonus

    def range_of(self, seat: int) -> int:
        """A seat's range this round (R0), once it has bid."""
        return self._game.range_of(seat)

    @property
    def passed(self) -> set[int]:
        """Who has passed this round (R6.6)."""
        return set(self._game.passed)

    @property
    def tiles(self) -> int:
        """Cult tiles left in the supply (R1.3)."""
        return self._game.tiles

    def presence(self, seat: int, island: Hex) -> int:
        """A seat's presence on the island named `island` (R10.3, public)."""
        return self._game.presence(seat, self._game.board.island_of(island))

    @property
    def scoring(self) -> Hex | None:
        """The island being scored now (R10.2), by name; None before the final scoring."""
        i = self._game.scoring
        return None if i is None else self._game.island_name(i)

    def events(self) -> list[dict[str, Any]]:
        """The game so far as everyone saw it (R11): the island bids appear once revealed,
        so under O6 `hidden` a strategy can follow the others' influence from here."""
        return [dict(e) for e in self._game.events]

    def uniform(self) -> float:
        """One value of the seat's own random stream."""
        streams, rows = self._game.streams, np.array([0])
        handle = streams.seat(self.seat, rows)
        u = float(handle.uniform(1)[0, 0])
        streams.advance(self.seat, rows, handle)
        return u


class Game:
    """One game of Kaivai (the reference engine)."""

    def __init__(self, rules: Rules, strategies: Sequence[Strategy], seed: int = 0,
                 index: int = 0) -> None:  # fmt: skip
        if len(strategies) != rules.players:
            raise UserError(f"{rules.players} players need {rules.players} strategies, "
                            f"got {len(strategies)}")  # fmt: skip
        self.rules, self.strategies = rules, list(strategies)
        self.seed, self.index = seed, index
        self.streams = Streams(seed, np.array([index]), rules.players)
        self.events: list[dict[str, Any]] = []
        c = rules.components
        self.board = Board(c.radius)
        for h in c.printed_cult_sites:  # R1.1
            self.board.add_site(h)
        self.seats = [Seat(shells=list(c.start_shells), fish=list(rules.start_fish),
                           influence=rules.start_influence, huts=c.huts, boats=rules.boats,
                           statues=c.temple_statues) for _ in range(rules.players)]  # fmt: skip
        self.tiles = rules.cult_tiles  # R1.3
        self.tiles_removed = 0
        self.god: Hex | None = None  # R1.5
        self.round = 0
        self.bids: dict[int, int] = {}
        self.order: list[int] = []  # this round's bidding order
        self.turns: list[int] = []  # this round's turn order (R3.4)
        self.spaces = dict.fromkeys(ACTIONS, 0)  # R1.6, R6.3
        self.fishing_steps = 0  # the DICE stream's counter (Chance.DICE)
        self.passed: set[int] = set()  # who has passed this round (R6.6)
        self.scoring: int | None = None  # the island being scored (R10.2)
        self.decisions = 0
        self.placed_extra = 0  # cult sites of the extra islands (R1.2)
        # what a view shows of where the game stands: the seats that acted this round (R6.5),
        # the action under way, its boats that acted and stood at its start (R6.8), a step's
        # end hex before its effect, the islands still to be scored (R10.2)
        self.acted_seats: set[int] = set()
        self.acting: str | None = None
        self.acted_hexes: set[Hex] = set()
        self.start_hexes: set[Hex] = set()
        self.end: Hex | None = None
        self.left: list[int] = []
        self.extra_sites()
        self.order = self.first_order()

    # --- chance ----------------------------------------------------------------------------

    def draw(self, purpose: Chance, k: int, start: int = 0) -> list[float]:
        return self.streams.chance(purpose, np.array([0]), k, start)[0].tolist()

    def extra_site_candidates(self) -> list[Hex]:
        """R1.2: free hexes at distance >= the minimum from every cult site placed: on the
        outer ring (`edge`) or anywhere (`anywhere`, O3)."""
        c = self.rules.components
        sites = [h for h, x in self.board.land.items() if x.kind == "site"]
        anywhere = self.rules.extra_site_zone == "anywhere"
        ring = [h for h in board_hexes(c.radius) if anywhere or distance(h, (0, 0)) == c.radius]
        return [h for h in ring if h not in self.board.land
                and all(distance(h, s) >= c.extra_site_min_distance for s in sites)]  # fmt: skip

    def extra_sites(self) -> None:
        """R1.2 (O1): one or two extra islands, each drawn uniformly among the candidates
        (value k of the EXTRA_SITES stream for the k-th); in the second edition each is a
        pair of adjacent candidates (O8), an island of two cult sites."""
        for k in range(self.rules.extra_sites):
            u = self.draw(Chance.EXTRA_SITES, 1, k)[0]
            cands = self.extra_site_candidates()
            if self.rules.second:
                pairs = sorted((a, b) for a in cands for b in cands
                               if a < b and distance(a, b) == 1)  # fmt: skip
                if not pairs:
                    self.log("extra_site_skipped")
                    continue
                a, b = pairs[int(u * len(pairs))]
                island = self.board.add_site(a)
                self.board.add_site(b, island)
                self.placed_extra += 2
                self.log("extra_site", hexes=[a, b])
            elif cands:
                h = cands[int(u * len(cands))]
                self.board.add_site(h)
                self.placed_extra += 1
                self.log("extra_site", hexes=[h])
            else:
                self.log("extra_site_skipped")

    def first_order(self) -> list[int]:
        """R1.7: the round-1 bidding order, uniformly random (seats ranked by their values
        of the ORDER stream)."""
        u = self.draw(Chance.ORDER, self.rules.players)
        order = sorted(range(self.rules.players), key=lambda s: (u[s], s))
        self.log("first_order", order=order)
        return order

    # --- asking ----------------------------------------------------------------------------

    def log(self, kind: str, **fields: Any) -> None:
        self.events.append({"kind": kind, "round": self.round, **fields})

    def ask(self, seat: int, kind: str, options: Sequence[Any], secret: bool = False) -> Any:
        """Section D: ask the seat's strategy; its answer is logged with the options, a
        secret one (an island bid, R10.4) only when all are revealed."""
        if not options:
            raise AssertionError(f"{kind}: asked with no option")
        self.decisions += 1
        if self.decisions > MAX_DECISIONS:
            raise GameLengthError(self.index, self.seed, MAX_DECISIONS, "decisions")
        i = self.strategies[seat].choose(View(seat, self), kind, options)
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < len(options):
            name = type(self.strategies[seat]).__name__
            raise IllegalActionError(name, kind, self.index, self.seed, seat, i,
                                     f"answered {i!r}, not an index into its "
                                     f"{len(options)} options")  # fmt: skip
        choice = options[int(i)]
        if not secret:
            self.log("decision", seat=seat, decision=kind, choice=choice, legal=list(options))
        return choice

    def island_name(self, island: int) -> Hex:
        """R0: an island is named by its first cult site (the smaller hex of a two-hex extra
        island)."""
        return self.board.islands[island][0]

    def ask_island(self, seat: int, kind: str, islands: Sequence[int]) -> int:
        """Ask for an island, offered by name in (q, r) order (section D)."""
        by_name = {self.island_name(i): i for i in islands}
        return by_name[self.ask(seat, kind, sorted(by_name))]

    # --- orders ----------------------------------------------------------------------------

    def wealth_key(self, s: int) -> tuple[int, ...]:
        """R2.3: poorest first: glory, money, fish, boats on the board ascending, then huts
        in supply descending; a full tie keeps the previous bidding order."""
        seat = self.seats[s]
        on_board = sum(1 for o in self.board.boats.values() if o == s)
        return (seat.glory, seat.money, len(seat.fish), on_board, -seat.huts,
                self.order.index(s))  # fmt: skip

    def wealth_order(self) -> list[int]:
        return sorted(range(self.rules.players), key=self.wealth_key)

    # --- the round -------------------------------------------------------------------------

    def play(self) -> list[dict[str, Any]]:
        """Play the game to its end (R2) and score it (R10); returns the event log."""
        for r in range(1, self.rules.rounds + 1):
            self.round = r
            self.bidding()
            if r == 1:
                self.founding()
            self.god_phase()
            self.actions()
            self.decay()
        self.final_scoring()
        return self.events

    def bidding(self) -> None:
        """R3: in wealth order (round 1: R1.7), each seat bids a number 1-10 nobody has bid;
        turn order is the bids descending; the lowest bidder has the god."""
        if self.round > 1:
            self.order = self.wealth_order()
        self.bids = {}
        top = len(self.rules.components.bid_distance)
        for s in self.order:
            free = [b for b in range(1, top + 1) if b not in self.bids.values()]
            self.bids[s] = self.ask(s, "bid", free)
        self.turns = sorted(self.bids, key=lambda s: -self.bids[s])

    def bid_distance(self, s: int) -> int:
        return self.rules.components.bid_distance[self.bids[s] - 1]

    def range_of(self, s: int) -> int:
        """R0: bid distance + movement bonus."""
        return self.bid_distance(s) + self.rules.components.bonus[self.seats[s].bonus]

    def founding(self) -> None:
        """R4: in turn order each seat places two huts free, next to a cult site, at least
        one a boat hut (the second must be, if the first was not)."""
        for s in self.turns:
            boat_hut = False
            for k in range(2):
                kinds = [BOAT_HUT] if k == 1 and not boat_hut else list(HUT_KINDS)
                kinds = [x for x in kinds if self.can_take(s, x)]
                tie = self.rules.trap_tie
                hexes = [h for h in sorted(self.board.hexes) if self.board.site_islands(h)
                         and self.board.placement_legal(h, trap_tie=tie)]  # fmt: skip
                options = [(h, x) for h in hexes for x in kinds]
                if not options:
                    self.log("founding_skipped", seat=s)  # R4.3
                    continue
                h, kind = self.ask(s, "found", options)
                island = next(iter(self.board.adjacent_islands(h)))
                self.place_hut(s, h, island, kind, founding=True)
                boat_hut = boat_hut or kind == BOAT_HUT

    def can_take(self, s: int, kind: str) -> bool:
        """R8.1.3: a hut tile, and a statue for a temple, a boat for a boat hut."""
        seat = self.seats[s]
        if seat.huts < 1:
            return False
        return (kind != TEMPLE or seat.statues >= 1) and (kind != BOAT_HUT or seat.boats >= 1)

    def place_hut(self, s: int, h: Hex, island: int, kind: str, founding: bool = False) -> None:
        seat = self.seats[s]
        seat.huts -= 1
        self.board.add_hut(h, island, s, kind)
        if kind == TEMPLE:
            seat.statues -= 1
        if kind == BOAT_HUT:  # R8.1.6: its new boat stands on it
            seat.boats -= 1
            self.board.boats[h] = s
            self.board.on_hut.add(h)
        if kind == MEETING and not founding and self.god_island() == island:  # R8.1.5
            seat.influence += 1
        self.log("hut", seat=s, hex=h, island=self.island_name(island), hut=kind)

    def god_island(self) -> int | None:
        """R0: the island of the cult site the god stands on (None before it arrives)."""
        return None if self.god is None else self.board.island_of(self.god)

    def god_phase(self) -> None:
        """R5: the lowest bidder places a cult tile next to exactly one island (from round 2
        another than the god's), and the god moves onto it; each meeting hut there earns its
        owner 1 influence. No legal hex: the god stays and the tile leaves the game."""
        low = min(self.bids, key=lambda s: self.bids[s])
        if self.tiles < 1:  # a `rounds` parameter past the tiles (R1.3): no god phase
            self.log("no_cult_tile", seat=low)
            return
        now = self.god_island()
        tie, b = self.rules.trap_tie, self.board
        options = [h for h in sorted(b.hexes) if b.placement_legal(h, trap_tie=tie)
                   and (self.round == 1 or next(iter(b.adjacent_islands(h))) != now)]  # fmt: skip
        if not options:
            self.tiles -= 1
            self.tiles_removed += 1
            self.log("god_stuck", seat=low)  # R5.5
            return
        h = self.ask(low, "god", options)
        island = next(iter(self.board.adjacent_islands(h)))
        self.tiles -= 1
        self.board.add_site(h, island)
        self.god = h
        for x in self.board.islands[island]:
            land = self.board.land[x]
            if land.kind == MEETING:
                self.seats[land.owner].influence += 1  # R5.4
        self.log("god", seat=low, hex=h, island=self.island_name(island))

    # --- actions ---------------------------------------------------------------------------

    def price(self, action: str) -> int:
        """R6.3: 0 on an empty space, else the tokens on it."""
        return self.spaces[action]

    def pay(self, s: int, action: str) -> None:
        k = self.spaces[action]
        if k == 0:
            self.spaces[action] = 1
        else:
            self.seats[s].influence -= k
            self.spaces[action] = 2 * k

    def actions(self) -> None:
        """R6: turns round the table in turn order until every seat has passed."""
        passed = self.passed = set()
        acted = self.acted_seats = set()
        while len(passed) < self.rules.players:
            for s in self.turns:
                if s in passed:
                    continue
                legal = [a for a in ACTIONS if self.action_legal(s, a)]
                first = s not in acted
                if legal:
                    choice = self.ask(s, "action", [*legal, PASS])
                else:  # R6.7: the only choice is to pass
                    choice = PASS
                    self.log("auto_pass", seat=s)
                if choice == PASS:
                    passed.add(s)
                    if first:  # R6.5: a sacrifice
                        self.seats[s].influence += self.rules.sacrifice_influence
                        self.log("sacrifice", seat=s)
                    continue
                acted.add(s)
                self.pay(s, choice)
                self.log("action", seat=s, action=choice)
                self.do_action(s, choice)

    def action_legal(self, s: int, action: str) -> bool:
        """R6.4: the seat can pay the price and carry out at least one step."""
        if self.seats[s].influence < self.price(action):
            return False
        if action == "increase":
            return self.seats[s].bonus < len(self.rules.components.bonus) - 1
        if action == "celebrate":
            return bool(self.feast_islands())
        return bool(self.steps(s, action, set()))

    def do_action(self, s: int, action: str) -> None:
        """R8: the action carried out; while it lasts the game shows which it is (`acting`),
        the boats that acted and stood at its start, and a step's end hex until its effect
        (what a seat's view shows)."""
        self.acting = action
        try:
            self.carry_out(s, action)
        finally:
            self.acting, self.end = None, None
            self.acted_hexes, self.start_hexes = set(), set()

    def carry_out(self, s: int, action: str) -> None:
        if action == "increase":  # R8.5
            self.seats[s].bonus += 1
            return
        if action == "celebrate":  # R8.6
            self.celebrate(s, self.ask_island(s, "celebrate", self.feast_islands()))
            return
        # R6.8: the boats that acted this turn (by their end hexes), those of its start
        acted: set[Hex] = set()
        start = set(h for h, o in self.board.boats.items() if o == s)
        self.acted_hexes, self.start_hexes = acted, start
        while True:
            steps = self.steps(s, action, acted, start)
            if not steps:
                return
            if acted and self.ask(s, "continue", ["stop", "continue"]) == "stop":
                return
            boat, end = self.ask(s, f"{action}_step", steps)
            start.discard(boat)
            self.move_boat(s, boat, end)
            acted.add(end)
            self.end = end
            if action == "build":
                self.build(s, end)
            elif action == "fish":
                self.fish(s, end)
            elif action == "deliver":
                self.deliver(s, end)
            self.end = None
            if end not in self.board.boats or self.board.boats[end] != s:
                raise AssertionError("a boat left its end hex")

    def boats_to_act(self, s: int, acted: set[Hex], start: set[Hex] | None) -> list[Hex]:
        """R6.8: the seat's boats on the board at the start of the turn that have not acted."""
        mine = [h for h, o in self.board.boats.items() if o == s and h not in acted]
        return sorted(h for h in mine if start is None or h in start)

    def steps(self, s: int, action: str, acted: set[Hex],
              start: set[Hex] | None = None) -> list[tuple[Hex, Hex]]:  # fmt: skip
        """D5: the (boat hex, end hex) steps from which the action's effect is legal."""
        out = []
        rng = self.range_of(s)
        for boat in self.boats_to_act(s, acted, start):
            for end, k in sorted(self.board.reach(boat, rng).items()):
                if action == "move" and k == 0:
                    continue
                if self.step_legal(s, action, boat, end):
                    out.append((boat, end))
        return out

    def end_free(self, s: int, boat: Hex, end: Hex, sinking: bool = False) -> bool:
        """R7.2: a water hex with no other boat (a Move may sink), not enclosed (R7.5)."""
        other = self.board.boats.get(end)
        if end != boat and other is not None and not (sinking and other != s):
            return False
        return not self.board.enclosed(end)

    def step_legal(self, s: int, action: str, boat: Hex, end: Hex) -> bool:
        if action == "move":
            return self.end_free(s, boat, end, sinking=True) and self.sink_legal(s, end)
        if not self.end_free(s, boat, end):
            return False
        if action == "build":
            return bool(self.build_options(s, boat, end))
        if action == "fish":
            return bool(self.fish_islands(s, end))
        return bool(self.seats[s].fish) and bool(self.deliver_huts(boat, end))  # deliver

    def move_boat(self, s: int, boat: Hex, end: Hex) -> None:
        """R7: the boat to its end hex (off its boat hut for good, R8.1.6); a Move onto a
        rival's boat sinks it (R8.4.2)."""
        if end != boat:
            if end in self.board.boats:
                self.sink(s, end)
            del self.board.boats[boat]
            self.board.on_hut.discard(boat)
            self.board.boats[end] = s
        self.log("step", seat=s, boat=boat, end=end)

    # R8.1 Build
    def build_options(self, s: int, boat: Hex, end: Hex) -> list[tuple[Hex, str]]:
        """D6: the (hut hex, kind) a build step from `boat` to `end` may place and pay: the
        end hex next to a cult site, the hut next to it on water with no boat, next to
        exactly one island, that island having a cult site next to the end hex, trapping no
        boat with the acting boat at its end (R8.1.1-R8.1.3, R7.3, R7.4)."""
        b = self.board
        by_end = b.site_islands(end)
        if not by_end:
            return []
        boats = [h for h in b.water_boats() if h != boat] + [end]
        out = []
        for h in b.neighbours(end):
            if h == end or not b.is_water(h) or (h in b.boats and h != boat):
                continue
            islands = b.adjacent_islands(h)
            if len(islands) != 1 or next(iter(islands)) not in by_end:
                continue
            if b.traps(h, boats, self.rules.trap_tie):
                continue
            cost = self.bids[s] + b.size(next(iter(islands)))  # R8.1.2
            if self.seats[s].money < cost:
                continue
            out += [(h, k) for k in HUT_KINDS if self.can_take(s, k)]
        return out

    def build(self, s: int, end: Hex) -> None:
        h, kind = self.ask(s, "build", self.build_options(s, end, end))
        island = next(iter(self.board.adjacent_islands(h)))
        self.spend(s, self.bids[s] + self.board.size(island))
        self.place_hut(s, h, island, kind)

    def spend(self, s: int, cost: int) -> None:
        """R8.1.4: shells lowest value first; the first that overshoots is paid too and the
        overshoot comes back as one shell of that value."""
        seat = self.seats[s]
        shells = sorted(seat.shells)
        paid = 0
        while paid < cost:
            paid += shells.pop(0)
        if paid > cost:
            shells.append(paid - cost)
        seat.shells = sorted(shells)

    # R8.2 Fish
    def fish_islands(self, s: int, end: Hex) -> list[int]:
        """R8.2.1: islands with a cult site next to the end hex that hold the god or one of
        the seat's temples."""
        god = self.god_island()
        return sorted(i for i in self.board.site_islands(end)
                      if i == god or self.temples(s, i) > 0)  # fmt: skip

    def temples(self, s: int, island: int) -> int:
        land = self.board.land
        return sum(1 for h in self.board.islands[island]
                   if land[h].kind == TEMPLE and land[h].owner == s)  # fmt: skip

    def dice(self, s: int, island: int) -> tuple[int, int]:
        """R8.2.2 (O1): (dice rolled, sure fish): the seat's temples there, + 1 die for the
        god in the first edition or + 1 sure fish in the second; at most 4 dice."""
        god = self.god_island() == island
        temples = self.temples(s, island)
        if self.rules.second:
            return min(temples, 4), int(god)
        return min(temples + int(god), 4), 0

    def fish(self, s: int, end: Hex) -> None:
        islands = self.fish_islands(s, end)
        # D7 (R8.2.4): asked only with two islands or more
        island = self.ask_island(s, "fish_island", islands) if len(islands) > 1 else islands[0]
        n, sure = self.dice(s, island)
        u = self.draw(Chance.DICE, DICE_PER_STEP, DICE_PER_STEP * self.fishing_steps)
        self.fishing_steps += 1
        sixths = self.rules.components.dice_success_sixths
        mode = self.rules.fishing
        if mode == "luckless":  # O2: a fish per temple and for the god, no dice, no cap
            caught = self.temples(s, island) + int(self.god_island() == island)
            rolls: list[int] = []
        elif mode == "lessluck":  # O2: the same mean, less spread
            sure_part, roll = {0: (0, None), 1: (0, 5 / 6), 2: (1, 1 / 2), 3: (2, None),
                               4: (2, 1 / 3)}[n]  # fmt: skip
            rolls = [] if roll is None else [int(u[0] < roll)]
            caught = sure + sure_part + sum(rolls)
        else:  # dice: die i succeeds on (6 - i) sixths
            rolls = [int(u[i] < sixths[i] / 6) for i in range(n)]
            caught = sure + sum(rolls)
        self.seats[s].fish += [self.rules.catch_freshness] * caught
        self.log("fished", seat=s, island=self.island_name(island), rolls=rolls, caught=caught)

    # R8.3 Deliver
    def deliver_huts(self, boat: Hex, end: Hex) -> list[Hex]:
        """R8.3.1: fish-holding huts next to the end hex with room: meeting huts, and boat
        huts with no boat on them (the acting boat leaving its own frees it)."""
        cap = self.rules.components.hut_fish_capacity
        out = []
        for h in self.board.neighbours(end):
            land = self.board.land.get(h)
            if land is None or land.fish >= cap:
                continue
            if land.kind == MEETING or (land.kind == BOAT_HUT and (h not in self.board.on_hut
                                                                   or h == boat)):  # fmt: skip
                out.append(h)
        return out

    def deliver_options(self, s: int, huts: list[Hex]) -> list[tuple[tuple[Hex, int], ...]]:
        """D8: every way to put 1..(own fish) fish on the huts, at most their room each."""
        cap = self.rules.components.hut_fish_capacity
        have = len(self.seats[s].fish)
        rooms = [range(cap - self.board.land[h].fish + 1) for h in huts]
        out = []
        for counts in itertools.product(*rooms):
            if 1 <= sum(counts) <= have:
                out.append(tuple((h, c) for h, c in zip(huts, counts, strict=True) if c))
        return out

    def deliver(self, s: int, end: Hex) -> None:
        huts = self.deliver_huts(end, end)
        plan = self.ask(s, "deliver", self.deliver_options(s, huts))
        seat = self.seats[s]
        seat.fish.sort()  # R8.3.4: the least fresh go first
        sales = self.rules.components.sale_shells
        for h, count in plan:
            land = self.board.land[h]
            for _ in range(count):
                seat.fish.pop(0)
                if land.owner != s:  # R8.3.3: 5, 4, 3 by the fish's rank on the hut
                    seat.shells.append(sales[land.fish])
                land.fish += 1
        seat.shells.sort()
        self.log("delivered", seat=s, plan=list(plan))

    # R8.4 Move and piracy
    def boats_on_board(self, s: int) -> int:
        return sum(1 for o in self.board.boats.values() if o == s)

    def sink_cost(self, victim: int) -> int:
        """R8.4.3: 6 - b glory, b the victim's boats on the board before the sinking;
        **[choice]** never below 0 (a `sink_cost_base` parameter below b)."""
        return max(0, self.rules.sink_cost_base - self.boats_on_board(victim))

    def sink_legal(self, s: int, end: Hex) -> bool:
        """R8.4.2-R8.4.4: an end hex with a rival's boat on water sinks it when its owner has
        more than one boat on the board and the payer can pay 6 - b glory."""
        victim = self.board.boats.get(end)
        if victim is None:
            return True
        if victim == s or end in self.board.on_hut:
            return False
        b = self.boats_on_board(victim)
        if b <= 1:
            return False
        return self.rules.piracy_pays == "victim" or self.seats[s].glory >= self.sink_cost(victim)

    def sink(self, s: int, end: Hex) -> None:
        victim = self.board.boats[end]
        cost = self.sink_cost(victim)
        payer = s if self.rules.piracy_pays == "pirate" else victim
        lost = min(cost, self.seats[payer].glory)  # O4 'victim': floored at 0
        self.seats[payer].glory -= lost
        self.seats[payer].parts["piracy"] -= lost
        del self.board.boats[end]
        self.seats[victim].boats += 1
        self.log("sunk", seat=s, victim=victim, hex=end, glory=lost)

    # R8.6 Celebrate
    def feast_islands(self) -> list[int]:
        return sorted({x.island for x in self.board.land.values() if x.fish > 0})

    def celebrate(self, s: int, island: int) -> None:
        total = 0
        for h in self.board.islands[island]:
            land = self.board.land[h]
            if land.fish:
                self.seats[land.owner].glory += land.fish
                self.seats[land.owner].parts["feasts"] += land.fish
                total += land.fish
                land.fish = 0
        self.seats[s].glory += total // 3
        self.seats[s].parts["feasts"] += total // 3
        self.seats[s].celebrations += 1
        self.log("celebrated", seat=s, island=self.island_name(island), fish=total)

    # --- decay and the end -----------------------------------------------------------------

    def decay(self) -> None:
        """R9: fish and shells lose 1; at 0 they leave; the action spaces are emptied."""
        for seat in self.seats:
            seat.fish = [f - 1 for f in seat.fish if f > 1]
            seat.shells = [v - 1 for v in seat.shells if v > 1]
        self.spaces = dict.fromkeys(ACTIONS, 0)
        self.log("decay")

    def presence(self, s: int, island: int) -> int:
        """R10.3: the seat's huts on the island + its boats on water next to one of its cult
        sites (boats on their huts count under O5 only)."""
        b = self.board
        huts = sum(1 for h in b.islands[island] if b.land[h].owner == s)
        sites = set(b.sites(island))
        count_huts = self.rules.presence_boats_on_huts == "true"
        boats = sum(1 for h, o in b.boats.items()
                    if o == s and (h not in b.on_hut or count_huts)
                    and any(n in sites for n in b.neighbours(h)))  # fmt: skip
        return huts + boats

    def final_scoring(self) -> None:
        """R10: 2 glory a hut, then each island scored in the order the poorest names."""
        self.round = self.rules.rounds + 1
        for s, seat in enumerate(self.seats):
            huts = sum(1 for x in self.board.land.values() if x.owner == s)
            seat.glory += 2 * huts
            seat.parts["huts"] += 2 * huts
        left = self.left = list(range(len(self.board.islands)))
        while left:
            poorest = self.wealth_order()[0]
            island = self.ask_island(poorest, "score_island", left)  # D11, even with one
            left.remove(island)
            self.score_island(island)
        self.log("end", glory=[x.glory for x in self.seats], winners=self.winners())

    def score_island(self, island: int) -> None:
        """R10.4: presence + a secret influence bid; a unique highest total gains the
        island's cult sites in glory; the winner pays its bid (every bidder in the second
        edition); the shortcut when nobody can change the result."""
        p = self.rules.players
        self.scoring = island
        pres = [self.presence(s, island) for s in range(p)]
        infl = [x.influence for x in self.seats]
        shortcut = sum(infl) == 0 or any(
            all(pres[s] > pres[t] + infl[t] for t in range(p) if t != s) for s in range(p)
        )
        bids = [0] * p
        if not shortcut:
            asked = {s: self.ask(s, "island_bid", list(range(infl[s] + 1)), secret=True)
                     for s in range(p) if infl[s] > 0}  # fmt: skip
            for s, b in asked.items():
                bids[s] = b
        total = [pres[s] + bids[s] for s in range(p)]
        best = max(total)
        top = [s for s in range(p) if total[s] == best]
        won = top[0] if len(top) == 1 else None
        for s in range(p):
            if self.rules.second or s == won:
                self.seats[s].influence -= bids[s]
        if won is not None:
            gain = len(self.board.sites(island))
            self.seats[won].glory += gain
            self.seats[won].parts["sites"] += gain
        self.log(
            "island_scored",
            island=self.island_name(island),
            presence=pres,
            bids=bids,
            asked=[s for s in range(p) if not shortcut and infl[s] > 0],
            winner=won,
        )

    def winners(self) -> list[int]:
        """R10.5: highest glory; ties by money, fish, boats on the board, huts built."""

        def key(s: int) -> tuple[int, ...]:
            seat = self.seats[s]
            built = sum(1 for x in self.board.land.values() if x.owner == s)
            return (seat.glory, seat.money, len(seat.fish), self.boats_on_board(s), built)

        best = max(key(s) for s in range(self.rules.players))
        return [s for s in range(self.rules.players) if key(s) == best]


class RandomStrategy:
    """Uniform over the options, drawing from the seat's own stream (`Streams.seat`)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, view: View, kind: str, options: Sequence[Any]) -> int:
        return min(int(view.uniform() * len(options)), len(options) - 1)


def play_random(rules: Rules, seed: int = 0, index: int = 0) -> Game:
    """One game of random bots (the fault hunt of docs/kaivai-rules.md, "a first
    implementation")."""
    game = Game(rules, [RandomStrategy(s) for s in range(rules.players)], seed, index)
    game.play()
    return game
