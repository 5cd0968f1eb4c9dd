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

from goodput import checks
from goodput.core import data
from goodput.core.command import Arg, Command, Ranged
from goodput.core.errors import ParameterError
from goodput.core.params import DEFAULT, Parameter
from goodput.core.symbols import lambdify, maker

symbol = maker(__name__)

__all__ = ["TOTAL", "BOOT_SECTIONS", "note_row", "steps", "what_if", "xip"]

TOTAL = "SBL : Total time taken"

#: The datasheet's section each boot medium's table and notes stand in (a note's check names it in its row).
BOOT_SECTIONS = {"OSPI": "AM243X-EVM", "SD": "SBL SD performance"}


def note_row(boot: str, what: str) -> str:
    """The row a check of a note of ``boot``'s section is shown under: the medium, its section, what it says."""
    return f"{boot} ({BOOT_SECTIONS[boot]}): {what}"


def steps(boot: str | None = None) -> pd.DataFrame:
    """The boot steps (without the total), of one medium or both."""
    t = data.load("am243x-sbl-boot")
    t = t[t["step"] != TOTAL]
    return t if boot is None else t[t["boot"] == boot]


def _total(boot: str) -> float:
    return float(steps(boot)["time_ms"].sum())


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


@checks.provider
def source_checks():
    """Each printed total against its steps; the notes' SD read time; the 1-in-10 XIP averages."""
    out = []
    t = data.load("am243x-sbl-boot")
    for row in t[t["step"] == TOTAL].itertuples():
        out.append(checks.compare(t, row.Index, "time_ms", _total(row.boot),
                                  f"{row.boot}: total of the steps"))
    notes = data.load("am243x-sbl-notes")
    ospi = steps("OSPI").set_index("step")["time_ms"]
    for row in notes[(notes["boot"] == "OSPI") & (notes["what"] == "Board_driversOpen")].itertuples():
        out.append(checks.compare(
            notes, row.Index, "value_ms", float(ospi["SBL : Board_driversOpen"]),
            note_row("OSPI", "Board_driversOpen, 'around'"), kind="prose", approximate=10,
            off_note="The table gives {model:g} ms; 'around {published} ms' rounds it to the nearest 10 ms."))
    sd = steps("SD").set_index("step")["time_ms"]
    for row in notes[(notes["boot"] == "SD") & (notes["what"] == "appimage read from the SD card")].itertuples():
        out.append(checks.compare(
            notes, row.Index, "value_ms", float(sd["SBL : File read from SD Card"]),
            note_row("SD", "appimage read into memory"),
            kind="prose",
            off_note="The table's own step 'File read from SD Card' takes {model:g} ms, not the {published} ms "
                     "the note says."))
    x = data.load("am243x-xip")
    for bench, g in x.groupby("benchmark", sort=False):
        c = dict(zip(g["caching"], g["cycles"]))
        expected = (9 * c["Code/Data fully cached"] + c["Code/Data not cached"]) / 10
        row = g[g["caching"] == "Code/Data not cached 1 of 10 iterations"].index[0]
        out.append(checks.compare(
            x, row, "cycles", expected, f"{bench}: 1 of 10 iterations not cached",
            kind="consistency", otherwise="unexplained",
            off_note="Nine cached runs and one uncached average {model:.1f} cycles; the row prints {published}. "
                     "The document prints one run of each row, so how much a run varies is not known: nothing "
                     "here says whether the difference is noise or a cost of the uncached run not in the "
                     "two rows above it."))
    return out


# --- the notes' per-CPU load time and the SD read speed (issue 18) -------------------------------

M4F = "m4f"  #: the cores the notes set apart name themselves m4f...


def cores(setup, boot: str) -> list[str]:
    """The cores in a boot's appimage, from the ``am243x-sbl-setup`` table."""
    t = setup[(setup["boot"] == boot) & (setup["item"] == "Cores present in the appimage")]
    return [c.strip() for c in t["value"].iloc[0].split(",")]


def size_bytes(text: str) -> float:
    """``"34 KB"`` -> 34 x 1024 bytes."""
    value, unit = text.split()
    return float(value) * {"B": 1, "KB": 1024, "MB": 1 << 20}[unit]


def read_speed_bytes_s(text: str) -> float:
    """``"12.5 MBps mode"`` -> 12.5 x 10^6 bytes per second."""
    value, unit = text.split()[:2]
    if unit != "MBps":
        raise ValueError(f"read speed {text!r}: expected MBps")
    return float(value) * 1e6


