"""The book's generated pages: errata and sources, built from the checks and the data package.

Each function returns Markdown (MyST), or a table, that a page of ``book/`` displays from a
code cell, so the pages grow by themselves as chapters register checks and
tables; nobody edits them by hand.
"""

from __future__ import annotations

import html
from collections import defaultdict

import pandas as pd

from . import chapters, checks, data, status
from .logs import log_lines, read_log
from .render import tables

__all__ = ["errata_summary", "errata_table", "sources_markdown", "chapter_link"]


def chapter_link(chapter: str) -> str:
    """A MyST cross-reference to a chapter notebook."""
    return f"{{doc}}`/notebooks/{chapter}`"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


#: What a group of each status says when its checks carry no note of their own.
_WHY = {"rounding": "Within one unit of the last printed digit, but not rounded to it.",
        "erratum": "Further from the model than the printed precision allows."}

#: The lead sentence of each section of the errata page.
_LEAD = {
    "erratum": ("No source check disagrees with its source beyond rounding.",
                "{n} published numbers disagree with the formula or data of their own source by more than the "
                "printed precision allows; the {k} rows below gather those with one explanation."),
    "rounding": ("Every other published number rounds correctly.",
                 "{n} published numbers are off by up to one unit in their last digit (truncated, or rounded "
                 "from a rounded intermediate), in {k} rows:"),
}


def _what(c: checks.SourceCheck) -> str:
    return f"{c.quantity} ({c.unit})" if c.unit else c.quantity


def _label(c: checks.SourceCheck, quantity: bool) -> str:
    """What names a check's cell within its group: its row, and its quantity if asked and the row does not
    name it already."""
    return f"{c.row}, {_what(c)}" if quantity and c.quantity not in c.row else c.row


def _correct(c: checks.SourceCheck) -> str:
    """The model's value at the printed precision (:func:`goodput.checks.round_like`), or to four significant
    digits where that precision leaves fewer than three of a value that is not whole (against a printed 15,
    6.48 is 6.48, not 6)."""
    text = checks.round_like(c.model, c.published)
    if float(text) != c.model and len(text.replace("-", "").replace(".", "").lstrip("0")) < 3:
        return f"{c.model:.4g}"
    return text


def errata_summary(status: str = "erratum") -> str:
    """The lead sentence of the errata page's section of ``status`` (``erratum`` or ``rounding``)."""
    items = [c for c in checks.collect() if c.status == status]
    none, some = _LEAD[status]
    return some.format(n=len(items), k=len(checks.groups(items))) if items else none


def errata_table(status: str = "erratum") -> tables.LinkedTable:
    """The checks of ``status`` (``erratum`` or ``rounding``), one row per group of one explanation
    (:func:`goodput.checks.groups`): the document, where in it, the cells (each a link to its row in
    its chapter), the values printed and the correct ones (the model's, at the printed precision), why,
    and the chapter. Each row's id is its group's :func:`goodput.checks.group_anchor`, which the chapters
    link back to. The book's page sorts and filters it (``goodput-sort.js``)."""
    found = checks.groups(c for c in checks.collect() if c.status == status)
    rows, cells = [], {"cells": [], "chapter": []}
    for group in found:
        first = group[0]
        one_quantity = len({(c.quantity, c.unit) for c in group}) == 1
        named = any(c.quantity in c.row for c in group)  # the rows name their quantities themselves
        where = f"{first.where}, {_what(first)}" if one_quantity and not named else first.where
        pairs = list(dict.fromkeys((c.published, _correct(c)) for c in group))
        labels = [_label(c, not one_quantity) for c in group]
        title = chapters.get(first.chapter).title.split(":")[0]
        rows.append({"document": first.document, "where": where, "cells": "; ".join(labels),
                     "printed": ", ".join(p for p, _ in pairs), "correct": ", ".join(m for _, m in pairs),
                     "why": first.note or _WHY[status], "chapter": title})
        cells["cells"].append(";<br>".join(
            f'<a href="{html.escape(tables.chapter_href(c.chapter, checks.anchor(c)))}">{html.escape(label)}</a>'
            for c, label in zip(group, labels)))
        cells["chapter"].append(f'<a href="{html.escape(tables.chapter_href(first.chapter))}">{html.escape(title)}</a>')
    frame = pd.DataFrame(rows, columns=["document", "where", "cells", "printed", "correct", "why", "chapter"])
    return tables.LinkedTable(frame, ids=[checks.group_anchor(g) for g in found], cells=cells,
                              classes=("goodput-sortable", f"goodput-{status}-table"),
                              attrs={"data-filters": "document chapter"})


def sources_markdown() -> str:
    """Each source document, and under it every table transcribed from it."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for c in checks.collect():
        counts[c.resource][c.chapter] += 1
    by_doc = defaultdict(list)
    for name in data.names():
        by_doc[data.provenance(name)["document"]].append(name)
    parts = []
    for key, doc in data.documents().items():
        parts.append(f"**{_cell(doc['title'])}** (`{doc['file']}`)\n")
        names = by_doc.get(key, [])
        if not names:
            parts.append("No table transcribed yet.\n")
            continue
        lines = ["| table | where | conditions | columns | rows | reconstructed | checked in |",
                 "|---|---|---|---|---|---|---|"]
        for name in names:
            frame = data.load(name)
            p = frame.attrs["provenance"]
            columns = ", ".join(
                f"{col} ({unit})" if unit else col for col, unit in frame.attrs["units"].items())
            used = ", ".join(f"{chapter_link(ch)} ({n})" for ch, n in counts[name].items()) or "-"
            lines.append("| " + " | ".join(_cell(x) for x in (
                f"`{name}`: {p['title']}", p["table"], p["conditions"], columns, len(frame),
                p["reconstructed"] or "no", used)) + " |")
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def logs_markdown() -> str:
    """Each captured or excerpted log in ``data/logs/``, with what its header says about it."""
    root = data.published_dir().parent / "logs"
    lines = ["| log | source | excerpt or command | note |", "|---|---|---|---|"]
    count = 0
    for path in sorted(root.rglob("*.log")):
        if path == status.BUILD_TIMES:
            continue  # the build's times, not a source of a chapter: on the status page
        header = {}
        for line in log_lines(read_log(path)):
            if not line.startswith("# "):
                break
            key, _, value = line[2:].partition(": ")
            header[key] = value
        if "source" in header:  # a verbatim excerpt of a document
            cells = (header["source"], header.get("excerpt", ""), header.get("note", ""))
        else:  # a run of our firmware, as tools/capture.sh heads it
            cells = (f"our run on {header.get('cpu', '?')}, {header.get('kernel', '?')}; "
                     f"{header.get('compiler', '?')} {header.get('flags', '')}; {header.get('date', '?')}, "
                     f"git {header.get('git', '?')}",
                     f"command: `{header.get('command', '?')}`", header.get("tcp", ""))
        lines.append("| " + " | ".join(_cell(x) for x in (f"`{path.relative_to(root)}`", *cells)) + " |")
        count += 1
    if not count:
        return "No logs yet."
    return "\n".join(lines)


__all__ += ["logs_markdown"]
