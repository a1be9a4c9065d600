"""R6.1: the rulebook's production example, forest part."""

import pytest
from scenario import done, events, put, scenario, script

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines


def test_r6_1_rulebook_forest_example_tie_for_red_green_wins_2_yellow_alone_3():
    # Red 0 (bird-man), Yellow 1, Green 2. Wood on spaces 1-3.
    g = scenario(3)
    s = g.state
    s.birdman = 0
    s.forest_wood[:3] = True
    put(g, 0, 2, 0)  # Red 2 on space 1
    put(g, 2, 2, 0)  # Green 2 on space 1: tie
    put(g, 0, 1, 1)  # Red 1 on space 2
    put(g, 2, 3, 1)  # Green 3 on space 2: Green wins
    yellow = put(g, 1, 3, 2)  # Yellow alone on space 3
    script(g, 0, ("forest_tie", 0))  # the bird-man breaks the tie for Red
    g.forest()
    assert s.wood.tolist() == [1, 1, 1]
    assert not s.up[1, yellow]  # Yellow takes it without revealing
    assert s.up[0].sum() == 2 and s.up[2].sum() == 2
    assert [e["winner"] for e in events(g, "forest")] == [0, 2, 1]
    done(g)
