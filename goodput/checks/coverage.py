"""What the source documents print, and how much of it the book checks and transcribes.

The *census* (``data/census/``, written by ``tools/census.py`` from the plain-text conversions of
the five source documents) cuts each document into its sections as the document heads them, says
whether the book covers each one, lists the captions in it ("Table 10", "Example 1", "Test 14") and
counts the numbers it prints; ``numbers.csv`` holds every counted number with its line. The book is
built from these committed files; only the census tool and its test read the conversions.

A number is counted by :func:`numbers`, whose rule :data:`NUMBER_RULE` states in a sentence:

- counted: an integer or decimal (``250``, ``2.91``), with thousands separated by commas
  (``94,595`` once), a hexadecimal ``0x0105``, a link width ``x4``, a number with its unit or
  suffix joined to it (``4K``, ``1.2GHz``, ``97%`` once each), and each byte of a PCIe analyzer trace
  (the ``0F`` of ``D 0F``); a space splits a number (``70 800`` is two); an analyzer annotates a requester's
  or completer's ID with its bus, device and function in hexadecimal without ``0x`` (``RequesterID : 0 1c
  0``), and these are read, and written, as the hexadecimal numbers they are (``0x0``, ``0x1c``, ``0x0``),
  the form its checks publish them in;
- not counted: headings and captions (``Table 3. ...``, ``Figure 2. ...``) whole; references ("Table
  N", "Figure N", "Section N", "§N", "Example N", "Test N", "Step N", "Eqn. N", "[4]", a page "p. 11-9",
  footnote marks);
  list numbering (``1.`` opening a line); page headers and footers, copyright lines, addresses on the web
  and mail; names with digits in them (MSC8156, TMS320C6678, AM243x, 66AK2H12, DDR3-1600, r5f0-0,
  8b/10b, EDMA0); dates, revisions and versions (``11/2011``, ``Rev. 1``, ``2.6.31``), IP and MAC
  addresses, memory ranges (``00000000-0000ffff``) and standards' numbers (IEEE 1149.1-1990);
  identifiers, numbers that name a thing rather than measure it: file paths (the process id of
  ``/proc/4491/maps``, ``C:\\CCStudio_v3.3``, ``C:\\Program Files\\Microsoft Visual Studio 8\\Common7``),
  products named with a year or release (Visual C++ 2005, Visual Studio C++ 2005,
  Service Pack 1), a memory map's fields after its range (file offset, device ``08:02``, inode),
  PCI buses and slots (``0000:08:00.0``), interrupt lines (``IRQ 0``) and a shell prompt's command
  number (``538 $``). An address the text derives (a range's end from its start and size) is printed in
  its prose, not in such a listing, and stays counted.

The census tool adds its documents' own page headers and footers (each listed in the tool) and counts a
table the conversion printed three times once; headings are what it cuts sections at.

:func:`by_document` and :func:`by_section` count, per document and per covered section: the numbers
printed (the census); the printed numbers the source checks check (each distinct printed cell once, or
the numbers it verifies, :data:`CHECKED_RULE`); the printed numbers a
transcription holds (a published table or a verbatim log of the document, see :func:`transcribed`);
and the checks of each status of :data:`goodput.checks.STATUSES`. A check is placed in the section its
row or its ``where`` names (:func:`place`); one that names none, or several that the value it checks and
the words of its row cannot tell apart, is counted under "elsewhere".

Of the numbers printed, some are *settings*, what a row is for (a data size, a key length, a link rate),
not what it reports; no check can check one without comparing it with itself. :func:`settings` counts
them by :data:`SETTING_RULE`, from what the data package already says (a table's key columns, a column
whose schema gives it the role ``"setting"``), never from a list of numbers; a cell a check compares is a
result. The *remaining* numbers are the results no check checks yet; the ledger (:func:`unchecked`,
``data/census/unchecked.csv``) accounts for each, section by section: which numbers, and why no check can fail
on them or that none does yet.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence

import pandas as pd

from goodput import checks
from goodput.core import data
from goodput.core.errors import DataError

__all__ = ["NUMBER_RULE", "CHECKED_RULE", "SETTING_RULE", "SETTINGS_COLUMNS", "setting_columns", "settings", "CAPTION", "ELSEWHERE", "numbers", "key", "census_dir", "SECTION_COLUMNS",
           "NUMBER_COLUMNS", "Census", "census", "names", "place", "sections_named", "cells", "Transcription",
           "row_numbers", "transcriptions", "transcribed", "by_document", "by_section", "every_section",
           "UNCHECKED_COLUMNS", "UNCHECKED_KINDS",
           "unchecked_path", "unchecked", "unaccounted", "ledger_for"]

#: The counting rule in one sentence, as the status page states it.
NUMBER_RULE = (
    "A number is an integer or decimal as printed (with its unit or suffix joined to it, thousands "
    "separated by commas, a hexadecimal 0x..., a link width x4 or a byte of an analyzer trace, each once; the "
    "bus, device and function an analyzer annotates an ID with, in hexadecimal without 0x, are read as the "
    "hexadecimal numbers they are: RequesterID 0 1c 0 is 0x0, 0x1c and 0x0); "
    "headings, captions, references (Table N, Figure N, Section N, Example N, Test N, a list's steps by number), "
    "list numbering, page headers and footers, a page of another document (p. 11-9), names with digits in them "
    "(MSC8156, AM243x, DDR3, EDMA0/1/2/4, TeraNet 3A, a Type 11 message, Device 2, Mailbox 0, 10GbE, a build's "
    "stage 2, Visual C++ 2005, a project pcie 8156, a part #701204, the 1s and 0s of a bit stream), dates, "
    "revisions, versions (USB 2.0), a register bit's state (MAR.PC==1), addresses and identifiers (a process id, "
    "an inode, a device or PCI slot number, an interrupt line, a tool's diagnostic number, a shell prompt's "
    "command number, any number in a file path) are not counted; a table the conversion "
    "printed more than once (as HTML, as a run of its cells and row by row) is counted once.")

#: How the checked numbers are counted, in one sentence, as the status page states it.
CHECKED_RULE = (
    "A printed cell a check holds to a value counts as one checked number, however many checks it has; a "
    "check whose value stands for more printed numbers counts them all: a packet's CRC, computed from the "
    "packet's bytes as printed and compared with the CRC bytes printed, verifies every byte of the packet. "
    "A section's remaining results count a checked cell for a number the section prints of its value, never "
    "more than it prints (two transcriptions of one printed number are one number checked), and a number a "
    "check holds is never a setting.")

#: What a section of a document that has no place of its own for a check is called.
ELSEWHERE = "elsewhere"

#: A caption line: "Table 3. ...", "**Table 1. ...**", "Figure 2. ...", "Table 2: ...", "Table 10<tab>..." (a
#: garbled conversion keeps the tab).
CAPTION = re.compile(r"^\s*(?:\*\*)?\s*(?P<kind>Table|Figure)\s+(?P<n>\d+)\s*(?:[.:]|\t)")

_REFERENCE = re.compile(r"""
    (?:\b(?:tables?|figures?|sections?|chapters?|examples?|tests?|steps?|scenarios?|equations?|eqn|egn|appendix)
       \b\.?\s*|§\s*|\bpp?\.\s*)                  # the word that names a part of a document, a page "p. 11-9"
    \d+(?:\.\d+)*                                   # its number
    (?:\s*(?:,|and|or|to|through|-|–)\s*            # more of them: "Tables 9 and 10", "§4-5", "Figure 16 through
       (?:(?:tables?|figures?|sections?|tests?|examples?)\s*)?\d+(?:\.\d+)*)*   # Figure 19"
    """, re.I | re.X)

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"

#: Text that holds digits but no number (removed before numbers are looked for), each with its example.
_NOT_NUMBERS = [re.compile(p, f) for p, f in (
    (r"<(sup|sub)>.*?</\1>", re.I),                                  # footnote marks <sup>(1)</sup>
    (r"<[^>]+>", 0),                                                 # HTML tags: <td>, border="1"
    (r"\]\([^)]*\)", 0),                                             # a Markdown link's target ](#)
    (r"\{#[^}]*\}", 0),                                              # a heading's anchor {#DATASHEET}
    (r"(?:https?://|www\.)\S+|\S+@\S+", re.I),                       # addresses on the web and mail
    # Windows paths C:\CCStudio_v3.3, C:\Program Files\Microsoft Visual Studio 8\Common7 (a folder's name may
    # hold spaces; before LaTeX)
    (r"\b[A-Za-z]:\\(?:[\w .()+-]*\\)*\S*", 0),
    (r"\\[A-Za-z]+", 0),                                             # LaTeX commands \text, \times
    (r"\b(?:rev(?:ision)?\.?)\s*[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*", re.I),  # revisions: Rev. 1, revision R2P4
    (rf"\b(?:{_MONTHS})\s+(?:\d{{1,2}},?\s+)?\d{{4}}\b", 0),         # dates: November 2010
    (r"\b\d{1,2}/\d{4}\b", 0),                                       # dates: 11/2011
    (r"\b(?:IEEE|ISO(?:/TS)?|IEC)\s+(?:Std\.?\s+|Standard\s+)?[\d.]+(?:-\d{4})?", 0),  # standards
    (r"\b[0-9A-Fa-f]{2}(?:[-:][0-9A-Fa-f]{2}){5}\b", 0),            # MAC addresses 00-0e-99-02-90-7a
    # a line of a memory map (/proc/<pid>/maps): its range, permissions, file offset, device and inode
    (r"^\s*[0-9a-f]{8}-[0-9a-f]{8}\s+[r-][w-][x-][ps-]\s+[0-9a-f]{8}\s+[0-9a-f]{2}:[0-9a-f]{2}\s+\d+", 0),
    (r"\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{8}\b", 0),                       # memory ranges 00000000-0000ffff
    (r"\b\d+b/?\d+b\b", 0),                                          # line codes' names 8b/10b, 8b9b
    (r"\[\d+\]", 0),                                                 # citations [4], indices RAM[0]
    # identifiers: numbers that name a process, a file, a device, a bus slot, an interrupt or a command
    (r"(?<![\w.])(?:/[\w.*-]+){2,}", 0),                             # file paths /proc/4491/maps
    # names of releases: a version after a space, products named with a year or release, bits by their value
    (r"\bv\s+\d+(?:\.\d+)+\b", 0),                                       # Code Composer Studio v 3.3
    # Visual C++ 2005, Visual Studio C++ 2005, Service Pack 1
    (r"\b(?:Visual (?:Studio|C\+\+)(?: C\+\+)?|Windows Server)\s+\d{4}\b|\bService Pack\s+\d+\b", 0),
    (r"\b[01]s and [01]s\b", 0),                                      # the number of 1s and 0s
    # things named by a number: a name with digits and its siblings after slashes (EDMA0/1/2/4, DDR3A/3B), a
    # word that names by number (TeraNet 3A, Type 9/11/13, Device 2, Level 3, core 1 and 2, a kernel build's
    # stage 2) and 10GbE
    (r"\b[A-Za-z]+\d+[A-Za-z]?(?:/\d+[A-Za-z]?)+\b", 0),
    (r"\b(?:TeraNets?|Type|Device|Level|cores?|Timing|stage|Mailbox)\s+\d{1,2}[A-Z]?\b"
     r"(?:\s*(?:/|,|and|or)\s*\d{1,2}[A-Z]?\b)*", 0),
    (r"\b\d+GbE\b", 0),
    (r"\b[0-9a-fA-F]{4}:[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}\.[0-7])?\b", 0),  # PCI buses and slots 0000:08:00.0
    (r"^\s*\d+\s+\$(?=\s|$)", 0),                                     # a shell prompt's command number 538 $
    (r"\bIRQ\s*\d+\b", 0),                                            # interrupt lines IRQ 0
    (r"\bUSB\s+\d\.\d\b", 0),                                          # a standard's version: USB 2.0
    (r"--[A-Za-z_]+=\d+", 0),                                         # a tool's diagnostic: --diag_suppress=10063
    (r"#\d{4,}\b", 0),                                                # a part number: Spectrum Digital #701204
    (r"\bproject\s+[a-z]+\s+\d+\b", 0),                               # a project's name: the project pcie 8156
    (r"\b[A-Z]+\.[A-Z]+\s*==?\s*\d+\b", 0),                            # a register bit's state: MAR.PC==1
    (r"\bSubtract\s+\d+\s+from\s+\d+\b", 0),                            # a list's steps by number: Subtract 2 from 1
)]

_LIST_NUMBER = re.compile(r"^\s*(?:[-*•]\s+)?(?:\d+[.)]\s+)+")      # "1. ", "- 1. ", "6. 6. "
_COPYRIGHT = re.compile(r"©|\bcopyright\b", re.I)
#: A byte of a PCIe analyzer trace: "D 0F" (a data symbol and its byte; K symbols have names).
_SYMBOL = re.compile(r"\bD\s+([0-9A-F]{2})\b")
#: An analyzer's annotation of a requester's or completer's ID: bus, device and function, in hexadecimal
#: without "0x" ("RequesterID : 0 1c 0"); read as the hexadecimal numbers they are (0x0, 0x1c, 0x0).
_ID = re.compile(r"\b(?:Requester|Completer)ID\s*:\s*([0-9A-Fa-f]{1,2})\s+([0-9A-Fa-f]{1,2})\s+([0-7])\b")
#: Runs of letters, digits and underscores, joined by "." or "," between them (and a "%" after): the candidates.
_RUN = re.compile(r"[A-Za-z0-9_]+(?:[.,][A-Za-z0-9_]+)*%?")
#: What stands right before a run that is part of a name: "r5f0-", "DDR3-", "p-" (a whole word: the second
#: address of a range "0x40000000-0x7FFFFFFF" is a number).
_NAME_BEFORE = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]*-$")
_HEX = re.compile(r"0[xX][0-9A-Fa-f]+")
_WIDTH = re.compile(r"x\d+")
_PLAIN = re.compile(r"(?P<n>\d+(?:\.\d+)?)[A-Za-z%]*")
_THOUSANDS = re.compile(r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?)[A-Za-z%]*")


def _classify(run: str) -> list[str]:
    """The numbers a run of letters and digits is: none, one, or (a comma list without spaces) several."""
    if _HEX.fullmatch(run) or _WIDTH.fullmatch(run) or _PLAIN.fullmatch(run) or _THOUSANDS.fullmatch(run):
        return [run]
    if "," in run:
        return [n for part in run.split(",") for n in _classify(part)]
    return []  # starts with a letter (a name), digits-letters-digits (66AK2H12), or dotted (2.6.31, an IP)


def numbers(text: str) -> list[str]:
    """The numbers ``text`` prints, each as printed (``"94,595"``, ``"1.2GHz"``, ``"x4"``, ``"D 0F"``; an
    analyzer's ID ``0 1c 0`` as ``"0x0"``, ``"0x1c"``, ``"0x0"``), by the rule of this module's docstring; a text
    of several lines is read line by line."""
    found: list[str] = []
    for line in text.splitlines():
        if _COPYRIGHT.search(line) or CAPTION.match(line):
            continue
        line = _LIST_NUMBER.sub(" ", line)
        for pattern in _NOT_NUMBERS:
            line = pattern.sub(" ", line)
        line = _REFERENCE.sub(" ", line)
        found_here: list[tuple[int, str]] = []
        for m in _SYMBOL.finditer(line):
            found_here.append((m.start(), "D " + m.group(1)))
        line = _SYMBOL.sub(lambda m: " " * len(m.group(0)), line)
        for m in _ID.finditer(line):
            found_here += [(m.start(g), "0x" + m.group(g)) for g in (1, 2, 3)]
        line = _ID.sub(lambda m: " " * len(m.group(0)), line)
        for m in _RUN.finditer(line):
            if _NAME_BEFORE.search(line[:m.start()]):
                continue
            found_here += [(m.start(), n) for n in _classify(m.group(0))]
        found += [n for _, n in sorted(found_here, key=lambda p: p[0])]
    return found


def key(number: str) -> str:
    """What two printed numbers share when they are the same number: its digits without thousands
    separators, unit or suffix (``"94,595"`` -> ``"94595"``, ``"1.2GHz"`` -> ``"1.2"``, ``"x4"`` -> ``"4"``);
    a hexadecimal number or a trace byte in lower case (``"0x0105"``, ``"d 0f"``). ``"2.00"`` is not ``"2"``:
    a transcription keeps the digits printed."""
    if _HEX.fullmatch(number) or number.startswith("D "):
        return number.lower()
    if _WIDTH.fullmatch(number):
        return number[1:]
    m = _THOUSANDS.fullmatch(number) or _PLAIN.fullmatch(number)
    if not m:
        raise ValueError(f"{number!r} is not a number by the census's rule")
    return m.group("n").replace(",", "")


# --- the committed census ------------------------------------------------------------------------

def census_dir() -> Path:
    """Folder of the committed census: ``data/census`` (beside ``$GOODPUT_DATA``'s published tables)."""
    return data.published_dir().parent / "census"


SECTION_COLUMNS = ["document", "section", "covered", "captions", "aliases", "first_line", "last_line", "numbers"]
NUMBER_COLUMNS = ["document", "line", "number"]


class _Heading(NamedTuple):
    """A covered section as a text may name it: its heading, its number, its captions (``("Table", "16")``)
    and its titles (heading without number, and aliases) as :func:`_words` of more than two letters."""

    section: str
    number: str
    captions: frozenset
    titles: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class Census:
    """The census's two tables: ``sections`` (one row per section of each document, in its order: document,
    section (its heading), covered (``"yes"`` or ``"no: <why>"``), captions and aliases (``"; "``-separated),
    the first and last line of the conversion it spans, how many numbers it prints) and ``numbers`` (each
    number counted: document, line, the number as printed). :func:`census` reads the committed one; a test
    makes one of its own."""

    sections: pd.DataFrame
    numbers: pd.DataFrame

    def __post_init__(self):
        for frame, columns in ((self.sections, SECTION_COLUMNS), (self.numbers, NUMBER_COLUMNS)):
            if list(frame.columns) != columns:
                raise DataError(f"census columns {list(frame.columns)} are not {columns}")

    def covered(self, document: str) -> pd.DataFrame:
        """The covered sections of ``document``, in its order (one frame a document: read, never change it)."""
        if document not in self._covered:
            self._covered[document] = self.sections[(self.sections["document"] == document)
                                                    & (self.sections["covered"] == "yes")]
        return self._covered[document]

    @cached_property
    def _covered(self) -> dict[str, pd.DataFrame]:
        return {}

    def headings(self, document: str) -> list[_Heading]:
        """The covered sections of ``document`` as :func:`_candidates` matches a text against them."""
        if document not in self._headings:
            self._headings[document] = [
                _Heading(row.section, _section_number(row.section),
                         frozenset(tuple(c.split(" ", 1)) for c in row.captions.split("; ") if c),
                         tuple(w for w in (_words(t) for t in [re.sub(r"^\d+(?:\.\d+)*\s+", "", row.section)]
                                           + [a for a in row.aliases.split("; ") if a]) if len(w.strip()) > 2))
                for row in self.covered(document).itertuples()]
        return self._headings[document]

    @cached_property
    def _headings(self) -> dict[str, list[_Heading]]:
        return {}

    @cached_property
    def keys(self) -> dict[tuple[str, str], Counter]:
        """Per covered (document, section), how often it prints each number's :func:`key`."""
        out = {}
        for row in self.sections[self.sections["covered"] == "yes"].itertuples():
            mine = self.numbers[(self.numbers["document"] == row.document)
                                & self.numbers["line"].between(row.first_line, row.last_line)]
            out[(row.document, row.section)] = Counter(key(n) for n in mine["number"])
        return out


@lru_cache(maxsize=4)
def _read(folder: str) -> Census:
    path = Path(folder)
    try:
        found = pd.read_csv(path / "sections.csv", dtype=str, keep_default_na=False)
        counted = pd.read_csv(path / "numbers.csv", dtype=str, keep_default_na=False)
    except FileNotFoundError as exc:
        raise DataError(f"{exc.filename}: no census here; tools/census.py writes it") from None
    for column in ("first_line", "last_line", "numbers"):
        found[column] = found[column].astype(int)
    counted["line"] = counted["line"].astype(int)
    return Census(found, counted)


def census() -> Census:
    """The committed census (``data/census/sections.csv`` and ``numbers.csv``)."""
    return _read(str(census_dir()))


# --- placing a check or a transcription in a section ------------------------------------------

_PART = r"(?:tables?|tests?|examples?|figures?|sections?|§)"
_NAMED = re.compile(rf"""
    (?P<kind>{_PART})\s*
    (?P<first>\d+(?:\.\d+)*)
    (?P<more>(?:\s*(?:,|and|-|–|to)\s*(?:{_PART}\s*)?\d+(?:\.\d+)*)*)
    """, re.I | re.X)
_KINDS = {"table": "Table", "test": "Test", "example": "Example", "figure": "Figure", "section": "§", "§": "§"}


def _words(text: str) -> str:
    """Lower-case words of ``text`` between single spaces, for matching headings: ``"NET Driver ( RNDIS )"``
    -> ``" net driver rndis "``."""
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def _span(first: str, last: str) -> list[str] | None:
    """The numbers from ``first`` to ``last``, both whole (``4``-``6``) or sharing all but their last part
    (``5.2.1``-``5.2.6``); None if they are not such a range."""
    a, b = first.split("."), last.split(".")
    if len(a) != len(b) or a[:-1] != b[:-1] or int(a[-1]) >= int(b[-1]):
        return None
    return [".".join(a[:-1] + [str(k)]) for k in range(int(a[-1]), int(b[-1]) + 1)]


def names(text: str) -> set[tuple[str, str]]:
    """The parts of a document ``text`` names: ``("Table", "16")``, ``("Test", "1")``, ``("§", "6.1.1")``;
    a range (``"Tables 6-15"``, ``"§4-5"``, ``"§5.2.1-5.2.6"``) names each part in it, a list (``"Examples 1
    and 2"``) each one."""
    found = set()
    for m in _NAMED.finditer(text):
        kind = _KINDS[m.group("kind").lower().rstrip("s") if m.group("kind") != "§" else "§"]
        found.add((kind, m.group("first")))
        previous = m.group("first")
        for sep, n in re.findall(rf"(,|and|-|–|to)\s*(?:{_PART}\s*)?(\d+(?:\.\d+)*)", m.group("more"), re.I):
            span = _span(previous, n) if sep in ("-", "–", "to") else None
            found.update((kind, k) for k in (span or [n]))
            previous = n
    return found


def _section_number(section: str) -> str:
    m = re.match(r"(\d+(?:\.\d+)*)\s", section)
    return m.group(1) if m else ""


def _candidates(census: Census, document: str, text: str) -> dict[str, bool]:
    """The covered sections of ``document`` that ``text`` names, each with whether it names that section
    itself (by a caption in it, its number, its heading or an alias, in whole words) rather than only a
    section above it (``"§6"`` names 6.1.1 too)."""
    named = names(text)
    words = _words(text)
    out = {}
    for h in census.headings(document):
        itself = bool(h.captions & named) or (h.number and ("§", h.number) in named) or any(
            t in words for t in h.titles)
        above = h.number and any(k == "§" and h.number.startswith(n + ".") for k, n in named)
        if itself or above:
            out[h.section] = bool(itself)
    return out


def sections_named(document: str, texts: Iterable[str], census: Census | None = None) -> list[str]:
    """The covered sections of ``document`` that any of ``texts`` names (as :func:`place` reads them: by a
    caption, a section number and the sections under it, a heading or an alias), in the document's order."""
    census = _read(str(census_dir())) if census is None else census
    named: set[str] = set()
    for text in texts:
        named.update(_candidates(census, document, text))
    return [s for s in census.covered(document)["section"] if s in named]


#: Words too common in headings to tell two sections apart.
_COMMON = {"and", "the", "of", "in", "with", "for", "to", "from", "between", "performance", "throughput"}


def _heading_words(census: Census, document: str, section: str) -> set[str]:
    """The words of a section's heading, of the headings above it (by number) and of its aliases."""
    rows = census.covered(document)
    number = _section_number(section)
    above = [s for s in rows["section"] if _section_number(s) and number.startswith(_section_number(s) + ".")]
    aliases = rows.loc[rows["section"] == section, "aliases"].tolist()
    return _letters(_words(" ".join(above + [section] + aliases))) - _COMMON


def _letters(words: str) -> set[str]:
    """The words with a letter in them (a section's number tells nothing here)."""
    return {w for w in words.split() if re.search("[a-z]", w)}


def place(document: str, texts: Sequence[str], value: str = "", census: Census | None = None) -> str:
    """The covered section of ``document`` a check belongs to, or :data:`ELSEWHERE`.

    ``texts`` are what names its place, the most specific first (a check's row, then its ``where``): the
    first that names any covered section decides (:func:`names`: a caption, a section number, which names
    the sections under it too; or a heading or alias in whole words). Of several sections named, those that
    print ``value`` (the checked number's :func:`key`) are kept, then those named themselves rather than
    through a section above them, then those whose headings (with those above them) share the most words
    with the texts; a tie is :data:`ELSEWHERE`.
    """
    census = _read(str(census_dir())) if census is None else census
    for text in texts:
        hits = _candidates(census, document, text)
        if not hits:
            continue
        kept = list(hits)
        if len(kept) > 1 and value:
            kept = [s for s in kept if census.keys[(document, s)][value] > 0] or kept
        if len(kept) > 1:
            kept = [s for s in kept if hits[s]] or kept
        if len(kept) > 1:
            words = _letters(_words(" ".join(texts)))
            score = {s: len(words & _heading_words(census, document, s)) for s in kept}
            kept = [s for s in kept if score[s] == max(score.values())]
        return kept[0] if len(kept) == 1 else ELSEWHERE
    return ELSEWHERE


# --- checked, transcribed, by status ---------------------------------------------------------

def cells(items: Iterable[checks.SourceCheck]) -> pd.DataFrame:
    """The distinct printed cells ``items`` check, one row each (a cell checked several ways counts once):
    document, cell (its published table and cell, :attr:`goodput.checks.SourceCheck.cell`; or its place, row,
    quantity and unit), the first check's ``where``,
    ``row`` and ``published``, and ``verifies``: how many printed numbers the cell's checks verify (the most
    any of them does, :attr:`goodput.checks.SourceCheck.verifies`; see :data:`CHECKED_RULE`)."""
    seen: dict[tuple, checks.SourceCheck] = {}
    most: Counter = Counter()
    for c in items:
        # a table's cell is itself, whatever the row a check names it by; any other number its row and quantity
        k = ((c.document, c.resource, c.cell, "", "") if c.resource and c.cell
             else (c.document, c.resource or c.where, c.row, c.quantity, c.unit))
        seen.setdefault(k, c)
        most[k] = max(most[k], c.verifies)
    return pd.DataFrame([{"document": k[0], "cell": " | ".join(k[1:]), "where": c.where, "row": c.row,
                          "published": c.published, "verifies": most[k]} for k, c in seen.items()],
                        columns=["document", "cell", "where", "row", "published", "verifies"])


@dataclass(frozen=True)
class Transcription:
    """The numbers one transcription of a document holds: a published table or a verbatim log."""

    document: str
    name: str
    #: What names its place in the document: a table's provenance (table, section), a log's source header.
    where: tuple[str, ...]
    numbers: tuple[str, ...]
    #: The cells of its setting columns (:func:`setting_columns`), each as (column title, text as printed, its
    #: row: the text of the row's section and table columns and of its other cells), what tells which of the
    #: sections the transcription names printed it.
    settings: tuple[tuple[str, str, tuple[str, str]], ...] = ()
    #: A table's rows, each as (its numbers, the row as in :attr:`settings`), what tells which of the sections the
    #: table names printed each of its numbers; a log has none (its numbers count in the sections it names, in
    #: the document's order). A value beside its printed form or the sentence it is quoted from is one printed
    #: number (:func:`row_numbers`).
    rows: tuple[tuple[tuple[str, ...], tuple[str, str]], ...] = ()


#: The rule that tells a setting from a result, in one sentence, as the status page states it.
SETTING_RULE = (
    "A setting is a number a row is for rather than one it reports (a data size, a key length, a link's "
    "rate, an interval's bounds): a number in a published table's key columns (the data package's "
    "primaryKey, with the column that keeps a key as printed), or in a column its schema gives the role "
    "\"setting\"; a cell a source check compares is a result, whatever its column. Checking a setting would "
    "compare it with itself, so the numbers left to check are the results.")


def setting_columns(frame: pd.DataFrame) -> list[str]:
    """The columns of a loaded table (:func:`goodput.core.data.load`) whose numbers are settings by
    :data:`SETTING_RULE`: its keys, a key's printed form (``size_as_printed`` beside the key ``size_bytes``,
    ``bytes_as_printed`` beside ``bytes``)
    and the columns whose schema field has the role ``"setting"``, in the table's order."""
    keys = frame.attrs.get("keys", [])
    stems = {k.rsplit("_", 1)[0] for k in keys if "_" in k} | set(keys)  # size_bytes -> size; bytes -> bytes
    roles = frame.attrs.get("roles", {})
    return [c for c in frame.columns if c in keys or roles.get(c) == "setting"
            or (c.endswith("_as_printed") and c.removesuffix("_as_printed") in stems)]


#: Columns of a published table that name a place in the document rather than transcribe a number of it: a
#: table, section, figure, example or test, or which of the places that print the same quantity a row is.
_REFERENCE_COLUMNS = {"table", "section", "figure", "example", "test", "occurrence"}
#: A section as a provenance names it: "7.1 Link Widths", "5.2.1-5.2.6 Scenarios 1-6".
_SECTION_FIELD = re.compile(r"(?:^|[;,]\s*)(\d+(?:\.\d+)*(?:\s*-\s*\d+(?:\.\d+)*)?)\s+[A-Z(]")


def _reference(column: str, text) -> str:
    """A cell as the text of its row names it: a number in a ``section``, ``table``, ``example`` or ``test``
    column as the part of the document it is (``"§4.3"``, ``"Table 3"``, ``"Test 3"``), any other cell as
    printed."""
    text = str(text)
    if column == "section" and re.match(r"\d+(?:\.\d+)*(?:\s|$)", text):
        return f"§{text}"
    if column in ("table", "example", "test") and re.fullmatch(r"\d+", text):
        return f"{column.capitalize()} {text}"
    return text


def _provenance_texts(table: str, section: str) -> tuple[str, ...]:
    """What a table's provenance names: its ``table`` field, its ``section`` field, and the section numbers
    that field opens its parts with, as ``§`` names (``"§7.1"``)."""
    numbers_ = [n.replace(" ", "") for n in _SECTION_FIELD.findall(section)]
    return tuple(t for t in (table, section, " ".join(f"§{n}" for n in numbers_)) if t)


def _log_header(path: Path) -> tuple[dict[str, str], list[str]]:
    header, body = {}, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and not body:
            k, _, v = line[2:].partition(": ")
            header[k] = v
        else:
            body.append(line)
    return header, body


def _log_document(source: str) -> str | None:
    """The data package's key of the document a log's ``source`` header names (by its short name)."""
    for k, doc in data.documents().items():
        short = doc.get("short", k)
        if source == short or source.startswith(short + ","):
            return k
    return None


def _copies(column: str, columns) -> bool:
    """Whether a table's ``column`` copies other cells of its row rather than transcribe printed numbers of its
    own: the sentence the row is read from (``quote``), or a cell's printed form (``as_printed`` beside
    ``value``, ``bytes_as_printed`` beside ``bytes``; not ``calculation_as_printed``, a column of its own)."""
    stem = column.removesuffix("as_printed").removesuffix("_")
    return column == "quote" or (column.endswith("as_printed") and (stem in columns or not stem and "value" in columns))


def row_numbers(cells: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The numbers a table's row transcribes, from its ``(column, text)`` cells: every number of its own cells,
    and of the cells that copy them (:func:`_copies`: the sentence quoted, a cell's printed form) each
    :func:`key` only as often as the copy holding it most holds it beyond the row's own cells
    (``[("value", "64"), ("quote", "avoid 64 byte payloads")]`` hold one 64)."""
    columns = {c for c, _ in cells}
    own: list[str] = []
    copied: Counter = Counter()
    extra: dict[str, list[str]] = {}
    for column, text in cells:
        found = numbers(str(text))
        if not _copies(column, columns):
            own += found
            continue
        here = Counter(key(n) for n in found)
        for k, c in here.items():
            if c > copied[k]:
                extra[k] = [n for n in found if key(n) == k]
                copied[k] = c
    mine = Counter(key(n) for n in own)
    return tuple(own) + tuple(n for k, found in extra.items() for n in found[mine[k]:])


def transcriptions() -> list[Transcription]:
    """Every transcription of a document: each published table (the text of every cell as printed, but
    for columns that name a place in the document; each row's numbers once per copy, :func:`row_numbers`) and
    each verbatim log in ``data/logs/published/`` whose ``# source:`` header names a document."""
    out = []
    for name in data.names():
        frame = data.load(name)
        p = frame.attrs["provenance"]
        printed = frame.attrs["printed"]
        rows = [(" ".join(_reference(c, printed[c][i]) for c in printed if c in _REFERENCE_COLUMNS),
                 " ".join(str(printed[c][i]) for c in printed if c not in _REFERENCE_COLUMNS))
                for i in range(len(frame))]
        settings = tuple((frame.attrs["titles"].get(column, column), t, row) for column in setting_columns(frame)
                         if column not in _REFERENCE_COLUMNS for t, row in zip(printed[column], rows))
        held = tuple((row_numbers([(c, printed[c][i]) for c in printed if c not in _REFERENCE_COLUMNS]), row)
                     for i, row in enumerate(rows))
        out.append(Transcription(p["document"], name, _provenance_texts(p["table"], p["section"]),
                                 tuple(n for found, _ in held for n in found), settings, held))
    for path in sorted((data.published_dir().parent / "logs" / "published").glob("*.log")):
        header, body = _log_header(path)
        document = _log_document(header.get("source", ""))
        if document is not None:
            out.append(Transcription(document, f"logs/published/{path.name}", (header["source"],),
                                     tuple(numbers("\n".join(body)))))
    return out


def transcribed(copies: Iterable[Transcription], census: Census | None = None) -> pd.DataFrame:
    """Per covered section, how many of the numbers it prints a transcription holds.

    A transcription counts in the sections it names (:func:`place`'s names, all of them; one that names none
    of the census's sections counts nowhere): each number it holds counts for one printed number of the same
    :func:`key` there that no transcription counted yet, a table's first in the sections its row names (as
    :func:`settings` orders them), a log's in the document's order. So a section never counts more than it
    prints, and a condition a long table repeats in every row counts as often as the document prints it.
    Columns: document, section, transcribed.
    """
    census = _read(str(census_dir())) if census is None else census
    found = []
    for t in copies:
        pool = sections_named(t.document, t.where, census)
        if t.rows:
            order = _by_row(census, t.document, pool)
            found += [(t.document, order(row), held) for held, row in t.rows]
        else:
            found.append((t.document, pool, t.numbers))
    got = _counted(census, found)
    return pd.DataFrame([{"document": d, "section": s, "transcribed": got[(d, s)]} for d, s in census.keys],
                        columns=["document", "section", "transcribed"])


def _counted(census: Census, found, taken: Counter | None = None) -> Counter:
    """Per (document, section), how many printed numbers ``found`` accounts for: each of its ``(document,
    sections, numbers)`` counts each number once, for one printed number of the same :func:`key` in the first
    of ``sections`` that prints one nothing counted yet (nor ``taken``: per (document, section, key), printed
    numbers something else holds)."""
    left = {k: Counter(v) for k, v in census.keys.items()}
    for (document, section, k), n in (taken or Counter()).items():
        left[(document, section)][k] -= min(n, left[(document, section)][k])
    got: Counter = Counter()
    for document, pool, numbers_ in found:
        for n in numbers_:
            k = key(n)
            for s in pool:
                if left[(document, s)][k] > 0:
                    left[(document, s)][k] -= 1
                    got[(document, s)] += 1
                    break
    return got


def _by_row(census: Census, document: str, pool: list[str]):
    """A function giving, for a table's row (the text of its section and table columns, of its other cells),
    the sections of ``pool`` it may count in: those the row's section or table column names, if it names any of
    ``pool`` (a row that says where it is printed counts nowhere else), else all of ``pool``; ranked by how the
    row names them: its section column by number first ("§6.2.1", not a section of the same title elsewhere),
    then by caption, heading or alias, then as a section above ("§5" names 5.1 too), then those its other cells
    name, then those whose headings share the most words with the row (the document's order within a rank);
    ``pool`` as it is when it has one section."""
    if len(pool) < 2:
        return lambda row: pool
    headings = {s: _heading_words(census, document, s) for s in pool}
    cache: dict[tuple[str, str], list[str]] = {}

    def order(row: tuple[str, str]) -> list[str]:
        if row not in cache:
            where, rest = row
            by_where, by_rest = _candidates(census, document, where), _candidates(census, document, rest)
            numbered = {n for k, n in names(where) if k == "§"}
            words = _letters(_words(" ".join(row)))
            rank = {s: (_section_number(s) not in numbered, not by_where.get(s, False), s not in by_where,
                        s not in by_rest, -len(words & headings[s])) for s in pool}
            mine = [s for s in pool if s in by_where] or pool
            cache[row] = sorted(mine, key=rank.__getitem__)  # stable: the document's order within a rank
        return cache[row]
    return order


def settings(copies: Iterable[Transcription], items: Iterable[checks.SourceCheck] = (),
             census: Census | None = None, placed: Iterable[tuple[checks.SourceCheck, str]] | None = None
             ) -> pd.DataFrame:
    """Per covered section, how many of the numbers it prints are settings (:data:`SETTING_RULE`).

    Each number of a transcription's setting cells counts, as :func:`transcribed` counts, for one printed
    number of the same :func:`key` in the sections the transcription names that no setting counted yet,
    first in those its row names (a section column), then in those whose headings (with the headings above
    them) share the most words with the row (a table of three boards' sections gives a row of the DM642's
    to the DM642's section). A cell one of ``items`` checks (the same published table, column title and
    printed text) is a result and does not count; nor does a printed number a check holds, wherever its
    value was transcribed (each distinct cell checked takes one printed number of its value in the section
    :func:`place` puts it in, before any setting; ``placed``: the checks with their sections, when the
    caller has placed them already). Columns: document, section, settings.
    """
    census = _read(str(census_dir())) if census is None else census
    items = list(items)
    if placed is None:
        counted = set(census.sections["document"])
        placed = [(c, place(c.document, [c.row, c.where], _value(c), census)) for c in items if c.document in counted]
    compared = {(c.resource, c.quantity, c.published) for c in items}
    here: dict[tuple[str, str], list[checks.SourceCheck]] = {}
    for c, section in placed:
        if section != ELSEWHERE:
            here.setdefault((c.document, section), []).append(c)
    taken = Counter({(document, section, k): n for (document, section), mine in here.items()
                     for k, n in _cell_keys(mine)[0].items()})
    found = []
    for t in copies:
        pool = sections_named(t.document, t.where, census)
        order = _by_row(census, t.document, pool)
        found += [(t.document, order(row), numbers(text)) for title, text, row in t.settings
                  if (t.name, title, text) not in compared]
    got = _counted(census, found, taken)
    return pd.DataFrame([{"document": d, "section": s, "settings": got[(d, s)]} for d, s in census.keys],
                        columns=["document", "section", "settings"])


#: The columns :func:`by_section` and :func:`by_document` add to the census's count: of the numbers printed,
#: the settings (:data:`SETTING_RULE`) and the results, and the results no check checks yet.
SETTINGS_COLUMNS = ["settings", "results", "remaining"]


def _split(row: dict, settings_: int, held: int | None = None) -> dict:
    """``row`` with :data:`SETTINGS_COLUMNS` after its ``printed``: settings, results (printed less settings)
    and remaining (results less the printed numbers checked, ``held``, or the cells checked; never below
    zero)."""
    results = row["printed"] - settings_
    held = row["checked"] if held is None else held
    extra = {"settings": settings_, "results": results, "remaining": max(0, results - held)}
    out = {}
    for k, v in row.items():
        out[k] = v
        if k == "printed":
            out.update(extra)
    return out


def _cell_keys(here: list[checks.SourceCheck]) -> tuple[Counter, int]:
    """The distinct cells ``here`` check (:func:`cells`): how many hold each value (per :func:`key`; a cell
    printing one number and verifying only it), and how many numbers the others verify."""
    by_key: Counter = Counter()
    other = 0
    for c in cells(here).itertuples():
        n = numbers(c.published)
        if c.verifies == 1 and len(n) == 1:
            by_key[key(n[0])] += 1
        else:
            other += c.verifies
    return by_key, other


def _held(printed_: Counter, here: list[checks.SourceCheck]) -> int:
    """How many of the numbers a section prints (``printed_``: per :func:`key`) the checks placed there
    hold: a cell checked counts for one printed number of its value, never more than the section prints of
    that value (two tables transcribing one printed number are one number checked); a cell that verifies
    more numbers than its own (:data:`CHECKED_RULE`) counts them all."""
    by_key, other = _cell_keys(here)
    return other + sum(min(v, printed_[k]) for k, v in by_key.items())


def _value(c: checks.SourceCheck) -> str:
    """The :func:`key` of the number a check checks, or ``""``."""
    found = numbers(c.published)
    return key(found[0]) if len(found) == 1 else ""


def _row(section: str, printed_: int, here: list[checks.SourceCheck], copied: int) -> dict:
    status = Counter(c.status for c in here)
    return {"section": section, "printed": printed_, "checked": int(cells(here)["verifies"].sum()),
            "transcribed": copied,
            **{s: status[s] for s in checks.STATUSES}}


def by_section(document: str, items: Iterable[checks.SourceCheck] | None = None, census: Census | None = None,
               copies: Iterable[Transcription] | None = None) -> pd.DataFrame:
    """One row per covered section of ``document``, then :data:`ELSEWHERE` (the checks placed in no section,
    if any): section, printed, checked (distinct cells), transcribed, and how many checks have each status of
    :data:`goodput.checks.STATUSES`."""
    census = _read(str(census_dir())) if census is None else census
    items = [c for c in (checks.collect() if items is None else items) if c.document == document]
    copies = transcriptions() if copies is None else copies
    mine = census.covered(document)
    got = transcribed([t for t in copies if t.document == document], census)
    got = dict(zip(*got.loc[got["document"] == document, ["section", "transcribed"]].T.values))
    placed = [(c, place(document, [c.row, c.where], _value(c), census)) for c in items]
    fixed = settings([t for t in copies if t.document == document], items, census, placed)
    fixed = dict(zip(*fixed.loc[fixed["document"] == document, ["section", "settings"]].T.values))
    here = {r.section: [c for c, s in placed if s == r.section] for r in mine.itertuples()}
    rows = [_split(_row(r.section, r.numbers, here[r.section], got.get(r.section, 0)), fixed.get(r.section, 0),
                   _held(census.keys[(document, r.section)], here[r.section])) for r in mine.itertuples()]
    rest = [c for c, s in placed if s == ELSEWHERE]
    if rest:
        rows.append(_split(_row(ELSEWHERE, 0, rest, 0), 0))
    return pd.DataFrame(rows, columns=["section", "printed", *SETTINGS_COLUMNS, "checked", "transcribed",
                                       *checks.STATUSES])


def every_section(items: Iterable[checks.SourceCheck] | None = None, census: Census | None = None,
                  copies: Iterable[Transcription] | None = None) -> dict[str, pd.DataFrame]:
    """:func:`by_section` of each document the census counts, in its order (what :func:`by_document` and
    :func:`goodput.render.status_coverage.sections_html` both show, counted once)."""
    census = _read(str(census_dir())) if census is None else census
    items = list(checks.collect() if items is None else items)
    copies = list(transcriptions() if copies is None else copies)
    return {d: by_section(d, items, census, copies) for d in census.sections["document"].drop_duplicates()}


def by_document(items: Iterable[checks.SourceCheck] | None = None, census: Census | None = None,
                copies: Iterable[Transcription] | None = None,
                sections: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """One row per document of the data package that the census counts or a check names, in the package's
    order: document, printed (in its covered sections; missing for a document the census does not count),
    :data:`SETTINGS_COLUMNS` (settings, results, and remaining: the sum of its sections' in :func:`by_section`,
    so a section with more cells checked than results does not hide another's; missing likewise),
    checked (distinct cells), transcribed (missing likewise), and how many checks have each status of
    :data:`goodput.checks.STATUSES`. ``sections``: :func:`every_section` of the same checks, census and
    transcriptions, when the caller has counted it already."""
    census = _read(str(census_dir())) if census is None else census
    items = list(checks.collect() if items is None else items)
    copies = list(transcriptions() if copies is None else copies)
    counted = set(census.sections["document"])
    every = every_section(items, census, copies) if sections is None else sections
    got = transcribed([t for t in copies if t.document in counted], census)
    rows = []
    for document in [d for d in data.documents() if d in counted or any(c.document == d for c in items)]:
        mine = [c for c in items if c.document == document]
        sections = every[document] if document in counted else None
        row = _split(_row("", int(census.covered(document)["numbers"].sum()), mine,
                          int(got.loc[got["document"] == document, "transcribed"].sum())),
                     0 if sections is None else int(sections["settings"].sum()))
        if sections is not None:
            row["remaining"] = int(sections["remaining"].sum())
        else:
            row.update(dict.fromkeys(["printed", "transcribed", *SETTINGS_COLUMNS]))
        rows.append({"document": document, **{k: v for k, v in row.items() if k != "section"}})
    frame = pd.DataFrame(rows, columns=["document", "printed", *SETTINGS_COLUMNS, "checked", "transcribed",
                                        *checks.STATUSES])
    return frame.astype({c: "Int64" for c in ("printed", *SETTINGS_COLUMNS, "transcribed")})


# --- the ledger of results no check checks -------------------------------------------------

#: The ledger's columns: the section (as the census names it), how many of its remaining results a row
#: accounts for, whether a check could fail on them (:data:`UNCHECKED_KINDS`), and which numbers and why.
UNCHECKED_COLUMNS = ["document", "section", "numbers", "kind", "reason"]

#: The kinds of unchecked result, and what each means, as the status page says it.
UNCHECKED_KINDS = {
    "uncheckable": "nothing the document prints or a model of the book gives could make a check of them fail",
    "not yet": "a check could be written and is not yet",
}


def unchecked_path() -> Path:
    """The ledger of the remaining results, written by hand: ``data/census/unchecked.csv``."""
    return census_dir() / "unchecked.csv"


def unchecked(census: Census | None = None, path: Path | None = None) -> pd.DataFrame:
    """The ledger (:data:`UNCHECKED_COLUMNS`): per covered section, how many of its remaining results each row
    accounts for and why no check checks them. A row naming a section the census does not cover, a count that is
    not a positive whole number, an unknown kind or an empty reason is a :class:`DataError` naming the file and
    line; so is a section's reason given twice."""
    census = _read(str(census_dir())) if census is None else census
    path = unchecked_path() if path is None else path
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except FileNotFoundError:
        raise DataError(f"{path}: no ledger of unchecked results here") from None
    if list(frame.columns) != UNCHECKED_COLUMNS:
        raise DataError(f"{path}:1: columns {list(frame.columns)} are not {UNCHECKED_COLUMNS}")
    covered = set(census.keys)
    seen = set()
    for line, row in enumerate(frame.itertuples(index=False), start=2):
        where = f"{path}:{line}"
        if (row.document, row.section) not in covered:
            raise DataError(f"{where}: {row.document!r} has no covered section {row.section!r} in the census")
        if not row.numbers.isdigit() or int(row.numbers) == 0:
            raise DataError(f"{where}: numbers {row.numbers!r} is not a positive whole number")
        if row.kind not in UNCHECKED_KINDS:
            raise DataError(f"{where}: kind {row.kind!r} is not one of {sorted(UNCHECKED_KINDS)}")
        if not row.reason.strip():
            raise DataError(f"{where}: no reason given")
        if (row.document, row.section, row.reason) in seen:
            raise DataError(f"{where}: the same reason twice for {row.document} / {row.section}")
        seen.add((row.document, row.section, row.reason))
    return frame.astype({"numbers": int})


def unaccounted(sections: pd.DataFrame, document: str, ledger: pd.DataFrame) -> pd.DataFrame:
    """Where ``ledger`` and :func:`by_section`'s ``sections`` of ``document`` disagree: one row per section whose
    remaining results are not the numbers its ledger rows account for (section, remaining, ledger)."""
    mine = ledger[ledger["document"] == document].groupby("section")["numbers"].sum()
    counted = sections[sections["section"] != ELSEWHERE].set_index("section")["remaining"]
    both = pd.DataFrame({"remaining": counted, "ledger": mine}).fillna(0).astype(int)
    both = both[both["remaining"] != both["ledger"]]
    return both.rename_axis("section").reset_index()


def ledger_for(census: Census | None = None, ledger: pd.DataFrame | None = None) -> pd.DataFrame:
    """``ledger``; if none, the committed one (:func:`unchecked`) for the committed census (``census`` None), an
    empty one for another census: the ledger the status page shows beside :func:`by_section`'s counts."""
    if ledger is not None:
        return ledger
    return unchecked() if census is None else pd.DataFrame(columns=UNCHECKED_COLUMNS).astype({"numbers": int})
