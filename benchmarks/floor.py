"""What a game writes behind the boundary, and what the toolkit assumes of one (issue 58's
targets): measured on the source, nothing run.

    .venv/bin/python benchmarks/floor.py            # the table
    .venv/bin/python benchmarks/floor.py --json     # the same as JSON

- **alike**: of the second game's statements (moaisim/games/rapa_nui, strategies/rapa_nui),
  the share that stands in a run of at least `RUN` consecutive statements each of which Moai's
  code (moaisim/games/moai, strategies/moai) also holds: `identical` to the letter, `shape`
  alike but for names. A statement is a simple statement, or a compound one's head
  (a `def` with its arguments, an `if` with its test...), in the order of the source;
  imports, docstrings, `pass` and a record's field declarations are left out.
- **game defaults**: lines of the toolkit (moaisim/ outside moaisim/games) that name the
  registry's default game (`DEFAULT` imported from moaisim.games).
- **parameter places**: what a new simple rule parameter (one number at a key of the component
  file) needs written besides the rule itself: the places (names and strings; comments and
  docstrings left out) naming it in the game's rules data (its `rules/` modules, the rule
  kernels' `codes.py` and `scoring.py` aside) and in the set-up of the fast machine's
  constants (`PLUMBING`); the largest over the game's simple parameters. The rule's own uses
  (a kernel's argument, the reference engine's line) are the rule, not plumbing; the value in
  the component file is one more place (data).
- **lines**: lines of Python outside tests/ (the whole repository).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = 8  # consecutive alike statements that count as written again
GAMES = {"moai": ("moaisim/games/moai", "strategies/moai"),
         "rapa-nui": ("moaisim/games/rapa_nui", "strategies/rapa_nui")}  # fmt: skip
COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.While,
            ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith)  # fmt: skip


class _Shape(ast.NodeTransformer):
    """Names, attributes, arguments and function names replaced by a placeholder (the values
    kept: "alike but for names")."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.copy_location(ast.Name(id="_", ctx=node.ctx), node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        node.attr = "_"
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg, node.annotation = "_", None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.generic_visit(node)
        node.name = "_"
        return node


def _head(stmt: ast.stmt) -> ast.AST:
    """A statement without its body (a compound statement's head)."""
    if isinstance(stmt, COMPOUND):
        clone = copy.deepcopy(stmt)
        for field in ("body", "orelse", "finalbody", "handlers"):
            if hasattr(clone, field):
                setattr(clone, field, [])
        if hasattr(clone, "decorator_list"):
            clone.decorator_list = []
        return clone
    return stmt


def _counted(stmt: ast.stmt) -> bool:
    """Statements that do something: not imports, `pass`, docstrings or a record's field
    declarations (`name: type` without a value, alike in every record)."""
    if isinstance(stmt, ast.Import | ast.ImportFrom | ast.Pass):
        return False
    if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
        return False
    return not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))


def statements(path: Path) -> Iterator[tuple[str, str]]:
    """(identical key, shape key) of each counted statement of a file, in the order of the
    source (a compound statement's head, then its body)."""
    yield from _block(ast.parse(path.read_text(encoding="utf-8")).body)


def _block(block: list[ast.stmt]) -> Iterator[tuple[str, str]]:
    for stmt in block:
        if _counted(stmt):
            head = _head(stmt)
            yield (
                ast.dump(head, annotate_fields=False),
                ast.dump(_Shape().visit(copy.deepcopy(head)), annotate_fields=False),
            )
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                yield from _block([s for s in inner if isinstance(s, ast.stmt)])
        for handler in getattr(stmt, "handlers", []):
            yield from _block(handler.body)


def files(folders: tuple[str, ...]) -> list[Path]:
    return sorted(p for f in folders for p in (ROOT / f).rglob("*.py"))


