"""Every page of the built book, opened once at each width and checked as a reader meets it.

One load per page and width carries every check that reads a whole page (each is a function of the test
module that states it, with its own docstring):

- as the page loads: a chapter offers no code toggle on plumbing (test_first_screen_browser.no_toggle_on_plumbing)
  and shows its box's headline in the first screen at 1366 px (headline_in_the_first_screen); the landing page
  shows its chart in the first screen at both widths;
- every control in view and uncovered, nothing wider than the column (test_live_figures.controls_in_view,
  or WIDE on a page without a model's figure);
- every text at AA contrast in both themes, the system switched from the one to the other
  (test_reading_browser): what follows runs in the second theme, dark at 1366 px and light at 390 px;
- what a page's own module asks of it at this width (TOURS): at 1366 px the keyboard on a slider, a typed
  value refused, bytes typed with their unit and one state shared by a page's figures (test_live_figures); each preset's name
  (test_reading_browser); each chart's sliders moved, the chart then equal to the model's Python functions
  (test_book_browser); the chooser's list of links, solver and measured switch operated
  (test_choose_browser); SRIO's long table folded and unfolded at both widths (test_calc_fold_browser);
  the errata tables sorted, filtered and followed to a chapter and back (test_errata_browser); nothing
  wider than the screen on the chooser's pages; at both widths, PCIe's box reading a pasted lspci -vv
  (test_machine_browser);
- at 390 px, each control of the calculation's figure operated, chart, table and box then equal to the
  model's expressions (test_live_figures), and the figure's result in view after each; then the box's
  result in view while its own controls are operated;
- every chart at its column's width after the window is resized: halved at 1366 px, turned to landscape at
  390 px (test_reading_browser);
- last, at 1366 px once the network is idle (every request made): the page loaded nothing from another
  host and nothing failed, its formulas are static KaTeX (test_book_browser.loads_offline), and it loaded no
  more than its budget (test_page_weight_browser.within_its_budget).

The checks that change the page (the theme, the state, the window) come after those that read it as it
loaded. A control computes the same at either width: the calculation's controls are operated once, on the
phone, where their results must also stay in view; the laptop moves the charts' own sliders.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import test_book_browser
import test_calc_fold_browser
import test_choose_browser
import test_errata_browser
import test_live_figures
import test_machine_browser
import test_reading_browser
from browser import WIDTHS, errors, opened
from test_book_browser import loads_offline
from test_first_screen_browser import (
    headline_in_the_first_screen,
    landing_chart_in_the_first_screen,
    no_toggle_on_plumbing,
)
from test_live_figures import WIDE, controls_in_view, controls_operate_as_the_model
from test_page_weight_browser import within_its_budget
from test_reading_browser import (
    CHART_PAGES,
    FIRST_THEME,
    PAGES,
    _ready,
    box_readout_stays_in_view,
    charts_follow_resizes,
    contrast_in_both_themes,
    figure_readout_in_view,
)

from goodput.core import chapters
from goodput.render import calculations

pytestmark = pytest.mark.book

#: The checks other modules ask the tour to run on its loads: {(page, width): checks, in order}. Those that need
#: the state the page opens in come first.
TOURS = (test_live_figures.TOUR, test_reading_browser.TOUR, test_calc_fold_browser.TOUR, test_book_browser.TOUR,
         test_choose_browser.TOUR, test_errata_browser.TOUR, test_machine_browser.TOUR)


def test_every_check_handed_to_the_tour_is_on_a_page_and_width_it_opens():
    for tour in TOURS:
        for (page, width), checks in tour.items():
            assert page in PAGES and width in WIDTHS, (page, width)
            assert checks and all(callable(check) for check in checks), (page, width)


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("page_path", PAGES)
def test_a_page_reads_lays_out_and_operates_as_a_reader_meets_it(browser, book_url, page_path, width):
    chapter = Path(page_path).stem if page_path.startswith("notebooks/") else None
    calc = calculations.get(chapter) if chapter in calculations.CHAPTERS else None
    laptop = width == "1366px"
    with opened(browser, book_url + page_path, viewport=WIDTHS[width], color_scheme=FIRST_THEME[width]) as (page, log):
        _ready(page)
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
        for tour in TOURS:
            for check in tour.get((page_path, width), ()):
                check(page, log)
        if calc and not laptop:
            # the figure's result in view after each of its controls is operated, then the box's
            controls_operate_as_the_model(page, log, calc, also=figure_readout_in_view)
            box_readout_stays_in_view(page, log, calc)
        if page_path in CHART_PAGES:
            charts_follow_resizes(page, log, width)
        if laptop:
            page.wait_for_load_state("networkidle")  # at once, unless a request was made in the last 0.5 s
            loads_offline(page, log, book_url)
            within_its_budget(page)
        assert errors(log) == []
