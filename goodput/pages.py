"""The book's generated pages: errata and sources, built from the checks and the data package.

Each function returns Markdown (MyST) that a page of ``book/`` displays from a
code cell, so the pages grow by themselves as chapters register checks and
tables; nobody edits them by hand.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from . import checks, data, status
from .errors import DataError
from .logs import log_lines, read_log

__all__ = ["errata_markdown", "rounding_markdown", "sources_markdown", "chapter_link"]


def chapter_link(chapter: str) -> str:
    """A MyST cross-reference to a chapter notebook."""
    return f"{{doc}}`/notebooks/{chapter}`"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _check_rows(items) -> str:
    """Checks as Markdown bullets, one per source table and explanation, the rows listed inside."""
    groups: dict[tuple, list] = {}
    for c in items:
        groups.setdefault((c.chapter, c.document, c.where, c.quantity, c.unit, c.note), []).append(c)
    lines = []
    for (chapter, document, where, quantity, unit, note), group in groups.items():
        cells = "; ".join(f"{c.row}: printed **{c.published}**, model {c.model:.6g}" for c in group)
        what = f"{quantity} ({unit})" if unit else quantity
        lines.append(f"- **{document}, {where}** — {what}. {cells}."
                     + (f" {note}" if note else "") + f" ({chapter_link(chapter)})")
    return "\n".join(lines)


def errata_markdown() -> str:
    """Every check whose status is ``erratum``, as a table (or a sentence saying there is none)."""
    items = [c for c in checks.collect() if c.status == "erratum"]
    if not items:
        return "No source check disagrees with its source beyond rounding."
    return (f"{len(items)} published numbers disagree with the formula or data of their own "
            "source by more than the printed precision allows:\n\n" + _check_rows(items))


def rounding_markdown() -> str:
    """Checks that differ from the model by up to one unit of the last printed digit."""
    items = [c for c in checks.collect() if c.status == "rounding"]
    if not items:
        return "Every other published number rounds correctly."
    return (f"{len(items)} published numbers are off by up to one unit in their last digit "
            "(truncated, or rounded from a rounded intermediate):\n\n" + _check_rows(items))


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
    """``text`` as Markdown that shows it as it is (no emphasis, link or HTML made of its characters)."""
    return re.sub(r"([\\`*_\[\]<>|])", r"\\\1", str(text))


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
                  "`data/logs/host/` (never edited), each under a header naming the machine, the compiler and "
                  "its flags, the command and the date.\n", *runs]
    return "\n".join(parts)


__all__ += ["logs_markdown", "source_label", "source_heading", "log_label"]
