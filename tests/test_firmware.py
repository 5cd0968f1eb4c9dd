"""The firmware builds warning-free, passes its C checks, and its logs parse; the shaped
100 Mbit/s link lands within 1 % of the Ethernet model's ceiling."""

import os
import re
import shutil
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path

import pytest
from command import run

from goodput.analysis import hostbench
from goodput.logs import bench, ndk_console
from goodput.models import ethernet

pytestmark = pytest.mark.slow

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
    # below Linux's ephemeral ports (32768 and up, where the kernels, browsers and servers of other tests get
    # theirs) and apart from firmware/tests/run_programs.sh's (20000-25011)
    port = port or 26000 + os.getpid() % 6000
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


def _free_ports(count=2):
    """Ports nobody listens on now: bound to port 0 by the kernel, then released."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _testee(built, log, receive, transmit, idle_ms=20000, io_ms=1000):
    out = open(log, "w")
    p = subprocess.Popen([str(built / "tcp_testee"), "--address", "127.0.0.1", "--receive-port", str(receive),
                          "--transmit-port", str(transmit), "--idle-timeout-ms", str(idle_ms),
                          "--io-timeout-ms", str(io_ms)], stdout=out, stderr=subprocess.STDOUT)
    out.close()
    deadline = time.monotonic() + 10
    while "BENCH-CONFIG" not in log.read_text() or not _listening(receive):
        assert p.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.02)
    return p


def _listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()  # itself a stray: closes at once
        return True
    except OSError:
        return False


def _header(kind, frame_bytes=1024, frames=1, interval_us=0):
    return b"GPB1" + struct.pack(">IIII", ord(kind), frame_bytes, frames, interval_us)


def test_the_testee_names_stray_connections_and_still_serves_the_tester_after_them(built, tmp_path):
    receive, transmit = _free_ports()
    log = tmp_path / "testee.log"
    testee = _testee(built, log, receive, transmit, io_ms=1000)
    try:
        with socket.create_connection(("127.0.0.1", receive)) as s:  # 20 bytes of garbage
            s.sendall(b"x" * 20)
            time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", transmit)) as s:  # a tester's header on the wrong port
            s.sendall(_header("R"))
            time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", receive)) as s:  # an interval the testee would time out on
            s.sendall(_header("R", interval_us=2000000))
            time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", receive)) as s:  # half a header, then silence
            s.sendall(_header("R")[:7])
            time.sleep(1.5)
        with socket.create_connection(("127.0.0.1", transmit)) as s:  # a header trickled a byte at a time
            try:
                for byte in _header("T"):
                    s.sendall(bytes([byte]))
                    time.sleep(0.15)
            except OSError:
                pass  # the testee gave up on it and closed
        tester = subprocess.run([str(built / "tcp_tester"), "--receive-port", str(receive), "--transmit-port",
                                 str(transmit), "--frame-sizes", "8K", "--intervals-ms", "0", "--frames", "50"],
                                capture_output=True, text=True, timeout=60)
        assert tester.returncode == 0, tester.stdout + tester.stderr
        assert testee.wait(timeout=30) == 0, log.read_text()
    finally:
        if testee.poll() is None:
            testee.kill()
    text = log.read_text()
    ignored = re.findall(r"^Ignored a connection from 127\.0\.0\.1:\d+ to the (\w+) port: (.*)$", text, re.M)
    reasons = [why for _, why in ignored]
    assert "it closed after 0 of 20 header bytes" in reasons  # _testee's own probe, and any like it
    assert "its 20 bytes are not a benchmark header (bad magic, kind or size)" in reasons
    assert ("transmit", "it asked to receive there") in ignored
    assert "it asked for 2000000 us between frames, not shorter than the I/O timeout of 1000 ms" in reasons
    assert ("receive", "it sent 7 of 20 header bytes in 1000 ms") in ignored
    # the trickle: held to 1000 ms for the whole header, not 1000 ms for each byte
    trickled = [int(m[1]) for port, why in ignored if port == "transmit"
                for m in [re.fullmatch(r"it sent (\d+) of 20 header bytes in 1000 ms", why)] if m]
    assert len(trickled) == 1 and 1 <= trickled[0] < 20, ignored
    log_ = bench.parse(log)  # the strays are human lines: the log parses, with both runs
    assert [r["direction"] for r in log_.results] == ["receive", "transmit"]
    assert log_.done["runs"] == 2
    assert list(ndk_console.parse(log)["total_bytes"]) == [8192 * 50, 8192 * 50]


def test_strays_do_not_keep_an_idle_testee_alive(built, tmp_path):
    receive, transmit = _free_ports()
    log = tmp_path / "testee.log"
    testee = _testee(built, log, receive, transmit, idle_ms=1500, io_ms=300)
    stop = threading.Event()

    def pester():
        while not stop.is_set():
            try:
                socket.create_connection(("127.0.0.1", receive), timeout=1).close()
            except OSError:
                pass
            time.sleep(0.1)

    thread = threading.Thread(target=pester)
    thread.start()
    try:
        # the idle timeout runs from the start (or the last run), not from the last stray
        rc = testee.wait(timeout=8)
    finally:
        stop.set()
        thread.join()
        if testee.poll() is None:
            testee.kill()
    text = log.read_text()
    assert rc == 1, text
    m = re.search(r"^BENCH-ERROR bench=tcp_testee error=no tester within 1500 ms after 0 runs "
                  r"\((\d+) connections ignored\): timed out$", text, re.M)
    assert m and int(m[1]) >= 2, text


def test_a_transmit_run_the_tester_cuts_off_is_told_in_the_transmit_direction_s_words(built, tmp_path):
    receive, transmit = _free_ports()
    log = tmp_path / "testee.log"
    testee = _testee(built, log, receive, transmit, io_ms=1000)
    try:
        with socket.create_connection(("127.0.0.1", transmit)) as s:  # asks for 1 GiB, takes 64 KiB, hangs up
            s.sendall(_header("T", frame_bytes=65536, frames=16384))
            got = 0
            while got < 65536:
                got += len(s.recv(65536))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset: the peer is gone
        assert testee.wait(timeout=10) == 1, log.read_text()
    finally:
        if testee.poll() is None:
            testee.kill()
    text = log.read_text()
    m = re.search(r"^BENCH-ERROR bench=tcp_testee direction=transmit frame_bytes=65536 expected_bytes=1073741824 "
                  r"bytes=(\d+) error=peer closed the connection early$", text, re.M)
    assert m, text
    # the human line says what this end did: it sent, it did not receive
    assert re.search(rf"^Sent {m[1]} of 1073741824 bytes before: peer closed the connection early$", text, re.M), text
    assert not re.search(r"^Received \d+ of", text, re.M), text
    assert "BENCH-DONE" not in text
    assert ndk_console.parse(log).empty  # no line passes for (or breaks) an NDK sentence


def test_idle_peers_do_not_hold_up_the_tester_s_quit_or_its_runs(built, tmp_path):
    receive, transmit = _free_ports()
    log = tmp_path / "testee.log"
    testee = _testee(built, log, receive, transmit, io_ms=5000)  # the testee's default I/O timeout
    idle = []
    try:
        for n in range(10):  # connected to either port, and never a byte sent
            idle.append(socket.create_connection(("127.0.0.1", (receive, transmit)[n % 2]), timeout=2))
        start = time.monotonic()
        tester = subprocess.run([str(built / "tcp_tester"), "--receive-port", str(receive), "--transmit-port",
                                 str(transmit), "--frame-sizes", "8K", "--intervals-ms", "0", "--frames", "50",
                                 "--io-timeout-ms", "2000"], capture_output=True, text=True, timeout=60)
        assert tester.returncode == 0, tester.stdout + tester.stderr
        assert testee.wait(timeout=10) == 0, log.read_text()
        elapsed = time.monotonic() - start
    finally:
        for s in idle:
            s.close()
        if testee.poll() is None:
            testee.kill()
    text = log.read_text()
    assert elapsed < 2, (elapsed, text)  # both runs and the quit, not the idle peers' 5 s I/O timeouts
    log_ = bench.parse(log)
    assert [r["direction"] for r in log_.results] == ["receive", "transmit"]
    assert log_.done["runs"] == 2
    # every idle peer is named and ignored, as a stray is: none is served, none ends the testee
    ignored = re.findall(r"^Ignored a connection from 127\.0\.0\.1:\d+ to the (?:receive|transmit) port: (.*)$",
                         text, re.M)
    assert len(ignored) >= 10, text


def test_the_tester_gives_up_on_a_testee_that_never_answers(built, tmp_path):
    with socket.socket() as silent, socket.socket() as other:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes the handshake; nobody ever reads or replies
        other.bind(("127.0.0.1", 0))
        p = subprocess.run([str(built / "tcp_tester"), "--receive-port", str(silent.getsockname()[1]),
                            "--transmit-port", str(other.getsockname()[1]), "--frame-sizes", "1K",
                            "--intervals-ms", "0", "--frames", "4", "--io-timeout-ms", "500"],
                           capture_output=True, text=True, timeout=30)
    assert p.returncode == 1, p.stdout + p.stderr
    assert re.search(r"^BENCH-ERROR bench=tcp_tester direction=send .* error=timed out$", p.stdout, re.M), p.stdout


def _memcopy_limits(built):
    """MEMCOPY_MAX_BYTES and the largest stride total, as the program's usage states them."""
    usage = subprocess.run([str(built / "memcopy"), "--help"], capture_output=True, text=True, check=True).stdout
    max_bytes = int(re.search(r"up to (\d+) bytes", usage)[1])
    stride_max = int(re.search(r"--stride-total is at most (\d+)", usage)[1])
    return max_bytes, stride_max


