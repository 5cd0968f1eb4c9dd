"""KeyStone II EDMA copies in numbers: the transfer controllers, the copy's limits, :func:`evaluate` and
``goodput bus``, without sympy.

The model is :mod:`goodput.models.bus`, which re-exports what is here: the transfer controllers and a copy's cases
(plain data, declared here), how the limits of a copy are laid out (:func:`limits_of`, which the model's
expressions follow too), and the numbers of the copies the command asks about: transfer controllers
named or alike, each copying between the same two endpoints. Their parameters and numeric functions
come from :mod:`goodput.models.quick_spec`, which ``tools/gen_cli_spec.py`` writes from the model (each function
printed from one of its expressions, as :func:`goodput.core.symbols.lambdify` prints it), and Table 5's
bridges are read without pandas: the command imports neither sympy, pandas nor the model. The generated
names are looked up when called, so that the tool can import the model while it writes them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from goodput.core import data
from goodput.core.errors import GoodputError, ParameterError
from goodput.core.params import DEFAULT
from goodput.models import quick_spec as spec

__all__ = ["TC", "TRANSFER_CONTROLLERS", "DDR3_WIDTHS", "PORTS", "endpoint_port", "check_tc_names", "Case", "clocks",
           "limits_of", "copy_loads", "tcs_function_name", "COPY_LOADS", "endpoint_function_name", "named_limits",
           "copy_limits", "shared_bridges", "evaluate", "ALIKE", "run", "lines"]


@dataclass(frozen=True)
class TC:
    """An EDMA transfer controller: channel controller, bus width, clock divider, data burst size."""

    name: str
    cc: int
    tc: int
    width_bits: int
    clock_divider: int
    dbs_bytes: int


def _transfer_controllers() -> dict[str, TC]:
    # §5 numbers TC0-TC13 across the channel controllers; Table 1 gives each CC's bus
    # (CC0 and CC4: 256 bits at CPU/2; CC1-CC3: 128 bits at CPU/3), §5.3.1 the burst
    # sizes (64 bytes on CC3, 128 on all others).
    per_cc = {0: 2, 1: 4, 2: 4, 3: 2, 4: 2}
    out, number = {}, 0
    for cc, count in per_cc.items():
        for tc in range(count):
            wide = cc in (0, 4)
            out[f"TC{number}"] = TC(f"TC{number}", cc, tc, 256 if wide else 128, 2 if wide else 3,
                                    64 if cc == 3 else 128)
            number += 1
    return out


TRANSFER_CONTROLLERS = _transfer_controllers()

DDR3_WIDTHS = (16, 32, 64)  # the EMIF's configurable data bus widths (§2.4)

#: The ports whose bandwidth bounds an endpoint of a copy (:data:`goodput.models.bus.ENDPOINTS` gives each one's).
PORTS = ("MSMC SRAM", "CorePac slave port", "DDR3A", "DDR3B")


def endpoint_port(endpoint: str) -> str:
    """The port whose bandwidth bounds ``endpoint`` (``"MSMC SRAM"``, ``"DDR3A"``, ``"DDR3B"``,
    ``"CorePac<k> L2"``): one of :data:`PORTS`, a CorePac's L2 its slave port."""
    if re.fullmatch(r"CorePac[0-9] L2", endpoint):
        return "CorePac slave port"
    if endpoint not in PORTS or endpoint == "CorePac slave port":
        raise ParameterError("endpoint", endpoint, "MSMC SRAM, DDR3A, DDR3B or CorePac<k> L2")
    return endpoint


def check_tc_names(names, parameter: str) -> None:
    """:class:`ParameterError` naming ``parameter`` unless each of ``names`` is a transfer controller
    and none is named twice (a TC named twice would count its bus twice)."""
    for i, name in enumerate(names):
        if name not in TRANSFER_CONTROLLERS:
            raise ParameterError(parameter, name, "one of TC0 to TC13")
        if name in names[:i]:
            raise ParameterError(parameter, name, "one of TC0 to TC13, each named once: "
                                                  f"{name} is named twice")


@dataclass(frozen=True)
class Case:
    """``tcs[i]`` copies in both directions between ``pairs[i][0]`` and ``pairs[i][1]``, equal shares."""

    label: str
    tcs: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]

    def __post_init__(self):
        if not self.tcs:
            raise ParameterError("tcs", "none", "at least one transfer controller")
        check_tc_names(self.tcs, "tc")
        if len(self.pairs) != len(self.tcs):
            raise ValueError("one endpoint pair per transfer controller")
        for pair in self.pairs:
            for endpoint in pair:
                endpoint_port(endpoint)

    def loads(self) -> dict[str, Fraction]:
        """Bytes each endpoint (a CorePac counts as its slave port) carries per byte of the copy."""
        share = Fraction(1, len(self.tcs))
        out: dict[str, Fraction] = {}
        for a, b in self.pairs:
            for endpoint in (a, b):
                out[endpoint] = out.get(endpoint, Fraction(0)) + share
        return out


