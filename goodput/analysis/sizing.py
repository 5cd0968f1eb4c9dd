"""Code size the NDK way: the reader of our size logs (the sizes SPRAAQ5 §5 prints are checked by
:mod:`goodput.sources.spraaq5.code_size`).

The sizes of an ELF file (code, initialized and uninitialized data, as SPRAAQ5 adds up ofd6x's sections)
are :mod:`goodput.analysis.elf`, which is ``goodput size``; this module re-exports them.
"""

from __future__ import annotations

from pathlib import Path

from goodput.analysis.elf import TYPES, Section, report, section_totals, sections, totals
from goodput.core.errors import LogFormatError
from goodput.logs import log_lines, read_log

__all__ = ["TYPES", "Section", "sections", "totals", "report", "parse_log"]


class _LongInteger(ValueError):
    """An integer in a size report with more digits than a 64-bit size prints."""


def _report_int(text: str) -> int:
    if len(text.lstrip("-")) > 20:
        raise _LongInteger(text)
    return int(text)


def parse_log(path: str | Path) -> tuple[dict[str, str], dict]:
    """A captured ``goodput size --json`` log: its ``# key: value`` header and the report."""
    import json

    header, body = {}, []
    for number, line in enumerate(log_lines(read_log(path)), start=1):
        if line.startswith("# ") and not body:
            key, _, value = line[2:].partition(": ")
            header[key] = value
        elif line.strip():
            body.append((number, line))
    if not body:
        raise LogFormatError(str(path), 1, "no report after the header")
    try:
        parsed = json.loads("\n".join(line for _, line in body), parse_int=_report_int)
    except _LongInteger as exc:
        number = next(n for n, line in body if exc.args[0] in line)
        raise LogFormatError(str(path), number, "an integer of more than 20 digits") from None
    except json.JSONDecodeError as exc:
        number = body[min(exc.lineno, len(body)) - 1][0]
        raise LogFormatError(str(path), number, f"not a goodput size report: {exc.msg}") from None
    problem = _report_problem(parsed)
    if problem:
        raise LogFormatError(str(path), body[0][0], f"not a goodput size report: {problem}")
    return header, parsed


def _report_problem(r) -> str | None:
    """What keeps ``r`` from being a :func:`report` (its shape, or totals that are not the sums of the
    sections), or None."""
    if not isinstance(r, dict) or not isinstance(r.get("files"), list):
        return "no list of files"
    grand = dict.fromkeys(TYPES, 0)
    for i, f in enumerate(r["files"], start=1):
        secs = f.get("sections") if isinstance(f, dict) else None
        if not (isinstance(secs, list) and isinstance(f.get("file"), str) and isinstance(f.get("machine"), str)):
            return f"file {i} lacks its name, machine or sections"
        if not all(isinstance(s, dict) and isinstance(s.get("name"), str) and s.get("kind") in TYPES
                   and type(s.get("size_bytes")) is int and s["size_bytes"] >= 0 for s in secs):
            return f"file {i} has a section without a name, a kind ({', '.join(TYPES)}) or a size in bytes"
        sums = section_totals([Section(s["name"], s["size_bytes"], s["kind"]) for s in secs])
        if f.get("totals") != sums:
            return f"file {i}'s totals are not the sums of its sections ({sums})"
        grand = {k: grand[k] + sums[k] for k in TYPES}
    if r.get("totals") != grand:
        return f"the totals are not the sums of the files' ({grand})"
    return None
