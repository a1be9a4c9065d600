"""Kaivai's board (docs/kaivai-rules.md, R0, R1.1, R7): hexes in axial coordinates, islands
that grow but never merge, water regions, reach, trapping and enclosed water.

A hex is a pair `(q, r)`; hexes are listed in `(q, r)` order wherever an order is needed, so
that both engines offer the same options in the same order. `Board` holds what lies on the
board (land and boats); the pure functions below read it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

Hex = tuple[int, int]
#: R0: the six neighbours of a flat-topped axial hex.
STEPS: tuple[Hex, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
#: The same six, in order round the hex (each next to the one before).
RING: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: Hut kinds (R0): a boat hut holds its new boat, a temple is a fishing die, a meeting hut
#: earns influence from the god.
BOAT_HUT, TEMPLE, MEETING = "boat", "temple", "meeting"
HUT_KINDS = (BOAT_HUT, TEMPLE, MEETING)


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def board_hexes(radius: int) -> list[Hex]:
    """C1: every hex within `radius` of the centre, in (q, r) order (127 at radius 6)."""
    return sorted((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                  if distance((q, r), (0, 0)) <= radius)  # fmt: skip


@dataclass
class Land:
    """A land hex: a cult site (`owner` -1, `kind` "site") or a hut (its owner and kind)."""

    island: int
    kind: str
    owner: int = -1
    fish: int = 0  # R8.3: fish on a fish-holding hut


@dataclass
class Board:
    """What lies on the board: the land hexes and the boats (hex -> owner; a boat on its own
    boat hut stands on land, listed in `on_hut`)."""

    radius: int
    hexes: frozenset[Hex] = field(init=False)
    land: dict[Hex, Land] = field(default_factory=dict)
    boats: dict[Hex, int] = field(default_factory=dict)
    on_hut: set[Hex] = field(default_factory=set)
    #: each island's hexes, by island number (the order its first cult site was placed)
    islands: list[list[Hex]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hexes = frozenset(board_hexes(self.radius))
        self._next = {h: sorted(n for d in STEPS if (n := (h[0] + d[0], h[1] + d[1]))
                                in self.hexes) for h in self.hexes}  # fmt: skip
        # the water regions and the islands bordering each, found again after land changes
        self._regions: dict[Hex, frozenset[Hex]] | None = None
        self._shores: dict[frozenset[Hex], frozenset[int]] = {}

    def neighbours(self, h: Hex) -> list[Hex]:
        """The board hexes next to `h`, in (q, r) order."""
        return self._next[h]

    def is_water(self, h: Hex) -> bool:
        """R0: a board hex with no cult site and no hut."""
        return h in self.hexes and h not in self.land

    def add_site(self, h: Hex, island: int | None = None) -> int:
        """A cult site on `h`: a new island (island None, R1.2) or joining one (R5.1)."""
        if island is None:
            island = len(self.islands)
            self.islands.append([])
        self.land[h] = Land(island, "site")
        self.islands[island].append(h)
        self._regions = None
        return island

    def add_hut(self, h: Hex, island: int, owner: int, kind: str) -> None:
        self.land[h] = Land(island, kind, owner)
        self.islands[island].append(h)
        self._regions = None

    def island_of(self, h: Hex) -> int:
        return self.land[h].island

    def size(self, island: int) -> int:
        """R0: an island's hexes, cult sites and huts of every owner."""
        return len(self.islands[island])

    def sites(self, island: int) -> list[Hex]:
        """An island's cult sites, in (q, r) order."""
        return sorted(h for h in self.islands[island] if self.land[h].kind == "site")

    def adjacent_islands(self, h: Hex) -> set[int]:
        """The islands with a hex next to `h`."""
        return {self.land[n].island for n in self.neighbours(h) if n in self.land}

    def site_islands(self, h: Hex) -> set[int]:
        """The islands with a cult site next to `h`."""
        return {self.land[n].island for n in self.neighbours(h)
                if n in self.land and self.land[n].kind == "site"}  # fmt: skip

    def water_boats(self) -> dict[Hex, int]:
        """The boats on water hexes (not on their huts)."""
        return {h: o for h, o in self.boats.items() if h not in self.on_hut}

    def region(self, start: Hex, without: Iterable[Hex] = ()) -> set[Hex]:
        """The water region (R7.4) holding the water hex `start`, with `without` taken as
        land."""
        blocked = set(without)
        seen, todo = {start}, deque([start])
        while todo:
            h = todo.popleft()
            for n in self.neighbours(h):
                if n not in seen and self.is_water(n) and n not in blocked:
                    seen.add(n)
                    todo.append(n)
        return seen

    def water_region(self, h: Hex) -> frozenset[Hex]:
        """The water region of the water hex `h` as the board stands (kept until land
        changes)."""
        if self._regions is None:
            self._regions, self._shores = {}, {}
            for x in sorted(self.hexes):
                if self.is_water(x) and x not in self._regions:
                    r = frozenset(self.region(x))
                    self._regions.update(dict.fromkeys(r, r))
        return self._regions[h]

    def arcs(self, h: Hex) -> int:
        """The runs of water hexes going round `h`'s six neighbours: with at most one run,
        the water next to `h` stays joined without it, so making `h` land splits nothing."""
        ring = [(h[0] + d[0], h[1] + d[1]) for d in RING]
        wet = [self.is_water(n) for n in ring]
        return sum(1 for i in range(6) if wet[i] and not wet[i - 1])

    def traps(self, h: Hex, boats: Iterable[Hex], trap_tie: str = "any_largest") -> bool:
        """R7.4: whether turning the water hex `h` to land would trap a boat on water (the
        boats given stand where they will be). The pieces of h's region without h: a boat in
        a piece smaller than the largest is trapped; pieces tied for largest are all free
        (`any_largest`) or none is (`all_cut_off`, O7)."""
        region = self.water_region(h)
        boats = [x for x in boats if x in region and x != h]
        if not boats or self.arcs(h) <= 1:  # no boat to trap, or h's water stays joined
            return False
        rest = region - {h}
        pieces: list[set[Hex]] = []
        for x in sorted(rest):
            if not any(x in p for p in pieces):
                pieces.append(self.region(x, without=[h]))
        if len(pieces) <= 1:
            return False
        largest = max(len(p) for p in pieces)
        tied = sum(1 for p in pieces if len(p) == largest) > 1
        for b in boats:
            if b not in rest:
                continue
            piece = next(p for p in pieces if b in p)
            if len(piece) < largest or (tied and trap_tie == "all_cut_off"):
                return True
        return False

    def placement_legal(self, h: Hex, boats: Iterable[Hex] | None = None,
                        trap_tie: str = "any_largest") -> bool:  # fmt: skip
        """R7.3, R7.4: a hut or a cult tile may go on the water hex `h` with no boat, next to
        exactly one island, trapping no boat (`boats`: where the boats on water stand, by
        default where they are)."""
        on_water = list(self.water_boats()) if boats is None else list(boats)
        if not self.is_water(h) or h in on_water or h in self.boats:
            return False
        if len(self.adjacent_islands(h)) != 1:
            return False
        return not self.traps(h, on_water, trap_tie)

    def enclosed(self, h: Hex) -> bool:
        """R7.5: every land hex bordering the water region of `h` is of one single island."""
        region = self.water_region(h)
        if region not in self._shores:
            land = self.land
            self._shores[region] = frozenset(land[n].island for x in region
                                             for n in self.neighbours(x) if n in land)  # fmt: skip
        return len(self._shores[region]) <= 1

    def reach(self, start: Hex, steps: int) -> dict[Hex, int]:
        """R7.1: the water hexes a boat on `start` reaches in at most `steps` steps through
        water (other boats do not block), with the fewest steps to each. A boat on water may
        stay (0 steps); a boat on its boat hut must leave it (at least one step)."""
        on_land = start in self.land
        out: dict[Hex, int] = {} if on_land else {start: 0}
        frontier = [start]
        for k in range(1, steps + 1):
            nxt = []
            for h in frontier:
                for n in self.neighbours(h):
                    if self.is_water(n) and n not in out:
                        out[n] = k
                        nxt.append(n)
            frontier = nxt
        return out
