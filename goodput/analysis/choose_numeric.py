"""Choosing a link in numbers: the configurations, their goodput and what binds each, :func:`solve` and
``goodput choose``, without sympy.

The model is :mod:`goodput.analysis.choose`, which declares every family (its settings, and where the time of a
transfer goes, as expressions) and the configurations the book studies, and re-exports what is here:
the settings and configurations (plain data), and the numbers of a configuration at a transfer size.
Those come from :mod:`goodput.models.quick_spec`, which ``tools/gen_cli_spec.py`` writes from that model: each
family's title, settings and parts, the configurations, the parameters, and each family's goodput and
parts printed from its expressions (as :func:`goodput.core.symbols.lambdify` prints them). The command imports
neither sympy nor the models. They are read when used, so that the tool can import the model while it
writes them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from goodput.core.errors import ParameterError
from goodput.models import quick_spec as spec

__all__ = ["MAX_SIZE_BYTES", "RAW_RATE", "LATENCY", "Setting", "Family", "Config", "find", "limit_names",
           "families", "catalog", "limits", "part_names", "parts", "goodput_mbyte_s", "time_us", "breakdown_us", "binding",
           "solve", "run", "lines"]

#: The largest transfer every family can carry (an SRIO DirectIO transfer's limit).
MAX_SIZE_BYTES = 1 << 20

#: What can bind a configuration besides its overheads: its raw rate (too slow even with no overhead at all,
#: or no overhead to speak of), and the time a transfer may take.
RAW_RATE, LATENCY = "raw rate", "latency"


@dataclass(frozen=True)
class Setting:
    """One choice a reader makes for a configuration: its column in the data, the symbol it sets (in
    :mod:`goodput.analysis.choose`; None in the numbers the command reads), its allowed values (each with what a
    reader calls it) and the one a new row starts with."""

    name: str
    symbol: Any
    label: str
    options: tuple[tuple[float, str], ...]
    default: float

    def check(self, value) -> float:
        values = [v for v, _ in self.options]
        if value not in values:
            raise ParameterError(self.name, value, "one of " + ", ".join(f"{v:g}" for v in values))
        return value

    def text(self, value) -> str:
        return dict(self.options)[self.check(value)]


@dataclass(frozen=True)
class Family:
    """A link as the chooser compares it: its chapter's model in the settings a reader chooses.

    ``parts`` names each share of a transfer's time, ``"data"`` first (in :mod:`goodput.analysis.choose`, each name's
    expression); ``max_size`` is the largest transfer the link takes."""

    key: str
    title: str
    chapter: str
    settings: tuple[Setting, ...]
    parts: Mapping | tuple[str, ...]
    note: str
    max_size: int = MAX_SIZE_BYTES

    def defaults(self) -> dict[str, float]:
        return {s.name: s.default for s in self.settings}

    def checked(self, values: Mapping[str, float]) -> dict[str, float]:
        """``values`` (defaults for those missing), each one of its setting's options."""
        unknown = set(values) - {s.name for s in self.settings}
        if unknown:
            raise ParameterError(", ".join(sorted(unknown)), "?", f"a setting of {self.title}: "
                                 + ", ".join(s.name for s in self.settings))
        return {s.name: s.check(values.get(s.name, s.default)) for s in self.settings}

    def label(self, values: Mapping[str, float]) -> str:
        """What a reader calls the configuration: ``PCIe gen 3 x4, MPS 256, writes``."""
        v = self.checked(values)
        return f"{self.title} " + ", ".join(s.text(v[s.name]) for s in self.settings)


def find(families: Mapping[str, Family], key: str) -> Family:
    """The family ``key`` of ``families``; :class:`ParameterError` naming them if there is none."""
    if key not in families:
        raise ParameterError("family", key, "one of " + ", ".join(families))
    return families[key]


def decode_values(text: str, families_: Mapping[str, Family]) -> list[tuple[str, dict[str, float]]]:
    """The links of a list as the page's address writes it (``pcie:3:4:256:0,srio:5:4:0``: each family's key and
    its settings' values in their declared order): (key, values) each, unchecked; :class:`ParameterError` naming
    the first item that is not a family's key and as many numbers as it has settings."""
    out = []
    for item in filter(None, str(text).split(",")):
        key, *values = item.split(":")
        f = find(families_, key)
        if len(values) != len(f.settings):
            raise ParameterError("links", item, f"{key} and its {len(f.settings)} settings "
                                 f"({', '.join(s.name for s in f.settings)}), separated by ':'")
        numbers = {}
        for s, v in zip(f.settings, values):
            try:
                numbers[s.name] = float(v)
            except ValueError:
                raise ParameterError(s.name, v, "a number") from None
        out.append((key, numbers))
    return out


