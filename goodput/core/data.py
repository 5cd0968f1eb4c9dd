"""Published tables: transcriptions of the source documents, with their provenance.

The tables live in ``data/published/`` as CSV files described by one Frictionless
data package, ``datapackage.json``: the schema of each table (column names,
types, units, constraints) and where it came from (document, table, conditions,
what had to be reconstructed from a garbled conversion).

:func:`load` returns a :class:`pandas.DataFrame` (:func:`rows`, the same values as dicts, without pandas)
whose ``attrs`` carry:

``provenance``
    ``resource``, ``title``, ``document``, ``citation`` (the document cited, as
    :func:`citation` formats it), ``table``, ``section``, ``conditions``,
    ``reconstructed``.
``units``, ``titles``
    Per column.
``printed``
    Per column, each cell's text exactly as transcribed, so a source check can
    tell the precision the document printed (``"35.5"`` is not ``"35.50"``):
    a list by row position, which is the frame's index label. A selection of
    rows keeps its labels, so ``attrs["printed"][column][row.Index]`` still
    finds a cell; :func:`printed` gives the texts of a selection's rows.
``keys``
    The columns that name a row (the schema's ``primaryKey``), in order.
``roles``
    Per column whose schema field states one, its ``role``: ``"setting"`` for a
    column that holds what a run was configured with (a clock, a line rate, the
    bounds of an interval) rather than what it measured or calculated.

A table printed with conditions in its column headings (link width, payload size,
measured or calculated) is stored long: one row per printed cell, the heading's
conditions in columns of their own. Code selects rows by those columns, takes a
condition the rows share with :func:`single`, and names the conditions that tell
rows apart with :func:`varying`.

Each of the package's ``sources`` is a document as a reader finds it: ``publisher``,
``title`` and a ``number`` (the publisher's document number, ISBN, RFC or commit) or a
``url`` (its public home), with ``revision``, ``date`` and ``year`` as the document
states them, and optionally ``authors``, ``subtitle``, ``short`` (how a heading names
it: ``"TI SPRABK5"``), ``heading``, ``note`` and ``read_from`` (where we read a
document whose public home we could not use, which is not part of its citation).
:func:`citation` formats one; loading the package rejects a source a reader could
not find.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from goodput.core import resources
from goodput.core.errors import DataError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["published_dir", "package", "names", "documents", "citation", "provenance", "load", "rows", "printed",
           "single", "varying"]

_CONVERTERS = {
    "number": float,
    "integer": int,
    "string": str,
}


def published_dir() -> Path:
    """Folder of the published tables (``$GOODPUT_DATA`` overrides the repository's)."""
    env = os.environ.get("GOODPUT_DATA")
    if env:
        return Path(env)
    return resources.path("data", "published")


@lru_cache(maxsize=None)
def _package(folder: str) -> dict:
    path = Path(folder) / "datapackage.json"
    try:
        descriptor = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{path}: no data package here") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    for source in descriptor.get("sources", []):
        _check_source(source, path)
    return descriptor


#: Text fields a source may have besides its name (see the module's docstring).
_SOURCE_TEXT = ("publisher", "title", "subtitle", "authors", "number", "revision", "date", "url", "short",
                "heading", "note", "read_from")


def _check_source(source: dict, path: Path) -> None:
    """Refuse a source a reader could not find: no publisher, no title, neither number nor URL."""
    name = source.get("name")
    if not name:
        raise DataError(f"{path}: a source has no name: {source!r}")
    if "file" in source:
        raise DataError(f"{path}: source {name!r} is named by a file; cite the document by its publisher, "
                        "title and number or url, and say where we read it in 'read_from'")
    for key in _SOURCE_TEXT:
        if key in source and not (isinstance(source[key], str) and source[key].strip()):
            raise DataError(f"{path}: source {name!r}: {key!r} must be non-empty text")
    missing = [f"no {key}" for key in ("publisher", "title") if key not in source]
    if "number" not in source and "url" not in source:
        missing.append("neither a number nor a url")
    if missing:
        raise DataError(f"{path}: source {name!r} has {', '.join(missing)}: a reader could not find the document")
    if "url" in source and not source["url"].startswith(("https://", "http://")):
        raise DataError(f"{path}: source {name!r}: url {source['url']!r} is not a web address")
    if "year" in source and not isinstance(source["year"], int):
        raise DataError(f"{path}: source {name!r}: year {source['year']!r} is not a number")


def package() -> dict:
    """The data package descriptor (``datapackage.json``) as a dict."""
    return _package(str(published_dir()))


def names() -> list[str]:
    """Names of every published table, in the package's order."""
    return [r["name"] for r in package()["resources"]]


def documents() -> dict[str, dict]:
    """Source documents by name (``"AN3935"``): publisher, title, number, revision... as in the package."""
    return {s["name"]: s for s in package()["sources"]}


def citation(name: str) -> str:
    """How the book cites document ``name``, in Markdown: ``Publisher, *Title*, number, revision (date).
    URL``; a document with authors starts with them (``Authors, *Title*, Publisher, ...``).

    The number is left out where the title already says it (RapidIO's "Part 6"); the year is given where
    the document states no date (and its revision does not say the year).
    """
    doc = documents().get(name)
    if doc is None:
        raise DataError(f"no source document named {name!r}; known: {', '.join(documents())}")
    title = f"*{doc['title']}: {doc['subtitle']}*" if "subtitle" in doc else f"*{doc['title']}*"
    parts = [doc["authors"], title, doc["publisher"]] if "authors" in doc else [doc["publisher"], title]
    if "number" in doc and doc["number"] not in doc["title"]:
        parts.append(doc["number"])
    if "revision" in doc:
        parts.append(f"{doc['revision']} ({doc['date']})" if "date" in doc else doc["revision"])
    elif "date" in doc:
        parts.append(doc["date"])
    if "year" in doc and "date" not in doc and str(doc["year"]) not in doc.get("revision", ""):
        parts.append(str(doc["year"]))
    text = ", ".join(parts) + "."
    return f"{text} <{doc['url']}>" if "url" in doc else text


def _resource(name: str) -> dict:
    for r in package()["resources"]:
        if r["name"] == name:
            return r
    raise DataError(f"no published table named {name!r}; known: {', '.join(names())}")


def provenance(name: str) -> dict:
    """Where table ``name`` came from: document, table, section, conditions, reconstruction."""
    r = _resource(name)
    doc = documents().get(r["document"])
    if doc is None:
        raise DataError(f"table {name!r} names document {r['document']!r}, "
                        "which is not among the package's sources")
    return {
        "resource": name,
        "title": r.get("title", name),
        "document": r["document"],
        "citation": citation(r["document"]),
        "table": r["table"],
        "section": r.get("section", ""),
        "conditions": r.get("conditions", ""),
        "reconstructed": r.get("reconstructed", ""),
    }


class Printed(Mapping):
    """Each column's cells as printed, read-only. pandas deep-copies a frame's ``attrs`` into every frame
    an operation makes from it (a row, a selection); a copy of this is itself, so selecting a row does not
    copy the whole table's text."""

    def __init__(self, columns: dict[str, tuple[str, ...]]):
        self._columns = columns

    def __getitem__(self, column: str) -> tuple[str, ...]:
        return self._columns[column]

    def __iter__(self):
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def __deepcopy__(self, memo):
        return self


def load(name: str) -> pd.DataFrame:
    """Table ``name`` as a DataFrame typed by its schema, provenance in ``attrs``."""
    import pandas as pd  # here, not on import: a command that reads no table starts without it

    r = _resource(name)
    path = published_dir() / r["path"]
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    except FileNotFoundError:
        raise DataError(f"{path}: table {name!r} is in the data package but its file is missing") from None
    schema = r["schema"]["fields"]
    frame = pd.DataFrame(index=raw.index)
    for column, values in _typed(path, r, {c: list(raw[c]) for c in raw.columns}).items():
        frame[column] = values
    frame.attrs["provenance"] = provenance(name)
    frame.attrs["units"] = {f["name"]: f.get("unit", "") for f in schema}
    frame.attrs["titles"] = {f["name"]: f.get("title", f["name"]) for f in schema}
    frame.attrs["printed"] = Printed({c: tuple(raw[c]) for c in raw.columns})
    frame.attrs["keys"] = list(r["schema"].get("primaryKey", []))
    frame.attrs["roles"] = {f["name"]: f["role"] for f in schema if "role" in f}
    return frame


def rows(name: str) -> list[dict]:
    """Table ``name``'s rows, each a dict of its cells typed by the schema as :func:`load` types them, read
    without pandas: for a command that needs a table's values, not its frame (``goodput bus``)."""
    r = _resource(name)
    path = published_dir() / r["path"]
    try:
        with open(path, encoding="utf-8", newline="") as f:
            header, *body = [row for row in csv.reader(f) if row]  # pandas skips blank lines too
    except FileNotFoundError:
        raise DataError(f"{path}: table {name!r} is in the data package but its file is missing") from None
    if any(len(row) != len(header) for row in body):
        line = next(i for i, row in enumerate(body, 2) if len(row) != len(header))
        raise DataError(f"{path}:{line}: {len(header)} columns in the heading, not in this row")
    columns = _typed(path, r, {c: [row[i] for row in body] for i, c in enumerate(header)})
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


def _typed(path: Path, resource: dict, raw: dict[str, list[str]]) -> dict[str, list]:
    """The columns ``raw`` (each cell's text, the file's columns in order) typed by ``resource``'s schema: an
    empty cell NaN where the schema allows it, a :class:`DataError` naming the file, line and column if not."""
    schema = resource["schema"]["fields"]
    expected = [f["name"] for f in schema]
    if list(raw) != expected:
        raise DataError(f"{path}:1: columns {list(raw)} do not match the schema {expected}")
    missing = set(resource["schema"].get("missingValues", []))
    out = {}
    for f in schema:
        convert = _CONVERTERS[f["type"]]
        optional = not f.get("constraints", {}).get("required", False)
        values = []
        for i, text in enumerate(raw[f["name"]]):
            if text in missing:
                if not optional:
                    raise DataError(f"{path}:{i + 2}: column {f['name']!r} is required but empty")
                values.append(float("nan"))
                continue
            try:
                # a number printed with its thousands split ("70 800"): the schema names the character (groupChar)
                values.append(convert(text.replace(f["groupChar"], "") if "groupChar" in f else text))
            except ValueError:
                raise DataError(f"{path}:{i + 2}: column {f['name']!r} holds {text!r}, "
                                f"not a {f['type']}") from None
        out[f["name"]] = values
    return out


def printed(frame: pd.DataFrame, column: str) -> pd.Series:
    """The text as printed of ``column`` in the rows of ``frame`` (a loaded table or a selection of
    its rows), indexed like ``frame``."""
    import pandas as pd

    texts = frame.attrs["printed"][column]
    return pd.Series([texts[i] for i in frame.index], index=frame.index, dtype=object, name=column)


def single(frame: pd.DataFrame, column: str):
    """The one value ``column`` holds in every row of ``frame``: a condition the rows share (an error if
    they hold several, or none)."""
    values = frame[column].drop_duplicates().tolist()
    if len(values) != 1:
        name = frame.attrs.get("provenance", {}).get("resource", "the rows")
        raise DataError(f"{name}: column {column!r} holds {values!r} in these rows, not one value")
    return values[0]


def varying(frame: pd.DataFrame, formats: dict[str, str], within=()) -> pd.Series:
    """Per row, the conditions that tell it from the other rows of ``frame`` sharing its ``within``
    columns: each column of ``formats`` whose values differ among them, formatted by its entry
    (``"x{:g}"``), joined by ", "; ``""`` where none differs. Empty cells differ from nothing."""
    import pandas as pd

    groups = frame.groupby(list(within), sort=False, dropna=False) if within else [((), frame)]
    out = pd.Series("", index=frame.index, dtype=object)
    for _, group in groups:
        differ = [c for c in formats if group[c].nunique(dropna=True) > 1]
        for i in group.index:
            out[i] = ", ".join(formats[c].format(group.at[i, c]) for c in differ if group.at[i, c] == group.at[i, c])
    return out
