"""The census of the numbers the five source documents print, written to ``data/census/``.

Goodput's goal is to check every number its source documents print. This tool reads the plain-text
conversions of the five documents (``/work/shared/seeds``, beside the repository as ``../shared/seeds``;
their README says which file is which document), cuts each into its sections as the document heads
them, and writes two committed files the book is built from (the book never reads the conversions):

``data/census/sections.csv``
    one row per section of each document, in the document's order: ``document`` (the data package's
    key, ``AN3935``), ``section`` (its heading: ``7.1 Link Widths``, ``XIP Benchmark``), ``covered``
    (``yes``, or ``no: <why>``: contents, revision history, references, legal notice...), ``captions``
    (the tables, figures, examples and tests in it, ``Table 7; Table 8; Figure 6``, so a check whose
    ``where`` names one can be placed), ``aliases`` (other names the book's provenance uses for it),
    ``first_line`` and ``last_line`` (of the conversion) and ``numbers`` (how many it prints);
``data/census/numbers.csv``
    every number counted: ``document``, ``line``, ``number`` as printed.

What counts as a number is :func:`goodput.checks.coverage.numbers`' rule (stated in its module): integers and
decimals as printed, with a unit or suffix joined to them (``4K``), thousands separated by commas, hex
``0x..``, link widths ``x4`` and the bytes of analyzer traces; not headings, captions, references ("Table
N", "Section N", "Example N", "Test N"), list numbering, names with digits (MSC8156, AM243x, DDR3),
dates, revisions, versions, addresses or identifiers (process ids, inodes, device and PCI slot numbers,
interrupt lines, a shell prompt's command number, numbers in file paths). To that rule this tool adds each
document's page headers and footers (``furniture`` below), the copies of a table the conversion printed more
than once (:func:`_without_copies`) and its headings, which it cuts sections at: a numbered heading must
follow the one before it (``7.1`` after ``7``, ``8`` after ``7.3``), so a table row that looks like one
does not cut a section.

Nothing runs this tool by itself (it needs the conversions, which the book's build does not have). Run it
again after changing the rule or the sectioning, and commit what it writes::

    .venv/bin/python tools/census.py                # reads ../shared/seeds, writes data/census/
    .venv/bin/python tools/census.py --check        # exit 1 if data/census/ is not what it would write

``tests/test_coverage.py`` recounts from the conversions and fails when the committed census differs.

The third file of ``data/census/``, ``unchecked.csv``, is written by hand, not by this tool: the ledger of the
results no check checks (``goodput.checks.coverage.unchecked``), which a test holds to the counts section by section.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from goodput.checks import coverage  # noqa: E402  (the repository's package, run from a checkout)

SEEDS = ROOT.parent / "shared" / "seeds"
OUT = ROOT / "data" / "census"


@dataclass(frozen=True)
class Document:
    """How one conversion heads its sections, and what in it is not the document's text."""

    key: str
    file: str
    #: The section before the first heading (title page, front matter).
    front: str
    #: Unnumbered headings, as the line reads once '#' and '**' are taken off it.
    headings: tuple[str, ...] = ()
    #: Heading lines the conversion garbled, and the heading the document prints.
    renamed: dict[str, str] = field(default_factory=dict)
    #: Lines that look like headings but are not (a label in bold, a running head).
    not_headings: tuple[str, ...] = ()
    #: Page headers, footers and footnotes the conversion kept among the text (regular expressions).
    furniture: tuple[str, ...] = ()
    #: Sections the book does not cover, and why.
    not_covered: dict[str, str] = field(default_factory=dict)
    #: Other names the book's provenance and checks give a section.
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Headings are Markdown '#' lines whatever their text (the AM243x datasheet).
    markdown: bool = False
    #: Doxygen's \\cond blocks kept for this part only (the AM243x datasheet's AM64x text is not in it).
    part: str = ""