def alike() -> dict[str, float]:
    """The shares of the second game's statements written again from the first's."""
    first = [s for p in files(GAMES["moai"]) for s in statements(p)]
    exact_set, shape_set = {e for e, _ in first}, {s for _, s in first}
    total = same = like = 0
    for path in files(GAMES["rapa-nui"]):
        units = list(statements(path))
        total += len(units)
        for which, known in ((0, exact_set), (1, shape_set)):
            hits = [u[which] in known for u in units]
            counted = _in_runs(hits)
            if which == 0:
                same += counted
            else:
                like += counted
    return {"statements": total, "identical": same / total, "shape": like / total}


def _in_runs(hits: list[bool]) -> int:
    """How many True values stand in runs of at least `RUN`."""
    out = run = 0
    for h in [*hits, False]:
        if h:
            run += 1
        else:
            out += run if run >= RUN else 0
            run = 0
    return out


def game_defaults() -> int:
    """Toolkit lines that name the default game."""
    count = 0
    for path in sorted((ROOT / "moaisim").rglob("*.py")):
        if path.relative_to(ROOT / "moaisim").parts[0] == "games":
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith(("from ", "import ", "#")):
                continue
            count += bool(re.search(r"\bDEFAULT\b", line))
    return count


def _code_names(text: str) -> list[str]:
    """The names and the words of string literals of a source text, docstrings and
    comments left out."""
    out: list[str] = []
    tree = ast.parse(text)
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.append(node.id)
        elif isinstance(node, ast.Attribute):
            out.append(node.attr)
        elif isinstance(node, ast.arg) or isinstance(node, ast.keyword) and node.arg:
            out.append(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docs:  # fmt: skip
            out += re.findall(r"\w+", node.value)
    return out


#: Where a game's rule parameters are plumbed: its rules data (the rule kernels aside) and the
#: set-up of its fast machine's constants.
PLUMBING = {
    "moai": ("moaisim/games/moai/rules", "moaisim/games/moai/engine/compiled/arrays.py"),
    "rapa-nui": ("moaisim/games/rapa_nui/rules", "moaisim/games/rapa_nui/engine/batch.py",
                 "moaisim/games/rapa_nui/engine/machine.py:Consts"),  # its fields
}  # fmt: skip
KERNELS = {"codes.py", "scoring.py"}


def _plumbing_names(game: str) -> list[str]:
    """The code names of the game's plumbing (`PLUMBING`; `file:Class` for one class)."""
    out: list[str] = []
    for place in PLUMBING[game]:
        path, _, cls = place.partition(":")
        found = [ROOT / path] if path.endswith(".py") else sorted((ROOT / path).rglob("*.py"))
        for f in (f for f in found if f.name not in KERNELS):
            text = f.read_text(encoding="utf-8")
            if cls:  # the statements that define the class (a class, or an assignment)
                nodes = [n for n in ast.parse(text).body
                         if (isinstance(n, ast.ClassDef) and n.name == cls)
                         or (isinstance(n, ast.Assign | ast.AnnAssign)
                             and cls in ast.get_source_segment(text, n).split("=")[0])]  # fmt: skip
                text = "\n".join(ast.get_source_segment(text, n) or "" for n in nodes)
            out += _code_names(text)
    return out


def parameter_places() -> dict[str, int]:
    """For each game, the most plumbing places (`PLUMBING`) naming one of its simple rule
    parameters."""
    from moaisim.games import load_game

    out = {}
    for game in GAMES:
        spec = load_game(game)
        simple = [n for n, p in spec.PARAMETERS.items() if not getattr(p, "field", "")]
        words = _plumbing_names(game)
        out[game] = max(words.count(name) for name in simple)
    return out


def lines() -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines())
               for p in ROOT.rglob("*.py")
               if not {"tests", ".venv", ".git"} & set(p.relative_to(ROOT).parts))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    a = alike()
    figures = {"alike_identical": round(a["identical"], 3), "alike_shape": round(a["shape"], 3),
               "second_game_statements": a["statements"], "game_defaults": game_defaults(),
               "parameter_places": parameter_places(), "lines": lines()}  # fmt: skip
    if args.json:
        print(json.dumps(figures))
        return
    print("| measure | value |\n| --- | ---: |")
    for key, value in figures.items():
        print(f"| {key} | {value} |")


if __name__ == "__main__":
    main()
