"""Tables any chapter shows: its source checks, a published table as printed or beside the model.

The tables of one chapter alone are in that chapter's module."""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from .. import checks, data

__all__ = ["checks_summary", "checks_table", "published_vs_model", "published_table", "provenance_sentence"]


def checks_summary(chapter: str) -> pd.DataFrame:
    """How many of a chapter's checks are ok, rounding or erratum, per document and table."""
    frame = checks.to_frame(checks.collect(chapter))
    counts = frame.groupby(["document", "where", "status"]).size().unstack("status", fill_value=0)
    return counts.reindex(columns=list(checks.STATUSES), fill_value=0).reset_index()


def checks_table(chapter: str, only_problems: bool = False, resource: str | None = None) -> pd.DataFrame:
    """A chapter's source checks, one row each (or only those not ``ok``, or only those of one published
    table, ``resource``), as a reader compares them."""
    frame = checks.to_frame(checks.collect(chapter))
    if resource is not None:
        if resource not in set(frame["resource"]):
            raise KeyError(f"chapter {chapter!r} has no checks of {resource!r}")
        frame = frame[frame["resource"] == resource].reset_index(drop=True)
    if only_problems:
        frame = frame[frame["status"] != "ok"].reset_index(drop=True)
    shown = pd.DataFrame({
        "document": frame["document"],
        "where": frame["where"],
        "row": frame["row"],
        "quantity": [f"{q} ({u})" if u else q for q, u in zip(frame["quantity"], frame["unit"])],
        "published": frame["published"],
        "model": [f"{m:.6g}" for m in frame["model"]],
        "± printed": [f"{t:g}" for t in frame["tolerance"]],
        "status": frame["status"],
    })
    if only_problems:
        shown["note"] = frame["note"]
    return shown


def provenance_sentence(table: pd.DataFrame) -> str:
    """Where a published table came from, in Markdown: its title and place in the document, its
    conditions, what was reconstructed, and the document's citation (:func:`goodput.data.citation`)."""
    p = table.attrs["provenance"]
    text = f"*{p['title']}* ({p['table']}): {p['conditions']}"
    if p["reconstructed"]:
        text += f" Reconstructed: {p['reconstructed']}"
    return f"{text} Source: {p['citation']}"


def published_vs_model(name: str, column: str, chapter: str) -> pd.DataFrame:
    """A published table as printed, with the model's value and the check's status beside ``column``."""
    table = data.load(name)
    title = table.attrs["titles"][column]
    items = [c for c in checks.collect(chapter) if c.resource == name and c.quantity == title]
    if len(items) != len(table):
        raise ValueError(f"{chapter} checks {len(items)} cells of {name}.{column}, the table has {len(table)}")
    shown = pd.DataFrame({c: table.attrs["printed"][c] for c in table.columns
                          if not (c.endswith("_as_printed") and c != "calculation_as_printed")})
    shown[f"{column} (model)"] = [f"{c.model:.4f}" for c in items]
    shown["status"] = [c.status for c in items]
    return shown


def published_table(name: str, across: Sequence[str] = ()) -> pd.DataFrame:
    """A published table exactly as printed (its provenance is on the sources page).

    A table stored long (one row per printed cell, the conditions of the column headings in columns of
    their own) is spread back to the printed layout when ``across`` names those condition columns: its
    last column holds the cells, each combination of ``across`` is a printed column (headed
    ``"KeyStone I, single read"``), and its other columns name the printed rows, in the table's order.
    """
    t = data.load(name)
    shown = pd.DataFrame({c: t.attrs["printed"][c] for c in t.columns})
    if not across:
        return shown
    cell = shown.columns[-1]
    rows = [c for c in shown.columns if c not in across and c != cell]
    heading = shown[list(across)].agg(", ".join, axis=1)
    if not shown.assign(heading=heading)[rows + ["heading"]].drop_duplicates().shape[0] == len(shown):
        raise ValueError(f"{name}: {', '.join(rows)} and {', '.join(across)} do not name one printed cell each")
    wide = shown.assign(heading=heading).pivot(index=rows, columns="heading", values=cell)
    order = shown[rows].drop_duplicates()
    wide = wide.reindex(index=pd.MultiIndex.from_frame(order) if len(rows) > 1 else order[rows[0]],
                        columns=heading.drop_duplicates())
    wide.columns.name = None
    return wide.reset_index()
