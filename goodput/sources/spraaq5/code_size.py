"""SPRAAQ5 §5 (code sizes), its §5.1 example reports (stack.lib per object file, client.out per section), checked
against themselves for the code-size chapter (:mod:`goodput.analysis.sizing`): every size printed in decimal against
the same size printed in hex, each "Totals by section type" line against the sections of its type the report prints,
and client.out's load and run addresses against the end of the section below each in memory."""

from __future__ import annotations

from goodput import checks
from goodput.analysis import sizing
from goodput.core import data

__all__ = ["SIZE_FORMS", "hex_checks", "source_checks", "TOTAL_OF_TYPE", "printed_parts", "totals_checks",
           "totals_source_checks", "ADDRESS_COLUMNS", "end_address", "address_checks", "address_source_checks"]


#: The printed numbers a size's check verifies: its decimal and its hex (:func:`hex_checks`).
SIZE_FORMS = 2


def hex_checks(t) -> list:
    """Every size SPRAAQ5 §5.1's reports print (``t``: the published ``spraaq5-s5-sizing`` or a copy) in decimal
    against the same size they print beside it in hex (``calculated``, exact: a count of bytes). The two are
    printed numbers of their own, and a wrong digit in either fails the check, so it verifies both
    (:data:`SIZE_FORMS`, the ``verifies`` of :class:`goodput.checks.SourceCheck`)."""
    return [checks.compare(t, row.Index, "size_dec", int(row.size_hex, 16),
                           f"{row.report}: {row.file} {row.section}",
                           f"Its hex {row.size_hex} is {{model:.0f}} bytes.",
                           off_note=f"{row.size_hex} is {{model:.0f}}, not {{published}}.",
                           exact=True, verifies=SIZE_FORMS)
            for row in t.itertuples()]


@checks.provider(sizing)
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
            t, row.Index, "size_dec", sum(parts), f"{row.report}: {row.file} {row.section}",
            f"At least the {len(parts)} sections of its type the report prints before eliding the rest: "
            "{rounded} bytes.",
            off_note=f"Less than the {len(parts)} sections of its type the report prints, {{rounded}} bytes: "
                     "a total cannot be smaller than some of its parts.",
            kind="consistency", relation=">="))
    return out


@checks.provider(sizing)
def totals_source_checks():
    """SPRAAQ5 §5.1's totals by section type against the sections each report prints."""
    return totals_checks(data.load("spraaq5-s5-sizing"))


# --- where the linker put each section: none overlaps the one below it ---------------------------

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
                prov["document"], prov["table"],
                f"{t.loc[i, 'report']}: {t.loc[i, 'section']} {what} address", f"{what} address", "byte address", printed[i], end_address(below, size),
                f"{here}: at or after the end of {under} = {{model:.0f}}), the section below it.", prov["resource"],
                kind="consistency", relation=">=", exact=True,
                off_note=f"{here}, inside {under} ends at {{model:.0f}}): two sections of one program cannot share "
                         "memory."))
    return out


@checks.provider(sizing)
def address_source_checks():
    """SPRAAQ5 §5.1's client.out: no section's load or run address inside the section below it."""
    return address_checks(data.load("spraaq5-s5-sizing"))
