"""Recalculate workbooks in LibreOffice Calc, headless, and print what its engine computed.

Run with the Python that has LibreOffice's ``uno`` module (Debian's ``python3-uno``,
so ``/usr/bin/python3``), not the project's virtualenv. Reads a JSON job on stdin::

    {"workbooks": [{"path": "x.xlsx",
                    "points": [{"input_name": value, ...}, ...],
                    "invalid": [{"input_name": value}, ...]}]}

and prints JSON: for each workbook, each point's recalculated sheets (every used
cell, by sheet name) and, for each ``invalid`` entry, whether Calc's validity
check marks the input cell invalid with that value (and not with its first value).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue


def _prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def _connect(pipe: str, deadline: float):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    while True:
        try:
            return resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
        except Exception:  # NoConnectException until soffice listens
            if time.monotonic() > deadline:
                raise SystemExit("libreoffice_recalc: soffice did not start listening within 60 s")
            time.sleep(0.25)


def _used(sheet):
    cursor = sheet.createCursor()
    cursor.gotoEndOfUsedArea(False)
    end = cursor.getRangeAddress()
    rng = sheet.getCellRangeByPosition(0, 0, end.EndColumn, end.EndRow)
    return [list(row) for row in rng.getDataArray()]


def _input_cell(doc, name):
    if not doc.NamedRanges.hasByName(name):
        raise SystemExit(f"libreoffice_recalc: no named cell {name!r} in the workbook")
    return doc.NamedRanges.getByName(name).getReferredCells().getCellByPosition(0, 0)


def _invalid(doc, sheet) -> bool:
    marked = sheet.showInvalid()
    sheet.clearArrows()
    return bool(marked)


def run(job: dict) -> dict:
    soffice = shutil.which("soffice") or "/usr/bin/soffice"
    profile = tempfile.mkdtemp(prefix="lo-profile-")
    pipe = f"goodput{os.getpid()}"
    proc = subprocess.Popen([soffice, "--headless", "--invisible", "--nologo", "--norestore", "--nodefault",
                             f"-env:UserInstallation=file://{profile}", f"--accept=pipe,name={pipe};urp;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    out = {"workbooks": []}
    desktop = None
    try:
        ctx = _connect(pipe, time.monotonic() + 60)
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        for wb in job["workbooks"]:
            url = uno.systemPathToFileUrl(os.path.abspath(wb["path"]))
            doc = desktop.loadComponentFromURL(url, "_blank", 0, (_prop("Hidden", True),))
            if doc is None:
                raise SystemExit(f"libreoffice_recalc: Calc could not open {wb['path']}")
            try:
                sheets = doc.Sheets
                names = list(sheets.ElementNames)
                result = {"path": wb["path"], "sheets": names, "points": [], "invalid": []}
                for point in wb["points"]:
                    for name, value in point.items():
                        # a cell holds a double: an integer past 2**31 (4 GiB of bytes) reaches UNO as a 64-bit one
                        _input_cell(doc, name).setValue(float(value))
                    doc.calculateAll()
                    result["points"].append({n: _used(sheets.getByName(n)) for n in names})
                inputs = sheets.getByName("Inputs")
                for bad in wb.get("invalid", []):
                    (name, value), = bad.items()
                    cell = _input_cell(doc, name)
                    before = cell.getValue()
                    clean = _invalid(doc, inputs)
                    cell.setValue(float(value))
                    marked = _invalid(doc, inputs)
                    cell.setValue(before)
                    result["invalid"].append({"input": name, "value": value, "clean_before": not clean,
                                              "marked": marked})
                out["workbooks"].append(result)
            finally:
                doc.close(True)
    finally:
        # soffice ends when asked, a failed run too; else its whole session goes (the wrapper script started
        # soffice.bin, which killing the script alone leaves running)
        try:
            if desktop is not None:
                desktop.terminate()
        except Exception:  # the bridge drops as soffice exits
            pass
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)
    return out


if __name__ == "__main__":
    json.dump(run(json.load(sys.stdin)), sys.stdout)
