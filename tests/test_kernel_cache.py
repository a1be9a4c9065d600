"""numba's cache folder follows the kernels' sources (moaisim/kernel_cache.py): an edit to any
file a kernel may carry compiled into it starts another folder, so stale code never runs."""

from __future__ import annotations

import os
import time

import numba

from moaisim import kernel_cache


def test_the_folder_is_named_by_every_source_file_and_changes_with_one_byte(tmp_path):
    files = kernel_cache.sources()
    names = {p.name for p in files}
    assert {"machine.py", "seen.py", "greedy.py", "heuristic.py", "codes.py", "steps.py"} <= names
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    before = kernel_cache.digest([a, b])
    assert kernel_cache.digest([a, b]) == before
    b.write_text("y = 3\n")
    assert kernel_cache.digest([a, b]) != before


def test_numba_caches_in_this_versions_folder():
    folder = kernel_cache.FOLDER
    assert folder.name == f"moaisim-{kernel_cache.digest(kernel_cache.sources())}"
    assert numba.config.CACHE_DIR == str(folder) == os.environ["NUMBA_CACHE_DIR"]
    # a process moaisim starts inherits the folder and keeps its parent as the base
    assert kernel_cache.base() == folder.parent


def test_other_versions_folders_go_after_thirty_days_unused(tmp_path):
    keep = tmp_path / "moaisim-current"
    old, recent, other = (tmp_path / n for n in ("moaisim-old", "moaisim-recent", "notours"))
    for d in (keep, old, recent, other):
        d.mkdir()
    month_ago = time.time() - 31 * 86400
    os.utime(old, (month_ago, month_ago))
    os.utime(other, (month_ago, month_ago))
    kernel_cache.prune(keep)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["moaisim-current", "moaisim-recent",
                                                           "notours"]  # fmt: skip


def test_each_game_has_a_folder_of_its_own_sources_so_one_games_edit_compiles_nothing_of_anothers():
    rapa = {str(p) for p in kernel_cache.sources("rapa_nui")}
    moai = {str(p) for p in kernel_cache.sources("moai")}
    assert any(s.endswith("/rng.py") for s in rapa) and any(s.endswith("/rng.py") for s in moai)
    assert not any("/moai/" in s for s in rapa)
    assert not any("rapa_nui" in s for s in moai)
    assert any(s.endswith("strategies/rapa_nui/base.py") for s in rapa)
    assert kernel_cache.game_of_module("moaisim.strategies.rapa_nui.base") == "rapa_nui"
    assert kernel_cache.game_of_module("moaisim.games.moai.engine.compiled.machine") == "moai"
    assert kernel_cache.game_of_module("moaisim.rng") is None
    from moaisim.games.moai.engine.compiled import machine as moai_machine
    from moaisim.games.rapa_nui.engine import machine as rapa_machine

    for kernel, game in ((rapa_machine.play_rows, "rapa_nui"), (moai_machine.play_rows, "moai")):
        where = kernel._cache._cache_path
        assert where.startswith(str(kernel_cache.base() / f"moaisim-{game}-")), where
        assert kernel_cache.digest(kernel_cache.sources(game)) in where
