"""The bare-metal port (firmware/port/mps2) builds, runs under QEMU and passes its checks, and
a run on this machine prints the committed QEMU log line for line: -icount makes it the same
everywhere."""

import shutil
import subprocess
from pathlib import Path

import pytest

from goodput.logs import bench

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MPS2 = FIRMWARE / "build" / "mps2"
QEMU_LOGS = ROOT / "data" / "logs" / "qemu"
PICOLIBC = Path("/usr/lib/picolibc/arm-none-eabi/picolibc.specs")

_MISSING = [name for name, found in (("qemu-system-arm", shutil.which("qemu-system-arm")),
                                      ("arm-none-eabi-gcc", shutil.which("arm-none-eabi-gcc")),
                                      ("picolibc-arm-none-eabi", PICOLIBC.exists())) if not found]
needs_qemu = pytest.mark.skipif(bool(_MISSING), reason=f"not installed: {', '.join(_MISSING)} "
                                "(Debian: gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm; make qemu)")


def _run(*args, timeout=300):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout)


@needs_qemu
def test_make_qemu_check_builds_the_images_runs_them_under_qemu_and_checks_their_consoles():
    p = _run("make", "-C", str(FIRMWARE), "qemu-check")
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "qemu_check: all checks passed" in p.stdout
    assert "FAIL" not in p.stdout


def _version(command):
    return _run(*command).stdout.splitlines()[0]


@needs_qemu
@pytest.mark.parametrize("image, log", [("memcopy", "memcopy-mps2-an386"),
                                        ("memcopy-minsize", "memcopy-mps2-an386-picolibc-minsize")])
def test_a_run_here_prints_the_committed_qemu_log_line_for_line(image, log):
    path = QEMU_LOGS / f"{log}.log"
    header = bench.parse(path).header
    revision = header["git"].removesuffix("-dirty")
    # what the image is built from: the core, the port and the rules that build it (not their prose)
    changed = _run("git", "-C", str(ROOT), "diff", "--quiet", revision, "--", "firmware/core", "firmware/port/mps2",
                   "firmware/Makefile", ":(exclude)*.md").returncode
    here = {"compiler": _version(["arm-none-eabi-gcc", "--version"]),
            "emulator": _version(["qemu-system-arm", "--version"])}
    # a log of firmware that is no longer the repository's would show stale numbers: that is a failure
    assert not header["git"].endswith("-dirty") and not changed, (
        f"{path.name} was captured from firmware other than the repository's ({header['git']}; firmware/ "
        "changed since): run `make capture` and commit the logs")
    # other tools make other code and count other instructions: nothing to compare with here
    differ = [k for k, v in here.items() if header[k] != v]
    if differ:
        pytest.skip(f"{path.name} was captured with another {' and '.join(differ)} ({header['git']}): "
                    "run `make capture` to capture it with this machine's")
    assert _run("make", "-C", str(FIRMWARE), f"build/mps2/{image}.elf").returncode == 0
    p = _run("sh", str(FIRMWARE / "port" / "mps2" / "qemu.sh"), str(MPS2 / f"{image}.elf"), "-", timeout=120)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    committed = [line for line in path.read_text().splitlines() if not line.startswith("# ")]
    assert p.stdout.splitlines() == committed
