"""The house's layout (docs/design.md, "Layout"): imports flow one way, from the command line
down to the rules, with no cycle and no arrow up; the batch engine's machine is reached only
through the forward model (`moaisim.games.moai.engine.forward`); imports sit at module level.

The import graph is read from the source (module-level imports and those inside functions),
so a lazy import cannot hide an arrow."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

#: The floors, lowest first: a module imports only from its own floor or those below.
FLOORS: list[tuple[str, ...]] = [
    ("moaisim.errors", "moaisim.checks", "moaisim.interrupts", "moaisim.files", "moaisim.docs",
     "moaisim.version", "moaisim.progress", "moaisim.jit", "moaisim.strategy_params",
     "moaisim.kernel_cache", "moaisim.compile_notice", "moaisim.weight_files",
     "moaisim.event_schema", "moaisim.game_logs", "moaisim.learned_model"),
    ("moaisim.rng", "moaisim.mixture_parts"),  # a mixture's draws read the streams
    ("moaisim.engine",),  # the engine floor: what every game's engine shares
    ("moaisim.games",),  # the game boundary: the protocol and the registry of games
    ("moaisim.games.moai.rules", "moaisim.games.rapa_nui.rules", "moaisim.games.kaivai.rules"),
    ("moaisim.games.moai.engine", "moaisim.games.rapa_nui.engine", "moaisim.games.kaivai.engine"),
    # search, mixture, restrict and the learned ranker, the floor's strategies for every game:
    # they load their inner strategies (a ranker its experts) by name, so they stand with the
    # registry (moaisim.engine imports them not)
    ("moaisim.registry", "moaisim.strategies", "moaisim.engine.search", "moaisim.engine.mixture",
     "moaisim.engine.restrict", "moaisim.engine.ranker"),
    # each game's GameSpec (its names imported when first read)
    ("moaisim.games.moai", "moaisim.games.rapa_nui", "moaisim.games.kaivai"),
    ("moaisim.fingerprint", "moaisim.rundir", "moaisim.runner"),
    ("moaisim.analysis",),
    ("moaisim.api",),
    ("moaisim.studies",),
    ("moaisim.cli",),
    ("moaisim",),  # the public API (moaisim/__init__.py)
]  # fmt: skip
#: Imports that may stay inside functions, and why.
LOCAL_ALLOWED = {
    "distributed": "an optional extra (moaisim[dask])",
    "resource": "not on every platform",
}
#: The command line (moaisim.cli and its command modules) imports the analysis and the studies
#: inside the commands that use them: they pull scipy, matplotlib, cma and choix, which would
#: double the start of every command (`moaisim --help` 1.2 s instead of 2.5 s).
CLI_LOCAL = ("moaisim.analysis", "moaisim.studies")


def is_cli(module: str) -> bool:
    """moaisim.cli or one of its modules."""
    return module == "moaisim.cli" or module.startswith("moaisim.cli.")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] == "strategies":
        parts = ["moaisim", "strategies", *parts[1:]]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {
    module_name(p): p
    for p in [*(ROOT / "moaisim").rglob("*.py"), *(ROOT / "strategies").rglob("*.py")]
}


def resolve(name: str) -> str:
    """The module a dotted name lives in (a name imported from a module: the module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports(module: str) -> list[tuple[str, str, bool, bool]]:
    """(imported module or top-level package, the statement, inside a function, for type
    checkers only) of each import of a module."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    local, typing_only = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            local |= {id(n) for n in ast.walk(node) if n is not node}
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only |= {id(n) for n in ast.walk(node)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                       for a in node.names]  # fmt: skip
        else:
            continue
        for t in targets:
            target = resolve(t) if t.startswith("moaisim") else t.split(".")[0]
            out.append((target, ast.unparse(node), id(node) in local, id(node) in typing_only))
    return out


def floor(module: str) -> int:
    best, level = -1, -1
    for k, names in enumerate(FLOORS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, level = len(name), k
    assert level >= 0, f"{module} is on no floor: add it to FLOORS"
    return level


EDGES = [(m, t, s, lazy, typing) for m in MODULES for t, s, lazy, typing in imports(m)]


def test_every_module_is_on_a_floor():
    for m in MODULES:
        floor(m)


def test_no_import_goes_up_a_floor():
    up = [
        f"{m} ({floor(m)}) imports {t} ({floor(t)}): {s}"
        for m, t, s, _, _ in EDGES
        if t.startswith("moaisim") and floor(t) > floor(m)
    ]
    assert not up, "\n".join(up)


def test_no_import_cycle():
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, t, _, _, typing in EDGES:  # an import for type checkers only makes no cycle
        if t in MODULES and t != m and not m.startswith(t + ".") and not typing:
            graph[m].add(t)
    seen: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> None:
        seen[m] = 1
        path.append(m)
        for t in sorted(graph[m]):
            if seen.get(t) == 1:
                cycle = path[path.index(t) :] + [t]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if t not in seen:
                visit(t)
        path.pop()
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m)


#: The toolkit: what plays, reads and shows games of any game (docs/design.md, "Two layers").
TOOLKIT = ("moaisim.registry", "moaisim.fingerprint", "moaisim.rundir", "moaisim.runner",
           "moaisim.analysis", "moaisim.api", "moaisim.studies", "moaisim.cli")  # fmt: skip
#: What the toolkit may import of the games: the boundary (the protocol and the registry)
#: and the strategies' package root (where the fingerprint finds the built-ins' files).
BOUNDARY = ("moaisim.games", "moaisim.games.base", "moaisim.strategies")


def is_toolkit(module: str) -> bool:
    """A toolkit module (`TOOLKIT`), or the package's public API (moaisim/__init__.py)."""
    return module == "moaisim" or any(module == n or module.startswith(n + ".") for n in TOOLKIT)


def test_the_toolkit_imports_no_game():
    """The runner, the analysis, the studies, the command line and the public API import no
    game's modules, at module level, in a function or for type checkers: a game is reached
    through `moaisim.games.load_game` only (issue 42's game boundary)."""
    crossing = [
        f"{m}: {s}"
        for m, t, s, _, _ in EDGES
        if is_toolkit(m)
        and (t.startswith("moaisim.games") or t.startswith("moaisim.strategies"))
        and t not in BOUNDARY
    ]
    assert not crossing, "\n".join(crossing)


def test_the_boundary_test_sees_a_crossing():
    """The check above is not blind: an import of Moai's rules in the runner would be caught."""
    assert is_toolkit("moaisim.runner") and is_toolkit("moaisim.cli.game") and is_toolkit("moaisim")
    assert not is_toolkit("moaisim.games.moai.engine.forward")
    assert not is_toolkit("moaisim.strategies.moai.greedy")
    assert resolve("moaisim.games.moai.rules.model") not in BOUNDARY


def test_only_the_engine_reaches_the_machine():
    """The batch engine's machine and state (moaisim.games.moai.engine.batch) are the
    engine's own: every game outside it is played through the forward model."""
    inside = ("moaisim.games.moai.engine",)
    reach = [f"{m}: {s}" for m, t, s, _, _ in EDGES
             if t.startswith("moaisim.games.moai.engine.batch")
             and not m.startswith(inside)]  # fmt: skip
    benchmarks = [
        f"{p.name}: {line.strip()}"
        for p in (ROOT / "benchmarks").glob("*.py")
        if p.name != "compare_commits.py"  # it times older commits too, from before the door
        for line in p.read_text().splitlines()
        if "moaisim.games.moai.engine.batch" in line
    ]
    assert not reach + benchmarks, "\n".join(reach + benchmarks)


def test_imports_sit_at_module_level():
    lazy = [
        f"{m}: {s}"
        for m, t, s, is_local, _ in EDGES
        if is_local
        and t.split(".")[0] not in LOCAL_ALLOWED
        and not (is_cli(m) and t.startswith(CLI_LOCAL))
    ]
    assert not lazy, "\n".join(lazy)


def test_every_package_of_the_source_is_installed_by_pyproject():
    """A wheel holds the packages pyproject.toml lists: each folder of moaisim/ and
    strategies/ with an `__init__.py` is one of them (an editable install would not notice)."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    found = {
        module_name(p.parent / "__init__.py")
        for p in [
            *(ROOT / "moaisim").rglob("__init__.py"),
            *(ROOT / "strategies").rglob("__init__.py"),
        ]
    }
    assert found - listed == set()
    assert "moaisim.engine" in listed and "moaisim.strategies.moai" in listed