def clocks(cpu_clock_mhz=DEFAULT, ddr3_mtps=DEFAULT, ddr3_width_bits=DEFAULT) -> tuple[float, float, int]:
    """The CPU clock (MHz), DDR3 data rate (MT/s) and DDR3 width (bits) as their parameters allow them."""
    p = spec.BUS["parameters"]
    w = p["ddr3_width_bits"].check(ddr3_width_bits)
    if w not in DDR3_WIDTHS:
        raise ParameterError("ddr3_width_bits", ddr3_width_bits, "16, 32 or 64 bits")
    return p["cpu_clock_mhz"].check(cpu_clock_mhz), p["ddr3_mtps"].check(ddr3_mtps), w


def limits_of(loads: dict, tcs_limit, endpoint_limit: Callable) -> dict:
    """Each bound on a copy's aggregate throughput, by what imposes it: its transfer controllers
    (``tcs_limit``), then each endpoint it loads, ``endpoint_limit(endpoint, load)`` (``loads``: bytes each
    endpoint carries per byte of the copy)."""
    return {"transfer controllers": tcs_limit, **{e: endpoint_limit(e, load) for e, load in loads.items()}}


def copy_loads(endpoint_a: str, endpoint_b: str) -> dict[str, int]:
    """Bytes each endpoint carries per byte of a copy between ``endpoint_a`` and ``endpoint_b`` (either way
    or both): every byte once, or twice at an endpoint that is both ends."""
    return {endpoint: 2 if endpoint_a == endpoint_b else 1 for endpoint in dict.fromkeys((endpoint_a, endpoint_b))}


def tcs_function_name(names) -> str:
    """The name of the printed function of the transfer controllers ``names``' limit: their number and
    each bus they have (width and clock divider), ``bus_tcs_3_128x3_256x2``."""
    buses = sorted({(TRANSFER_CONTROLLERS[n].width_bits, TRANSFER_CONTROLLERS[n].clock_divider) for n in names})
    return f"bus_tcs_{len(names)}_" + "_".join(f"{w}x{d}" for w, d in buses)


#: The loads a copy by transfer controllers that each copy between the same two endpoints puts on them.
COPY_LOADS = (1, 2)


def endpoint_function_name(endpoint: str, load) -> str:
    """The name of the printed function of ``endpoint``'s limit at ``load`` bytes per byte of the copy (one of
    :data:`COPY_LOADS`; :func:`goodput.models.bus.limits` computes any case): ``bus_ddr3a_2``."""
    if load not in COPY_LOADS:
        raise ValueError(f"{endpoint} carries {load} bytes a byte of the copy: the printed functions have "
                         f"loads {COPY_LOADS} (goodput.models.bus.limits computes any case)")
    return f"bus_{re.sub(r'[^a-z0-9]+', '_', endpoint_port(endpoint).lower())}_{int(load)}"


def named_limits(case: Case, cpu_clock_mhz=DEFAULT, ddr3_mtps=DEFAULT, ddr3_width_bits=DEFAULT) -> dict[str, float]:
    """Each limit of ``case`` (MB/s) at the given clocks, from the printed functions: a case whose transfer
    controllers each copy between the same two endpoints (every case the command asks about)."""
    values = clocks(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits)
    return {name: float(v) for name, v in limits_of(
        case.loads(), getattr(spec, tcs_function_name(case.tcs))(*values),
        lambda e, load: getattr(spec, endpoint_function_name(e, load))(*values)).items()}


def copy_limits(endpoint_a: str, endpoint_b: str, tcs: int = DEFAULT, tc_width_bits: int = DEFAULT,
                tc_clock_divider: int = DEFAULT, cpu_clock_mhz: float = DEFAULT, ddr3_mtps: float = DEFAULT,
                ddr3_width_bits: int = DEFAULT) -> dict[str, float]:
    """:func:`goodput.models.bus.copy_limit_exprs` in MB/s at the given values."""
    p = spec.BUS["parameters"]
    values = clocks(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits)
    alike = spec.bus_alike_tcs(p["tcs"].check(tcs), p["tc_width_bits"].check(tc_width_bits),
                               p["tc_clock_divider"].check(tc_clock_divider), values[0])
    return {name: float(v) for name, v in limits_of(
        copy_loads(endpoint_a, endpoint_b), alike,
        lambda e, load: getattr(spec, endpoint_function_name(e, load))(*values)).items()}