DOCUMENTS = (
    Document(
        key="SPRABK5", file="000_1658f47dd86e02c3.txt", front="Title page",
        headings=("Throughput Performance Guide for KeyStone II Devices", "ABSTRACT", "Contents", "List of Figures",
                  "List of Tables", "Revision History", "IMPORTANT NOTICE FOR TI DESIGN INFORMATION AND RESOURCES"),
        not_headings=("Applies to:",),
        not_covered={"Throughput Performance Guide for KeyStone II Devices": "title",
                     "ABSTRACT": "abstract", "Contents": "contents", "List of Figures": "contents",
                     "List of Tables": "contents", "1.1 Acronyms Used In This Document": "acronyms",
                     "10 References": "references", "Revision History": "revision history",
                     "IMPORTANT NOTICE FOR TI DESIGN INFORMATION AND RESOURCES": "legal notice"},
    ),
    Document(
        key="AN3935", file="001_bc26bdff4a6401f0.txt", front="Title page",
        headings=("MSC8156 and MSC8157 PCI Express Performance", "Contents", "How to Reach Us:"),
        renamed={"Calculating Bandwidth 6": "6 Calculating Bandwidth"},
        furniture=(r"^MSC8156 and MSC8157 PCI Express Performance, Rev\. 1\b", r"^\d{1,2}$",
                   r"^Document Number: AN3935$", r"^Rev\. 1,? 11/2011$"),
        not_covered={"Title page": "title page", "MSC8156 and MSC8157 PCI Express Performance": "title and abstract",
                     "Contents": "contents", "10 Revision History": "revision history",
                     "How to Reach Us:": "contact addresses and legal notice"},
    ),
    Document(
        key="Intel 324611", file="002_a898e4077bce5493.txt", front="Title page",
        headings=("Hardware-Based PCI Express* Performance Measurement", "Contents", "Figures", "Tables",
                  "Revision History"),
        furniture=(r"^Remote Lab Demonstration Tutorial$", r"^[¹²³⁴⁵⁶⁷⁸⁹⁰]+\s", r"^Intel does not control",
                   r"^§$"),
        not_covered={"Hardware-Based PCI Express* Performance Measurement": "title page and legal notice",
                     "Contents": "contents", "Figures": "contents", "Tables": "contents",
                     "Revision History": "revision history", "1.2 Referenced Documents": "references"},
    ),
    Document(
        key="SPRAAQ5", file="003_7f75b646645b47f7.txt", front="Title page",
        headings=("Network Developer's Kit (NDK) Benchmark and Sizing", "ABSTRACT", "Contents", "List of Figures",
                  "IMPORTANT NOTICE"),
        not_covered={"Network Developer's Kit (NDK) Benchmark and Sizing": "title", "ABSTRACT": "abstract",
                     "Contents": "contents", "List of Figures": "contents and trademarks",
                     "8 References": "references", "IMPORTANT NOTICE": "legal notice and ordering information"},
    ),
    Document(
        key="AM243x MCU+ SDK", file="004_bc9fb38e50ca7913.txt", front="Title page", markdown=True,
        part="SOC_AM243X",
        furniture=(r"^\[TOC\]$", r"^\\(?:cond|endcond)\b"),
        not_covered={"Datasheet": "title"},
        aliases={"AM243X-EVM": ("SBL OSPI",),
                 "MCSPI driver performance in different modes": ("MCSPI performance", "MCSPI notes"),
                 "MATHLIB BENCHMARK": ("MATHLIB",),
                 # the results under the test's setup (the same heading level in the conversion)
                 **{h: ("TCP Test",) for h in ("TCP Performance(am64x/243x emvs):", "TCP Performance(am243x-lp):")},
                 **{f"UDP {d} Performance({b}):": ("UDP Test",) for d in ("TX", "RX")
                    for b in ("am64x/243x emvs", "am243x-lp")}},
    ),
)

#: A numbered heading: "## 7.1 Link Widths", "6.1 **Write Transfer Estimates**", "9 10 Gigabit Ethernet".
NUMBERED = re.compile(r"^(?P<number>\d+(?:\.\d+)*) (?P<title>[A-Z0-9][^\t=*$]{1,90})$")
MARKDOWN = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>.+?)\s*$")
#: An "Example N:" line heads a worked example (Intel 324611 §3.5).
EXAMPLE = re.compile(r"^\s*(?:\*\*)?Example (?P<n>\d+):")


@dataclass
class Section:
    heading: str
    first_line: int
    covered: str = "yes"
    captions: list[str] = field(default_factory=list)
    numbers: list[tuple[int, str]] = field(default_factory=list)
    last_line: int = 0


def _plain(line: str) -> str:
    """A line without Markdown heading marks, bold and a heading's anchor."""
    text = re.sub(r"^#{1,6}\s+", "", line.strip())
    text = re.sub(r"\{#[^}]*\}", "", text).replace("**", "")
    return re.sub(r" +", " ", text).strip()


def _follows(number: tuple[int, ...], before: tuple[int, ...] | None) -> bool:
    """Whether a heading numbered ``number`` may follow one numbered ``before``: the next at its own depth or
    one above (``7.2``, ``8`` after ``7.1``), or the first below it (``7.1.1``)."""
    if before is None:
        return number == (1,)
    if number == before + (1,):
        return True
    return any(number == before[:i] + (before[i] + 1,) for i in range(len(before)))


def _heading(doc: Document, line: str, before: tuple[int, ...] | None) -> tuple[str, tuple[int, ...] | None] | None:
    """The heading a line is (and its number), or None."""
    text = _plain(line)
    if not text or text in doc.not_headings:
        return None
    if doc.markdown:
        m = MARKDOWN.match(line.strip())
        return (_plain(line), None) if m else None
    if text in doc.headings:
        return text, None
    text = doc.renamed.get(text, text)
    m = NUMBERED.match(text)
    if m and not line.startswith((" ", "\t")):
        number = tuple(int(n) for n in m.group("number").split("."))
        if _follows(number, before):
            return text, number
    return None


