"""Issue 57, item 5: a Rapa Nui component count that the engines or the rules cannot take is
refused in one line (C1-C13), and the ends of each range are taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from moaisim.cli import main
from moaisim.errors import RulesError
from moaisim.games import load_game

ROOT = Path(__file__).resolve().parents[1]
RAPA_COMPONENTS = ROOT / "moaisim" / "games" / "rapa_nui" / "rules" / "default.toml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_component_count_the_engines_or_the_rules_cannot_take_is_refused(tmp_path, capsys):
    text = RAPA_COMPONENTS.read_text(encoding="utf-8")
    cases = {
        ("supply = 25 ", "supply = 1_000_000_000_000 "): "sacrifice.supply = 1000000000000 is "
        "outside 0..8191 (C3: 25; a seat's stock may come to hold all four stacks, and the "
        "results keep it in 16 bits)",
        ("lumberjacks = 1 ", "lumberjacks = 99 "): "start.lumberjacks = 99 is outside 0..4 (R0, "
        "C2: a colour's start set is four cards)",
        ("values = [3, 2, 1, 0]", "values = [3, 2, 1, 10_000_000_000]"): "sacrifice.values = "
        "10000000000 is outside 0..99 (R9.2, C13: 3, 2, 1, 0; the balance edits' highest)",
        # a deck of 10^9 cards was read, and its first game took every byte of the machine
        ("lumberjack = 12", "lumberjack = 1_000_000_000"): "deck.lumberjack = 1000000000 is "
        "outside 0..500 (C1: 12 of 50 cards; a batch holds each game's whole deck)",
        ("columns = 4", "columns = 100_000"): "display.columns = 100000 is outside 1..16 (C7: 4 "
        "columns)",
        ("depth = 4 ", "depth = 99 "): "display.depth = 99 is outside 1..50 (C7: 4 cards a column)",
    }
    spec = load_game("rapa-nui")
    for (old, new), said in cases.items():
        assert old in text
        path = tmp_path / "c.toml"
        path.write_text(text.replace(old, new), encoding="utf-8")
        with pytest.raises(RulesError) as info:
            spec.make_rules(3, components=path)
        assert str(info.value) == f"component file {str(path)!r}: {said}"
        code, _, err = run(capsys, "simulate", "--game", "rapa-nui", "-p", "3", "--components",
                           str(path), "-n", "2", "--strategies", "random")  # fmt: skip
        assert (code, err) == (2, f"moaisim: error: component file {str(path)!r}: {said}\n")
    # the ends of each range are taken
    for old, new in (("supply = 25 ", "supply = 8191 "), ("lumberjacks = 1 ", "lumberjacks = 4 "),
                     ("lumberjacks = 1 ", "lumberjacks = 0 ")):  # fmt: skip
        path = tmp_path / "ok.toml"
        path.write_text(text.replace(old, new), encoding="utf-8")
        spec.make_rules(3, components=path)
