"""Code size the NDK way: per object file, the bytes of code, initialized and uninitialized data.

SPRAAQ5 §5 sizes the NDK by listing each object file's sections with TI's ofd6x and
sectti.pl and adding them up by type. This module does the same for any ELF file
(an object, a library member, a linked program) with pyelftools:

- code: allocated sections with execute permission (``.text`` and friends);
- initialized data: other allocated sections with contents (``.data``, ``.rodata``);
- uninitialized data: allocated sections without contents (``.bss``, ``SHT_NOBITS``).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile

from . import checks, data
from .command import Arg, Command
from .errors import DataError, GoodputError, LogFormatError
from .logs import log_lines, read_log

__all__ = ["TYPES", "Section", "sections", "totals", "report", "parse_log"]

TYPES = ("code", "initialized data", "uninitialized data")
ELF_MAGIC = b"\x7fELF"


@dataclass(frozen=True)
class Section:
    name: str
    size_bytes: int
    kind: str  # one of TYPES


def sections(path: str | Path) -> list[Section]:
    """The allocated sections of an ELF file, each with its size and kind."""
    return _read(path)[1]


def totals(path: str | Path) -> dict[str, int]:
    """Bytes per kind, as sectti.pl's 'Totals by section type'."""
    return _totals(sections(path))


def report(paths) -> dict:
    """Sections and totals of each file, and the totals over all of them (JSON-ready)."""
    files = []
    grand = dict.fromkeys(TYPES, 0)
    for p in paths:
        machine, secs = _read(p)
        t = _totals(secs)
        for k in TYPES:
            grand[k] += t[k]
        files.append({"file": str(p), "machine": machine,
                      "sections": [{"name": s.name, "size_bytes": s.size_bytes, "kind": s.kind} for s in secs],
                      "totals": t})
    return {"files": files, "totals": grand}


def _totals(secs: list[Section]) -> dict[str, int]:
    out = dict.fromkeys(TYPES, 0)
    for s in secs:
        out[s.kind] += s.size_bytes
    return out


def _read(path: str | Path) -> tuple[str, list[Section]]:
    """``(machine, sections)`` of the ELF file ``path``; :class:`DataError` naming the file if it is
    damaged (whatever pyelftools raises on it)."""
    path = _elf_path(path)
    with open(path, "rb") as f:
        try:
            elf = ELFFile(f)
            size = os.fstat(f.fileno()).st_size
            return elf["e_machine"], [_section(path, s, size) for s in elf.iter_sections() if _takes_memory(s)]
        except GoodputError:
            raise
        except Exception as exc:  # pyelftools: ELFError, OverflowError, ValueError, OSError on a wild seek...
            raise DataError(f"{path}: a damaged ELF file ({type(exc).__name__}: {exc})") from None


def _elf_path(path: str | Path) -> Path:
    """``path`` if it names a regular file that begins with the ELF magic number, else :class:`DataError`.

    Only a regular file is opened: a FIFO would wait for a writer, a directory has no bytes.
    """
    if not str(path):
        raise DataError("an empty file name: name an ELF file")
    path = Path(path)
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise DataError(f"{path}: not a regular file, so not an ELF file")
        with open(path, "rb") as f:
            magic = f.read(len(ELF_MAGIC))
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror or exc}") from None
    if magic != ELF_MAGIC:
        raise DataError(f"{path}: not an ELF file (it does not begin with the ELF magic number)")
    return path


def _takes_memory(s) -> bool:
    return bool(s["sh_flags"] & SH_FLAGS.SHF_ALLOC) and s["sh_size"] != 0


def _section(path: Path, s, file_bytes: int) -> Section:
    """One allocated section; :class:`DataError` if its contents would lie past the end of the file."""
    nobits = s["sh_type"] == "SHT_NOBITS"
    if not nobits and s["sh_offset"] + s["sh_size"] > file_bytes:
        raise DataError(f"{path}: a damaged ELF file (section {s.name} of {s['sh_size']} bytes at offset "
                        f"{s['sh_offset']} runs past the file's {file_bytes} bytes)")
    if s["sh_flags"] & SH_FLAGS.SHF_EXECINSTR:
        kind = "code"
    else:
        kind = "uninitialized data" if nobits else "initialized data"
    return Section(s.name, int(s["sh_size"]), kind)


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
        sums = _totals([Section(s["name"], s["size_bytes"], s["kind"]) for s in secs])
        if f.get("totals") != sums:
            return f"file {i}'s totals are not the sums of its sections ({sums})"
        grand = {k: grand[k] + sums[k] for k in TYPES}
    if r.get("totals") != grand:
        return f"the totals are not the sums of the files' ({grand})"
    return None


#: The printed numbers a size's check verifies: its decimal and its hex (:func:`hex_checks`).
SIZE_FORMS = 2


def hex_checks(t) -> list:
    """Every size SPRAAQ5 §5.1's reports print (``t``: the published ``spraaq5-s5-sizing`` or a copy) in decimal
    against the same size they print beside it in hex (``calculated``, exact: a count of bytes). The two are
    printed numbers of their own, and a wrong digit in either fails the check, so it verifies both
    (:data:`SIZE_FORMS`, the ``verifies`` of :class:`goodput.checks.SourceCheck`)."""
    return [checks.compare("code-size", t, row.Index, "size_dec", int(row.size_hex, 16),
                           f"{row.report}: {row.file} {row.section}",
                           f"Its hex {row.size_hex} is {{model:.0f}} bytes.",
                           off_note=f"{row.size_hex} is {{model:.0f}}, not {{published}}.",
                           exact=True, verifies=SIZE_FORMS)
            for row in t.itertuples()]


