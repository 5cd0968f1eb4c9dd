"""What a machine prints, declared as data: a format's records and fields, and one reader for every format.

A :class:`Format` says how to recognise a text (``detect``), where each of its records starts (a device of
``lspci -vv``, an interface of ``ip link``) and what each field of a record is (:class:`Field`: a regular
expression with one group, the kind of value, the values allowed). The declaration is plain data on purpose:
:meth:`Format.spec` hands it to the page's script, which reads a paste with the same patterns (each written
so that Python's ``re`` and JavaScript's ``RegExp`` read it alike: no named groups, no look-behind, no inline
flags). :func:`read` is the Python reader; it names the source and the line of anything it refuses.

A JSON format (``iperf3 -J``) has ``json`` set: its fields are paths into the document (``end.sum_sent.
bits_per_second``) instead of patterns, and the whole document is one record.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from goodput.core.errors import LogFormatError
from goodput.logs.text import log_lines

__all__ = ["Field", "Measure", "Note", "Format", "Record", "Setting", "read", "passed_over", "measured", "settings_of",
           "MAX_PASTE_BYTES"]

#: The most text a paste or a file may hold: a whole ``lspci -vv`` of a large server is under 1 MB.
MAX_PASTE_BYTES = 4 << 20

_KINDS = ("int", "number", "text", "flag", "present")


@dataclass(frozen=True)
class Field:
    """One value of a record.

    Parameters
    ----------
    name : str
        The value's name in the record (``lanes``, ``mtu``).
    pattern : str
        A regular expression with one group (none for ``present``), searched in the record's text; for a JSON
        format, the path to the value (``end.sum_sent.bits_per_second``).
    kind : str
        ``int`` or ``number`` (the group read as a number), ``text``, ``flag`` (the group is ``+`` or ``-``),
        ``present`` (whether the pattern matches at all).
    allowed : tuple
        The only values the field may take; another is refused naming the field and its line.
    what : str
        What the value is, as a message names it ("link width").
    """

    name: str
    pattern: str
    kind: str = "int"
    allowed: tuple = ()
    what: str = ""

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"{self.name}: kind {self.kind!r} is not one of {', '.join(_KINDS)}")

    def spec(self) -> dict:
        return {"name": self.name, "pattern": self.pattern, "kind": self.kind, "allowed": list(self.allowed),
                "what": self.what or self.name}


@dataclass(frozen=True)
class Measure:
    """What a record of a measurement (``iperf3 -J``, a firmware log) measured, as data the page reads too: the
    field ``value`` times ``scale``, over the field ``per`` where one is named (bytes over nanoseconds), in
    ``unit``, in transfers of the field ``size`` (bytes). A record whose fields differ from ``only`` (field,
    value pairs) is no measurement of the link's ceiling, for the reason ``why_not`` gives (a UDP run, a paced
    one); ``label`` names fields that tell its runs apart (a direction)."""

    value: str
    unit: str
    size: str
    scale: float = 1
    per: str = ""
    only: tuple = ()
    why_not: str = ""
    label: tuple[str, ...] = ()

    def spec(self) -> dict:
        return {"value": self.value, "unit": self.unit, "size": self.size, "scale": self.scale, "per": self.per,
                "only": [list(pair) for pair in self.only], "whyNot": self.why_not, "label": list(self.label)}


@dataclass(frozen=True)
class Note:
    """What a record's own fields say is worth knowing, as data both readers evaluate: where the field ``below``
    is below the field ``above`` (a link trained narrower than it can), ``text`` with each ``{field}`` its value."""

    below: str
    above: str
    text: str

    def spec(self) -> dict:
        return {"below": self.below, "above": self.above, "text": self.text}

    def said(self, values: dict) -> str | None:
        """The note for a record's ``values``, or None where it does not hold (or a field is missing)."""
        if self.below not in values or self.above not in values or not values[self.below] < values[self.above]:
            return None
        return re.sub(r"\{(\w+)\}", lambda m: _shown(values.get(m.group(1), "?")), self.text)


def _shown(value) -> str:
    """A value as a note writes it, as JavaScript's String() does: 8.0 is 8."""
    return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class Format:
    """A text a machine prints: how to recognise it, where its records start, and their fields.

    Parameters
    ----------
    key : str
        Its name in the page and the command's JSON (``lspci``).
    title : str
        What it is, as a reader types it (``lspci -vv``).
    detect : str
        A regular expression matching some line of the text (searched line by line) only this format prints.
    record : str
        A regular expression matching the first line of each record, its one group the record's name (a device's
        address, an interface's name); text before the first record is not the format's (a tool's warnings).
    fields : tuple of Field
        The values of a record.
    json : bool
        Whether the text is one JSON document (``fields`` then give paths into it).
    measure : Measure, optional
        What a record measured, for a measurement's format (a link's settings have none).
    notes : tuple of Note
        What a record's fields say is worth a reader's attention (a link trained below its capability).
    """

    key: str
    title: str
    detect: str
    record: str
    fields: tuple[Field, ...]
    json: bool = False
    measure: Measure | None = None
    notes: tuple[Note, ...] = ()

    def spec(self) -> dict:
        """The declaration as the page's script reads it."""
        return {"key": self.key, "title": self.title, "detect": self.detect, "record": self.record,
                "json": self.json, "fields": [f.spec() for f in self.fields],
                "measure": self.measure.spec() if self.measure else None, "notes": [n.spec() for n in self.notes]}

    def recognises(self, text: str) -> bool:
        """Whether ``text`` is this format: a JSON document with its first field's path, or a line ``detect`` matches."""
        if self.json:
            try:
                return _path(json.loads(text), self.fields[0].pattern) is not None
            except (ValueError, TypeError):
                return False
        pattern = re.compile(self.detect)
        return any(pattern.search(line) for line in log_lines(text))


