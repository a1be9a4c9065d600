"""The docs' examples run as shown (the slow suite): the `.venv/bin/moaisim` commands of
each document's shell blocks in order, then its Python blocks, in a scratch directory set up
as a reader's checkout. The README's own examples run in the fast suite (tests/test_readme.py)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from moaisim.cli import main

ROOT = Path(__file__).parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))


def blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def commands(text: str) -> list[list[str]]:
    out = []
    for block in blocks(text, "sh"):
        for line in block.splitlines():
            line = line.split("#")[0].strip()
            if line.startswith(".venv/bin/moaisim"):
                out.append(shlex.split(line.split(">")[0])[1:])
    return out


def checkout(where: Path) -> Path:
    """A scratch directory laid out as a reader's checkout (as tests/test_readme.py's)."""
    rules = ROOT / "moaisim" / "games" / "moai" / "rules"
    shutil.copy(rules / "default.toml", where / "my-components.toml")
    for folder in ("experiments", "strategies"):
        (where / folder).symlink_to(ROOT / folder)
    return where


#: Commands shown at a real study's size, run here at a size that checks them in seconds:
#: command -> options added where the shown command does not give them (what they measure at
#: full size is checked by their own tests; here, that the command runs as shown).
SMALLER: dict[str, tuple[tuple[str, str], ...]] = {
    "balance": (("--trials", "2"),),
    "sheet": (
        ("-n", "2000"),
        ("--skill-games", "200"),
        ("--search-games", "0"),
        ("--deals", "200"),
        ("--check-games", "0"),
    ),  # fmt: skip
}


def smaller(args: list[str]) -> list[str]:
    """`args` with `SMALLER`'s options for its command added where it does not give them."""
    given = set(args)
    extra = [x for opt, v in SMALLER.get(args[0], ()) if opt not in given for x in (opt, v)]
    return [*args, *extra]


#: The documents that show commands or Python.
SHOWN = [d for d in DOCS if commands(d.read_text()) or blocks(d.read_text(), "python")]


@pytest.mark.slow
@pytest.mark.parametrize("doc", SHOWN, ids=lambda d: d.name)
def test_a_documents_commands_and_python_blocks_run(doc, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(checkout(tmp_path))
    text = doc.read_text()
    for shown in commands(text):
        args = smaller(shown)
        assert main(args) == 0, f"{doc.name}: moaisim {shlex.join(args)}"
    capsys.readouterr()
    namespace: dict[str, object] = {}
    for code in blocks(text, "python"):
        exec(compile(code, doc.name, "exec"), namespace)  # noqa: S102


def test_the_docs_show_commands():
    """Each topic's document shows commands a reader can run (checked by the slow suite)."""
    shown = {d.name: len(commands(d.read_text())) for d in DOCS}
    assert shown["running.md"] >= 3 and shown["strategies.md"] >= 1 and shown["reports.md"] >= 1
