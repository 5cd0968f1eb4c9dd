"""``iperf3 -J``: a measured TCP or UDP run, its sender's and receiver's rates and the MSS, as a measurement of a
link whose ceiling the book's model gives."""

from __future__ import annotations

from .grammar import Field, Format, Record

__all__ = ["FORMAT", "measurements"]

FORMAT = Format(
    "iperf3", "iperf3 -J", detect="", record="start.connecting_to.host", json=True,
    fields=(
        Field("protocol", "start.test_start.protocol", "text", ("TCP", "UDP"), "protocol"),
        Field("sent_bit_s", "end.sum_sent.bits_per_second", "number", what="sender's rate"),
        Field("received_bit_s", "end.sum_received.bits_per_second", "number", what="receiver's rate"),
        Field("udp_bit_s", "end.sum.bits_per_second", "number", what="UDP rate"),
        Field("mss_bytes", "start.tcp_mss_default", "int", what="MSS"),
        Field("duration_s", "start.test_start.duration", "number", what="duration (s)"),
    ))


def measurements(records: list[Record]) -> list[dict]:
    """The run's goodput (Mbit/s): the receiver's for TCP, the sum for UDP."""
    out = []
    for r in records:
        v = r.values
        rate = v.get("received_bit_s") if v["protocol"] == "TCP" else v.get("udp_bit_s")
        if rate is None:
            continue
        out.append({"host": r.name, "protocol": v["protocol"], "goodput_mbit_s": rate / 1e6,
                    **({"mss_bytes": v["mss_bytes"]} if "mss_bytes" in v else {})})
    return out
