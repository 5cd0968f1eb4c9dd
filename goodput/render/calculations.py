"""Every chapter's calculated table, by chapter: what the page, the panel and the workbook show.

Found through :mod:`goodput.core.chapters`: a chapter has a calculation when its render module defines
``calculation()``."""

from __future__ import annotations

from typing import Callable

from goodput.core import chapters
from goodput.render.calculation import Calculation

__all__ = ["CHAPTERS", "get"]

#: Chapter (notebook name) -> the function building its calculation (its render module's
#: ``calculation``), in book order.
CHAPTERS: dict[str, Callable[[], Calculation]] = {
    c.id: c.render().calculation for c in chapters.CHAPTERS if c.has_calculation()}


def get(chapter: str) -> Calculation:
    """The calculation of ``chapter``; a clear error naming the chapters that have one."""
    return chapters.get(chapter).calculation()