def limit_names(families: Iterable[Family]) -> tuple[str, ...]:
    """What can bind a configuration of ``families``: the raw rate, the latency, then every overhead any of
    them names, in the order first met (a binding limit is an index into this)."""
    return (RAW_RATE, LATENCY, *dict.fromkeys(name for f in families for name in list(f.parts)[1:]))


@dataclass(frozen=True)
class Config:
    """One link configuration: a family and its settings."""

    key: str
    values: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, family: Family, **values: float) -> Config:
        """A configuration of ``family``, its settings checked (defaults for those not given)."""
        return cls(family.key, tuple(family.checked(values).items()))

    @property
    def family(self) -> Family:
        return find(families(), self.key)

    @property
    def settings(self) -> dict[str, float]:
        return dict(self.values)

    @property
    def label(self) -> str:
        return self.family.label(self.settings)


_made: dict = {}


def _from_spec() -> dict:
    """The families, configurations and limits made from quick_spec's ``CHOOSE`` (again only if it changed)."""
    constants = spec.CHOOSE
    if _made.get("constants") is not constants:
        made = {key: Family(key, f["title"], f["chapter"],
                            tuple(Setting(name, None, label, options, default)
                                  for name, label, options, default in f["settings"]),
                            f["parts"], f["note"], f["max_size"]) for key, f in constants["families"].items()}
        _made.update(constants=constants, families=made, limits=limit_names(made.values()),
                     catalog=tuple(Config.of(made[key], **dict(values)) for key, values in constants["catalog"]))
    return _made


def families() -> dict[str, Family]:
    """Every family, in the book's order of chapters (:data:`goodput.analysis.choose.FAMILIES`'s)."""
    return _from_spec()["families"]


def catalog() -> tuple[Config, ...]:
    """The configurations the book's chapters study (:data:`goodput.analysis.choose.CATALOG`'s), the solver's candidates."""
    return _from_spec()["catalog"]


def limits() -> tuple[str, ...]:
    """What can bind a configuration (:data:`goodput.analysis.choose.LIMITS`)."""
    return _from_spec()["limits"]


def part_names(limits_: tuple[str, ...]) -> tuple[str, ...]:
    """Each part of a transfer's time by name: the data's and every overhead of ``limits_`` (:func:`limit_names`)."""
    return ("data", *limits_[2:])


def parts() -> tuple[str, ...]:
    """Each part of a transfer's time by name: the data's and every overhead of :func:`limits`."""
    return part_names(limits())


def _size(n) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_SIZE_BYTES:
        raise ParameterError("size_bytes", n, f"an integer from 1 to {MAX_SIZE_BYTES} bytes")
    return n


def _args(c: Config, n: int) -> tuple:
    if n > c.family.max_size:
        raise ParameterError("size_bytes", n, f"at most {c.family.max_size:g} bytes on {c.family.title}")
    return (n, *(c.settings[s.name] for s in c.family.settings))


def goodput_mbyte_s(c: Config, n: int) -> float:
    """Goodput (MB/s) of back-to-back ``n``-byte transfers on ``c``, from the parts."""
    return getattr(spec, f"choose_goodput_{c.key}")(*_args(c, _size(n)))


def time_us(c: Config, n: int) -> float:
    """Time (us) of one ``n``-byte transfer on ``c``: the sum of its parts, correctly rounded (as a table that
    adds the parts it shows gets it)."""
    return math.fsum(breakdown_us(c, n).values())


def breakdown_us(c: Config, n: int) -> dict[str, float]:
    """Where the time of one ``n``-byte transfer on ``c`` goes, us, by part."""
    return dict(zip(c.family.parts, (float(x) for x in getattr(spec, f"choose_parts_{c.key}")(*_args(c, _size(n))))))


def binding(c: Config, n: int, rate: float | None = None, latency: float | None = None) -> str:
    """What binds ``n``-byte transfers on ``c`` for ``rate`` MB/s in at most ``latency`` us each: the raw
    rate, if even the data alone is slower than required (or the link adds no overhead); the latency, if
    a transfer takes longer than allowed; else the overhead that costs the transfer the most time."""
    data, *overheads = breakdown_us(c, n).items()
    if (rate is not None and n / data[1] < rate) or max(v for _, v in overheads) <= 0:
        return RAW_RATE
    if latency is not None and time_us(c, n) > latency:
        return LATENCY
    order = parts()
    return max(sorted(overheads, key=lambda p: order.index(p[0])), key=lambda p: p[1])[0]  # the first of equals