def sbl_note_checks(boot_table, notes, setup) -> list:
    """The notes' "Other CPUs take ~1.5ms each" against each boot's CPU load shared among the cores that are
    not an M4F (the most each can take when the M4F takes nothing; with no M4F, the whole load is theirs),
    and the SD boot's file read against the least the stated read speed allows for the application's
    appimage (``ceiling``). Tables: ``am243x-sbl-boot``, ``am243x-sbl-notes``, ``am243x-sbl-setup`` (or
    edited copies)."""
    out = []
    b = boot_table[boot_table["step"] != TOTAL]
    for row in notes[notes["what"] == "each CPU but the M4F"].itertuples():
        present = cores(setup, row.boot)
        others = [c for c in present if not c.startswith(M4F)]
        has_m4f = len(others) < len(present)
        load = float(b[(b["boot"] == row.boot) & (b["step"] == "SBL : CPU Load")]["time_ms"].iloc[0])
        share = load / len(others)
        if has_m4f:
            out.append(checks.compare(
                notes, row.Index, "value_ms", share, note_row(row.boot, "each CPU but the M4F"),
                kind="prose", relation="<=",
                note=f"The CPU load, {load:g} ms, shared among the {len(others)} cores besides the M4F, is at most "
                     "{model:.2f} ms each; the note's ~{published} ms leaves the rest to the M4F, as it says.",
                off_note=f"The CPU load, {load:g} ms, cannot give each of the {len(others)} cores besides the M4F "
                         "more than {model:.2f} ms."))
        else:
            out.append(checks.compare(
                notes, row.Index, "value_ms", share, note_row(row.boot, "each CPU but the M4F"),
                kind="prose", approximate=1,
                off_note=f"The {row.boot} appimage holds {', '.join(present)} and no M4F, so its CPU load, "
                         "{model:g} ms, is all that one core's: not ~{published} ms, and not the M4F's as the same "
                         "note says (it repeats the OSPI section's note word for word)."))
    sd = setup[setup["boot"] == "SD"].set_index("item")["value"]
    apps = [item for item in sd.index if item.startswith("Size of ") and not item.startswith("Size of sbl_")]
    least = sum(size_bytes(sd[a]) for a in apps) / read_speed_bytes_s(sd["SD card read speed"]) * 1000
    i = b.index[(b["boot"] == "SD") & (b["step"] == "SBL : File read from SD Card")][0]
    out.append(checks.compare(
        boot_table, i, "time_ms", least, "SD: File read from SD Card, at the read speed",
        kind="ceiling", relation=">=",
        note=f"{', '.join(sd[a] for a in apps)} (KB of 1024 bytes) at {sd['SD card read speed']} "
             "(MB of 10^6 bytes) take at least {model:.2f} ms.",
        off_note=f"{', '.join(sd[a] for a in apps)} at {sd['SD card read speed']} take at least {{model:.2f}} ms; "
                 "the table prints {published} ms."))
    return out


@checks.provider
def sbl_note_source_checks():
    """The notes' ~1.5 ms per CPU and the SD file read against the stated read speed."""
    return sbl_note_checks(data.load("am243x-sbl-boot"), data.load("am243x-sbl-notes"),
                           data.load("am243x-sbl-setup"))


__all__ += ["M4F", "cores", "size_bytes", "read_speed_bytes_s", "sbl_note_checks"]


# --- XIP: code run from flash uncached takes no fewer cycles than the same code cached (issue 18) ------

CACHED, UNCACHED = "Code/Data fully cached", "Code/Data not cached"


def _against(t, caching: str, reference: str, what: str, **how) -> list:
    """Each cycle count of the ``am243x-xip`` table (or an edited copy) with ``caching`` against its benchmark's
    count with ``reference`` (exact: cycles are counted), each row named by its benchmark and ``what``; ``how``:
    the kind, relation and notes of :func:`goodput.checks.compare`."""
    out = []
    for bench, g in t.groupby("benchmark", sort=False):
        against = float(g.loc[g["caching"] == reference, "cycles"].iloc[0])
        out += [checks.compare(t, index, "cycles", against, f"{bench}: {what}", exact=True, **how)
                for index in g.index[g["caching"] == caching]]
    return out