@dataclass
class Record:
    """One record of a text: its name, the line it starts on, its values by field name, and each value's line."""

    name: str
    line: int
    values: dict[str, Any] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def passed_over(record: Record, why: str) -> dict:
    """A record that is no link the book models, and why: what a format's ``links`` lists beside its links."""
    return {"record": record.name, "line": record.line, "why": why}


def measured(fmt: Format, records: list[Record], source: str = "<paste>") -> tuple[list[dict], list[dict]]:
    """What each record of a measurement format measured (:class:`Measure`), as the page's script reads it:
    ``{record, line, label, value, size, values}``, and the records passed over (:func:`passed_over`). Raises
    :class:`LogFormatError` naming the line of a record that lacks a field it needs or measured over no time."""
    m = fmt.measure
    out, skipped = [], []
    for r in records:
        v = r.values
        label = " ".join([r.name, *(str(v[f]) for f in m.label if f in v)])
        if any(v.get(field) != want for field, want in m.only):
            skipped.append({**passed_over(r, m.why_not), "record": label})
            continue
        for name in (m.value, m.size, *((m.per,) if m.per else ())):
            if name not in v:
                raise LogFormatError(source, r.line, f"{fmt.title}: no {_what(fmt, name)} in {r.name}")
        if m.per and v[m.per] <= 0:
            raise LogFormatError(source, r.lines.get(m.per, r.line), f"{_what(fmt, m.per)} {v[m.per]}: a run takes time")
        value = v[m.value] * m.scale / (v[m.per] if m.per else 1)
        out.append({"record": r.name, "line": r.line, "label": label, "value": value, "size": v[m.size],
                    "values": dict(v)})
    return out, skipped


def _what(fmt: Format, name: str) -> str:
    return next((f.what or f.name for f in fmt.fields if f.name == name), name)


