"""The status page's account of the source documents: what they print in the sections the book covers and how
much of it the book checks and transcribes, :mod:`goodput.checks.coverage`'s counts as the page's sentences
(:func:`summary_markdown`) and tables (:func:`documents_html`, :func:`sections_html`)."""

from __future__ import annotations

import html
from typing import Iterable

import pandas as pd

from goodput import checks
from goodput.checks import coverage
from goodput.render.display import folded_html, frame_html, number
from goodput.render.pages import source_label

__all__ = ["summary_markdown", "documents_html", "sections_html"]


def summary_markdown(documents: pd.DataFrame, ledger: pd.DataFrame | None = None) -> str:
    """The status page's sentences over :func:`goodput.checks.coverage.by_document`'s table: what the census's
    documents print in their covered sections, how much of it is checked and transcribed, what the ledger of the
    remaining results (:func:`goodput.checks.coverage.unchecked`; ``None``: the committed one) says of them, and
    the counting rule."""
    ledger = coverage.ledger_for(None, ledger)
    counted = documents[documents["printed"].notna()]
    total, checked, copied, fixed, results, left = (
        int(counted[c].sum()) for c in ("printed", "checked", "transcribed", "settings", "results", "remaining"))
    kinds = ledger.groupby("kind")["numbers"].sum()
    why = "; ".join(f"{int(kinds.get(k, 0))} {k}: {meaning}" for k, meaning in coverage.UNCHECKED_KINDS.items())
    return (f"The {number(len(counted))} documents whose text we have print {total} numbers in the sections the "
            f"book covers: {fixed} settings (what a row is for) and {results} results. The source checks check "
            f"{checked} printed cells of these documents, which leaves {left} results that no check checks yet "
            f"(counted section by section); the published tables and logs transcribe {copied} of the numbers. "
            f"The goal is every result. Each remaining result is in the ledger `data/census/unchecked.csv`, which "
            f"says section by section which numbers they are and why no check checks them ({why}). "
            f"{coverage.NUMBER_RULE} {coverage.SETTING_RULE} {coverage.CHECKED_RULE} The census (`data/census/`) "
            "is counted from the documents' text by `tools/census.py`; a check is placed in the section its "
            "row or place names, and one that names none is counted under \"elsewhere\".")


def _document_link(document: str) -> str:
    """``document`` linked to its entry on the sources page."""
    return f'<a href="sources.html#{source_label(document)}">{html.escape(document)}</a>'


def documents_html(documents: pd.DataFrame) -> str:
    """:func:`goodput.checks.coverage.by_document`'s table as the status page shows it: each document linked to
    its entry on the sources page, no count for a document the census does not count."""
    shown = documents.astype(object).where(documents.notna(), "")
    return frame_html(shown, cells={"document": [_document_link(d) for d in documents["document"]]},
                      classes=("goodput-coverage-table",))


def _statuses(row) -> str:
    return ", ".join(f"{row[s]} {s}" for s in checks.STATUSES if row[s])


def _ledger_html(rows: pd.DataFrame) -> str:
    """A document's rows of the ledger as a list: section, how many, the kind, which numbers and why."""
    if rows.empty:
        return ""
    items = "".join(f"<li><strong>{html.escape(r.section)}</strong> ({r.numbers} {html.escape(r.kind)}): "
                    f"{html.escape(r.reason)}</li>" for r in rows.itertuples())
    return f"\n<p>The results no check checks, and why:</p>\n<ul>{items}</ul>"


def _in_order(rows: pd.DataFrame, sections: list[str]) -> pd.DataFrame:
    """``rows`` of the ledger in the order of ``sections`` (a stable sort: a section's rows as written)."""
    return rows.sort_values("section", key=lambda s: s.map(sections.index), kind="stable")


def sections_html(items: Iterable[checks.SourceCheck] | None = None, census: coverage.Census | None = None,
                  copies: Iterable[coverage.Transcription] | None = None, ledger: pd.DataFrame | None = None,
                  sections: dict[str, pd.DataFrame] | None = None) -> str:
    """Per document of the census, its sections that print a number or hold a check
    (:func:`goodput.checks.coverage.by_section`; ``sections``: :func:`goodput.checks.coverage.every_section`, when
    counted already), in a block the reader opens (``<details>``), the ledger's rows for them (``ledger``;
    ``None``: the committed one for the committed census, none for another) and the sections it leaves out and
    why."""
    ledger = coverage.ledger_for(census, ledger)
    census = coverage.census() if census is None else census
    every = coverage.every_section(items, census, copies) if sections is None else sections
    parts = []
    for document in census.sections["document"].drop_duplicates():
        frame = every[document]
        frame = frame[(frame["printed"] > 0) | (frame["checked"] > 0)]
        shown = pd.DataFrame({"section": frame["section"], "printed": frame["printed"],
                              **{c: frame[c] for c in coverage.SETTINGS_COLUMNS},
                              "checked": frame["checked"], "transcribed": frame["transcribed"],
                              "checks": [_statuses(r) for _, r in frame.iterrows()]})
        left = census.sections[(census.sections["document"] == document) & (census.sections["covered"] != "yes")]
        out = "; ".join(f"{html.escape(r.section)} ({html.escape(r.covered.removeprefix('no: '))})"
                        for r in left.itertuples())
        parts.append(folded_html(
            f"{document}: {int(frame['printed'].sum())} printed ({int(frame['settings'].sum())} settings, "
            f"{int(frame['results'].sum())} results), {int(frame['checked'].sum())} checked, "
            f"{int(frame['remaining'].sum())} results unchecked, {int(frame['transcribed'].sum())} transcribed",
            frame_html(shown.reset_index(drop=True), classes=("goodput-coverage-table",))
            + _ledger_html(_in_order(ledger[ledger["document"] == document], list(frame["section"])))
            + (f"\n<p>Not counted: {out}.</p>" if out else ""), classes=("goodput-coverage",)))
    return "\n".join(parts)