def xip_checks(t) -> list:
    """Each uncached cycle count of the ``am243x-xip`` table (or an edited copy) against the same benchmark
    run fully cached (``ceiling``, ``>=``): a cache only saves flash reads, so the cached run is the least the
    code takes, and running it uncached cannot take fewer cycles."""
    return _against(t, UNCACHED, CACHED, "not cached", kind="ceiling", relation=">=",
                    note="At least the {model:g} cycles the same code takes fully cached.",
                    off_note="Fewer cycles uncached ({published}) than fully cached ({model:g}): the cache would "
                             "have made the code slower.")


@checks.provider
def xip_source_checks():
    """XIP: each benchmark uncached takes at least its cycles fully cached."""
    return xip_checks(data.load("am243x-xip"))


__all__ += ["CACHED", "UNCACHED", "xip_checks"]


# --- the images each boot step reads, against the least its medium's stated speed allows (issue 18) ------

ROM_STEP = "ROM : init + SBL load from flash"
CPU_LOAD = "SBL : CPU Load"
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


def least_read_ms(size_text: str, bytes_s: float) -> float:
    """The least time (ms) ``size_text`` (``"256 KB"``) takes at ``bytes_s``."""
    return size_bytes(size_text) / bytes_s * 1000


def _same_as_ospi(boot_table, index) -> str:
    """A sentence saying the step prints the same time as the OSPI boot's (a sign the row was copied) when it
    does, else ""."""
    printed = boot_table.attrs["printed"]["time_ms"]
    step = boot_table.loc[index, "step"]
    ospi = boot_table.index[(boot_table["boot"] == "OSPI") & (boot_table["step"] == step)]
    if len(ospi) and printed[ospi[0]] == printed[index]:
        return f" The step prints the same {printed[index]} ms as the OSPI boot's."
    return ""


def image_load_checks(boot_table, setup) -> list:
    """The steps that read an image from the boot medium (tables ``am243x-sbl-boot`` and ``am243x-sbl-setup``,
    or edited copies) against the least the medium's stated speed allows (``ceiling``, ``>=``): the ROM step
    reads the SBL's appimage (both boots), and the OSPI boot's CPU load copies the application's appimage
    straight from the flash, as its note says. The SD boot's CPU load copies from memory (its file read is
    checked by :func:`sbl_note_checks`). How the ROM reads the SD card the page does not say, so an SD ROM step
    under the stated speed is ``unexplained``."""
    out = []
    for boot, speed_item in (("OSPI", "Boot Media Clock"), ("SD", "SD card read speed")):
        s = setup[setup["boot"] == boot].set_index("item")["value"]
        speed = s[speed_item]
        rate = media_bytes_s(speed) if boot == "OSPI" else read_speed_bytes_s(speed)
        sizes = [i for i in s.index if i.startswith("Size of ")]
        sbl = [i for i in sizes if i.startswith("Size of sbl_")]
        app = [i for i in sizes if not i.startswith("Size of sbl_")]
        reads = [(ROM_STEP, sbl)] + ([(CPU_LOAD, app)] if boot == "OSPI" else [])
        for step, items in reads:
            i = boot_table.index[(boot_table["boot"] == boot) & (boot_table["step"] == step)][0]
            what = " and ".join(s[x] for x in items)
            image = " and ".join(x.removeprefix("Size of ") for x in items)
            least = sum(least_read_ms(s[x], rate) for x in items)
            out.append(checks.compare(
                boot_table, i, "time_ms", least, note_row(boot, f"{step}, at the medium's speed"),
                kind="ceiling", relation=">=", otherwise="unexplained" if boot == "SD" else "erratum",
                note=f"It reads the {image} ({what}, KB of 1024 bytes) at {speed}"
                     + (" (MB of 10^6 bytes)" if boot == "SD" else "") + ": at least {model:.3f} ms.",
                off_note=f"It reads the {image} ({what}, KB of 1024 bytes) at {speed}"
                         + (" (MB of 10^6 bytes)" if boot == "SD" else "") + ": at least {model:.2f} ms, more than the "
                         "{published} ms printed."
                         + (" The page does not say how the ROM reads the card." + _same_as_ospi(boot_table, i)
                            if boot == "SD" else "")))
    return out


@checks.provider
def image_load_source_checks():
    """The ROM's SBL load and the OSPI CPU load against the least their medium's stated speed allows."""
    return image_load_checks(data.load("am243x-sbl-boot"), data.load("am243x-sbl-setup"))


__all__ += ["ROM_STEP", "CPU_LOAD", "OSPI_MODES", "media_bytes_s", "least_read_ms", "image_load_checks"]


# --- the reader's image on the boot flash ------------------------------------------------------------

