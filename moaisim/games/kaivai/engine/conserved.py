"""What never changes in a game of Kaivai, whatever is played (docs/kaivai-rules.md, "a first
implementation"): the pieces each player owns, the bounds of every track, the shape of the
islands. `broken(game)` lists every invariant a position breaks (empty: none)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from moaisim.games.kaivai.rules.board import BOAT_HUT, MEETING, TEMPLE

if TYPE_CHECKING:
    from moaisim.games.kaivai.engine.reference import Game


def broken(game: Game) -> list[str]:
    """The invariants the game's position breaks."""
    out: list[str] = []
    r, b = game.rules, game.board
    c = r.components
    top = c.freshness
    for s, seat in enumerate(game.seats):
        huts = [x for x in b.land.values() if x.owner == s]
        if len(huts) + seat.huts != c.huts:
            out.append(f"seat {s}: huts on the board + supply != {c.huts}")
        temples = sum(1 for x in huts if x.kind == TEMPLE)
        if temples + seat.statues != c.temple_statues:
            out.append(f"seat {s}: temples + statues != {c.temple_statues}")
        boats = sum(1 for o in b.boats.values() if o == s)
        if boats + seat.boats != r.boats:
            out.append(f"seat {s}: boats on the board + supply != {r.boats}")
        if seat.glory < 0 or seat.influence < 0:
            out.append(f"seat {s}: negative glory or influence")
        if any(not 1 <= v <= top for v in seat.shells + seat.fish):
            out.append(f"seat {s}: a shell or fish outside 1..{top}")
        if not 0 <= seat.bonus < len(c.bonus):
            out.append(f"seat {s}: movement bonus off its track")
        if sum(seat.parts.values()) != seat.glory:
            out.append(f"seat {s}: the score's parts do not add up to its glory")
    for h, owner in b.boats.items():
        if h in b.land:
            land = b.land[h]
            if h not in b.on_hut or land.kind != BOAT_HUT or land.owner != owner:
                out.append(f"{h}: a boat on land not on its own boat hut")
        elif h in b.on_hut or h not in b.hexes:
            out.append(f"{h}: a boat off the board or marked on a hut at sea")
    if not b.on_hut <= set(b.boats):
        out.append("a boat hut marked as holding a boat that is not there")
    for h, land in b.land.items():
        holds = land.kind == MEETING or (land.kind == BOAT_HUT and h not in b.on_hut)
        if land.fish and not holds:
            out.append(f"{h}: fish on a hut that holds none")
        if not 0 <= land.fish <= c.hut_fish_capacity:
            out.append(f"{h}: {land.fish} fish on a hut")
        if any(n in b.land and b.land[n].island != land.island for n in b.neighbours(h)):
            out.append(f"{h}: two islands touch")
    # the start's sites (printed, and the extra ones the log says were drawn) + the tiles
    sites = sum(1 for x in b.land.values() if x.kind == "site")
    extra = sum(len(e["hexes"]) for e in game.events if e["kind"] == "extra_site")
    start = len(c.printed_cult_sites) + extra
    if sites + game.tiles + game.tiles_removed != start + r.cult_tiles:
        out.append("cult sites on the board + tiles left + tiles removed do not add up")
    if game.god is not None and (game.god not in b.land or b.land[game.god].kind != "site"):
        out.append("the god is not on a cult site")
    return out