@pytest.mark.parametrize("stride_total", ["1M", "max", "max+1", "64M", "256M"])
def test_memcopy_needs_at_most_two_buffers_of_memcopy_max_bytes(built, stride_total):
    resource = pytest.importorskip("resource")
    max_bytes, stride_max = _memcopy_limits(built)
    total = {"max": str(stride_max), "max+1": str(stride_max + 1)}.get(stride_total, stride_total)
    limit = 2 * max_bytes + (16 << 20)  # the documented two buffers, and 16 MiB for the program itself

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    # every sweep at its largest with this stride total: a 256 MiB copy, 256 MiB at offsets, the stride rows
    p = subprocess.run([str(built / "memcopy"), "--sweep", "size,stride,align", "--min-bytes", str(max_bytes),
                        "--max-bytes", str(max_bytes), "--align-bytes", str(max_bytes), "--stride-total", total,
                        "--stride-acnt-max", "8", "--repeats", "1", "--min-sample-ns", "1000"],
                       capture_output=True, text=True, timeout=300, preexec_fn=limited)
    assert "out of memory" not in p.stdout + p.stderr
    if stride_total in ("1M", "max"):
        assert p.returncode == 0, p.stderr
        assert p.stdout.splitlines()[-1] == "BENCH-DONE bench=memcopy status=ok"
    else:  # refused before it allocates, with the reason and the usage
        assert p.returncode == 2, p.stdout + p.stderr
        assert p.stdout == ""
        assert "the stride sweep's source would not fit in MEMCOPY_MAX_BYTES" in p.stderr
        assert "usage: memcopy" in p.stderr


