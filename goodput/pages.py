"""The book's generated pages: errata and sources, built from the checks and the data package.

Each function returns Markdown (MyST) that a page of ``book/`` displays from a
code cell, so the pages grow by themselves as chapters register checks and
tables; nobody edits them by hand.
"""

from __future__ import annotations

from collections import defaultdict

from . import checks, data, status
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
