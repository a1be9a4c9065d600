"""Run the full moaisim benchmark: `python benchmarks/bench.py [moaisim bench options]`.

The same code as `moaisim bench` (moaisim/bench.py); options are passed through, e.g.
`python benchmarks/bench.py --games 5000 --no-memory`. BLAS/OpenMP/numba pools are limited to one
thread before numpy is imported, so per-core figures are per core.
"""

from __future__ import annotations

import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from moaisim.cli import main  # noqa: E402


def run(argv: list[str] | None = None) -> int:
    """`moaisim bench` with these arguments (default: this script's own)."""
    return main(["bench", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(run())
