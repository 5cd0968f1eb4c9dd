"""Parser for the console output of building a Linux kernel module with kbuild (Intel 324611 §2).

The tutorial builds its DMA demo's kernel module with ``make``; kbuild names each object it compiles for a
module, counts the modules it post-processes and names each module it links::

    CC [M] /home/irp/dma-demo-1.0/kernel-module/dma_demo.o
    MODPOST 1 modules
    LD [M] /home/irp/dma-demo-1.0/kernel-module/dma_demo.ko

``CC [M]`` compiles an object for a module and ``LD [M]`` links a module; ``MODPOST N modules`` is kbuild's
count of the modules of the build (its ``modules.order``), kept as printed. Every other line (prompts, make's
directory lines, the plain ``CC`` of a module's ``.mod.o``, the listings of ``ls``) is skipped.
:func:`parse` raises :class:`~goodput.core.errors.LogFormatError` with the file and line for a ``MODPOST`` or
``[M]`` line it cannot read, a second ``MODPOST`` line, and a log without one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from goodput.core.errors import LogFormatError
from goodput.logs.text import INTEGER, log_lines, read_log

__all__ = ["KernelBuild", "parse", "parse_text"]

_MODPOST = re.compile(rf"^MODPOST\ (?P<count>{INTEGER})\ modules?\s*$", re.VERBOSE)
_MODULE_STEP = re.compile(r"^(?P<step>CC|LD)\ \[M\]\ +(?P<file>\S+)\s*$", re.VERBOSE)


@dataclass
class KernelBuild:
    """What a kbuild run compiled and linked for its modules, and the modules it says it post-processed."""

    #: The objects ``CC [M]`` compiled for modules, and the modules ``LD [M]`` linked, as printed.
    compiled: list[str] = field(default_factory=list)
    linked: list[str] = field(default_factory=list)
    #: The count of the ``MODPOST`` line as printed, and that line's number.
    modpost: str = ""
    modpost_line: int = 0


def parse(path) -> KernelBuild:
    """Parse the kbuild console output at ``path``."""
    path = Path(path)
    return parse_text(read_log(path), str(path))


def parse_text(text: str, path: str = "<text>") -> KernelBuild:
    """Parse kbuild console output given as text; ``path`` names it in errors."""
    build = KernelBuild()
    for number, raw in enumerate(log_lines(text), start=1):
        line = raw.strip()
        if line.startswith("MODPOST"):
            m = _MODPOST.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a MODPOST line: {line[:60]!r}")
            if build.modpost:
                raise LogFormatError(path, number, f"a second MODPOST line (the first is line {build.modpost_line})")
            build.modpost, build.modpost_line = m["count"], number
        elif line.startswith(("CC [M]", "LD [M]")):
            m = _MODULE_STEP.match(line)
            if not m:
                raise LogFormatError(path, number, f"not a module's compile or link line: {line[:60]!r}")
            (build.compiled if m["step"] == "CC" else build.linked).append(m["file"])
    if not build.modpost:
        raise LogFormatError(path, 1, "no 'MODPOST' line")
    return build