def shared_bridges(names) -> dict[str, list[str]]:
    """Bridges of Table 5 that two or more of the TCs ``names`` cross (reads and writes alike)."""
    connected = [row for row in data.rows("keystone2-table5") if row["mark"] == "X"]
    users: dict[str, set[str]] = {}
    for name in names:
        tc = TRANSFER_CONTROLLERS[name]
        for bridge in sorted({row["bridge"] for row in connected if row["edma"] == tc.cc and row["tc"] == tc.tc}):
            users.setdefault(bridge, set()).add(name)
    return {b: sorted(u, key=lambda n: int(n[2:])) for b, u in users.items() if len(u) > 1}


def evaluate(endpoint_a: str, endpoint_b: str, tc_names=(), tcs: int = DEFAULT, tc_width_bits: int = DEFAULT,
             tc_clock_divider: int = DEFAULT, cpu_clock_mhz: float = DEFAULT, ddr3_mtps: float = DEFAULT,
             ddr3_width_bits: int = DEFAULT) -> dict:
    """A copy between two endpoints by named TCs (``tc_names``) or by ``tcs`` alike ones, as a
    JSON-ready dict: inputs, every limit, the bound and what binds, bridges the named TCs share."""
    for name, endpoint in (("endpoint_a", endpoint_a), ("endpoint_b", endpoint_b)):
        try:
            endpoint_port(endpoint)
        except ParameterError as exc:
            raise ParameterError(name, endpoint, exc.allowed) from None
    check_tc_names(tc_names, "tc_names")
    f, r, w = clocks(cpu_clock_mhz, ddr3_mtps, ddr3_width_bits)
    given = {"cpu_clock_mhz": f, "ddr3_mtps": r, "ddr3_width_bits": w}
    if tc_names:
        case = Case("copy", tuple(tc_names), ((endpoint_a, endpoint_b),) * len(tc_names))
        values = named_limits(case, **given)
        tc_total = sum(named_limits(Case("one", (n,), ((endpoint_a, endpoint_b),)), **given)["transfer controllers"]
                       for n in tc_names)
        inputs = {"tcs": list(tc_names)}
    else:
        values = copy_limits(endpoint_a, endpoint_b, tcs, tc_width_bits, tc_clock_divider, **given)
        tc_total = values["transfer controllers"]
        inputs = {name: spec.BUS["parameters"][name].check(value) for name, value in
                  (("tcs", tcs), ("tc_width_bits", tc_width_bits), ("tc_clock_divider", tc_clock_divider))}
    low = min(values.values())
    return {"endpoint_a": endpoint_a, "endpoint_b": endpoint_b, **inputs,
            **given,
            "limits_mb_s": values, "bound_mb_s": low, "goodput_gbit_s": low * 8 / 1000,
            "efficiency": low / tc_total,
            "binding": [n for n, v in values.items() if math.isclose(v, low, rel_tol=1e-12)],
            "shared_bridges": shared_bridges(tc_names) if tc_names else {}}


# --- goodput bus (its arguments: goodput.models.bus.COMMAND) ---------------------------------------------

#: The options that describe alike transfer controllers, and the parameter each fills.
ALIKE = {"--tcs": "tcs", "--tc-width": "tc_width_bits", "--tc-divider": "tc_clock_divider"}


def run(args) -> dict:
    alike = {name: getattr(args, name) for name in ALIKE.values()}
    if args.tc_names and any(v is not None for v in alike.values()):
        raise GoodputError("give either --tc (named transfer controllers) or --tcs/--tc-width/--tc-divider "
                           "(alike ones)")
    alike = {name: DEFAULT if v is None else v for name, v in alike.items()}
    return evaluate(args.endpoint_a, args.endpoint_b, tuple(args.tc_names), cpu_clock_mhz=args.cpu_clock_mhz,
                    ddr3_mtps=args.ddr3_mtps, ddr3_width_bits=args.ddr3_width_bits, **alike)


def lines(args, r: dict) -> list[str]:
    tcs = (", ".join(r["tcs"]) if args.tc_names
           else f"{r['tcs']} x {r['tc_width_bits']}-bit TC at CPU/{r['tc_clock_divider']}")
    return [f"copy {r['endpoint_a']} <-> {r['endpoint_b']} by {tcs}: at most {r['bound_mb_s']:.6g} MB/s "
            f"({r['goodput_gbit_s']:.6g} Gbit/s), bound by {' and '.join(r['binding'])}",
            *(f"  {name:<22} {value:10.1f} MB/s" for name, value in r["limits_mb_s"].items()),
            *(f"  bridge {b} is shared by {', '.join(u)} (Table 5)" for b, u in r["shared_bridges"].items())]
