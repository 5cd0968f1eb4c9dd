"""Tables any chapter shows: its source checks, a published table as printed or beside the model.

The tables of one chapter alone are in that chapter's module. A chapter's check table and the
errata page link to each other's rows: each check's row has the id :func:`goodput.checks.anchor`
gives it, each row of the errata page the id of its group (:func:`goodput.checks.group_anchor`)."""

from __future__ import annotations

import html
from typing import Sequence

import pandas as pd

from goodput import checks
from goodput.core import data
from goodput.render.display import Folded, frame_html

__all__ = ["checks_summary", "checks_table", "every_check", "bound_text", "published_vs_model", "published_table", "provenance_sentence",
           "LinkedTable", "chapter_href", "errata_href"]


def chapter_href(chapter: str, ident: str = "") -> str:
    """The address of a chapter's page (at ``ident``) from another page of the book."""
    return f"../notebooks/{chapter}.html" + (f"#{ident}" if ident else "")


def errata_href(ident: str) -> str:
    """The address of a row of the errata page from a chapter's page."""
    return f"../book/errata.html#{ident}"


class LinkedTable:
    """A table whose rows carry ids a link can land on, and whose cells may hold links.

    It shows as HTML (:func:`goodput.render.display.frame_html`) in the book and in JupyterLab, and
    as its plain ``frame`` wherever text is wanted (``repr``, :meth:`to_markdown`). Selecting
    columns, ``table[["row", "published"]]``, keeps the ids and links of the rows; one column,
    ``table["published"]``, is the frame's column.

    Parameters
    ----------
    frame : DataFrame
        The cells as text.
    ids : list of str or None, optional
        An HTML id per row (``None``: the row has none).
    links : list of str or None, optional
        An address per row (``None``: none), linked from the first of :attr:`LINKED` the table shows
        (else its first column).
    cells : dict, optional
        HTML for the cells of some columns, one per row (``None`` keeps the cell's text).
    classes, attrs : optional
        More classes and attributes of the HTML table.
    """

    #: The columns a row's link goes on, the first one shown.
    LINKED = ("status", "published")

    def __init__(self, frame: pd.DataFrame, ids=None, links=None, cells=None, classes=(), attrs=None):
        self.frame = frame.reset_index(drop=True)
        n = len(self.frame)
        self.ids = list(ids) if ids is not None else [None] * n
        self.links = list(links) if links is not None else [None] * n
        self.cells = {c: list(v) for c, v in (cells or {}).items()}
        if len(self.ids) != n or len(self.links) != n or any(len(v) != n for v in self.cells.values()):
            raise ValueError(f"ids, links and cells must have one entry per row ({n})")
        self.classes = tuple(classes)
        self.attrs = dict(attrs or {})

    @property
    def columns(self) -> pd.Index:
        return self.frame.columns

    def __len__(self) -> int:
        return len(self.frame)

    def __getitem__(self, key):
        if isinstance(key, str):
            return self.frame[key]
        columns = list(key)
        return LinkedTable(self.frame[columns], self.ids, self.links,
                           {c: v for c, v in self.cells.items() if c in columns}, self.classes, self.attrs)

    def __repr__(self) -> str:
        return repr(self.frame)

    def folded(self, summary: str) -> Folded:
        """The table in a block the reader opens, headed by ``summary`` (for a long table a chapter keeps
        for reference)."""
        return Folded(self, summary)

    def to_markdown(self, **kwargs) -> str:
        """The cells as a Markdown table (pandas' ``to_markdown``), without row numbers."""
        return self.frame.to_markdown(index=False, **kwargs)

    def _repr_html_(self) -> str:
        cells = dict(self.cells)
        if any(self.links) and len(self.frame.columns):
            column = next((c for c in self.LINKED if c in self.frame.columns), self.frame.columns[0])
            given = cells.get(column, [None] * len(self))
            cells[column] = [
                h if link is None else f'<a href="{html.escape(link)}">{html.escape(str(v)) if h is None else h}</a>'
                for v, h, link in zip(self.frame[column], given, self.links)]
        return frame_html(self.frame, row_ids=self.ids, cells=cells, classes=self.classes, attrs=self.attrs)


def checks_summary(chapter: str) -> pd.DataFrame:
    """How many of a chapter's checks have each status, per document and table: a column for ``ok`` and
    one for each other status (:data:`goodput.checks.STATUSES`) the chapter has."""
    frame = checks.to_frame(checks.collect(chapter))
    counts = frame.groupby(["document", "where", "status"]).size().unstack("status", fill_value=0)
    shown = [s for s in checks.STATUSES if s == "ok" or s in counts.columns]
    return counts.reindex(columns=shown, fill_value=0).reset_index()


