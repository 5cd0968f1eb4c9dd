"""A long calculated table, folded in the built book: SRIO's 43 rows, at 1366 px and at 390 px.

The table shows a few rows (the case the "your link" box opens on first) and a button under it shows
all rows and folds them again; the fold is chosen again from each state, and the rows it shows equal
goodput's numeric functions. A ranked table (the link chooser) keeps the top of its new ranking.
"""

from __future__ import annotations

import pytest
from browser import WIDTHS, errors, live_ready, opened, operate, state
from test_live_figures import _check_against_the_model

from goodput.analysis import choose
from goodput.render import calculations
from goodput.render.chapters import choose_a_link

pytestmark = pytest.mark.book

#: Most rows a folded table shows.
FOLDED = 8

# Each row of calculated table `name`: its row_index, whether it is shown, its cells' text by column.
ROWS = """(name) => [...document.querySelectorAll(`table.goodput-calc-table[data-name="${name}"] tbody tr`)].map(
  tr => ({row: tr.dataset.row, visible: tr.getClientRects().length > 0,
          cells: Object.fromEntries([...tr.querySelectorAll('td')].map(td => [td.dataset.column,
            (td.querySelector('code') || td).textContent]))}))"""


def _toggle(page, name):
    return page.locator(f'table.goodput-calc-table[data-name="{name}"] button.goodput-calc-unfold')


def _visible(page, name) -> list[str]:
    return [r["row"] for r in page.evaluate(ROWS, name) if r["visible"]]


def _headline_rows(calc) -> set[str]:
    return {str(i) for i, case in enumerate(calc.records())
            if all(case[k] == v for k, v in calc.headline.items())}


def srios_table_is_folded_and_a_button_shows_all_rows_and_folds_them_again(page, log):
    calc = calculations.get("srio")
    total = len(calc.cases)
    live_ready(page)
    shown = _visible(page, calc.name)
    assert len(shown) == FOLDED < total
    assert _headline_rows(calc) <= set(shown)  # every transaction at the size the box opens on
    toggle = _toggle(page, calc.name)
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert toggle.text_content() == f"Show all {total} rows"
    assert page.locator(f"#{toggle.get_attribute('aria-controls')}").get_attribute("data-name") == calc.name
    toggle.click()
    assert len(_visible(page, calc.name)) == total
    assert toggle.get_attribute("aria-expanded") == "true" and toggle.text_content() == f"Show {FOLDED} rows"
    toggle.click()
    assert _visible(page, calc.name) == shown and toggle.get_attribute("aria-expanded") == "false"
    assert errors(log) == []


def test_the_fold_is_chosen_again_when_the_state_changes_and_its_rows_follow_the_model(browser, book_url):
    calc = calculations.get("srio")
    with opened(browser, book_url + "notebooks/srio.html") as (page, log):
        live_ready(page)
        before = {r["row"]: r["cells"] for r in page.evaluate(ROWS, calc.name) if r["visible"]}
        operate(page, "lanes", 1)
        operate(page, "control_symbols", 0)
        after = {r["row"]: r["cells"] for r in page.evaluate(ROWS, calc.name) if r["visible"]}
        assert len(after) == FOLDED and set(after) == set(before)
        assert all(after[row]["model_gbit_s"] != before[row]["model_gbit_s"] for row in after)
        _check_against_the_model(page, calc)  # every row, the folded ones too, is the model's at the new state
        _toggle(page, calc.name).click()
        operate(page, "lanes", 4)
        assert len(_visible(page, calc.name)) == len(calc.cases)  # unfolded, it stays unfolded
        _check_against_the_model(page, calc)
        assert errors(log) == []


def test_a_ranked_table_folds_to_the_top_of_its_ranking_at_each_state(browser, book_url):
    calc = calculations.get("choose-a-link")
    with opened(browser, book_url + "notebooks/choose-a-link.html") as (page, log):
        live_ready(page, 2)
        for requirement in ({"rate_mbyte_s": 1000, "size_bytes": 65536}, {"rate_mbyte_s": 10, "size_bytes": 64}):
            for key, value in requirement.items():
                operate(page, key, value, scope="#figure-choose")
            values = state(page)
            rows = page.evaluate(ROWS, calc.name)
            # the reader's links (the composer's, at its defaults) first, then the catalogue, each as solve ranks it
            ranked = [*choose.solve(values["rate_mbyte_s"], values["size_bytes"], values["latency_us"],
                                    list(choose_a_link.DEFAULT_LINKS)),
                      *choose.solve(values["rate_mbyte_s"], values["size_bytes"], values["latency_us"])]
            assert len(rows) == len(ranked) > FOLDED
            # the fold shows the top of the page's order, which is the solver's ranking at this state
            assert all(r["visible"] for r in rows[:FOLDED]) and not any(r["visible"] for r in rows[FOLDED:])
            assert {r["cells"]["link"] for r in rows[:FOLDED]} == {r["link"] for r in ranked[:FOLDED]}
        assert errors(log) == []


#: What tests/test_page_tour_browser.py checks on its load of SRIO's chapter at each width, from the state the
#: page opens in (it leaves the table folded as it found it).
TOUR = {("notebooks/srio.html", width): (srios_table_is_folded_and_a_button_shows_all_rows_and_folds_them_again,)
        for width in WIDTHS}
