"""What built the book: interpreter, library and JavaScript versions."""

from __future__ import annotations

import json
import platform
from importlib import metadata
from pathlib import Path

__all__ = ["python_packages", "js_packages", "versions_markdown"]

PYTHON_PACKAGES = ("sympy", "numpy", "pandas", "altair", "ipywidgets", "jupyter-book",
                   "myst-nb", "sphinx", "nbval", "vl-convert-python")


def python_packages() -> dict[str, str]:
    return {name: metadata.version(name) for name in PYTHON_PACKAGES}


def js_packages() -> dict[str, str]:
    manifest = Path(__file__).resolve().parent.parent / "js-assets.json"
    return {p["name"]: p["version"] for p in json.loads(manifest.read_text())["packages"]}


def versions_markdown() -> str:
    rows = [("Python", platform.python_version())]
    rows += [(k, v) for k, v in python_packages().items()]
    rows += [(f"{k} (JavaScript, served locally)", v) for k, v in js_packages().items()]
    return "| component | version |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)
