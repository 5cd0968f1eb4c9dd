"""The AM243x MCU+ SDK datasheet's bootloader (SBL) and XIP sections checked against themselves and against
:mod:`goodput.analysis.boot`, for the boot-and-memory chapter: the SBL OSPI and SD performance tables (each total
against its steps; the steps that read an image against the least the medium's stated speed allows), the SBL notes
(Board_driversOpen "around" its step, the SD appimage read, ~1.5 ms per CPU but the M4F, the SD CPU load "faster in
this case") with the boot setup tables, and the XIP benchmark (the 1-in-10 rows against nine cached runs and one
uncached; uncached runs no faster than cached)."""

from __future__ import annotations

from goodput import checks
from goodput.analysis import boot as boot_model  # "boot" is a medium in the functions below
from goodput.analysis.boot import TOTAL, media_bytes_s, steps
from goodput.core import data

__all__ = ["BOOT_SECTIONS", "note_row", "source_checks", "M4F", "cores", "size_bytes", "read_speed_bytes_s",
           "sbl_note_checks", "sbl_note_source_checks", "CACHED", "UNCACHED", "xip_checks", "xip_source_checks",
           "ROM_STEP", "CPU_LOAD", "least_read_ms", "image_load_checks", "image_load_source_checks", "ONE_IN_TEN",
           "xip_least_checks", "xip_least_source_checks", "sd_cpu_load_checks", "sd_cpu_load_source_checks"]


#: The datasheet's section each boot medium's table and notes stand in (a note's check names it in its row).
BOOT_SECTIONS = {"OSPI": "AM243X-EVM", "SD": "SBL SD performance"}


def note_row(boot: str, what: str) -> str:
    """The row a check of a note of ``boot``'s section is shown under: the medium, its section, what it says."""
    return f"{boot} ({BOOT_SECTIONS[boot]}): {what}"


def _total(boot: str) -> float:
    return float(steps(boot)["time_ms"].sum())


@checks.provider(boot_model)
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


# --- the notes' per-CPU load time and the SD read speed -------------------------------------------

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


@checks.provider(boot_model)
def sbl_note_source_checks():
    """The notes' ~1.5 ms per CPU and the SD file read against the stated read speed."""
    return sbl_note_checks(data.load("am243x-sbl-boot"), data.load("am243x-sbl-notes"),
                           data.load("am243x-sbl-setup"))


# --- XIP: code run from flash uncached takes no fewer cycles than the same code cached ------------------

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


@checks.provider(boot_model)
def xip_source_checks():
    """XIP: each benchmark uncached takes at least its cycles fully cached."""
    return xip_checks(data.load("am243x-xip"))


# --- the images each boot step reads, against the least its medium's stated speed allows ------------------

ROM_STEP = "ROM : init + SBL load from flash"
CPU_LOAD = "SBL : CPU Load"


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


@checks.provider(boot_model)
def image_load_source_checks():
    """The ROM's SBL load and the OSPI CPU load against the least their medium's stated speed allows."""
    return image_load_checks(data.load("am243x-sbl-boot"), data.load("am243x-sbl-setup"))


# --- XIP: the cached run is the least of the runs the 1-in-10 row averages -------------------------------

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


@checks.provider(boot_model)
def xip_least_source_checks():
    """XIP: each benchmark fully cached takes at most the cycles of its 1-in-10 average."""
    return xip_least_checks(data.load("am243x-xip"))


# --- the SD notes' "the CPU load is faster in this case" -------------------------------------------------

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


@checks.provider(boot_model)
def sd_cpu_load_source_checks():
    """The SD boot's CPU load against the OSPI boot's, as its note says: faster."""
    return sd_cpu_load_checks(data.load("am243x-sbl-boot"))
