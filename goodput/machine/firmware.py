"""The book's TCP benchmark firmware (``firmware/``: ``tcp_tester`` and ``tcp_testee``) as a measurement: each
``BENCH-RESULT`` line's bytes over its elapsed time, in frames of its size. A paced run (``interval_us`` above 0)
is passed over: its ceiling is the pacing's, not the link's. The full parser of these logs, which the book's own
tables use, is :mod:`goodput.logs.bench`; this declaration reads a pasted excerpt the same way in the page."""

from __future__ import annotations

from goodput.machine.grammar import Field, Format, Measure

__all__ = ["FORMAT"]

FORMAT = Format(
    "tcp-bench", "the book's TCP firmware", detect=r"^BENCH-(?:CONFIG|RESULT) bench=tcp_test(?:er|ee) ",
    record=r"^BENCH-RESULT bench=(tcp_test(?:er|ee)) ",
    fields=(
        Field("direction", r"^BENCH-RESULT [^\n]* direction=([a-z]+)", "text",
              ("send", "receive", "transmit"), "direction"),
        Field("frame_bytes", r"^BENCH-RESULT [^\n]* frame_bytes=([0-9]+)", what="frame_bytes"),
        Field("interval_us", r"^BENCH-RESULT [^\n]* interval_us=([0-9]+)", what="interval_us"),
        Field("bytes", r"^BENCH-RESULT [^\n]* bytes=([0-9]+)", what="bytes"),
        Field("elapsed_ns", r"^BENCH-RESULT [^\n]* elapsed_ns=([0-9]+)", what="elapsed_ns"),
    ),
    # bytes over nanoseconds is GB/s: 8000 times that is Mbit/s
    measure=Measure("bytes", "Mbit/s", "frame_bytes", scale=8000, per="elapsed_ns", only=(("interval_us", 0),),
                    why_not="a paced run: its ceiling is one frame a period, not the link's", label=("direction",)))
