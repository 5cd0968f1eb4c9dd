"""Shared fixtures: the repository root, the built book served on 127.0.0.1, and a headless chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def book_url():
    """Base URL of ``_build/html`` served from 127.0.0.1 for the session."""
    from browser import served

    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `make book` first (make test does)")
    with served(HTML) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, headless, for the session (see tests/browser.py)."""
    from browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