def solve(rate_mbyte_s: float, size_bytes: int, latency: float | None = None,
          candidates: Sequence[Config] | None = None, expect: bool = False) -> list[dict]:
    """Which of ``candidates`` (the book's, :func:`catalog`, if None) carry ``rate_mbyte_s`` at ``size_bytes``-byte
    transfers, each taking at most ``latency`` us (no limit if None): one dict per candidate, those that meet it
    first, each group by margin, largest first. ``margin`` is the goodput over the rate required, less one;
    ``binding`` the limit (:func:`binding`). With ``expect``, each family's goodput is the model's times what the book
    measured of it (``derating``: the median share of its measured points, 1 where it has none)."""
    p = spec.CHOOSE["parameters"]
    rate = p["rate_mbyte_s"].check(rate_mbyte_s)
    n = _size(p["size_bytes"].check(size_bytes))
    limit = None if latency is None else p["latency_us"].check(latency)
    rows = []
    for c in catalog() if candidates is None else candidates:
        if n > c.family.max_size:
            continue
        share = spec.CHOOSE["derating"].get(c.key, 1.0) if expect else 1.0
        g, t = share * goodput_mbyte_s(c, n), time_us(c, n) / share
        # the latency binds where the derated time is over the limit: the model's over the limit times the share
        rows.append({"link": c.label, "family": c.key, "chapter": c.family.chapter, "settings": c.settings,
                     "derating": share, "goodput_mbyte_s": g, "margin": g / rate - 1,
                     "margin_percent": 100 * (g / rate - 1), "time_us": t,
                     "meets": g >= rate and (limit is None or t <= limit),
                     "binding": binding(c, n, rate, None if limit is None else limit * share)})
    return sorted(rows, key=lambda r: (not r["meets"], -r["margin"]))


# --- goodput choose (its arguments: goodput.analysis.choose.COMMAND) ---------------------------------------

def run(args) -> dict:
    p = spec.CHOOSE["parameters"]
    latency = None if args.latency_us is None else p["latency_us"].check(args.latency_us)
    rate = p["rate_mbyte_s"].check(args.rate_mbyte_s)
    n = p["size_bytes"].check(args.size_bytes)
    rows = solve(rate, n, latency, expect=args.expect)
    out = {"rate_mbyte_s": rate, "size_bytes": n, "latency_us": latency, "expect": args.expect}
    if args.links is not None:  # the reader's own, answered first, as the page's solver answers them
        made = families()
        yours = solve(rate, n, latency, [Config.of(made[k], **v) for k, v in decode_values(args.links, made)],
                      expect=args.expect)
        out.update(links=args.links, yours_meeting=sum(r["meets"] for r in yours), yours=yours)
    return {**out, "meeting": sum(r["meets"] for r in rows), "configurations": rows}


def _table(rows: list[dict]) -> list[str]:
    out = [f"  {'meets':<5} {'link':<44} {'MB/s':>10} {'margin':>9} {'us each':>10}  binding limit"]
    for c in rows:
        out.append(f"  {'yes' if c['meets'] else 'no':<5} {c['link']:<44} {c['goodput_mbyte_s']:10.4g} "
                   f"{c['margin']:+9.1%} {c['time_us']:10.4g}  {c['binding']}")
    return out


def lines(args, r: dict) -> list[str]:
    limit = "" if r["latency_us"] is None else f", each in at most {r['latency_us']:g} us"
    expected = " (expected: each model times the share of it the book measured)" if r["expect"] else ""
    head = f"{r['rate_mbyte_s']:g} MB/s in transfers of {r['size_bytes']} bytes{limit}{expected}"
    out = []
    if "yours" in r and not r["yours"]:
        out += [f"{head}: your list (--links) has no links; give each as its family and settings, e.g. "
                "pcie:4:8:256:0,can:0.5:2", f"The book's {len(r['configurations'])} configurations: {r['meeting']} meet it"]
    elif "yours" in r:
        out += [f"{head}: {r['yours_meeting']} of your {len(r['yours'])} links meet it", *_table(r["yours"]),
                f"and {r['meeting']} of the book's {len(r['configurations'])} configurations:"]
    else:
        out.append(f"{head}: {r['meeting']} of {len(r['configurations'])} configurations meet it")
    return out + _table(r["configurations"])
