"""The command outside the checkout: a wheel built from this tree, installed into a fresh virtual environment in a
temporary folder with the repository out of reach, runs every command line the README lists and prints what the
checkout's command prints; it carries the published tables, logs, census and notebooks the command reads, and the
book's licences."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from command import GOODPUT

from goodput import __version__
from goodput.core.resources import SHIPPED

#: It installs the wheel's dependencies from the package index: CI runs it after make test (make test-wheel).
pytestmark = [pytest.mark.slow, pytest.mark.wheel]

ROOT = Path(__file__).resolve().parent.parent
#: The book's own outputs of a machine, as `goodput from` takes the README's ethtool.txt ip-link.txt iperf3.json.
FROM_FILES = {"ethtool.txt": "ethtool-veth.txt", "ip-link.txt": "iplink-host.txt", "iperf3.json": "iperf3-shaped-100m.json"}


def readme_commands() -> list[list[str]]:
    """Every ``goodput ...`` line of the README's command examples, its comment left out."""
    lines = re.findall(r"^goodput (.+?)(?:\s+#.*)?$", (ROOT / "README.md").read_text(encoding="utf-8"), re.MULTILINE)
    return [shlex.split(line) for line in lines]


def _argv(words: list[str], folder: Path) -> list[str]:
    """A README command line as this test runs it in ``folder``: the files it names are the book's own."""
    if words[0] == "size":  # the firmware's objects, which only a cross build makes: an ELF every machine has
        return ["size", "/bin/true", *(w for w in words[1:] if w.startswith("--"))]
    return words


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh environment in a temporary folder with the wheel of this tree installed (its dependencies from the
    package index); the environment's ``goodput``."""
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(folder / "dist")], check=True, cwd=folder, timeout=300)
    env = folder / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, timeout=300)
    (wheel,) = (folder / "dist").glob("goodput-*.whl")
    subprocess.run([str(env / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", str(wheel)],
                   check=True, cwd=folder, timeout=900)
    return env / "bin" / "goodput"


def test_the_wheel_carries_the_files_the_command_reads_and_the_licences(installed):
    (wheel,) = (installed.parent.parent.parent / "dist").glob("goodput-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for name in SHIPPED:
        assert any(n.startswith(f"goodput/_shipped/{name}") for n in names), name
    assert f"goodput-{__version__}.dist-info/licenses/LICENSE" in names or \
        any(n.endswith("dist-info/LICENSE") for n in names), [n for n in names if "dist-info" in n]
    assert not any("/tests/" in n or n.startswith("tests/") for n in names)


def test_every_readme_command_prints_outside_the_checkout_what_it_prints_in_it(installed, tmp_path):
    away = tmp_path / "away"
    away.mkdir()
    for name, fixture in FROM_FILES.items():
        shutil.copy(ROOT / "data" / "machine" / fixture, away / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GOODPUT_DATA", "VIRTUAL_ENV")}
    assert str(ROOT) not in subprocess.run([str(installed.parent / "python"), "-c", "import sys; print(sys.path)"],
                                           capture_output=True, text=True, cwd=away, env=env).stdout
    commands = readme_commands()
    assert len(commands) >= 20, commands
    for words in commands:
        argv = _argv(words, away)
        if "-o" in argv:  # a workbook: each into a folder of its own
            argv[argv.index("-o") + 1] = str(away / ("here" if "--all" in argv else "here.xlsx"))
        there = subprocess.run([str(installed), *argv], capture_output=True, text=True, cwd=away, env=env, timeout=300)
        if "-o" in argv:
            argv[argv.index("-o") + 1] = str(away / ("home" if "--all" in argv else "home.xlsx"))
        here = subprocess.run([str(GOODPUT), *argv], capture_output=True, text=True, cwd=away, env=env, timeout=300)
        assert there.returncode == here.returncode == 0, (argv, there.stderr, here.stderr)
        if "-o" in argv:
            assert there.stdout.replace("here", "home") == here.stdout, argv
        else:
            assert there.stdout == here.stdout, argv


def test_the_installed_command_says_its_version(installed):
    p = subprocess.run([str(installed), "--version"], capture_output=True, text=True, timeout=60)
    assert p.stdout == f"goodput {__version__}\n"
