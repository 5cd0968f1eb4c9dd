"""Build the book: execute the notebooks the execution cache lacks, one per core, then run jupyter-book.

myst-nb ("cache" execution mode) executes a notebook whose code the cache has not seen while Sphinx
reads the page, one page after another. This finds those notebooks beforehand, executes them with
one kernel per core, and stores each result in jupyter-book's cache exactly as myst-nb would (same
reader, same working directory, same record data), so the build then takes every page from the
cache. Pages set to ``execution_mode: force`` are left to the build.

Usage: python tools/build_book.py [--jobs N] [JUPYTER-BOOK BUILD OPTIONS...]

A notebook that fails is reported with its cell and error, nothing of it is cached, and the command
exits 1 before the build. jupyter-book runs in this process, so the book's Python starts once.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

# jsonschema (imported by nbformat) checks the "iri" format with rfc3987_syntax when that is installed,
# which compiles a grammar on import (about 1 s); nothing here validates that format. See goodput/__init__.py.
sys.modules.setdefault("rfc3987_syntax", None)

import yaml  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / ".jupyter_cache"  # jupyter-book's default: <output>/.jupyter_cache


def toc_documents(root: Path = ROOT) -> list[Path]:
    """Every page ``_toc.yml`` lists, as a path to its source file, in book order."""
    from sphinx_external_toc.parsing import parse_toc_yaml  # jupyter-book's own reader of _toc.yml

    paths = []
    for name in parse_toc_yaml(root / "_toc.yml"):
        found = [root / f"{name}{suffix}" for suffix in (".ipynb", ".md") if (root / f"{name}{suffix}").exists()]
        if not found:
            raise SystemExit(f"build_book: _toc.yml lists {name!r}, which is no .ipynb or .md file")
        paths.append(found[0])
    return paths


def read_notebook(path: Path):
    """``(notebook, read_data)`` as myst-nb reads ``path``, or ``None`` for a page that is no notebook."""
    from myst_nb.core.config import NbParserConfig
    from myst_nb.core.read import create_nb_reader
    from myst_parser.config.main import MdParserConfig

    content = path.read_text(encoding="utf-8")
    reader = create_nb_reader(str(path), MdParserConfig(), NbParserConfig(), content)
    if reader is None:
        return None
    return reader.read(content), reader.read_fmt


def _forced(notebook) -> bool:
    return notebook.metadata.get("mystnb", {}).get("execution_mode") == "force"


def execution_timeout(root: Path = ROOT) -> int:
    """The seconds a cell may take: ``execute.timeout`` of the book's ``_config.yml``, as the build reads it."""
    return yaml.safe_load((root / "_config.yml").read_text())["execute"]["timeout"]


#: Starts of a notebook's kernel tried before the build gives up on it.
KERNEL_STARTS = 3


def _execute(path: str, notebook, timeout: int):
    """Run in a worker process: ``(path, executed notebook, seconds, error text or None)``.

    A kernel that dies before it answers is started again: two kernels started at once can draw the same free TCP
    port (jupyter_client finds one, lets it go, and the kernel binds it later), and the second then dies with
    "Address already in use" before running a cell."""
    from jupyter_cache.executors.utils import single_nb_execution

    for start in range(1, KERNEL_STARTS + 1):
        try:
            # a kernel gets as long to start as a cell to run: nbclient's 60 s ran out on a loaded machine
            result = single_nb_execution(copy.deepcopy(notebook), cwd=str(Path(path).parent), timeout=timeout,
                                         allow_errors=False, meta_override=True, startup_timeout=timeout)
            break
        except RuntimeError as exc:
            if "Kernel died before replying to kernel_info" not in str(exc) or start == KERNEL_STARTS:
                raise
            print(f"build_book: {os.path.basename(path)}: its kernel died as it started; starting another",
                  file=sys.stderr)
    return path, result.nb, result.time, (result.exc_string if result.err is not None else None)


def execute_stale(jobs: int, cache_path: Path = CACHE, root: Path = ROOT) -> list[str]:
    """Execute every notebook of the book at ``root`` that the cache lacks, ``jobs`` at a time; the ones
    that failed, by path from ``root``."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(cache_path))
    stale = []
    for path in toc_documents(root):
        read = read_notebook(path)
        if read is None or _forced(read[0]):
            continue
        notebook, read_data = read
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            stale.append((path, notebook, read_data))
    if not stale:
        print("build_book: every notebook is in the execution cache")
        return []

    start = time.perf_counter()
    workers = min(jobs, len(stale))
    failed = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        read_data = {str(path): rd for path, _, rd in stale}
        timeout = execution_timeout(root)
        futures = [pool.submit(_execute, str(path), notebook, timeout) for path, notebook, _ in stale]
        for future in as_completed(futures):
            path, executed, seconds, error = future.result()
            name = os.path.relpath(path, root)
            if error is not None:
                failed.append(name)
                print(f"build_book: {name} failed after {seconds:.1f} s:\n{error}", file=sys.stderr)
                continue
            record = (cache.add_nb_to_project(path, read_data=read_data[path]) if read_data[path]
                      else cache.add_nb_to_project(path))
            cache.cache_notebook_bundle(CacheBundleIn(executed, record.uri, data={"execution_seconds": seconds}),
                                        check_validity=False, overwrite=True)
            print(f"build_book: {name} executed in {seconds:.1f} s")
    print(f"build_book: {len(stale) - len(failed)} of {len(stale)} notebooks executed in "
          f"{time.perf_counter() - start:.1f} s, {workers} at a time")
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)),
                        help="notebooks executed at once (default: the cores this process may use)")
    args, build_options = parser.parse_known_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    failed = execute_stale(args.jobs)
    if failed:
        print(f"build_book: not building: {', '.join(failed)} failed", file=sys.stderr)
        return 1
    from jupyter_book.cli.main import main as jupyter_book

    try:
        status = jupyter_book(["build", str(ROOT), *build_options], standalone_mode=False) or 0
    except SystemExit as exit:
        status = exit.code
    if status:
        # Sphinx keeps what it read even when the build fails; a page with a warning would not be
        # read again (nor warn again) until it changes. Forget every page so the next build reads all.
        (ROOT / "_build" / ".doctrees" / "environment.pickle").unlink(missing_ok=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