def bound_text(c: checks.SourceCheck, digits: int = 6) -> str:
    """The value a check holds its printed number to, as its table shows it: ``"14.63"``, or ``"at most
    14.63"`` for a ceiling, ``"at least 64"`` for a floor; in hexadecimal digits where the document prints
    the number so (``"0xDADBAE33"``)."""
    value = checks.round_like(c.model, c.published) if c.published.strip().lower().startswith("0x") \
        else f"{c.model:.{digits}g}"
    return {"=": value, "<=": f"at most {value}", ">=": f"at least {value}"}[c.relation]


def checks_table(chapter: str, only_problems: bool = False, resource: str | None = None,
                 anchors: bool = True, kind: str | None = None) -> LinkedTable:
    """A chapter's source checks, one row each (or only those not ``ok``, or only those of one published
    table, ``resource``, or of one ``kind`` of :data:`goodput.checks.KINDS`), as a reader compares them.

    Each row has its check's id (:func:`goodput.checks.anchor`), which the errata page links to
    (``anchors=False``: none, for a second table of the same checks on one page), and a row the errata page
    lists (:data:`goodput.checks.ERRATA`) links to its group's row there.
    """
    everything = items = checks.collect(chapter)
    if resource is not None:
        if resource not in {c.resource for c in items}:
            raise KeyError(f"chapter {chapter!r} has no checks of {resource!r}")
        items = [c for c in items if c.resource == resource]
    if kind is not None:
        if kind not in checks.KINDS:
            raise ValueError(f"kind {kind!r} is none of {', '.join(checks.KINDS)}")
        items = [c for c in items if c.kind == kind]
    if only_problems:
        items = [c for c in items if c.status != "ok"]
    frame = checks.to_frame(items)
    shown = pd.DataFrame({
        "document": frame["document"],
        "where": frame["where"],
        "row": frame["row"],
        "quantity": [f"{q} ({u})" if u else q for q, u in zip(frame["quantity"], frame["unit"])],
        "published": frame["published"],
        "model": [bound_text(c) for c in items],
        "± printed": [f"{t:g}" for t in frame["tolerance"]],
        "status": frame["status"],
    })
    if only_problems:
        shown["note"] = frame["note"]
    elif any(c.status != "ok" and c.note for c in items):  # why a number is off: the errata page says it for
        shown["note"] = [c.note if c.status != "ok" else "" for c in items]  # its own, this table for the rest
    errata = {checks.anchor(c): checks.group_anchor(g)
              for g in checks.groups(c for c in everything if c.status in checks.ERRATA) for c in g}
    return LinkedTable(shown, ids=[checks.anchor(c) for c in items] if anchors else None,
                       links=[errata_href(errata[a]) if a in errata else None for a in map(checks.anchor, items)])


def every_check(chapter: str) -> Folded:
    """Every check of a chapter, one row each, folded (the rows of its problems table carry the ids):
    for a chapter whose checks are too many to read through on its page."""
    table = checks_table(chapter, anchors=False)
    return table.folded(f"Every check of this chapter, one per row ({len(table)})")


def provenance_sentence(table: pd.DataFrame) -> str:
    """Where a published table came from, in Markdown: its title and place in the document, its
    conditions, what was reconstructed, and the document's citation (:func:`goodput.core.data.citation`)."""
    p = table.attrs["provenance"]
    text = f"*{p['title']}* ({p['table']}): {p['conditions']}"
    if p["reconstructed"]:
        text += f" Reconstructed: {p['reconstructed']}"
    return f"{text} Source: {p['citation']}"


def published_vs_model(name: str, column: str, chapter: str) -> pd.DataFrame:
    """A published table as printed, with the model's value (``model_<column>``) and the check's status beside
    ``column``."""
    table = data.load(name)
    title = table.attrs["titles"][column]
    items = [c for c in checks.collect(chapter) if c.resource == name and c.quantity == title]
    if len(items) != len(table):
        raise ValueError(f"{chapter} checks {len(items)} cells of {name}.{column}, the table has {len(table)}")
    shown = pd.DataFrame({c: table.attrs["printed"][c] for c in table.columns
                          if not (c.endswith("_as_printed") and c != "calculation_as_printed")})
    shown[f"model_{column}"] = [f"{c.model:.4f}" for c in items]  # headed "Model bandwidth (Gbit/s)"
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
