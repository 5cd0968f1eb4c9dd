"""The firmware builds warning-free, passes its C checks, and its logs parse; the shaped
100 Mbit/s link lands within 1 % of the Ethernet model's ceiling."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from goodput import ethernet, hostbench
from goodput.logs import bench, ndk_console

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
BUILD = FIRMWARE / "build"


@pytest.fixture(scope="module")
def built():
    p = subprocess.run(["make", "-C", str(FIRMWARE)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    return BUILD


def test_make_check_runs_the_c_tests_and_the_programs_under_sanitizers(built):
    p = subprocess.run(["make", "-C", str(FIRMWARE), "check"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "test_core: all passed" in p.stdout and "run_programs: all passed" in p.stdout


def _pair(built, tmp_path, testee_prefix=(), tester_prefix=(), address="127.0.0.1", port=0, args=()):
    port = port or 30000 + os.getpid() % 20000
    testee_log, tester_log = tmp_path / "testee.log", tmp_path / "tester.log"
    with open(testee_log, "w") as out:
        testee = subprocess.Popen([*testee_prefix, str(built / "tcp_testee"), "--receive-port", str(port),
                                   "--transmit-port", str(port + 1), "--idle-timeout-ms", "20000"],
                                  stdout=out, stderr=subprocess.STDOUT)
    try:
        with open(tester_log, "w") as out:
            tester = subprocess.run([*tester_prefix, str(built / "tcp_tester"), "--address", address,
                                     "--receive-port", str(port), "--transmit-port", str(port + 1), *args],
                                    stdout=out, stderr=subprocess.STDOUT, timeout=120)
        assert tester.returncode == 0, tester_log.read_text()
        assert testee.wait(timeout=30) == 0, testee_log.read_text()
    finally:
        if testee.poll() is None:
            testee.kill()
    return testee_log, tester_log


def test_a_loopback_run_parses_with_both_parsers_and_counts_agree(built, tmp_path):
    testee_log, tester_log = _pair(built, tmp_path, args=("--frame-sizes", "8K,16K", "--intervals-ms", "0",
                                                          "--frames", "300"))
    ee, er = bench.parse(testee_log), bench.parse(tester_log)
    assert len(ee.results) == len(er.results) == 4
    for mine, theirs in zip(ee.results, er.results):
        assert mine["bytes"] == theirs["bytes"] == mine["frame_bytes"] * 300
    sentences = ndk_console.parse(testee_log)
    assert list(sentences["total_bytes"]) == [r["bytes"] for r in ee.results]


def _can_make_namespaces():
    if os.geteuid() != 0 or not shutil.which("ip") or not shutil.which("tc"):
        return False
    p = subprocess.run(["ip", "netns", "add", "goodput-probe"], capture_output=True)
    subprocess.run(["ip", "netns", "del", "goodput-probe"], capture_output=True)
    return p.returncode == 0


def test_the_shaped_100_mbit_link_lands_within_1_percent_of_the_model(built, tmp_path):
    if not _can_make_namespaces():
        pytest.skip("the shaped-link test needs root, iproute2 and network namespaces; this machine has not")
    script = ROOT / "tools" / "shaped-link.sh"
    subprocess.run(["sh", str(script), "down", "goodput-test"], check=True)
    subprocess.run(["sh", str(script), "up", "goodput-test", "100mbit"], check=True)
    try:
        testee_log, _ = _pair(built, tmp_path, ("ip", "netns", "exec", "goodput-test-b"),
                              ("ip", "netns", "exec", "goodput-test-a"), "10.77.0.2", 5001,
                              ("--frame-sizes", "8K", "--intervals-ms", "0", "--frames", "1200"))
    finally:
        subprocess.run(["sh", str(script), "down", "goodput-test"], check=True)
    timestamps = Path("/proc/sys/net/ipv4/tcp_timestamps").read_text().strip() == "1"
    ceiling = ethernet.evaluate(hostbench.MAC_FRAME_BYTES, 0.1, "tcp4ts" if timestamps else "tcp4")[
        "goodput_gbit_s"] * 1000
    for r in bench.parse(testee_log).results:
        mbit_s = r["bytes"] * 8 / r["elapsed_ns"] * 1000
        assert mbit_s == pytest.approx(ceiling, rel=0.01), (r["direction"], mbit_s, ceiling)


def test_the_committed_shaped_link_log_is_within_1_percent_for_8192_byte_writes():
    t = hostbench.shaped_vs_model("shaped-100m")
    eight = t[(t["frame_bytes"] == 8192) & (t["interval_us"] == 0)]
    assert len(eight) == 2
    assert ((eight["measured_over_ceiling"] - 1).abs() < 0.01).all(), eight


def test_goodput_size_reports_the_host_and_r5f_objects_of_the_core(built):
    import json
    import sys

    p = subprocess.run(["make", "-C", str(FIRMWARE), "objects", "objects-r5f"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    goodput = Path(sys.executable).parent / "goodput"
    for target, machine in (("host", "EM_X86_64"), ("r5f", "EM_ARM")):
        files = [str(BUILD / target / f"{n}.o") for n in ("bench", "memcopy", "tcp_bench")]
        out = subprocess.run([str(goodput), "size", "--json", *files], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        assert {f["machine"] for f in report["files"]} == {machine} or target == "host"
        assert report["totals"]["code"] > 1000
        assert report["totals"]["code"] == sum(f["totals"]["code"] for f in report["files"])