@checks.provider("code-size")
def source_checks():
    """Every size SPRAAQ5 §5 prints in decimal against the same size it prints in hex."""
    return hex_checks(data.load("spraaq5-s5-sizing"))


#: sectti.pl's section types and the line of its "Totals by section type" that adds each up (N/A: none).
TOTAL_OF_TYPE = {"CODE": "Code", "DATA": "Initialized Data", "UDATA": "Uninitialized Data"}


def printed_parts(t, report: str, total: str) -> list[int]:
    """The sizes (decimal) of the sections of ``report`` in table ``t`` whose type the total line ``total`` adds."""
    kinds = [k for k, line in TOTAL_OF_TYPE.items() if line == total]
    rows = t[(t["report"] == report) & (t["file"] != "totals") & t["type"].isin(kinds)]
    return [int(v) for v in rows["size_dec"]]


def totals_checks(t) -> list:
    """Each "Totals by section type" line of SPRAAQ5 §5.1's reports (``t``: the published ``spraaq5-s5-sizing``
    or a copy) against the sections of its type the report prints (``consistency``): the reports elide files and
    sections ('. . .'), so a total is at least the sum of those printed, not equal to it."""
    out = []
    for row in t[t["file"] == "totals"].itertuples():
        parts = printed_parts(t, row.report, row.section)
        out.append(checks.compare(
            "code-size", t, row.Index, "size_dec", sum(parts), f"{row.report}: {row.file} {row.section}",
            f"At least the {len(parts)} sections of its type the report prints before eliding the rest: "
            "{rounded} bytes.",
            off_note=f"Less than the {len(parts)} sections of its type the report prints, {{rounded}} bytes: "
                     "a total cannot be smaller than some of its parts.",
            kind="consistency", relation=">="))
    return out


@checks.provider("code-size")
def totals_source_checks():
    """SPRAAQ5 §5.1's totals by section type against the sections each report prints."""
    return totals_checks(data.load("spraaq5-s5-sizing"))


# --- where the linker put each section: none overlaps the one below it (issue 18) ---------------

#: The address columns of a report's sections: where a section is loaded from, where it runs.
ADDRESS_COLUMNS = {"load_addr": "load", "run_addr": "run"}


def end_address(address: int, size_bytes: int) -> int:
    """The first address after a section of ``size_bytes`` placed at ``address``."""
    return address + size_bytes


def address_checks(t) -> list:
    """Each load and run address of SPRAAQ5 §5.1's client.out report (``t``: the published ``spraaq5-s5-sizing``
    or a copy) against the end of the section below it in memory (``consistency``, ``>=``): two sections of
    one program never share a byte. The report elides some sections ('. . .'), which can only sit in the gaps,
    so a section starts at or after the end of the printed one below it. Addresses print in hex, and the
    check keeps the address as printed; the end below it is shown in decimal."""
    prov, out = t.attrs["provenance"], []
    for column, what in ADDRESS_COLUMNS.items():
        printed = t.attrs["printed"][column]
        placed = sorted((int(printed[i], 16), i) for i in t.index if printed[i])
        for (below, j), (address, i) in zip(placed, placed[1:]):
            size = int(t.loc[j, "size_dec"])
            here, under = f"{printed[i]} ({address} in decimal)", f"{t.loc[j, 'section']} ({printed[j]} + {size} bytes"
            out.append(checks.check(
                "code-size", prov["document"], prov["table"],
                f"{t.loc[i, 'report']}: {t.loc[i, 'section']} {what} address", f"{what} address", "byte address", printed[i], end_address(below, size),
                f"{here}: at or after the end of {under} = {{model:.0f}}), the section below it.", prov["resource"],
                kind="consistency", relation=">=", exact=True,
                off_note=f"{here}, inside {under} ends at {{model:.0f}}): two sections of one program cannot share "
                         "memory."))
    return out


@checks.provider("code-size")
def address_source_checks():
    """SPRAAQ5 §5.1's client.out: no section's load or run address inside the section below it."""
    return address_checks(data.load("spraaq5-s5-sizing"))


__all__ += ["SIZE_FORMS", "hex_checks", "ADDRESS_COLUMNS", "end_address", "address_checks"]


# --- goodput size --------------------------------------------------------------------------------

def _command_lines(args, r: dict) -> list[str]:
    lines = []
    for f in r["files"]:
        lines.append(f"{f['file']} ({f['machine']})")
        lines += [f"  {s['name']:<24} {s['size_bytes']:>10}  {s['kind']}" for s in f["sections"]]
    lines.append("totals by section type")
    return lines + [f"  {kind:<24} {value:>10}" for kind, value in r["totals"].items()]


COMMAND = Command(
    "size", help="code and data bytes of ELF files, per section and by type (the NDK's sizing method)",
    description="Sections of each ELF file (object, library member or program) that take memory, as code, "
                "initialized data and uninitialized data, with totals.",
    arguments=(Arg("files", nargs="+", metavar="FILE.elf"),),
    run=lambda args: report(args.files), lines=_command_lines)