def _captions(text: str) -> list[str]:
    found = []
    m = coverage.CAPTION.match(text)
    if m:
        found.append(f"{m.group('kind')} {m.group('n')}")
    m = EXAMPLE.match(text)
    if m:
        found.append(f"Example {m.group('n')}")
    return found


#: A table the conversion printed as HTML, with the tab-separated run of its cells it put after it.
HTML_TABLE = re.compile(r"<table\b.*?</table>[^<]*", re.I)


def _without_copies(lines: list[str], i: int) -> str:
    """Line ``i`` (0-based) without the copies of a table the conversion printed twice more: an HTML table whose
    numbers the lines below it print again, row by row, is counted there, once (Intel 324611 §2's utilization
    table is on one line as HTML and as a tab run, then on five lines of its own)."""
    line = lines[i]
    for m in HTML_TABLE.finditer(line):
        table = coverage.numbers(re.sub(r"</table>.*", "</table>", m.group(0), flags=re.S))
        below: list[str] = []
        for after in lines[i + 1:]:
            if len(below) >= len(table):
                break
            below += coverage.numbers(after)
        if table and below[:len(table)] == table and coverage.numbers(m.group(0)) == table * 2:
            line = line.replace(m.group(0), " ")
    return line


def cut(doc: Document, text: str) -> list[Section]:
    """The sections of one document's conversion, with their captions and the numbers they print."""
    furniture = [re.compile(p) for p in doc.furniture]
    out = [Section(doc.front, 1)]
    before: tuple[int, ...] | None = None
    other_part = ""  # the part of a \cond block we are in, when it is not this document's
    lines = text.splitlines()
    for i, line in enumerate(lines, 1):
        cond = re.match(r"^\\cond\s+(\S+)", line.strip())
        if cond:
            other_part = cond.group(1) if doc.part and cond.group(1) != doc.part else ""
        elif line.strip() == "\\endcond":
            other_part = ""
        found = _heading(doc, line, before)
        if found:
            heading, number = found
            before = number or before
            out[-1].last_line = i - 1
            section = Section(heading, i)
            section.captions += [f"Test {n}" for k, n in sorted(coverage.names(heading), key=_order) if k == "Test"]
            if other_part:
                section.covered = f"no: for the {other_part.removeprefix('SOC_').replace('X', 'x')} only"
            out.append(section)
            continue
        if any(f.search(line.strip()) for f in furniture):
            continue
        section = out[-1]
        section.captions += [c for c in _captions(line) if c not in section.captions]
        if EXAMPLE.match(line):
            continue
        section.numbers += [(i, n) for n in coverage.numbers(_without_copies(lines, i - 1))]
    out[-1].last_line = len(text.splitlines())
    for section in out:
        why = doc.not_covered.get(section.heading)
        if why:
            section.covered = f"no: {why}"
    if not any(line.strip() for line in text.splitlines()[:out[0].last_line]):
        out.pop(0)  # nothing before the first heading
    return out


def _order(name: tuple[str, str]) -> tuple[int, ...]:
    return tuple(int(n) for n in name[1].split("."))


def census(seeds: Path = SEEDS) -> tuple[str, str]:
    """The census of the documents in ``seeds`` as the text of ``sections.csv`` and ``numbers.csv``."""
    rows, counted = io.StringIO(), io.StringIO()
    sections_csv = csv.writer(rows, lineterminator="\n")
    numbers_csv = csv.writer(counted, lineterminator="\n")
    sections_csv.writerow(["document", "section", "covered", "captions", "aliases", "first_line", "last_line",
                           "numbers"])
    numbers_csv.writerow(["document", "line", "number"])
    for doc in DOCUMENTS:
        text = (seeds / doc.file).read_text(encoding="utf-8")
        for s in cut(doc, text):
            sections_csv.writerow([doc.key, s.heading, s.covered, "; ".join(s.captions),
                                   "; ".join(doc.aliases.get(s.heading, ())), s.first_line, s.last_line,
                                   len(s.numbers)])
            numbers_csv.writerows([doc.key, line, n] for line, n in s.numbers)
    return rows.getvalue(), counted.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=Path, default=SEEDS, help=f"the conversions (default {SEEDS})")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write (default {OUT})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if --out differs")
    args = parser.parse_args(argv)
    written = dict(zip(("sections.csv", "numbers.csv"), census(args.seeds)))
    if args.check:
        stale = [n for n, t in written.items()
                 if not (args.out / n).exists() or (args.out / n).read_text(encoding="utf-8") != t]
        for n in stale:
            print(f"census: {args.out / n} is not what tools/census.py writes", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in written.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"census: wrote {', '.join(str(args.out / n) for n in written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
