"""Code size the NDK way: per object file, the bytes of code, initialized and uninitialized data.

SPRAAQ5 §5 sizes the NDK by listing each object file's sections with TI's ofd6x and
sectti.pl and adding them up by type. This module does the same for any ELF file
(an object, a library member, a linked program) with pyelftools:

- code: allocated sections with execute permission (``.text`` and friends);
- initialized data: other allocated sections with contents (``.data``, ``.rodata``);
- uninitialized data: allocated sections without contents (``.bss``, ``SHT_NOBITS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile

from . import checks, data
from .errors import DataError, LogFormatError

__all__ = ["TYPES", "Section", "sections", "totals", "report", "parse_log"]

TYPES = ("code", "initialized data", "uninitialized data")


@dataclass(frozen=True)
class Section:
    name: str
    size_bytes: int
    kind: str  # one of TYPES


def sections(path: str | Path) -> list[Section]:
    """The allocated sections of an ELF file, each with its size and kind."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            out = []
            for s in elf.iter_sections():
                flags = s["sh_flags"]
                if not flags & SH_FLAGS.SHF_ALLOC or s["sh_size"] == 0:
                    continue
                if flags & SH_FLAGS.SHF_EXECINSTR:
                    kind = "code"
                elif s["sh_type"] == "SHT_NOBITS":
                    kind = "uninitialized data"
                else:
                    kind = "initialized data"
                out.append(Section(s.name, int(s["sh_size"]), kind))
            return out
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except ELFError as exc:
        raise DataError(f"{path}: not an ELF file ({exc})") from None


def totals(path: str | Path) -> dict[str, int]:
    """Bytes per kind, as sectti.pl's 'Totals by section type'."""
    out = dict.fromkeys(TYPES, 0)
    for s in sections(path):
        out[s.kind] += s.size_bytes
    return out


def report(paths) -> dict:
    """Sections and totals of each file, and the totals over all of them (JSON-ready)."""
    files = []
    grand = dict.fromkeys(TYPES, 0)
    for p in paths:
        secs = sections(p)
        t = totals(p)
        for k in TYPES:
            grand[k] += t[k]
        with open(p, "rb") as f:
            machine = ELFFile(f)["e_machine"]
        files.append({"file": str(p), "machine": machine,
                      "sections": [{"name": s.name, "size_bytes": s.size_bytes, "kind": s.kind} for s in secs],
                      "totals": t})
    return {"files": files, "totals": grand}


def parse_log(path: str | Path) -> tuple[dict[str, str], dict]:
    """A captured ``goodput size --json`` log: its ``# key: value`` header and the report."""
    import json

    path = Path(path)
    header, body = {}, []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("# ") and not body:
            key, _, value = line[2:].partition(": ")
            header[key] = value
        elif line.strip():
            body.append((number, line))
    if not body:
        raise LogFormatError(str(path), 1, "no report after the header")
    try:
        return header, json.loads("\n".join(line for _, line in body))
    except json.JSONDecodeError as exc:
        raise LogFormatError(str(path), body[0][0] + exc.lineno - 1, f"not a goodput size report: {exc.msg}") from None


@checks.provider("code-size")
def source_checks():
    """Every size SPRAAQ5 §5 prints in decimal against the same size it prints in hex."""
    t = data.load("spraaq5-s5-sizing")
    return [checks.compare("code-size", t, row.Index, "size_dec", int(row.size_hex, 16),
                           f"{row.report}: {row.file} {row.section}",
                           off_note=f"{row.size_hex} is {{model:g}}, not {{published}}.")
            for row in t.itertuples()]
