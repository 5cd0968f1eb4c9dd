"""AM243x boot time and execute-in-place: the datasheet's breakdowns made quantitative.

The secondary bootloader (SBL) prints each step of a boot from OSPI flash and from
an SD card. :func:`what_if` takes out the steps the datasheet's notes say could
go (OSPI PHY tuning by pre-training the PHY, the version check); :func:`xip`
compares flash code run cached and uncached with the average the "1 of 10
iterations not cached" row should be.
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd
import sympy as sp

from goodput.core import data
from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import ParameterError
from goodput.core.params import DEFAULT, Parameter, by_name
from goodput.core.symbols import lambdify, maker

symbol = maker(__name__)

__all__ = [
    "TOTAL", "steps", "what_if", "xip", "OSPI_MODES", "media_bytes_s", "image", "media_clock", "data_lines",
    "per_clock", "PARAMETERS", "media_rate_expr", "least_read_expr", "evaluate_read", "COMMAND",
]

TOTAL = "SBL : Total time taken"


def steps(boot: str | None = None) -> pd.DataFrame:
    """The boot steps (without the total), of one medium or both."""
    t = data.load("am243x-sbl-boot")
    t = t[t["step"] != TOTAL]
    return t if boot is None else t[t["boot"] == boot]


def what_if() -> pd.DataFrame:
    """OSPI boot time with the steps the notes call avoidable taken out, one at a time and together."""
    s = steps("OSPI").set_index("step")["time_ms"]
    total = float(s.sum())
    cuts = {"pre-train the OSPI PHY (at most all of Board_driversOpen)": ["SBL : Board_driversOpen"],
            "disable the version check (no Sciclient Get Version)": ["SBL : Sciclient Get Version"]}
    cuts["both"] = [x for v in cuts.values() for x in v]
    rows = [{"change": "as measured", "boot time (ms)": round(total, 2), "saved (ms)": 0.0, "saved": "0.0%"}]
    for change, names in cuts.items():
        saved = float(s[names].sum())
        rows.append({"change": change, "boot time (ms)": round(total - saved, 2), "saved (ms)": round(saved, 2),
                     "saved": f"{saved / total:.1%}"})
    return pd.DataFrame(rows)


def xip() -> pd.DataFrame:
    """Cycles cached and not, the slowdown, and the average one uncached run in ten implies."""
    t = data.load("am243x-xip")
    rows = []
    for bench, g in t.groupby("benchmark", sort=False):
        c = dict(zip(g["caching"], g["cycles"]))
        cached, uncached = c["Code/Data fully cached"], c["Code/Data not cached"]
        measured = c["Code/Data not cached 1 of 10 iterations"]
        expected = (9 * cached + uncached) / 10
        rows.append({"benchmark": bench, "cached": cached, "not cached": uncached,
                     "not cached / cached": round(uncached / cached, 2), "1 of 10 not cached": measured,
                     "9 cached + 1 not, averaged": round(expected, 1),
                     "measured / averaged - 1": f"{measured / expected - 1:+.2%}"})
    return pd.DataFrame(rows)


# --- the reader's image on the boot flash ------------------------------------------------------------

#: Data lines and transfers per clock of the OSPI modes a boot media clock is stated with.
OSPI_MODES = {"Octal DDR": (8, 2), "Octal SDR": (8, 1), "Quad DDR": (4, 2), "Quad SDR": (4, 1)}


def media_bytes_s(text: str) -> float:
    """Bytes per second of a stated OSPI boot media clock: ``"166.667 MHz (Octal DDR mode)"`` -> 166.667 x 10^6
    clocks, 8 data lines, 2 transfers per clock: 2 bytes per clock."""
    head, _, mode = text.partition("(")
    value, unit = head.split()
    mode = mode.rstrip(")").removesuffix(" mode").strip()
    if unit != "MHz" or mode not in OSPI_MODES:
        raise ValueError(f"boot media clock {text!r}: expected '<n> MHz (<mode> mode)', mode one of "
                         f"{', '.join(OSPI_MODES)}")
    lines, per_clock = OSPI_MODES[mode]
    return float(value) * 1e6 * lines * per_clock / 8


image = symbol("S", positive=True, integer=True)  #: bytes of the image read from flash
media_clock = symbol("f", positive=True)  #: the OSPI clock, MHz
data_lines = symbol("n", positive=True, integer=True)  #: data lines of the OSPI mode (4 or 8)
per_clock = symbol("m", positive=True, integer=True)  #: transfers per clock (1 SDR, 2 DDR)

PARAMETERS = by_name(
    Parameter("image_bytes", image, "bytes", 1, 1 << 26, default=146 * 1024, step=1, integer=True,
              label="image read from flash (bytes)",
              presets=((34 * 1024, "34 KB"), (146 * 1024, "146 KB"), (256 * 1024, "256 KB"), (1 << 20, "1 MB"))),
    Parameter("clock_mhz", media_clock, "MHz", 1, 200, default=166.667, step=0.001, label="OSPI clock (MHz)",
              presets=((50, "50"), (133, "133"), (166.667, "166.667: the datasheet's"), (200, "200"))),
)


def media_rate_expr() -> sp.Expr:
    """What the flash delivers (MB/s, 10^6 bytes): ``f`` MHz clocks of ``n`` lines, ``m`` transfers each."""
    return media_clock * data_lines * per_clock / 8


def least_read_expr() -> sp.Expr:
    """The least time (ms) an image of ``S`` bytes takes to read at :func:`media_rate_expr`: the floor under the
    steps that load it (:func:`goodput.sources.am243x_sdk.boot.image_load_checks` holds the datasheet's to it)."""
    return image / (1000 * media_rate_expr())


# --- goodput boot -----------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _media_numeric():
    """:func:`least_read_expr` and :func:`media_rate_expr` as one function of the image, clock, lines and transfers."""
    return lambdify((image, media_clock, data_lines, per_clock), [least_read_expr(), media_rate_expr()], "math")


def evaluate_read(image_bytes: int = DEFAULT, clock_mhz: float = DEFAULT, mode: str = "Octal DDR") -> dict:
    """The least time an image of ``image_bytes`` takes to read from OSPI flash in ``mode`` at ``clock_mhz``, and
    what the flash delivers, as a JSON-ready dict (each value checked)."""
    p = PARAMETERS
    n, f = p["image_bytes"].check(image_bytes), p["clock_mhz"].check(clock_mhz)
    if mode not in OSPI_MODES:
        raise ParameterError("mode", mode, "one of " + ", ".join(OSPI_MODES))
    lines, per = OSPI_MODES[mode]
    least, rate = _media_numeric()(n, f, lines, per)
    return {"image_bytes": n, "clock_mhz": f, "mode": mode, "data_lines": lines, "transfers_per_clock": per,
            "least_ms": float(least), "rate_mbyte_s": float(rate)}


COMMAND = Command(
    "boot", help="the least time an image takes to read from OSPI flash",
    description="The least time an image takes to read from OSPI boot flash: its bytes over what the flash delivers "
                "(clock x data lines x transfers per clock), the floor under the AM243x bootloader's load steps.",
    arguments=(Ranged("--image-bytes", PARAMETERS["image_bytes"], "BYTES"),
               Ranged("--clock-mhz", PARAMETERS["clock_mhz"], "MHZ"),
               Arg("--mode", default="Octal DDR", help="OSPI mode: " + ", ".join(OSPI_MODES))),
    run=lambda args: evaluate_read(args.image_bytes, args.clock_mhz, args.mode),
    lines=lambda args, r: [f"{r['image_bytes']} bytes from OSPI flash in {r['mode']} mode at {r['clock_mhz']:g} MHz: "
                           f"at least {r['least_ms']:.4g} ms, the flash delivering {r['rate_mbyte_s']:.5g} MB/s"])
