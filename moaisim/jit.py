"""The one jit decorator of moaisim's kernels: numba's `njit`, cached, without the GIL, and
with one compiled version per kernel whatever its callers pass.

numba compiles a jitted function once per distinct tuple of argument types, and from inside
another kernel a constant argument is typed as its literal value (`goto(g, r, OVER)`,
`decide(..., K_WORK, ...)`) and a small integer as its own width (an `int8` seat, an `int16`
count). Each literal and each width made another copy of the callee, and of everything it
calls: the decision kernels were compiled eleven times over, once per decision kind, which
was most of a cold start's compile. A `kernel` (`Kernel`) types every call from a kernel with
the literals' types and the integers widened to `int64` (`canonical`), so each is compiled
once per array layout, the values it computes unchanged (a narrower integer widens exactly;
numba's arithmetic on small integers is done in 64 bits either way).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba.core import config, types
from numba.core.registry import CPUDispatcher

from moaisim import kernel_cache


def canonical(t: types.Type) -> types.Type:
    """The type a kernel is compiled for when a kernel passes it `t`: a literal as its type,
    an integer narrower than 64 bits as `int64`, anything else as it is."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.bitwidth < 64:
        return types.int64
    return t


class Kernel(CPUDispatcher):
    """A jitted function whose calls from other kernels are typed `canonical`ly (the
    module's docstring). Called from Python it behaves as numba's own dispatcher."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        """numba's template for a call from a kernel, with the arguments' types canonical."""
        args = tuple(canonical(a) for a in args)
        kws = {k: canonical(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def kernel(func: Callable[..., Any] | None = None, *, nrt: bool = True,
           inline: str = "never", cache: bool = True) -> Any:  # fmt: skip
    """`@kernel` (or `@kernel(nrt=False)`, `@kernel(inline="always")`): `func` jitted in
    nopython mode, cached on disk in its game's folder (moaisim/kernel_cache.py; cache=False:
    compiled in each process, as a test that counts compilations needs), releasing the GIL,
    as a `Kernel`.
    nrt=False compiles it without numba's reference counting (the compiled path: kernels
    that allocate nothing)."""

    def wrap(f: Callable[..., Any]) -> Kernel:
        options: dict[str, Any] = {"nopython": True, "nogil": True, "inline": inline}
        if not nrt:
            options["_nrt"] = False
        disp = Kernel(py_func=f, locals={}, targetoptions=options)
        if cache:  # in its game's folder (kernel_cache.game_folder), fixed here by numba
            before = config.CACHE_DIR
            config.CACHE_DIR = str(kernel_cache.game_folder(f.__module__))
            try:
                disp.enable_caching()
            finally:
                config.CACHE_DIR = before
        return disp

    return wrap if func is None else wrap(func)
