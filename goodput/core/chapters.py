"""The book's chapters, each declared once: everything per chapter is found from here.

A :class:`Chapter` names its notebook (its id) and the model modules it presents. From that
declaration, and from names the modules keep by convention, come:

- its **source checks**: the providers the documents' modules (:mod:`goodput.sources`) register with
  ``@checks.provider(model)`` for one of its models (:func:`presenting` finds the chapter);
- its **command**: a model module's ``COMMAND`` (:class:`goodput.core.command.Command`) becomes a
  subcommand of ``goodput``;
- its **charts and tables**: the render module named after the chapter,
  ``goodput.render.chapters.<id with "_" for "-">`` (which names its chapter by :func:`rendered_by`);
- its **calculated table**: that render module's ``calculation()``, which the page, the widget panel
  and the exported workbook show;
- its **title**: the first heading of its notebook.

The book's order is ``_toc.yml``'s; this list keeps it (a test holds the two together). Adding a
chapter is one entry here, its notebook in ``_toc.yml``, its model and render modules and tests. A chapter id is
written here and nowhere else (a test holds it).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType

from goodput.core import resources

__all__ = ["Chapter", "CHAPTERS", "get", "ids", "presenting", "rendered_by", "NOTEBOOKS"]

#: Where the chapters' notebooks are.
NOTEBOOKS = resources.path("notebooks")


@dataclass(frozen=True)
class Chapter:
    """One chapter of the book.

    Parameters
    ----------
    id : str
        Its notebook's name (``line-coding``): the chapter's name everywhere.
    models : tuple of str
        The modules of :mod:`goodput` holding its models, in the order it presents them
        (``("models.coding",)``, under :mod:`goodput`); a chapter of measurements only may have none.
    """

    id: str
    models: tuple[str, ...] = ()

    @property
    def render_name(self) -> str:
        """The render module's full name: ``goodput.render.chapters.line_coding``."""
        return "goodput.render.chapters." + self.id.replace("-", "_")

    def model_modules(self) -> list[ModuleType]:
        return [importlib.import_module(f"goodput.{name}") for name in self.models]

    def render(self) -> ModuleType:
        """The chapter's module of charts and tables."""
        return importlib.import_module(self.render_name)

    def has_calculation(self) -> bool:
        return callable(getattr(self.render(), "calculation", None))

    def calculation(self):
        """The chapter's calculated table (:class:`goodput.render.calculation.Calculation`)."""
        if not self.has_calculation():
            raise KeyError(f"chapter {self.id!r} has no model to calculate; chapters with one: "
                           f"{', '.join(c.id for c in CHAPTERS if c.has_calculation())}")
        calc = self.render().calculation()
        if calc.chapter != self.id:
            raise ValueError(f"{self.render_name}.calculation() says it belongs to {calc.chapter!r}, not {self.id!r}")
        return calc

    def commands(self) -> list:
        """The ``COMMAND`` of each of its model modules that has one."""
        return [m.COMMAND for m in self.model_modules() if getattr(m, "COMMAND", None) is not None]

    @cached_property
    def title(self) -> str:
        """The first heading of the chapter's notebook."""
        path = NOTEBOOKS / f"{self.id}.ipynb"
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                for line in "".join(cell["source"]).splitlines():
                    if line.startswith("# "):
                        return line[2:].strip()
        raise ValueError(f"{path}: no '# ' heading to take the chapter's title from")


#: Every chapter, in book order.
CHAPTERS: tuple[Chapter, ...] = (
    Chapter("choose-a-link", ("analysis.choose",)),
    Chapter("line-coding", ("models.coding",)),
    Chapter("pcie-packets", ("models.pcie", "models.pcie_command")),
    Chapter("pcie-reads", ("models.pcie_transactions",)),
    Chapter("pcie-measured", ("models.pcie_latency",)),
    Chapter("keystone-memory-edma", ("models.bus",)),
    Chapter("srio", ("models.srio",)),
    Chapter("hyperlink", ("models.hyperlink",)),
    Chapter("ethernet-framing", ("models.ethernet",)),
    Chapter("usb-superspeed", ("models.usb",)),
    Chapter("tcp-goodput", ("models.tcp",)),
    Chapter("spi", ("models.spi",)),
    Chapter("can-fd", ("models.can",)),
    Chapter("latency-and-bandwidth", ("analysis.am243x",)),
    Chapter("boot-and-memory", ("analysis.boot",)),
    Chapter("code-size", ("analysis.elf", "analysis.sizing")),
    Chapter("measure-it-yourself", ("analysis.hostbench",)),
)

_BY_ID = {c.id: c for c in CHAPTERS}


def presenting(module: str) -> Chapter:
    """The chapter that presents the model module ``module`` (``goodput.models.spi`` or ``models.spi``): the one
    that names it among its models; a clear error if none does."""
    name = module.removeprefix("goodput.")
    for chapter in CHAPTERS:
        if name in chapter.models:
            return chapter
    raise LookupError(f"no chapter presents {module}: name it among a chapter's models in goodput.core.chapters")


def rendered_by(module: str) -> Chapter:
    """The chapter whose charts and tables ``module`` holds (``goodput.render.chapters.spi``): its render module."""
    for chapter in CHAPTERS:
        if chapter.render_name == module:
            return chapter
    raise LookupError(f"{module} is no chapter's render module: goodput.render.chapters.<chapter id with _ for ->")


def ids() -> list[str]:
    return list(_BY_ID)


def get(chapter: str) -> Chapter:
    """The chapter called ``chapter``; a clear error naming the chapters there are."""
    try:
        return _BY_ID[chapter]
    except KeyError:
        raise KeyError(f"no chapter {chapter!r}; chapters: {', '.join(_BY_ID)}") from None
