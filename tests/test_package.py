"""The package as others install and cite it: ranges in its metadata, the exact pins in requirements.lock, one
version everywhere it is written, the licences stated."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml
from command import call

from goodput import __version__

ROOT = Path(__file__).resolve().parent.parent


def _lock() -> dict[str, str]:
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;]+)", (ROOT / "requirements.lock").read_text(), re.MULTILINE)
    return {name.lower().replace("_", "-"): version for name, version in pins}


def test_the_metadata_states_ranges_whose_lower_bounds_are_the_locked_versions():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
    lock = _lock()
    wanted = [*project["dependencies"], *(d for ds in project["optional-dependencies"].values() for d in ds)]
    for requirement in wanted:
        name, spec = re.fullmatch(r"([A-Za-z0-9_.-]+)(.*)", requirement).groups()
        assert "==" not in spec, requirement
        low = re.search(r">=([0-9][^,]*)", spec).group(1)
        pinned = lock[name.lower().replace("_", "-")]
        # the version the book is built with is at or above the bound, on the bound's own release line
        assert pinned.startswith(low) or pinned == low, (requirement, pinned)


def test_one_version_in_the_package_the_citation_and_the_command():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["version"] == __version__ and citation["title"].startswith("Goodput")
    assert call("--version").stdout == f"goodput {__version__}\n"


def test_the_licences_are_stated_where_a_reader_looks():
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "CC BY 4.0" in licence
    for path in ("README.md", "book/intro.md"):
        text = (ROOT / path).read_text()
        assert "CC BY 4.0" in text and "MIT" in text, path
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"}
