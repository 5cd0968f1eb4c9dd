"""Where the book's files are: the checkout's own, or the copies an installed wheel carries.

Run from the repository, the package reads ``data/`` and ``notebooks/`` beside it. A wheel carries the
same files inside the package (``goodput/_shipped/``, copied there by ``setup.py`` as the wheel is built), so an
installed ``goodput checks`` reads the same published tables, logs and census as the checkout's.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["path", "SHIPPED", "in_checkout"]

#: What a wheel carries of the repository, relative to its root: what the command and the library read.
SHIPPED = ("data/published", "data/logs", "data/census", "data/machine", "notebooks", "js-assets.json")

_CHECKOUT = Path(__file__).resolve().parents[2]


def in_checkout() -> bool:
    """Whether the package runs from the repository (its published tables beside it), not from a wheel."""
    return (_CHECKOUT / "data" / "published" / "datapackage.json").is_file()


def path(*parts: str) -> Path:
    """The file or folder ``parts`` (``"data", "published"``) of the repository, or the wheel's copy of it."""
    if in_checkout():
        return _CHECKOUT.joinpath(*parts)
    return Path(str(resources.files("goodput") / "_shipped")).joinpath(*parts)
