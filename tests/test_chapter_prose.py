"""Every chapter's notebook reads as prose: no pasted boilerplate, every figure referred to by label.

The Inputs paragraph and the paragraph under the live chart are printed by the chapter's
Calculation (``calc.inputs_note()``, ``calc.table_note()``), never pasted into Markdown; and every
figure a notebook labels (``mystnb: figure: name:`` in a cell's metadata) is referred to with
``{numref}`` from the chapter's prose, a Markdown cell or a ``prose(...)`` cell.
"""

from __future__ import annotations

import json
import re

import pytest

from goodput.core import chapters

PASTED = ("Everything this chapter calculates follows", "Under the chart is the calculated table")

def _cells(chapter: chapters.Chapter) -> list[dict]:
    path = chapters.NOTEBOOKS / f"{chapter.id}.ipynb"
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _chapter_params():
    return [pytest.param(c, id=c.id) for c in chapters.CHAPTERS]


def figure_labels(cells: list[dict]) -> list[str]:
    return [cell["metadata"]["mystnb"]["figure"]["name"] for cell in cells
            if cell["metadata"].get("mystnb", {}).get("figure", {}).get("name")]


def numref_targets(cells: list[dict]) -> set[str]:
    prose = [_source(c) for c in cells if c["cell_type"] == "markdown"
             or (c["cell_type"] == "code" and "prose(" in _source(c))]
    return set(re.findall(r"\{numref\}`(?:[^`<]*<)?([^`>]+)>?`", "\n".join(prose)))


def test_numref_targets_reads_both_forms_of_the_role():
    cells = [{"cell_type": "markdown", "source": ["See {numref}`fig-a` and {numref}`Figure %s <fig-b>`."],
              "metadata": {}},
             {"cell_type": "code", "source": ['prose("In {numref}`fig-c`, move")'], "metadata": {}},
             {"cell_type": "code", "source": ["# {numref}`fig-d` in a comment of plain code"], "metadata": {}}]
    assert numref_targets(cells) == {"fig-a", "fig-b", "fig-c"}


@pytest.mark.parametrize("chapter", _chapter_params())
def test_chapter_markdown_holds_no_pasted_paragraph(chapter):
    pasted = [(i, p) for i, c in enumerate(_cells(chapter)) if c["cell_type"] == "markdown"
              for p in PASTED if p in _source(c)]
    assert not pasted, f"{chapter.id}: paragraphs to print from the Calculation instead: {pasted}"


@pytest.mark.parametrize("chapter", _chapter_params())
def test_chapter_prose_refers_to_every_figure_it_labels(chapter):
    cells = _cells(chapter)
    missing = [label for label in figure_labels(cells) if label not in numref_targets(cells)]
    assert not missing, f"{chapter.id}: figures no {{numref}} refers to: {missing}"
