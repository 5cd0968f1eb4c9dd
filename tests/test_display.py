"""Tables as a reader sees them: whole cells, no row numbers, numbers right-aligned."""

import numpy as np
import pandas as pd
import pytest

from goodput.render.display import frame_html

LONG = "the guide's 19.54 Gbit/s is the 8b/9b rate of the PHY, not what reaches memory " * 3


def test_a_table_has_no_row_numbers_and_cuts_no_cell():
    text = frame_html(pd.DataFrame({"why": [LONG], "n": [1]}))
    assert "<th" not in text.split("<tbody>")[1] and LONG.replace("'", "&#x27;") in text and "..." not in text


def test_numbers_and_their_headings_are_right_aligned_and_text_left():
    text = frame_html(pd.DataFrame({"x": [0.5, np.nan], "name": ["a", "b"], "mixed": [3, 4.25]}))
    assert '<th style="text-align: right">x</th>' in text and '<th style="text-align: left">name</th>' in text
    assert '<td data-label="x" style="text-align: right">0.5</td>' in text
    assert '<td data-label="x" style="text-align: right"></td>' in text
    assert '<th style="text-align: right">mixed</th>' in text


def test_every_cell_names_its_heading_for_the_phone_layout():
    text = frame_html(pd.DataFrame({("rate", "Gbit/s"): [1.5], "a <b>": ["x"]}))
    assert '<td data-label="rate Gbit/s"' in text and '<td data-label="a &lt;b&gt;"' in text


def test_an_index_that_holds_data_is_a_column_and_floats_show_the_digits_they_hold():
    frame = pd.DataFrame({"rate": [26.2144, 1520.0]}, index=pd.Index([8, 16], name="size_bytes"))
    text = frame_html(frame)
    assert '<th style="text-align: right">Size (bytes)</th>' in text
    assert ">26.2144<" in text and ">1520<" in text and ">1520.0<" not in text


def test_text_is_escaped():
    assert "&lt;b&gt;" in frame_html(pd.DataFrame({"t": ["<b>"]}))


def test_numbers_printed_as_text_are_right_aligned_too():
    text = frame_html(pd.DataFrame({"published": ["1520.00", "2.46914e+06"], "share": ["+13.8%", "-0.5%"],
                                    "status": ["erratum", "ok"]}))
    assert '<th style="text-align: right">published</th>' in text and '<th style="text-align: right">share</th>' in text
    assert '<th style="text-align: left">status</th>' in text


def test_prose_says_numbers_and_shares_in_words():
    from goodput.render.display import count, number, part, tenths

    assert (number(3), number(13), count(1, "row"), count(2, "row")) == ("three", "13", "one row", "two rows")
    assert (part(0.176), part(0.26), part(0.5)) == ("a sixth", "a quarter", "a half")
    assert (tenths(0.93), tenths(0.96), tenths(0.96, down=True), tenths(0.04), tenths(0.12)) == \
        ("nine tenths", "all", "nine tenths", "no", "one tenth")
    with pytest.raises(ValueError, match="not near"):
        part(0.01)
    with pytest.raises(ValueError, match="from 0 to 1"):
        tenths(1.5)
