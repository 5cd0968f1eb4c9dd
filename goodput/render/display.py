"""How a table shows in a notebook and in the book: every cell whole, numbers right-aligned.

pandas' own HTML cuts long text with "..." (the reasons of the errata among it),
prints its row numbers as a first column and aligns numbers to the left under
right-aligned headings. :func:`frame_html` writes a DataFrame as a plain HTML
table instead: no row numbers unless the index holds data (then it is a column
like the others), cells that wrap rather than cut, numbers and their headings
right-aligned, text left-aligned; each cell names its heading (``data-label``), so on a
phone the book's stylesheet shows every row as a card of heading and value. :func:`show_frames` makes it the HTML of every
DataFrame a notebook displays; a notebook calls it through :func:`goodput.render.notebook.setup`.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pandas as pd

__all__ = ["frame_html", "column_heading", "UNITS", "folded_html", "Folded", "show_frames", "prose", "number", "count",
           "part", "tenths"]

_RIGHT = ' style="text-align: right"'
_LEFT = ' style="text-align: left"'
# A column of sentences (an erratum's reason) wraps within a readable width instead of being
# squeezed to a word a line when the table is wider than the page; the table then scrolls.
_PROSE = ' style="text-align: left; min-width: 18em"'
_PROSE_CHARACTERS = 60


def _cell(value) -> str:
    """A value as it is held: a float with the shortest digits that give it back (its digits were
    settled where it was made), a whole float without ``.0``, nothing for a missing value."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        text = repr(float(value))
        return text[:-2] if text.endswith(".0") else text
    return html.escape(str(value))


# A number printed as text (a published value as printed, a formatted model value, a share).
_PRINTED_NUMBER = re.compile(r"[-+±]?\s?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[-+]?[0-9]+)?\s?%?")


def _is_number(value) -> bool:
    if isinstance(value, str):
        return bool(_PRINTED_NUMBER.fullmatch(value))
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _style(column: pd.Series) -> str:
    """Right for a column of numbers, a readable width for one of sentences, else left."""
    cells = [_cell(v) for v in column]
    if all(_is_number(v) for v, c in zip(column, cells) if c):
        return _RIGHT
    return _PROSE if any(len(c) > _PROSE_CHARACTERS for c in cells) else _LEFT


#: The unit a column name ends in (its last one or two words, ``bandwidth_gbit_s``), as a heading shows it.
UNITS = {
    "gbit_s": "Gbit/s", "mbit_s": "Mbit/s", "kbit_s": "kbit/s",
    "gbyte_s": "GB/s", "mbyte_s": "MB/s", "mb_s": "MB/s",
    "gbaud": "Gbaud", "mhz": "MHz",
    "s": "s", "ms": "ms", "us": "us", "ns": "ns",
    "bytes": "bytes", "kbytes": "KB", "mbytes": "MiB", "bits": "bits", "dwords": "dwords",
    "symbol_times": "symbol times", "percent": "%",
}
#: Words of a column name a heading spells otherwise than in lower case.
_WORDS = {"ack": "ACK", "addr": "address", "ccs": "CCS", "cpu": "CPU", "dec": "decimal", "dma": "DMA",
          "edma": "EDMA", "hex": "hexadecimal", "id": "ID", "l2": "L2", "mcusdk": "MCU+SDK", "mps": "MPS",
          "pcie": "PCIe", "phy": "PHY", "sha": "SHA", "srio": "SRIO", "tc": "TC", "tcs": "TCs", "tlp": "TLP",
          "updatefc": "UpdateFC"}
# A name as a data file spells a column: lower-case words joined by "_" (a heading written for
# the reader, "at 32 KiB" or "status", is none and stays as it is).
_COLUMN_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def column_heading(name: str) -> str:
    """The heading of a column a data file names with its unit last: ``bandwidth_gbit_s`` -> ``"Bandwidth
    (Gbit/s)"``, ``time_ms`` -> ``"Time (ms)"``, ``frames_per_s`` -> ``"Frames per second"``,
    ``latency_as_printed_ns`` -> ``"Latency as printed (ns)"``; a unit alone is its own heading (``gbit_s``
    -> ``"Gbit/s"``). A name that is not of words joined by ``_`` (a heading already, ``"status"``, ``"at 32
    KiB"``, a single word such as ``"bytes"``) is returned as it is."""
    if "_" in name and name in UNITS:  # a unit alone (gbit_s): the unit is the heading
        return UNITS[name]
    if not _COLUMN_NAME.fullmatch(name):
        return name
    words = name.split("_")
    unit = ""
    if words[-2:] == ["per", "s"] and len(words) > 2:
        words = words[:-2] + ["per", "second"]
    else:
        for n in (2, 1):
            if len(words) > n and "_".join(words[-n:]) in UNITS:
                unit, words = UNITS["_".join(words[-n:])], words[:-n]
                break
    text = " ".join(_WORDS.get(w, w) for w in words)
    text = text[0].upper() + text[1:]
    return f"{text} ({unit})" if unit else text


