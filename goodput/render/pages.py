"""The book's generated pages: errata and sources, built from the checks and the data package.

Each function returns Markdown (MyST), or a table, that a page of ``book/`` displays from a
code cell, so the pages grow by themselves as chapters register checks and
tables; nobody edits them by hand.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from pathlib import Path

import pandas as pd

from goodput import checks
from goodput.core import chapters, data
from goodput.core.errors import DataError
from goodput.logs import log_lines, read_log
from goodput.render import status, tables

__all__ = [
    "errata_summary", "errata_table", "elsewhere_summary", "sources_markdown", "chapter_link", "logs_markdown",
    "source_label", "source_heading", "log_label",
]


def chapter_link(chapter: str) -> str:
    """A MyST cross-reference to a chapter notebook."""
    return f"{{doc}}`/notebooks/{chapter}`"


def _cell(text: str) -> str:
    """``text`` in a Markdown table's cell: no column made of a ``|``, no formula of a ``$``."""
    return str(text).replace("|", "\\|").replace("$", "\\$").replace("\n", " ")


#: What a group of each status says when its checks carry no note of their own.
_WHY = {"erratum": "Further from the model than the printed precision allows.",
        "unexplained": "No model reproduces it."}

#: The lead sentence of each section of the errata page (:data:`goodput.checks.ERRATA`).
_LEAD = {
    "erratum": ("No source check disagrees with its source beyond rounding.",
                "{n} published numbers disagree with the formula, data or physics of their own source by more "
                "than the printed precision allows; the {k} rows below gather those with one explanation."),
    "unexplained": ("Every number a check could not reproduce is explained above or in its chapter.",
                    "{n} published numbers are off from every model we tried, though nothing shows that the "
                    "document is wrong; each row gives the best attempt, in {k} rows:"),
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
    if checks.printed_value(text) != c.model and len(text.replace("-", "").replace(".", "").lstrip("0")) < 3:
        return f"{c.model:.4g}"
    return text


def errata_summary(status: str = "erratum") -> str:
    """The lead sentence of the errata page's section of ``status`` (one of :data:`goodput.checks.ERRATA`)."""
    items = [c for c in checks.collect() if c.status == status]
    none, some = _LEAD[status]
    return some.format(n=len(items), k=len(checks.groups(items))) if items else none


#: What each status the errata page leaves to the chapters means, as its closing sentence counts it.
_ELSEWHERE = {"rounding": "{n} are off by up to one unit in their last digit, or as much as a stated "
                          "approximation allows (rounding)",
              "convention": "{n} follow another rule their document states or uses elsewhere (convention)",
              "spread": "{n} differ from other measurements by less than those vary from run to run (spread)"}


def elsewhere_summary() -> str:
    """The sentence after the errata: how many checks are off for a reason that is not an erratum, by
    status, and where they are shown (each chapter's check table, with the reason)."""
    found = [c for c in checks.collect() if c.status not in checks.ERRATA + ("ok",)]
    parts = [text.format(n=n) for status, text in _ELSEWHERE.items()
             if (n := sum(c.status == status for c in found))]
    if not parts:
        return "Every other published number is reproduced as printed."
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return (f"Not errata: of the other published numbers, {listed}. Each chapter's check table shows them "
            f"with the reason.")


def errata_table(status: str = "erratum") -> tables.LinkedTable:
    """The checks of ``status`` (one of :data:`goodput.checks.ERRATA`), one row per group of one explanation
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


def source_label(name: str) -> str:
    """The sources page's anchor of document ``name`` (``"source-an3935"``): a chapter links to it with
    ``{ref}`AN3935 <source-an3935>``` (the page's address is ``book/sources.html#source-an3935``)."""
    return "source-" + _slug(name)


def log_label(path: Path) -> str:
    """The sources page's anchor of a log (``"log-memcopy"`` for ``data/logs/host/memcopy.log``)."""
    return "log-" + _slug(path.stem)


def source_heading(name: str) -> str:
    """The heading of document ``name`` on the sources page: its ``heading``, or ``"<short>: <title>"``."""
    doc = data.documents()[name]
    return doc.get("heading") or f"{doc.get('short', name)}: {doc['title']}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _text(text: str) -> str:
    """``text`` as Markdown that shows it as it is (no emphasis, link, HTML or formula made of its characters)."""
    return re.sub(r"([\\`*_\[\]<>|$])", r"\\\1", str(text))


def sources_markdown() -> str:
    """Each source document under a heading of its own (anchored at :func:`source_label`): its
    citation, what we note about it, and every table transcribed from it."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for c in checks.collect():
        counts[c.resource][c.chapter] += 1
    by_doc = defaultdict(list)
    for name in data.names():
        by_doc[data.provenance(name)["document"]].append(name)
    parts = []
    for key, doc in data.documents().items():
        parts.append(f"({source_label(key)})=\n## {_text(source_heading(key))}\n")
        parts.append(data.citation(key) + "\n")
        if "note" in doc:
            parts.append(_text(doc["note"]) + "\n")
        if "read_from" in doc:
            parts.append(f"We read it in {_text(doc['read_from'])}.\n")
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


def _log_header(path: Path) -> dict[str, str]:
    """The ``# key: value`` lines that head a log, in their order."""
    header = {}
    for line in log_lines(read_log(path)):
        if not line.startswith("# "):
            break
        key, _, value = line[2:].partition(": ")
        header[key] = value
    return header


def _excerpt_source(path: Path, source: str) -> tuple[str, str]:
    """The document a verbatim excerpt's ``source`` header names (by the short name the book gives it,
    ``"Intel 324611"``), and the rest of the header: where in the document the excerpt is."""
    for key, doc in data.documents().items():
        short = doc.get("short", key)
        if source == short or source.startswith(short + ","):
            where = source[len(short):].lstrip(", ")
            if where.startswith(doc["title"]):
                where = where[len(doc["title"]):].lstrip(", ")
            return key, where
    raise DataError(f"{path}: its source header {source!r} names none of the data package's documents "
                    f"(it starts with one of: {', '.join(d.get('short', k) for k, d in data.documents().items())})")


def _log_markdown(path: Path, header: dict[str, str]) -> str:
    lines = [f"({log_label(path)})=", f"### {_text(path.name)}", ""]
    shown = dict(header)
    if "source" in shown:  # a verbatim excerpt of a document: cite the document, not the text we cut it from
        key, where = _excerpt_source(path, shown.pop("source"))
        shown.pop("excerpt", None)
        lines += [f"Copied verbatim from {{ref}}`{_text(data.documents()[key].get('short', key))} "
                  f"<{source_label(key)}>`" + (f", {_text(where)}" if where else "") + ".", ""]
    for k, value in shown.items():
        value = f"`{value.strip()}`" if k in ("command", "flags") and value.strip() else _text(value)
        lines.append(f"- {_text(k)}: {value}")
    return "\n".join(lines) + "\n"


def logs_markdown() -> str:
    """Every log in ``data/logs/``, under a heading of its own (anchored at :func:`log_label`) with what
    its header says: the verbatim excerpts of the documents (their document and section), then the logs of
    our own runs (machine, compiler, flags, command, date)."""
    root = data.published_dir().parent / "logs"
    excerpts, runs = [], []
    for path in sorted(root.rglob("*.log")):
        if path == status.BUILD_TIMES:
            continue  # the build's times, not a source of a chapter: on the status page
        header = _log_header(path)
        (excerpts if "source" in header else runs).append(_log_markdown(path, header))
    if not excerpts and not runs:
        return "No logs yet."
    parts = []
    if excerpts:
        parts += ["## Log excerpts from the documents\n",
                  "Traces and console output copied verbatim from the documents into `data/logs/published/`, "
                  "each under a header naming the document and the section it comes from.\n", *excerpts]
    if runs:
        parts += ["## Logs of our runs\n",
                  "Console output of the programs in `firmware/`, as `make capture` recorded it in "
                  "`data/logs/host/`, or under QEMU in `data/logs/qemu/` (never edited), each under a header naming "
                  "the machine (or the emulator), the compiler and "
                  "its flags, the command and the date.\n", *runs]
    return "\n".join(parts)
