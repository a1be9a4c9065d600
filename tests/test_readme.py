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


def commands() -> list[list[str]]:
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            line = line.split("#")[0].strip()
            if line.startswith(".venv/bin/moaisim"):
                out.append(shlex.split(line.split(">")[0])[1:])
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """One directory for the whole README, as a reader's checkout: later commands and the
    Python blocks use what earlier commands wrote (runs/...), and the repository's
    experiments/, strategies/ and reports/ folders are there."""
    where = tmp_path_factory.mktemp("readme")
    rules = ROOT / "moaisim" / "games" / "moai" / "rules"
    shutil.copy(rules / "default.toml", where / "my-components.toml")
    for folder in ("experiments", "strategies", "reports"):
        (where / folder).symlink_to(ROOT / folder)
    return where


@pytest.mark.parametrize("args", commands(), ids=lambda a: " ".join(a))
def test_readme_commands_run(args, workdir, monkeypatch, capsys):
    """Each `moaisim` command of the README's shell blocks, in the order shown."""
    monkeypatch.chdir(workdir)
    assert main(args) == 0
    assert capsys.readouterr().out


def test_readme_python_blocks_run(workdir, monkeypatch):
    """The Python blocks in order, in one namespace, after the commands (they read the runs
    the commands wrote)."""
    monkeypatch.chdir(workdir)
    namespace: dict[str, object] = {}
    for code in blocks("python"):
        exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102


def test_readme_shows_the_quick_start():
    assert "make demo" in README and "make test" in README
    assert len(commands()) >= 6