def _can_make_namespaces():
    if os.geteuid() != 0 or not all(shutil.which(c) for c in ("ip", "tc", "chrt")):
        return False
    p = subprocess.run(["ip", "netns", "add", "goodput-probe"], capture_output=True)
    subprocess.run(["ip", "netns", "del", "goodput-probe"], capture_output=True)
    return p.returncode == 0


# The pair on the shaped link runs at a real-time priority, and the test alone, after every other (make
# test): beside the browser tests, which keep both cores busy, a tester, a testee or the kernel's own
# network work that waits its turn leaves the link idle, and every run of a direction came out 1-7 % slow
# (CI: 91.7, 90.7 and 92.8 Mbit/s against 94.1; the pair at real-time priority beside four workers: 87.7,
# 91.2 and 92.7).
REALTIME = ("chrt", "--fifo", "10")


@pytest.mark.alone
def test_the_shaped_100_mbit_link_lands_within_1_percent_of_the_model(built, tmp_path):
    # Five runs each way: on a shared machine a run the scheduler stalls for 10 ms comes out 1 % slow
    # (seen here: 92.7 and 89.3 Mbit/s against 94.1; and once all three of three receive runs, 90.7, 87.6
    # and 88.5, while the host was busy), and a stall can only slow a run down. The best run of each
    # direction must land within 1 % of the model, and no run may beat it by more. A busy spell of the
    # machine under this one (a virtual machine's host) can outlast five runs (CI: five receive runs
    # of 89.9-93.1 against 94.1, while five here gave 93.5-94.2), so a direction that has no run within
    # 1 % gets up to two more batches, a few seconds later; none can make a model that is too
    # optimistic pass, and every run of every batch is held to the upper bound.
    if not _can_make_namespaces():
        pytest.skip("the shaped-link test needs root, iproute2, chrt and network namespaces; this machine has not")
    script = ROOT / "tools" / "shaped-link.sh"
    timestamps = Path("/proc/sys/net/ipv4/tcp_timestamps").read_text().strip() == "1"
    ceiling = ethernet.evaluate(hostbench.MAC_FRAME_BYTES, 0.1, "tcp4ts" if timestamps else "tcp4")[
        "goodput_gbit_s"] * 1000
    runs = {}
    for batch in range(3):
        if batch:
            time.sleep(3)
        subprocess.run(["sh", str(script), "down", "goodput-test"], check=True)
        subprocess.run(["sh", str(script), "up", "goodput-test", "100mbit"], check=True)
        try:
            testee_log, _ = _pair(built, tmp_path, (*REALTIME, "ip", "netns", "exec", "goodput-test-b"),
                                  (*REALTIME, "ip", "netns", "exec", "goodput-test-a"), "10.77.0.2", 5001,
                                  ("--frame-sizes", "8K,8K,8K,8K,8K", "--intervals-ms", "0", "--frames", "1200"))
        finally:
            subprocess.run(["sh", str(script), "down", "goodput-test"], check=True)
        batch_runs = {}
        for r in bench.parse(testee_log).results:
            batch_runs.setdefault(r["direction"], []).append(r["bytes"] * 8 / r["elapsed_ns"] * 1000)
        assert sorted(batch_runs) == ["receive", "transmit"] and all(
            len(v) == 5 for v in batch_runs.values()), batch_runs
        for direction, mbit_s in batch_runs.items():
            assert max(mbit_s) <= ceiling * 1.01, (direction, mbit_s, ceiling)
            runs.setdefault(direction, []).extend(mbit_s)
        if all(max(v) >= ceiling * 0.99 for v in runs.values()):
            break
    for direction, mbit_s in runs.items():
        assert max(mbit_s) == pytest.approx(ceiling, rel=0.01), (direction, mbit_s, ceiling)


def test_the_committed_shaped_link_log_is_within_1_percent_for_8192_byte_writes():
    t = hostbench.shaped_vs_model("shaped-100m")
    eight = t[(t["frame_bytes"] == 8192) & (t["interval_us"] == 0)]
    assert len(eight) == 2
    assert ((eight["measured_over_ceiling"] - 1).abs() < 0.01).all(), eight


def test_goodput_size_reports_the_host_and_r5f_objects_of_the_core(built):
    import json

    p = subprocess.run(["make", "-C", str(FIRMWARE), "objects", "objects-r5f"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    for target, machine in (("host", "EM_X86_64"), ("r5f", "EM_ARM")):
        files = [str(BUILD / target / f"{n}.o") for n in ("bench", "memcopy", "tcp_bench")]
        out = run("size", "--json", *files)
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        assert {f["machine"] for f in report["files"]} == {machine} or target == "host"
        assert report["totals"]["code"] > 1000
        assert report["totals"]["code"] == sum(f["totals"]["code"] for f in report["files"])
