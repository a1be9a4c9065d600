"""How the reports write: numbers, shares and points, intervals, p-values, Markdown tables and
HTML pages, one way each. Every report and study of `moaisim.analysis` and `moaisim.studies`
writes through this module, so that a number reads the same wherever it is printed.

- A statistic that cannot be computed from the games played (an interval or a test from one
  game, a standard error of zero games) is nan in the tables and prints as "too few games",
  never as "nan"; a figure that was not measured at all (a benchmark's memory of a row it
  did not measure) prints as a dash (`NA`).
- The p-value policy: below 0.001, "< 0.001" (a smaller one says nothing more to a reader);
  else two significant digits ("0.023", "0.5", "1").
- An interval is "lo to hi" in running text, "[lo, hi]" beside its value.
- A report page is Markdown (`markdown_table` for its tables); its HTML page is that Markdown
  rendered (`html_page`, CommonMark with tables), its figures embedded, so both say the same.
"""

from __future__ import annotations

import base64
import html
import math
import mimetypes
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from markdown_it import MarkdownIt

#: What a report prints where a statistic needs more games than were played.
TOO_FEW = "too few games"
#: What a table prints where a figure was not measured, or does not apply.
NA = "–"
#: p-values below this print as "< 0.001" (a smaller one says nothing more to a reader).
P_FLOOR = 0.001

#: How one number is written: a format spec ("+.3f") or a function of the number.
Form = str | Callable[[Any], str]


def known(*xs: Any) -> bool:
    """Every value is a finite number (a statistic that could be computed)."""
    try:
        return all(math.isfinite(float(x)) for x in xs)
    except (TypeError, ValueError):
        return False


def num(x: Any, spec: Form = ".2f") -> str:
    """A number in the given format (a spec, or a function of the number), or "too few
    games"."""
    if not known(x):
        return TOO_FEW
    return spec(x) if callable(spec) else format(float(x), spec)


def pct(x: Any, digits: int = 1) -> str:
    """A share as a percentage: "47.1 %"."""
    return f"{100 * float(x):.{digits}f} %" if known(x) else TOO_FEW


def points(x: Any, sign: bool = True, digits: int = 1) -> str:
    """A share difference in points of share: "+2.4" (100 x the difference)."""
    if not known(x):
        return TOO_FEW
    return f"{100 * float(x):{'+' if sign else ''}.{digits}f}"


def interval(lo: Any, hi: Any, spec: Form = ".2f", sep: str = " to ") -> str:
    """An interval "lo to hi" in the given format (`num`), or "too few games"."""
    if not known(lo, hi):
        return TOO_FEW
    return f"{num(lo, spec)}{sep}{num(hi, spec)}"


def bracket(lo: Any, hi: Any, spec: Form = ".3f") -> str:
    """An interval beside its value: "[lo, hi]", or "(too few games)"."""
    return f"[{interval(lo, hi, spec, ', ')}]" if known(lo, hi) else f"({TOO_FEW})"


def pct_interval(lo: Any, hi: Any, digits: int = 1) -> str:
    """A share's interval: "40.2 %-53.9 %"."""
    return f"{pct(lo, digits)}-{pct(hi, digits)}" if known(lo, hi) else TOO_FEW


def points_interval(lo: Any, hi: Any, digits: int = 1) -> str:
    """A share difference's interval in points: "+0.9 to +3.9"."""
    return interval(lo, hi, lambda x: points(x, digits=digits))


def estimate(x: Any, lo: Any, hi: Any, spec: Form = ".2f") -> str:
    """A value with its interval: "37.00 (35.10 to 38.90)", or "37.00 (too few games)"."""
    return f"{num(x, spec)} ({interval(lo, hi, spec)})"


def share_estimate(x: Any, lo: Any, hi: Any) -> str:
    """A share with its interval: "47.1 % (40.2 %-53.9 %)"."""
    return f"{pct(x)} ({pct_interval(lo, hi)})"


def p_plain(p: Any) -> str:
    """A p-value by the policy (module docstring): "0.023", "< 0.001", or "too few games"."""
    if not known(p):
        return TOO_FEW
    return f"< {P_FLOOR:g}" if float(p) < P_FLOOR else f"{float(p):.2g}"


def p_value(p: Any) -> str:
    """A p-value with its relation, for running text: "= 0.023", "< 0.001", or "too few
    games"."""
    said = p_plain(p)
    return said if said.startswith("<") or said == TOO_FEW else f"= {said}"


# --- Markdown ------------------------------------------------------------------------------------


def _cell(x: Any) -> str:
    """A table cell's text: one line, '|' escaped."""
    return str(x).replace("\n", " ").replace("|", "\\|")


def markdown_table(
    df: pd.DataFrame,
    formats: Mapping[str, Form] | None = None,
    code: Iterable[str] = (),
    right: Iterable[str] = (),
) -> str:
    """A DataFrame as a Markdown table: the columns named in `formats` written by `num` (a
    spec or a function; nan as "too few games"), those in `code` as code spans, those in
    `right` aligned right; any other cell as its text."""
    formats, code, right = dict(formats or {}), set(code), set(right)

    def show(column: str, x: Any) -> str:
        if column in formats and not isinstance(x, str):
            x = num(x, formats[column])
        return _cell(f"`{x}`" if column in code else x)

    cols = [str(c) for c in df.columns]
    head = "| " + " | ".join(map(_cell, cols)) + " |"
    rule = "| " + " | ".join("---:" if c in right else "---" for c in cols) + " |"
    rows = [
        "| " + " | ".join(show(c, x) for c, x in zip(cols, r, strict=True)) + " |"
        for r in df.itertuples(index=False)
    ]
    return "\n".join([head, rule, *rows])


# --- HTML ----------------------------------------------------------------------------------------

#: The report pages' style: a readable column, tables in a small font, notes (a paragraph in
#: italics: sample sizes, captions) in grey, the answer box (the block quote) framed.
STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;font-size:13px;margin:1em 0}"
    "td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}"
    "img{max-width:100%}p>em:only-child{color:#666;font-size:12px}"
    "pre{background:#f4f4f4;padding:8px;overflow-x:auto}"
    "blockquote{border:2px solid #446;background:#f5f6fb;padding:4px 14px;margin:1em 0}"
)
#: Marks the page's body with how many of its images the browser shows ("7/7").
IMAGE_CHECK = (
    "<script>window.addEventListener('load',function(){var i=document.images,k=0;"
    "for(var j=0;j<i.length;j++){if(i[j].complete&&i[j].naturalWidth>0){k++;}}"
    "document.body.setAttribute('data-images-shown',k+'/'+i.length);});</script>"
)


def html_page(title: str, markdown: str, base: Path | None = None) -> str:
    """A self-contained HTML page of a Markdown report (CommonMark with tables; raw HTML in
    the text is escaped, not passed through): the images it links relative to `base`
    embedded as data URIs, so the page can be moved or mailed alone."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(markdown)
    for token in tokens:
        for child in token.children or []:
            src = str(child.attrGet("src") or "")
            if child.type == "image" and base is not None and src and ":" not in src:
                kind = mimetypes.guess_type(src)[0] or "application/octet-stream"
                data = base64.b64encode((Path(base) / src).read_bytes()).decode()
                child.attrSet("src", f"data:{kind};base64,{data}")
    body = md.renderer.render(tokens, md.options, {})
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>"
        f"{html.escape(title)}</title><style>{STYLE}</style></head><body>\n{body}"
        f"{IMAGE_CHECK}</body></html>"
    )
