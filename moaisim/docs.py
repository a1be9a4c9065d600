"""Where the project's documents are: docs/ of a source checkout, or the copy an install puts
in `<prefix>/share/moaisim/docs` (pyproject.toml, data-files)."""

from __future__ import annotations

import sys
from pathlib import Path

from moaisim.errors import UserError


def document_path(name: str) -> Path:
    """The path of a document of docs/ (rules.md, design.md, events.md)."""
    candidates = (
        Path(__file__).resolve().parent.parent / "docs" / name,  # a source checkout
        Path(sys.prefix) / "share" / "moaisim" / "docs" / name,  # an install
    )
    for path in candidates:
        if path.is_file():
            return path
    raise UserError(
        f"cannot find the document {name} (looked in {', '.join(map(str, candidates))})"
    )


def document(name: str) -> str:
    """The text of a document of docs/."""
    return document_path(name).read_text("utf-8")
