from pathlib import Path

import pytest

from goodput.errors import LogFormatError
from goodput.logs import ndk_console

ROOT = Path(__file__).resolve().parent.parent / "data" / "logs"


def test_the_documents_testee_output_gives_its_eight_runs():
    runs = ndk_console.parse(ROOT / "published" / "spraaq5-testee-console.log")
    assert list(runs["direction"]) == ["receive"] * 4 + ["transmit"] * 4
    first = runs.iloc[0]
    assert (first.frame_bytes, first.frames, first.total_bytes, first.kbit_s, first.cpu_load_percent) == (
        8192, 5000, 40960000, 93992, 25)
    assert runs.iloc[-1].kbit_s == 14889


@pytest.mark.parametrize("name", ["loopback-testee.log", "shaped-100m-testee.log"])
def test_our_testee_prints_sentences_the_same_parser_reads(name):
    path = ROOT / "host" / name
    runs = ndk_console.parse(path)
    assert len(runs) >= 2 and set(runs["direction"]) == {"receive", "transmit"}
    assert (runs["total_bytes"] == runs["frames"] * runs["frame_bytes"]).all()


def test_a_first_line_without_its_second_names_the_line():
    text = "Received packets of 8192 bytes for a total of 40960000 bytes\nsomething else\n"
    with pytest.raises(LogFormatError, match=r"t\.log:2: a receive line without its throughput line"):
        ndk_console.parse_text(text, "t.log")


def test_a_total_that_is_not_whole_frames_is_refused():
    text = ("Transmitted 5000 frames of 8192 bytes for a total of 4096000\n"
            "at a rate of 93170 kb/s with a CPU load of 36%\n")
    with pytest.raises(LogFormatError, match=r"t\.log:1: 5000 frames of 8192 bytes are not 4096000 bytes"):
        ndk_console.parse_text(text, "t.log")


def test_other_lines_are_skipped():
    assert ndk_console.parse_text("Link Status: 100Mb/s Full Duplex on PHY 0\n...\n").empty