def _heading(column) -> str:
    if isinstance(column, tuple):
        return " ".join(column_heading(str(c)) for c in column if str(c))
    return column_heading(str(column))


def frame_html(frame: pd.DataFrame, row_ids=None, cells=None, classes=(), attrs=None) -> str:
    """``frame`` as an HTML table: no row numbers, whole cells, numbers right-aligned.

    ``row_ids`` gives each row an HTML id (``None`` for none), so a link can land on it; ``cells``
    maps a column to the HTML of its cells, one per row (``None`` keeps the cell's text), for cells
    that hold links (each in one ``span``, which a card lays out as one value beside its heading);
    ``classes`` and ``attrs`` are more classes and attributes of the table.
    """
    if not (isinstance(frame.index, pd.RangeIndex) and frame.index.name is None):
        frame = frame.reset_index()
    styles = [_style(frame.iloc[:, i]) for i in range(frame.shape[1])]
    head = "".join(f"<th{_LEFT if s == _PROSE else s}>{html.escape(_heading(c))}</th>"
                   for c, s in zip(frame.columns, styles))
    labels = [f' data-label="{html.escape(_heading(c))}"' for c in frame.columns]
    ids = list(row_ids) if row_ids is not None else [None] * len(frame)
    given = [list((cells or {}).get(c, [None] * len(frame))) for c in frame.columns]
    if len(ids) != len(frame) or any(len(g) != len(frame) for g in given):
        raise ValueError(f"row ids and cells must have one entry per row ({len(frame)})")
    rows = "".join(
        (f'<tr id="{html.escape(ident)}">' if ident else "<tr>")
        + "".join(f"<td{label}{s}>{_cell(v) if h is None else f'<span>{h}</span>'}</td>"
                  for v, s, label, h in zip(row, styles, labels, (g[i] for g in given)))
        + "</tr>\n" for i, (row, ident) in enumerate(zip(frame.itertuples(index=False, name=None), ids)))
    more = "".join(f' {k}="{html.escape(str(v))}"' for k, v in (attrs or {}).items())
    return (f'<table class="{" ".join(("dataframe", "goodput-table", *classes))}"{more}>\n'
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>")


def folded_html(summary: str, body: str, classes: tuple[str, ...] = ()) -> str:
    """``body`` (HTML) in a block the reader opens, headed by ``summary`` (text). The book's tables lay
    themselves out on load and on resize (``goodput-tables.js``); a table in a closed block has no width
    then, so opening the block lays the page out again."""
    names = " ".join(("goodput-folded", *classes))
    return (f'<details class="{names}" ontoggle="window.dispatchEvent(new Event(\'resize\'))">\n'
            f"<summary>{html.escape(summary)}</summary>\n{body}\n</details>")


class Folded:
    """Something shown as HTML (a table), folded into a block the reader opens (:func:`folded_html`);
    as text, its summary and then its own text."""

    def __init__(self, content, summary: str):
        self.content, self.summary = content, summary

    def _repr_html_(self) -> str:
        return folded_html(self.summary, self.content._repr_html_())

    def __repr__(self) -> str:
        return f"{self.summary}\n{self.content!r}"


def show_frames() -> None:
    """Display every DataFrame as :func:`frame_html` in the running IPython kernel (none: nothing)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with the book's packages
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type(pd.DataFrame, frame_html)


_SMALL = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def number(n: int) -> str:
    """A whole number as prose writes it: ``3`` -> ``"three"``, digits from 13."""
    n = int(n)
    return _SMALL[n] if 0 <= n < len(_SMALL) else str(n)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` things in words as prose writes them: ``count(3, "row")`` -> ``"three rows"``, digits from 13."""
    return f"{number(n)} {noun if int(n) == 1 else plural or noun + 's'}"


_PARTS = {2: "a half", 3: "a third", 4: "a quarter", 5: "a fifth", 6: "a sixth", 7: "a seventh", 8: "an eighth",
          9: "a ninth", 10: "a tenth"}


def part(share: float) -> str:
    """The unit fraction nearest ``share`` (between a tenth and a half), as prose says it: ``0.176`` ->
    ``"a sixth"``."""
    n = round(1 / share)
    if n not in _PARTS:
        raise ValueError(f"{share!r} is not near a half, a third ... or a tenth")
    return _PARTS[n]


def tenths(share: float, down: bool = False) -> str:
    """``share`` (0 to 1) in tenths, as prose says it, rounded (or cut, ``down``): ``0.93`` -> ``"nine tenths"``."""
    k = int(10 * share) if down else round(10 * share)
    if not 0 <= k <= 10:
        raise ValueError(f"{share!r} is not a share from 0 to 1")
    return {0: "no", 10: "all", 1: "one tenth"}.get(k, f"{number(k)} tenths")


def prose(text: str):
    """A paragraph of the chapter whose numbers a cell computed, shown as Markdown in the book and in
    JupyterLab alike (a cell tagged ``remove-input`` shows only the paragraph). A number a chapter
    states is printed from the model or the data this way, never typed into a Markdown cell."""
    from IPython.display import Markdown

    return Markdown(text)
