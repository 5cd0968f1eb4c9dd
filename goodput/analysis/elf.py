"""ELF files' sizes the NDK way: per file, the bytes of code, initialized and uninitialized data.

SPRAAQ5 §5 sizes the NDK by listing each object file's sections with TI's ofd6x and
sectti.pl and adding them up by type. This module does the same for any ELF file
(an object, a library member, a linked program) with pyelftools, and is ``goodput size``:

- code: allocated sections with execute permission (``.text`` and friends);
- initialized data: other allocated sections with contents (``.data``, ``.rodata``);
- uninitialized data: allocated sections without contents (``.bss``, ``SHT_NOBITS``).

Reading a file needs nothing else of the book (no sympy, no tables): the reader of our size logs is
:mod:`goodput.analysis.sizing`, and the checks of the sizes SPRAAQ5 prints are
:mod:`goodput.sources.spraaq5.code_size`.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile

from goodput.core.command import Arg, Command
from goodput.core.errors import DataError, GoodputError

__all__ = ["TYPES", "Section", "sections", "totals", "section_totals", "report", "COMMAND"]

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
    return section_totals(sections(path))


def report(paths) -> dict:
    """Sections and totals of each file, and the totals over all of them (JSON-ready)."""
    files = []
    grand = dict.fromkeys(TYPES, 0)
    for p in paths:
        machine, secs = _read(p)
        t = section_totals(secs)
        for k in TYPES:
            grand[k] += t[k]
        files.append({"file": str(p), "machine": machine,
                      "sections": [{"name": s.name, "size_bytes": s.size_bytes, "kind": s.kind} for s in secs],
                      "totals": t})
    return {"files": files, "totals": grand}


def section_totals(secs: list[Section]) -> dict[str, int]:
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
