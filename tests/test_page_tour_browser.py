"""Every page of the built book, opened once at each width and checked as a reader meets it.

One load per page and width carries every check that reads a whole page (each is a function of the test
module that states it, with its own docstring):

- as the page loads: at 1366 px, it loaded nothing from another host and nothing failed, its formulas are
  static KaTeX (test_book_browser.loads_offline), and it loads no more than its budget
  (test_page_weight_browser.within_its_budget); a chapter offers no code toggle on plumbing
  (test_first_screen_browser.no_toggle_on_plumbing) and shows its box's headline in the first screen
  (headline_in_the_first_screen); the landing page shows its chart in the first screen at both widths;
- every control in view and uncovered, nothing wider than the column (test_live_figures.controls_in_view,
  or WIDE on a page without a model's figure);
- every text at AA contrast in both themes, the system switched from the one to the other
  (test_reading_browser): what follows runs in the second theme, dark at 1366 px and light at 390 px;
- each control operated, chart, table and box then equal to the model (test_live_figures);
- on a phone, the figure's result in view after each of its controls is operated (in the same pass), and
  the box's while its own controls are operated;
- last, every chart at its column's width after the window is resized: halved at 1366 px, turned to
  landscape at 390 px (test_reading_browser).

The checks that change the page (the theme, the state, the window) come after those that read it as it
loaded; the state is the operated controls'.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goodput import chapters
from goodput.render import calculations

from browser import WIDTHS, errors, opened
from test_book_browser import loads_offline
from test_first_screen_browser import headline_in_the_first_screen, landing_chart_in_the_first_screen, no_toggle_on_plumbing
from test_live_figures import WIDE, controls_in_view, controls_operate_as_the_model
from test_page_weight_browser import within_its_budget
from test_reading_browser import (CHART_PAGES, FIRST_THEME, PAGES, _ready, box_readout_stays_in_view,
                                  charts_follow_resizes, contrast_in_both_themes, figure_readout_in_view)

pytestmark = pytest.mark.book


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("page_path", PAGES)
def test_a_page_reads_lays_out_and_operates_as_a_reader_meets_it(browser, book_url, page_path, width):
    chapter = Path(page_path).stem if page_path.startswith("notebooks/") else None
    calc = calculations.get(chapter) if chapter in calculations.CHAPTERS else None
    laptop = width == "1366px"
    # at 1366 px the network's idle is awaited: every request made, for loads_offline to see them all
    with opened(browser, book_url + page_path, viewport=WIDTHS[width], color_scheme=FIRST_THEME[width],
                wait_until="networkidle" if laptop else "load") as (page, log):
        _ready(page)
        if laptop:
            loads_offline(page, log, book_url)
            within_its_budget(page)
        if chapter in chapters.ids() and laptop:
            no_toggle_on_plumbing(page, chapter)
        if calc and laptop:
            headline_in_the_first_screen(page, chapter)
        if page_path == "book/intro.html":
            landing_chart_in_the_first_screen(page, width)
        if calc:
            controls_in_view(page, log)
        else:
            assert page.evaluate(WIDE) == []
        contrast_in_both_themes(page, log, width)
        if calc:
            # on a phone, the figure's result in view after each of its controls is operated too
            controls_operate_as_the_model(page, log, calc, also=None if laptop else figure_readout_in_view)
            if not laptop:
                box_readout_stays_in_view(page, log, calc)
        if page_path in CHART_PAGES:
            charts_follow_resizes(page, log, width)
        assert errors(log) == []
