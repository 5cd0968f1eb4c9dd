"""tools/build_book.py: the notebooks it executes before the build, and the cache it leaves for myst-nb."""

import json
from pathlib import Path

import build_book
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _notebook(*code: str) -> dict:
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": f"cell{i}", "metadata": {}, "outputs": [],
                       "source": c} for i, c in enumerate(code)],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def test_every_page_of_the_toc_is_found_and_only_notebooks_are_executed():
    pages = {str(p.relative_to(ROOT)) for p in build_book.toc_documents()}
    assert {f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")} <= pages
    assert build_book.read_notebook(ROOT / "book" / "how-to-read.md") is None  # prose, not a notebook
    intro, _ = build_book.read_notebook(ROOT / "book" / "intro.md")  # the landing page computes what it says
    assert not build_book._forced(intro)
    errata, _ = build_book.read_notebook(ROOT / "book" / "errata.md")
    status, _ = build_book.read_notebook(ROOT / "book" / "status.md")
    assert not build_book._forced(errata) and build_book._forced(status)


@pytest.mark.book
def test_the_build_left_every_notebook_where_myst_nb_looks_it_up():
    # the same reader and hash as myst-nb: otherwise the build would execute every notebook again
    from jupyter_cache import get_cache

    cache = get_cache(str(build_book.CACHE))
    for path in build_book.toc_documents():
        read = build_book.read_notebook(path)
        if read is not None and not build_book._forced(read[0]):
            cache.match_cache_notebook(read[0])  # KeyError if it is not there


@pytest.mark.slow
def test_a_failing_notebook_is_named_and_left_out_of_the_cache(tmp_path, capsys):
    from jupyter_cache import get_cache

    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: fine\nchapters:\n  - file: broken\n")
    (tmp_path / "_config.yml").write_text("execute:\n  timeout: 60\n")
    (tmp_path / "fine.ipynb").write_text(json.dumps(_notebook("x = 6 * 7\n", "print(x)")))
    (tmp_path / "broken.ipynb").write_text(json.dumps(_notebook("1 / 0")))
    assert build_book.execute_stale(2, tmp_path / "cache", tmp_path) == ["broken.ipynb"]
    err = capsys.readouterr().err
    assert "broken.ipynb failed" in err and "ZeroDivisionError" in err
    cache = get_cache(str(tmp_path / "cache"))
    assert [Path(r.uri).name for r in cache.list_cache_records()] == ["fine.ipynb"]
    assert build_book.execute_stale(2, tmp_path / "cache", tmp_path) == ["broken.ipynb"]  # only it, again
    assert "fine.ipynb" not in capsys.readouterr().out


def test_a_kernel_that_dies_as_it_starts_is_started_again(monkeypatch, capsys):
    """Two kernels started at once can draw the same free port; the second dies before it answers (CI saw it once).
    The build starts it again, up to KERNEL_STARTS times, and gives up with the error after that."""
    from jupyter_cache.executors import utils

    starts = []

    class Result:
        nb, time, err, exc_string = {"cells": []}, 0.5, None, None

    def flaky(notebook, **kwargs):
        starts.append(notebook)
        if len(starts) < 2:
            raise RuntimeError("Kernel died before replying to kernel_info")
        return Result()

    monkeypatch.setattr(utils, "single_nb_execution", flaky)
    path, executed, seconds, error = build_book._execute(str(ROOT / "notebooks" / "spi.ipynb"), {"cells": []}, 30)
    assert (len(starts), executed, error) == (2, {"cells": []}, None)
    assert "its kernel died as it started; starting another" in capsys.readouterr().err

    def dead(notebook, **kwargs):
        raise RuntimeError("Kernel died before replying to kernel_info")

    monkeypatch.setattr(utils, "single_nb_execution", dead)
    with pytest.raises(RuntimeError, match="Kernel died"):
        build_book._execute(str(ROOT / "notebooks" / "spi.ipynb"), {"cells": []}, 30)
