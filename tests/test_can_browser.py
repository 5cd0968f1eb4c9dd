"""The CAN chapter's box with the reader's messages: each a row with its share of the bus, and their sum, equal to
``goodput.models.can.bus_load_of``; a list over 100 % says so; an empty list says what to add."""

from __future__ import annotations

import pytest
from browser import errors, live_ready, opened, settle, state

from goodput.models import can
from goodput.render.box_command import argument_text

pytestmark = pytest.mark.book

PAGE = "notebooks/can-fd.html"
NOTE = "() => document.querySelector('.goodput-yours .goodput-composed-note').textContent"
FIGURE_NOTE = "() => document.querySelector('.goodput-live .goodput-composed-note').textContent"
#: The box's rows of the reader's list: each row's data length, identifier, frame and share of the bus.
LISTED = """() => [...document.querySelectorAll('.goodput-yours select.goodput-yours-case option')]
  .filter(o => o.value.startsWith('your-')).map(o => o.value)"""


def _messages(text: str) -> list[tuple]:
    """The address's list (``fd:64:0:1,classical:8:1:10``) as ``bus_load_of`` takes it."""
    out = []
    for item in filter(None, text.split(",")):
        kind, n, x, period = item.split(":")
        out.append((int(n), float(period), x == "1", kind == "classical"))
    return out


def _box_load(page, row: str) -> float:
    page.locator(".goodput-yours select.goodput-yours-case").select_option(row)
    settle(page)
    return float(page.locator('.goodput-yours dd[data-column="load_percent"]').inner_text())


def _note_for(messages, rates) -> str:
    load = can.bus_load_of(messages, *rates)
    total = argument_text(float(f"{load['load_percent']:.4g}"))  # four digits, written as the page's script does
    text = f"Your {len(messages)} message{'' if len(messages) == 1 else 's'} take {total} % of the bus's time"
    return text + ("." if load["carried"] else ": over 100 %, the bus cannot carry them at these periods.")


def test_the_box_adds_up_the_share_of_the_bus_the_readers_messages_take(browser, book_url):
    listed = "fd:64:0:1,classical:8:0:10,classical:8:1:10"
    with opened(browser, book_url + PAGE + "?messages=" + listed) as (page, log):
        live_ready(page)
        messages = _messages(listed)
        assert page.evaluate(NOTE) == _note_for(messages, (1, 5, 1))
        assert page.evaluate(LISTED) == ["your-1", "your-2", "your-3"]
        for i, m in enumerate(messages):  # each row's share: the model's for that message alone, to 3 decimals
            want = can.bus_load_of([m], 1, 5, 1)["load_percent"]
            assert _box_load(page, f"your-{i + 1}") == pytest.approx(want, abs=0.0005 * (1 + 1e-9))
        # a message added in the box: a CAN FD one at its defaults (64 bytes, standard, every 10 ms)
        page.locator(".goodput-yours .goodput-link-adder select").select_option("fd")
        page.locator(".goodput-yours button.goodput-link-add").click()
        settle(page)
        assert state(page)["messages"] == listed + ",fd:64:0:10"
        assert page.evaluate(NOTE) == _note_for(messages + [(64, 10, False, False)], (1, 5, 1))
        # slower bit rates: the same messages no longer fit, and the box says so
        page.goto(book_url + PAGE + "?messages=" + listed + "&arbitration_mbit_s=0.125&data_mbit_s=0.5")
        live_ready(page)
        assert "over 100 %, the bus cannot carry them" in page.evaluate(NOTE)
        assert page.evaluate(NOTE) == _note_for(messages, (0.125, 0.5, 1))
        # emptied message by message: the note says what to add
        for _ in messages:
            page.locator(".goodput-yours button.goodput-link-remove").first.click()
            settle(page)
        assert state(page)["messages"] == ""
        # the box has nothing to add up, and says nothing; the table under the chart says what to do
        assert page.evaluate(NOTE) == ""
        assert page.evaluate(FIGURE_NOTE) == ('No messages of yours yet: "Add a message" in the box above, and the '
                                              'bus\'s time they take adds up here.')
        assert errors(log) == []
