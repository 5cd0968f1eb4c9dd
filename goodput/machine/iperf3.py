"""``iperf3 -J``: a measured TCP run, its receiver's rate, the MSS and the size of its writes, as a measurement
of a link whose ceiling the book's model gives (a UDP run is passed over: the book's chart is TCP's)."""

from __future__ import annotations

from goodput.machine.grammar import Field, Format, Measure

__all__ = ["FORMAT"]

FORMAT = Format(
    "iperf3", "iperf3 -J", detect="", record="start.connecting_to.host", json=True,
    fields=(
        Field("protocol", "start.test_start.protocol", "text", ("TCP", "UDP"), "protocol"),
        Field("sent_bit_s", "end.sum_sent.bits_per_second", "number", what="sender's rate"),
        Field("received_bit_s", "end.sum_received.bits_per_second", "number", what="receiver's rate"),
        Field("udp_bit_s", "end.sum.bits_per_second", "number", what="UDP rate"),
        Field("mss_bytes", "start.tcp_mss_default", "int", what="MSS"),
        Field("block_bytes", "start.test_start.blksize", "int", what="write size (blksize)"),
        Field("duration_s", "start.test_start.duration", "number", what="duration (s)"),
    ),
    # what arrived, in the writes iperf3 made (128 KiB unless -l says otherwise)
    measure=Measure("received_bit_s", "Mbit/s", "block_bytes", scale=1e-6, only=(("protocol", "TCP"),),
                    why_not="a UDP run: the book's chart is TCP's"))