image = symbol("S", positive=True, integer=True)  #: bytes of the image read from flash
media_clock = symbol("f", positive=True)  #: the OSPI clock, MHz
data_lines = symbol("n", positive=True, integer=True)  #: data lines of the OSPI mode (4 or 8)
per_clock = symbol("m", positive=True, integer=True)  #: transfers per clock (1 SDR, 2 DDR)

PARAMETERS = {
    p.name: p
    for p in (
        Parameter("image_bytes", image, "bytes", 1, 1 << 26, default=146 * 1024, step=1, integer=True,
                  label="image read from flash (bytes)",
                  presets=((34 * 1024, "34 KB"), (146 * 1024, "146 KB"), (256 * 1024, "256 KB"), (1 << 20, "1 MB"))),
        Parameter("clock_mhz", media_clock, "MHz", 1, 200, default=166.667, step=0.001, label="OSPI clock (MHz)",
                  presets=((50, "50"), (133, "133"), (166.667, "166.667: the datasheet's"), (200, "200"))),
    )
}


def media_rate_expr() -> sp.Expr:
    """What the flash delivers (MB/s, 10^6 bytes): ``f`` MHz clocks of ``n`` lines, ``m`` transfers each."""
    return media_clock * data_lines * per_clock / 8


def least_read_expr() -> sp.Expr:
    """The least time (ms) an image of ``S`` bytes takes to read at :func:`media_rate_expr`: the floor under the
    steps that load it (:func:`image_load_checks` holds the datasheet's to it)."""
    return image / (1000 * media_rate_expr())


__all__ += ["image", "media_clock", "data_lines", "per_clock", "PARAMETERS", "media_rate_expr", "least_read_expr"]


# --- XIP: the cached run is the least of the runs the 1-in-10 row averages (issue 18) -------------------

ONE_IN_TEN = "Code/Data not cached 1 of 10 iterations"


def xip_least_checks(t) -> list:
    """Each fully cached cycle count of the ``am243x-xip`` table (or an edited copy) against the "1 of 10
    iterations not cached" row of the same benchmark (``consistency``, ``<=``): that row averages ten runs, the
    nine cached ones among them, and no run takes fewer cycles than the code fully cached
    (:func:`xip_checks`), so the cached count is at most the average: the least of what is averaged is at most
    the average."""
    return _against(t, CACHED, ONE_IN_TEN, "fully cached", kind="consistency", relation="<=",
                    note="At most the {model:g} cycles the 1-in-10 row averages over ten runs: the cached run is the "
                         "least of them.",
                    off_note="More cycles fully cached ({published}) than the average of ten runs of which nine are "
                             "cached and one is not ({model:g}): some run would have been faster than the code fully "
                             "cached.")


@checks.provider
def xip_least_source_checks():
    """XIP: each benchmark fully cached takes at most the cycles of its 1-in-10 average."""
    return xip_least_checks(data.load("am243x-xip"))


__all__ += ["ONE_IN_TEN", "xip_least_checks"]


# --- the SD notes' "the CPU load is faster in this case" (issue 18) -------------------------------------

def sd_cpu_load_checks(boot_table) -> list:
    """The SD boot's CPU load (table ``am243x-sbl-boot``, or an edited copy) against the OSPI boot's
    (``prose``, ``<=``): the SD section's note says its CPU load is faster, the SBL copying the appimage from
    memory where the OSPI boot copies it from the flash."""
    b = boot_table
    ospi = b.index[(b["boot"] == "OSPI") & (b["step"] == CPU_LOAD)][0]
    sd = b.index[(b["boot"] == "SD") & (b["step"] == CPU_LOAD)][0]
    return [checks.compare(
        b, sd, "time_ms", float(b.loc[ospi, "time_ms"]),
        note_row("SD", "CPU load, 'faster in this case'"), kind="prose", relation="<=",
        note="The note says the CPU load is faster than the OSPI boot's, {model:g} ms: the appimage is copied "
             "from memory, not from the flash.",
        off_note="The note says the CPU load is faster than the OSPI boot's {model:g} ms; the table prints "
                 "{published} ms.")]


@checks.provider
def sd_cpu_load_source_checks():
    """The SD boot's CPU load against the OSPI boot's, as its note says: faster."""
    return sd_cpu_load_checks(data.load("am243x-sbl-boot"))


__all__ += ["sd_cpu_load_checks"]


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

__all__ += ["evaluate_read", "COMMAND"]
