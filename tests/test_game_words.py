"""The toolkit speaks no game's words (docs/design.md, "Adding a game"): outside a game's own
package (`moaisim/games/moai` for Moai), no module of moaisim names Moai's terms in its code
(string constants and identifiers; comments and docstrings may), so a second game can use
every study and report. Each word a report prints comes from the game's spec (`VOCABULARY`,
`SCORE_PARTS`, `SEAT_MEASURES`, `GAME_METRICS`, `COMPONENT_EDITS`...)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from moaisim.games import load_game

ROOT = Path(__file__).parents[1]
#: Moai's words: its statues and their height, the bird-man, the volcano, palms, the forest
#: and the fishers ("moai" itself, but not in "moaisim").
MOAI_WORDS = re.compile(r"moai(?!sim)|statue|bird.?man|volcano|palm|forest|fisher", re.I)
#: The game's own package, where its words belong.
GAME_HOME = ROOT / "moaisim" / "games" / "moai"
#: (module, token) pairs that may stay, and why.
ALLOWED: dict[tuple[str, str], str] = {
    ("moaisim/games/__init__.py", '"moai"'): "the default game's registry name",
    ("moaisim/games/__init__.py", '"moaisim.games.moai"'): "the built-in game's package",
    ("moaisim/analysis/report.py", '"from the model\'s Fisher information."'): (
        "statistics (the Fisher information of the ratings), not the game's fishers"
    ),
    ("moaisim/studies/balance_space.py",
     '"strategies (library = [\\"tuned\\", \\"moai\\", ...])"'): (
        "an example of strategy names in an error message (the default game's)"
    ),
    ("moaisim/studies/experiment.py", '\'("3" = ["moai,fisher,forester"])\''): (
        "an example of strategy names in an error message (the default game's)"
    ),
}  # fmt: skip
#: The command line declares each rule option in a command's signature (typer), so its flags
#: are the default game's three (`--volcano-after-moai`, checked against the game played by
#: `rule_options`; a game-generic `--option NAME=VALUE` would replace them); some help texts
#: give the default game's names as examples.
FLAG = "a rule-option flag of the default game (typer declares options statically)"
EXAMPLE = "an example of the default game's names in a help text"
for _module, _tokens in {
    "moaisim/cli/common.py": ("VolcanoAfterMoai", '"volcano_after_moai"'),
    "moaisim/cli/game.py": ("VolcanoAfterMoai", "volcano_after_moai"),
    "moaisim/cli/runs.py": ("VolcanoesAfterMoai", '"volcano_after_moai"', "volcano_after_moai"),
    "moaisim/cli/studies.py": ("VolcanoAfterMoai", "volcano_after_moai"),
}.items():
    ALLOWED.update(dict.fromkeys(((_module, t) for t in _tokens), FLAG))
ALLOWED.update({
    ("moaisim/cli/common.py",
     '"repeats; a strategy takes parameters as \'greedy(moai_height=8)\'; \'module:Class\' loads "'):  # noqa: E501
        EXAMPLE,
    ("moaisim/cli/studies.py", '"A shipped mixture file, e.g. strategies/moai/weights/nash-3p.toml."'):  # noqa: E501
        EXAMPLE,
    ("moaisim/cli/common.py",
     '"""Balance analysis for board games (Moai first): seeded games between pluggable strategies.'):  # noqa: E501
        "the command line's help names the first game, the default",
})  # fmt: skip


def docstring_lines(tree: ast.AST) -> set[int]:
    """The first lines of a module's docstrings and bare string statements (comments)."""
    out = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):  # fmt: skip
            out.add(node.lineno)
    return out


def game_words(source: str) -> list[tuple[int, str]]:
    """(line, token's first line) of each string constant or identifier of `source` that
    holds a Moai word, comments and docstrings left out."""
    skip = docstring_lines(ast.parse(source))
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING and tok.start[0] in skip:
            continue
        fstring = getattr(tokenize, "FSTRING_MIDDLE", None)
        if tok.type in (tokenize.NAME, tokenize.STRING, fstring) and MOAI_WORDS.search(tok.string):
            found.append((tok.start[0], tok.string.splitlines()[0]))
    return found


def toolkit_modules() -> list[Path]:
    """Every module of moaisim outside the games' own packages (Moai's, and any other game's:
    Rapa Nui has Moai cards of its own)."""
    games = [d for d in (ROOT / "moaisim" / "games").iterdir() if (d / "__init__.py").is_file()]
    assert GAME_HOME in games
    return sorted(p for p in (ROOT / "moaisim").rglob("*.py")
                  if not any(home in p.parents for home in games))  # fmt: skip


def test_no_toolkit_module_names_moai_s_terms_in_its_code():
    bad = []
    for path in toolkit_modules():
        name = path.relative_to(ROOT).as_posix()
        for line, token in game_words(path.read_text()):
            if (name, token) not in ALLOWED:
                bad.append(f"{name}:{line}: {token}")
    assert not bad, "Moai's words in the toolkit (read them from the game's spec):\n" + "\n".join(
        bad
    )


def test_every_allowed_word_is_still_there():
    """An allowance outlives its reason: each allowed token is still in its module."""
    for name, token in ALLOWED:
        assert token in {t for _, t in game_words((ROOT / name).read_text())}, (name, token)


@pytest.mark.parametrize(
    "snippet",
    [
        'HEIGHT = "moai_height"\n',
        'LABEL = f"seat (0: bird-man before round {n})"\n',
        "def statue_share(x):\n    return x\n",
        'EDITS = {"palms_epoch1": 1}\n',
        "x = results.volcano_count\n",
    ],
)
def test_the_scan_finds_a_moai_word_in_code(snippet):
    assert game_words(snippet)


@pytest.mark.parametrize(
    "snippet",
    [
        '"""The statues\' share of the points (Moai height)."""\n',
        "x = 1  # the first bird-man's seat\n",
        'def f():\n    """Points from statues."""\n    return "moaisim"\n',
    ],
)
def test_the_scan_leaves_comments_docstrings_and_the_package_name(snippet):
    assert not game_words(snippet)


def test_the_words_the_toolkit_reads_are_moai_s_own():
    """Moai's spec says what its reports call things, as they did before the boundary."""
    moai = load_game("moai")
    words = moai.INFO.vocabulary
    assert words["seat_zero_said"] == (
        "the first bird-man (seat 0, who holds the bird-man token before round 1)"
    )
    assert words["seat_axis"] == "seat (0: bird-man before round 1)"
    assert tuple(moai.INFO.score_parts) == ("statues", "pawns", "wood")
    assert words["headline_part"] == moai.INFO.score_parts[0]
    assert [moai.MEASURES.seat[c][0] for c in moai.MEASURES.shown] == [
        "Moai height (m)", "living pawns", "points for wood"]  # fmt: skip
    assert list(moai.MEASURES.metrics) == [
        "Moai height per seat (m)",
        "statues' share of the points",
    ]
    assert "palms_epoch1" in moai.COMPONENT_EDITS
