"""The README's examples run as shown: its Python blocks and its `moaisim` commands."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from moaisim.cli import main

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_readme_python_blocks_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # with the component file the README's tour writes
    shutil.copy(ROOT / "moaisim" / "rules" / "default.toml", tmp_path / "my-components.toml")
    namespace: dict[str, object] = {}
    for code in blocks("python"):
        exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102


def commands() -> list[list[str]]:
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            line = line.split("#")[0].strip()
            if line.startswith(".venv/bin/moaisim"):
                out.append(shlex.split(line.split(">")[0])[1:])
    return out


@pytest.mark.parametrize("args", commands(), ids=lambda a: " ".join(a))
def test_readme_commands_run(args, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "moaisim" / "rules" / "default.toml", tmp_path / "my-components.toml")
    assert main(args) == 0
    assert capsys.readouterr().out


def test_readme_shows_the_quick_start():
    assert "make demo" in README and "make test" in README
    assert len(commands()) >= 6
