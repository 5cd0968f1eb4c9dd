"""Results kept on disk between processes (goodput.core.cache) are what computing them again gives."""

import subprocess
import sys

import pytest

from goodput import checks
from goodput.core import cache


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A package and a data folder of their own, and a cache folder."""
    package, data = tmp_path / "goodput", tmp_path / "data"
    package.mkdir()
    data.mkdir()
    (package / "model.py").write_text("RATE = 1\n")
    (data / "table.csv").write_text("a\n1\n")
    monkeypatch.setattr(cache, "_PACKAGE", package)
    monkeypatch.setattr(cache, "_DATA", data)
    monkeypatch.setenv("GOODPUT_CACHE", str(tmp_path / "kept"))
    monkeypatch.delenv("GOODPUT_DATA", raising=False)
    cache.key.cache_clear()
    yield package, data
    cache.key.cache_clear()


def test_a_change_to_any_file_of_the_package_or_the_data_is_another_key(tree):
    package, data = tree
    first = cache.key()
    for path, text in ((package / "model.py", "RATE = 2\n"), (data / "table.csv", "a\n2\n"),
                       (package / "render" / "new.py", "")):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        cache.key.cache_clear()
        assert cache.key() != first
        first = cache.key()


def test_a_result_is_computed_once_and_read_back_after(tree):
    calls = []

    def compute():
        calls.append(1)
        return {"value": len(calls)}

    assert cache.kept("thing", compute) == {"value": 1}
    assert cache.kept("thing", compute) == {"value": 1} and len(calls) == 1
    assert cache.kept("other", compute) == {"value": 2}


def test_a_result_under_another_key_is_replaced_and_other_names_are_kept(tree):
    package, _ = tree
    cache.kept("thing", lambda: 1)
    cache.kept("other", lambda: 1)
    (package / "model.py").write_text("RATE = 3\n")
    cache.key.cache_clear()
    cache.kept("thing-more", lambda: 1)  # another name that begins with this one
    assert cache.kept("thing", lambda: 2) == 2
    assert sorted(p.name.rsplit("-", 1)[0] for p in cache.folder().glob("*.pickle")) == ["other", "thing", "thing-more"]
    assert (cache.folder() / f"thing-{cache.key()}.pickle").exists()


def test_a_file_that_cannot_be_read_is_computed_again(tree):
    cache.kept("thing", lambda: 1)
    [path] = cache.folder().glob("thing-*.pickle")
    path.write_bytes(b"not a pickle")
    assert cache.kept("thing", lambda: 2) == 2
    assert cache.kept("thing", lambda: 3) == 2  # kept again


def test_nothing_is_kept_when_it_is_off_or_the_tables_are_a_tests_own(tree, monkeypatch, tmp_path):
    monkeypatch.setenv("GOODPUT_CACHE", "off")
    assert cache.folder() is None and cache.kept("thing", lambda: 1) == 1 and cache.kept("thing", lambda: 2) == 2
    monkeypatch.setenv("GOODPUT_CACHE", str(tmp_path / "kept"))
    monkeypatch.setenv("GOODPUT_DATA", str(tmp_path))
    assert cache.folder() is None
    monkeypatch.delenv("GOODPUT_DATA")
    with cache.off():
        assert cache.folder() is None
    assert cache.folder() == tmp_path / "kept"


def test_a_folder_that_cannot_be_written_still_gives_the_result(tree, monkeypatch, tmp_path):
    (tmp_path / "a file").write_text("")
    monkeypatch.setenv("GOODPUT_CACHE", str(tmp_path / "a file" / "kept"))
    assert cache.kept("thing", lambda: 5) == 5


_COMPUTE_ONCE = """
import sys, time
from pathlib import Path
from goodput.core import cache
cache._PACKAGE, cache._DATA, log = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])

def compute():
    with log.open("a") as f:
        f.write("computed\\n")
    time.sleep(1)
    return 42

print(cache.kept("shared", compute))
"""


@pytest.mark.slow
def test_two_processes_that_want_one_result_at_once_compute_it_once(tree, tmp_path):
    package, data = tree
    log = tmp_path / "computed.log"
    started = [subprocess.Popen([sys.executable, "-c", _COMPUTE_ONCE, str(package), str(data), str(log)],
                                stdout=subprocess.PIPE, text=True) for _ in range(2)]
    assert [p.communicate(timeout=60)[0] for p in started] == ["42\n", "42\n"]
    assert log.read_text() == "computed\n"


def test_a_process_waits_for_another_computing_a_result_only_so_long(tree, monkeypatch):
    import fcntl

    where = cache.folder()
    where.mkdir(parents=True)
    with open(where / ".thing.lock", "wb") as held:  # as if another process computed "thing" and never finished
        fcntl.flock(held, fcntl.LOCK_EX)
        monkeypatch.setattr(cache, "WAIT_S", 0.2)
        assert cache.kept("thing", lambda: 7) == 7
    assert cache.kept("thing", lambda: 8) == 7


@pytest.mark.slow
def test_the_kept_checks_are_every_provider_run_again():
    # in a new interpreter: this worker's earlier tests may have left state a provider reads
    afresh = subprocess.run([sys.executable, "-c", "import sys; from goodput import checks; "
                             "sys.stdout.write(checks.to_csv(checks.collect_afresh()))"],
                            capture_output=True, text=True, timeout=300)
    assert afresh.returncode == 0, afresh.stderr
    assert afresh.stdout == checks.to_csv(checks.collect())
