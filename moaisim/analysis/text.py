"""Numbers as a report prints them: shares, points, intervals and p-values, one way each.

A statistic that cannot be computed from the games played (an interval or a test from one
game, a standard error of zero games) is nan in the tables and prints as "too few games",
never as "nan".
"""

from __future__ import annotations

import math
from typing import Any

#: What a report prints where a statistic needs more games than were played.
TOO_FEW = "too few games"
#: p-values below this print as "< 0.001" (a smaller one says nothing more to a reader).
P_FLOOR = 0.001


def known(*xs: Any) -> bool:
    """Every value is a finite number (a statistic that could be computed)."""
    try:
        return all(math.isfinite(float(x)) for x in xs)
    except (TypeError, ValueError):
        return False


def num(x: Any, spec: str = ".2f") -> str:
    """A number in the given format, or "too few games"."""
    return format(float(x), spec) if known(x) else TOO_FEW


def pct(x: Any, digits: int = 1) -> str:
    """A share as a percentage: "47.1 %"."""
    return f"{100 * float(x):.{digits}f} %" if known(x) else TOO_FEW


def points(x: Any, sign: bool = True, digits: int = 1) -> str:
    """A share difference in points of share: "+2.4" (100 x the difference)."""
    if not known(x):
        return TOO_FEW
    return f"{100 * float(x):{'+' if sign else ''}.{digits}f}"


def interval(lo: Any, hi: Any, spec: str = ".2f", sep: str = " to ") -> str:
    """An interval "lo to hi" in the given format, or "too few games"."""
    if not known(lo, hi):
        return TOO_FEW
    return f"{format(float(lo), spec)}{sep}{format(float(hi), spec)}"


def pct_interval(lo: Any, hi: Any, digits: int = 1) -> str:
    """A share's interval: "40.2 %-53.9 %"."""
    return f"{pct(lo, digits)}-{pct(hi, digits)}" if known(lo, hi) else TOO_FEW


def points_interval(lo: Any, hi: Any, digits: int = 1) -> str:
    """A share difference's interval in points: "+0.9 to +3.9"."""
    if not known(lo, hi):
        return TOO_FEW
    return f"{points(lo, digits=digits)} to {points(hi, digits=digits)}"


def estimate(x: Any, lo: Any, hi: Any, spec: str = ".2f") -> str:
    """A value with its interval: "37.00 (35.10 to 38.90)", or "37.00 (too few games)"."""
    return f"{num(x, spec)} ({interval(lo, hi, spec)})"


def p_value(p: Any) -> str:
    """A p-value with its relation: "= 0.023", "< 0.001", or "too few games"."""
    if not known(p):
        return TOO_FEW
    return f"< {P_FLOOR:g}" if float(p) < P_FLOOR else f"= {float(p):.2g}"


def p_plain(p: Any) -> str:
    """A p-value in a table cell: "0.023", "< 0.001", or "too few games"."""
    said = p_value(p)
    return said[2:] if said.startswith("= ") else said