def read(fmt: Format, text: str, source: str = "<paste>") -> list[Record]:
    """Every record of ``text`` in ``fmt`` with the fields found in it. Raises :class:`LogFormatError` naming
    ``source`` and the line: a text over :data:`MAX_PASTE_BYTES`, one that is not ``fmt``, a value a field does not
    allow (x3 lanes, 7 GT/s)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_PASTE_BYTES:
        raise LogFormatError(source, 1, f"the text is over {MAX_PASTE_BYTES >> 20} MB; no {fmt.title} is that long")
    if fmt.json:
        return [_read_json(fmt, text, source)]
    lines = log_lines(text)
    start = re.compile(fmt.record)
    heads = [(i, m.group(1)) for i, line in enumerate(lines) if (m := start.search(line))]
    if not heads:
        raise LogFormatError(source, 1, f"no line of {fmt.title} found (none matches {fmt.record!r})")
    out = []
    for k, (i, name) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        out.append(_read_record(fmt, name, i + 1, "\n".join(lines[i:end]), source))
    return out


def _read_record(fmt: Format, name: str, line: int, body: str, source: str) -> Record:
    record = Record(name, line)
    for f in fmt.fields:
        m = re.search(f.pattern, body)
        if f.kind == "present":
            record.values[f.name] = m is not None
            if m:  # the line the match's text is on, past the newlines a pattern starts with ("\n\s+can <FD")
                start = m.start() + len(m.group(0)) - len(m.group(0).lstrip("\n"))
                record.lines[f.name] = line + body.count("\n", 0, start)
            continue
        if m is None:
            continue
        at = line + body.count("\n", 0, m.start(1))
        record.values[f.name] = _value(f, m.group(1), source, at)
        record.lines[f.name] = at
    return record


def _value(f: Field, text: str, source: str, line: int):
    if f.kind == "flag":
        value: Any = text == "+"
    elif f.kind in ("int", "number"):
        try:
            value = int(text) if f.kind == "int" else float(text)
        except ValueError:
            raise LogFormatError(source, line, f"{f.what or f.name} {text!r} is not a number") from None
    else:
        value = text
    if f.allowed and value not in f.allowed:
        shown = ", ".join(str(v) for v in f.allowed)
        raise LogFormatError(source, line, f"{f.what or f.name} {text} is not one there is: {f.name} must be one of "
                                           f"{shown}")
    return value


def _path(document, path: str):
    """The value at ``path`` (dots between keys) in ``document``, None where any key is missing."""
    for key in path.split("."):
        if not isinstance(document, dict) or key not in document:
            return None
        document = document[key]
    return document


def _read_json(fmt: Format, text: str, source: str) -> Record:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogFormatError(source, exc.lineno, f"not {fmt.title}: {exc.msg}") from None
    if not isinstance(document, dict) or _path(document, fmt.fields[0].pattern) is None:
        raise LogFormatError(source, 1, f"not {fmt.title}: no {fmt.fields[0].pattern}")
    record = Record(str(_path(document, fmt.record) or fmt.title), 1)
    for f in fmt.fields:
        value = _path(document, f.pattern)
        if value is None:
            continue
        if f.kind in ("int", "number") and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise LogFormatError(source, 1, f"{f.what or f.name} at {f.pattern} is not a number: {value!r}")
        if f.allowed and value not in f.allowed:
            raise LogFormatError(source, 1, f"{f.what or f.name} {value} is not one there is: {f.name} must be one "
                                            f"of {', '.join(map(str, f.allowed))}")
        record.values[f.name] = value
    return record


@dataclass(frozen=True)
class Setting:
    """A box's input that a field of a pasted output sets: the input, the format and field it comes from, and how
    the field's value becomes the input's: a map (8 GT/s is generation 3), a divisor (bit/s over 10^6 is Mbit/s),
    or an expression ``expr`` of the value ``symbol`` and the box's other inputs (the TCP options an MSS leaves at
    the box's MTU). An ``optional`` one is left as it is where the output lacks it (a classical CAN interface's
    data bit rate) or gives a value the box does not take (an MSS that does not fit the box's MTU). A ``case`` one
    picks the box's case instead of setting an input: ``input`` is then a case column (a USB device's generation)."""

    input: str
    format: str
    field: str
    values: tuple = ()
    per: float = 1
    optional: bool = False
    expr: Any = None
    symbol: Any = None
    case: bool = False

    def value(self, found, evaluate=None):
        """The input's value for the field's ``found``, None where it has none (or the map has none);
        ``evaluate(expr, symbol, found)`` gives an expression's value at the box's inputs."""
        if found is None:
            return None
        if self.expr is not None:
            return evaluate(self.expr, self.symbol, found)
        if self.values:
            return dict(self.values).get(found)
        return found / self.per if self.per != 1 else found

    def spec(self) -> dict:
        return {"input": self.input, "format": self.format, "field": self.field,
                "values": [list(pair) for pair in self.values], "per": self.per, "optional": self.optional,
                "case": self.case}


def settings_of(settings, formats: dict, text: str, allowed, evaluate=None, measures=()) -> dict:
    """What a paste sets in a box: the format it is, the record read (the first whose every mapped value the box's
    inputs allow: a whole listing's first trained link), the inputs' values and the optional ones left as they
    were (``dropped``); as the page's script does it. ``allowed(input, value)`` says whether the box takes a value,
    ``evaluate`` computes an expression's (:meth:`Setting.value`). A format of ``measures`` (keys) is read too: its
    records' :func:`measured` values are ``measured``. Raises :class:`LogFormatError` (source ``<paste>``) for a
    paste none of the box's formats reads."""
    keys = list(dict.fromkeys([*(s.format for s in settings), *measures]))
    fmt = next((formats[k] for k in keys if formats[k].recognises(text)), None)
    if fmt is None:
        titles = ", ".join(formats[k].title for k in keys)
        raise LogFormatError("<paste>", 1, f"none of {titles}: no line any of them prints was found")
    mine = [s for s in settings if s.format == fmt.key]
    needed = {s.input for s in mine if not s.optional}
    records = read(fmt, text)
    found = {}
    if fmt.measure is not None:
        found["measured"], found["skipped"] = measured(fmt, records)
        if not found["measured"]:
            first = found["skipped"][0]
            raise LogFormatError("<paste>", first["line"], f"{first['record']}: {first['why']}, and the paste holds "
                                                           f"no other run")
    taken = []
    for record in records:
        values = {s.input: s.value(record.values.get(s.field), evaluate) for s in mine}
        dropped = {k: v for k, v in values.items() if k not in needed and v is not None and not allowed(k, v)}
        values = {k: v for k, v in values.items() if (v is not None or k in needed) and k not in dropped}
        if all(v is not None and allowed(k, v) for k, v in values.items()):
            notes = [said for n in fmt.notes if (said := n.said(record.values)) is not None]
            taken.append({"format": fmt.key, "record": record.name, "line": record.line, "values": values,
                          "dropped": dropped, "notes": notes})
    if taken:  # the first, and how many more the paste holds (a whole listing: one device's output picks another)
        return {**taken[0], "more": len(taken) - 1, **found}
    raise LogFormatError("<paste>", 1, f"no record of this {fmt.title} has every value the box takes "
                                       f"({', '.join(s.field for s in mine)})")
