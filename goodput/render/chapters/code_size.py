"""Tables of the code-size chapter."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from goodput.analysis import hostbench, sizing
from goodput.core import data

__all__ = ["firmware_table", "firmware_provenance", "ndk_totals"]


def _log(name: str) -> Path:
    return hostbench.log_path(name)


def firmware_table() -> pd.DataFrame:
    """Bytes of each core object file by type, host and R5F side by side (captured logs)."""
    rows = []
    for target, name in (("host (x86-64)", "size-host"), ("Cortex-R5F", "size-r5f")):
        _, report = sizing.parse_log(_log(name))
        for f in report["files"]:
            rows.append({"build": target, "object": Path(f["file"]).name, **f["totals"]})
        rows.append({"build": target, "object": "all", **report["totals"]})
    return pd.DataFrame(rows)


def firmware_provenance() -> pd.DataFrame:
    rows = []
    for name in ("size-host", "size-r5f"):
        header, _ = sizing.parse_log(_log(name))
        rows.append({"log": f"data/logs/host/{name}.log", "compiler": header.get("compiler", ""),
                     "flags": header.get("flags", ""), "date": header.get("date", ""), "git": header.get("git", "")})
    return pd.DataFrame(rows)


def ndk_totals() -> pd.DataFrame:
    """The NDK's stack.lib and client.out totals by type, as SPRAAQ5 §5.1 prints them."""
    t = data.load("spraaq5-s5-sizing")
    t = t[t["file"] == "totals"]
    kinds = {"Code": "code", "Initialized Data": "initialized data", "Uninitialized Data": "uninitialized data"}
    out = t.assign(kind=[kinds[s] for s in t["section"]]).pivot(index="report", columns="kind", values="size_dec")
    return out[list(sizing.TYPES)].reset_index().rename_axis(columns=None)
