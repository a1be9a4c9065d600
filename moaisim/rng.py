"""Per-game counter-based random streams (ARCHITECTURE.md section 3).

Game i of root seed S has stream 0 for chance and stream 1 + s for seat s's strategy. Value j
of a stream is a pure function of (S, i, stream, j): a SplitMix64-style hash of a per-stream
key and the counter j. Nothing depends on how many games are drawn together, so one game alone
and the same game inside any batch get the same numbers. No global random state is used.
"""

from __future__ import annotations

import numpy as np

CHANCE = 0
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S30, _S27, _S31, _S11 = (np.uint64(k) for k in (30, 27, 31, 11))
_TO_UNIT = 2.0**-53


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser on a uint64 array (wrapping arithmetic)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def seat_stream(seat: int) -> int:
    """Stream id of a seat's strategy."""
    return 1 + seat


def stream_keys(root_seed: int, games: np.ndarray, n_streams: int) -> np.ndarray:
    """Keys [len(games), n_streams] of the streams of the given games of a root seed."""
    if not 0 <= root_seed < 2**64:
        raise ValueError(f"root seed must be in [0, 2**64), got {root_seed}")
    g = np.asarray(games, dtype=np.uint64).reshape(-1, 1)
    s = np.arange(n_streams, dtype=np.uint64).reshape(1, -1)
    root = _mix(np.array([root_seed], dtype=np.uint64) + _GOLDEN)
    return _mix(_mix(root + g * _GOLDEN) + (s + np.uint64(1)) * _M2)


def _uniforms(keys: np.ndarray, start: np.ndarray, k: int) -> np.ndarray:
    """Values start..start+k-1 of the streams with these keys, as uniforms [len(keys), k]."""
    j = start[:, None] + np.arange(k, dtype=np.uint64)[None, :]
    z = _mix(keys[:, None] + j * _GOLDEN)
    return (z >> _S11).astype(np.float64) * _TO_UNIT


class Streams:
    """The random streams of a set of games: one counter per game and stream.

    `draw(stream, rows, k)` returns k uniforms in [0, 1) for each selected game (row) and
    advances only those games' counters, so every game's sequence is independent of the others.
    Rows must be distinct within one call.
    """

    def __init__(self, root_seed: int, games: np.ndarray | list[int], n_streams: int) -> None:
        self.root_seed = int(root_seed)
        self.games = np.asarray(games, dtype=np.int64)
        self.keys = stream_keys(self.root_seed, self.games, n_streams)
        # one counter array per stream, so a seat's handle can hold its own stream only
        self.counters = [np.zeros(len(self.games), dtype=np.uint64) for _ in range(n_streams)]

    def draw(self, stream: int, rows: np.ndarray, k: int) -> np.ndarray:
        """[len(rows), k] uniforms from `stream` of the games at `rows`."""
        rows = np.asarray(rows, dtype=np.int64)
        counter = self.counters[stream]
        start = counter[rows]
        counter[rows] = start + np.uint64(k)
        return _uniforms(self.keys[rows, stream], start, k)

    def draw_one_game(self, stream: int, k: int) -> np.ndarray:
        """k uniforms for a single-game `Streams` (the reference engine's case)."""
        return self.draw(stream, _ROW0, k)[0]

    def seat(self, seat: int, rows: np.ndarray) -> SeatRandom:
        """The handle on seat `seat`'s strategy stream for the games at `rows`."""
        stream = seat_stream(seat)
        return SeatRandom(self.keys[rows, stream].copy(), self.counters[stream], rows)


_ROW0 = np.zeros(1, dtype=np.int64)


class SeatRandom:
    """A seat's strategy stream for the games of one view: `uniform(k)` -> [n, k].

    It holds that stream's keys and counters only: a strategy cannot read or shift the
    game's chance stream or another seat's stream.
    """

    def __init__(self, keys: np.ndarray, counter: np.ndarray, rows: np.ndarray) -> None:
        self.__keys, self.__counter, self.__rows = keys, counter, rows

    def uniform(self, k: int = 1) -> np.ndarray:
        """k uniforms in [0, 1) per game of the view."""
        start = self.__counter[self.__rows]
        self.__counter[self.__rows] = start + np.uint64(k)
        return _uniforms(self.__keys, start, k)

    def choice(self, legal: np.ndarray) -> np.ndarray:
        """A uniformly random legal action per game (one value drawn per game).

        legal is [n, A] bool with at least one True per row; returns [n] action indices.
        """
        u = self.uniform(1)[:, 0]
        counts = legal.sum(axis=1)
        k = np.minimum((u * counts).astype(np.int64), counts - 1)
        cum = np.cumsum(legal, axis=1)
        return np.argmax(cum > k[:, None], axis=1)
