"""Seeds (ARCHITECTURE.md section 3): game i of seed S is a pure function of (S, i)."""

from __future__ import annotations

import numpy as np

import moaisim
from moaisim.rng import Streams


def test_game_i_alone_equals_game_i_after_others():
    alone = moaisim.play(4, seed=99, game=5, strategies="random").events
    for g in range(5):
        moaisim.play(4, seed=99, game=g, strategies="random")
    assert moaisim.play(4, seed=99, game=5, strategies="random").events == alone


def test_different_games_and_seeds_differ():
    a = moaisim.play(3, seed=1, game=0, strategies="random").events
    assert moaisim.play(3, seed=1, game=1, strategies="random").events != a
    assert moaisim.play(3, seed=2, game=0, strategies="random").events != a


def test_streams_vectorised_equal_one_game():
    many = Streams(12345, np.arange(50), 6)
    rows = np.arange(50)
    many.draw(3, rows[::2], 7)  # other games and streams advance first
    batch = many.draw(0, rows, 4)
    for g in (0, 17, 49):
        one = Streams(12345, [g], 6)
        assert np.array_equal(one.draw_one_game(0, 4), batch[g])


def test_seat_streams_do_not_shift_chance():
    s1 = Streams(7, [3], 4)
    s2 = Streams(7, [3], 4)
    s2.draw(2, np.zeros(1, dtype=np.int64), 1000)  # a strategy draws a lot
    assert np.array_equal(s1.draw_one_game(0, 10), s2.draw_one_game(0, 10))


def test_streams_are_uniform_enough():
    u = Streams(0, np.arange(1000), 1).draw(0, np.arange(1000), 200).ravel()
    assert abs(u.mean() - 0.5) < 0.005
    hist, _ = np.histogram(u, bins=10, range=(0, 1))
    assert hist.min() > 0.9 * len(u) / 10
