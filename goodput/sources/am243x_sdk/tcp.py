"""The AM243x MCU+ SDK datasheet's Ethernet (CPSW) and USB (NET Driver, RNDIS) iperf tables checked against
:mod:`goodput.models.tcp`, for the tcp-goodput chapter: the CPSW TCP bandwidths against the stream ceiling at the
link rate and its UDP "Max" rate against what the link carries of its datagrams, CPU loads and packet losses within
100 %; the RNDIS run's bandwidths against the most full segments carry over USB 2.0 high-speed bulk transfers and
against the transfer and interval on each row, and its total against its intervals."""

from __future__ import annotations

from goodput import checks
from goodput.core import data
from goodput.models import ethernet, tcp
from goodput.models.tcp import (
    IP_HEADER_BYTES,
    datagram_goodput_expr,
    ip_header,
    line_rate,
    message,
    mtu,
    rndis_evaluate,
    rndis_goodput_expr,
    rndis_mss,
    stream_goodput_expr,
    tcp_options,
    udp_evaluate,
)

__all__ = ["CPSW_LINK_MBIT_S", "PERCENT_MAX", "cpsw_tcp_checks", "cpsw_udp_checks", "cpsw_source_checks",
           "total_of", "rndis_checks", "rndis_rate_checks", "rndis_source_checks", "rndis_rate_source_checks"]


# --- AM243x CPSW iperf: every printed number checked ----------------------------------------------

#: The CPSW runs' link rate. The datasheet names none; its TCP rows sit just under the 100 Mbit/s
#: stream ceiling, so the book reads the link as 100 Mbit/s (as the chapter's tables do).
CPSW_LINK_MBIT_S = 100
PERCENT_MAX = 100  #: no CPU load or packet loss exceeds all of it


def cpsw_tcp_checks(t) -> list:
    """Each TCP bandwidth of the ``am243x-cpsw-tcp-iperf`` table (or an edited copy) against the stream
    ceiling at the link rate (each direction of a full-duplex link has its own), and each CPU load printed
    against 100 % (a bidirectional row prints one load for both directions: checked once)."""
    values = {line_rate: CPSW_LINK_MBIT_S, mtu: 1500, ip_header: IP_HEADER_BYTES[4], tcp_options: 0,
              ethernet.vlan: 0}
    ceiling = float(stream_goodput_expr().subs(values))
    out = []
    for row in t.itertuples():
        label = f"{row.board}, {row.direction}"
        out.append(checks.compare(
            t, row.Index, "bandwidth_mbit_s", ceiling, label, kind="ceiling", relation="<=",
            note=f"Full segments of 1460 bytes, no TCP options, at {CPSW_LINK_MBIT_S} Mbit/s carry at most "
                 "{model:.2f} Mbit/s in each direction.",
            off_note=f"Full segments of 1460 bytes at {CPSW_LINK_MBIT_S} Mbit/s carry at most {{model:.2f}} Mbit/s; "
                     "the table prints {published}.",
            formula=(stream_goodput_expr(), {k: v for k, v in values.items()
                                             if k in stream_goodput_expr().free_symbols})))
    for index in t.drop_duplicates(["board", "cpu_load_percent"]).index:
        row = t.loc[index]
        out.append(checks.compare(
            t, index, "cpu_load_percent", PERCENT_MAX,
            f"{row['board']}, {row['direction'].replace(' TX', '')}", kind="consistency", relation="<=",
            off_note="A CPU load of {published} % is more than the whole CPU."))
    return out


def cpsw_udp_checks(t) -> list:
    """Each CPU load and packet loss of the ``am243x-cpsw-udp`` table (or an edited copy) against 100 %,
    and the one rate the table reports as reached ("Max") against what a 100 Mbit/s link can carry of
    its datagrams."""
    out = []
    for row in t.itertuples():
        label = (f"{row.direction} {row.board}, {row.packet_bytes} B, "
                 f"{'max ' if row.offered_as == 'max' else ''}{row.offered_mbit_s:g} Mbit/s")
        for column, what in (("cpu_load_percent", "CPU load"), ("loss_percent", "packet loss")):
            if t.attrs["printed"][column][row.Index] in ("", None) or getattr(row, column) != getattr(row, column):
                continue  # printed "-": nothing measured
            out.append(checks.compare(
                t, row.Index, column, PERCENT_MAX, label, kind="consistency", relation="<=",
                off_note=f"A {what} of {{published}} % is more than all of it."))
        if row.offered_as == "max":
            u = udp_evaluate(row.packet_bytes, CPSW_LINK_MBIT_S)
            out.append(checks.compare(
                t, row.Index, "offered_mbit_s", u["goodput_mbit_s"], label, kind="ceiling",
                relation="<=", otherwise="unexplained",
                note=f"{row.packet_bytes}-byte datagrams in {u['fragments']} IP fragments each carry at most "
                     f"{{model:.2f}} Mbit/s at {CPSW_LINK_MBIT_S} Mbit/s.",
                off_note=f"{row.packet_bytes}-byte datagrams ({u['fragments']} IP fragments each) carry at most "
                         f"{{model:.2f}} Mbit/s over a {CPSW_LINK_MBIT_S} Mbit/s link, the rate the TCP rows "
                         "point to; the row prints a maximum of {published} Mbit/s with "
                         f"{t.attrs['printed']['loss_percent'][row.Index]} % loss. The datasheet "
                         "names no link rate: either this run had a faster link, or 'Max' is the rate asked "
                         "of iperf (-b), not one the link carried.",
                formula=(datagram_goodput_expr(), {line_rate: CPSW_LINK_MBIT_S, message: row.packet_bytes,
                                                   mtu: 1500, ip_header: IP_HEADER_BYTES[4], ethernet.vlan: 0})))
    return out


@checks.provider(tcp)
def cpsw_source_checks():
    """The AM243x CPSW TCP and UDP iperf tables: ceilings at the link rate, loads and losses within 100 %."""
    return cpsw_tcp_checks(data.load("am243x-cpsw-tcp-iperf")) + cpsw_udp_checks(data.load("am243x-cpsw-udp"))


# --- AM243x USB RNDIS iperf: ceiling and total ----------------------------------------------------

def total_of(parts) -> float:
    """The sum of a run's interval values: what its whole-run row should print."""
    return float(sum(parts))


def rndis_checks(t) -> list:
    """Each bandwidth of the ``am243x-rndis-iperf`` table (or an edited copy) against the most full
    1460-byte segments can carry over RNDIS on USB 2.0 high speed (``ceiling``), and the whole run's
    transfer against the sum of its one-second intervals (``consistency``)."""
    most = rndis_evaluate(1460)["goodput_mbit_s"]
    out = []
    for row in t.itertuples():
        out.append(checks.compare(
            t, row.Index, "bandwidth_mbit_s", most, f"RNDIS iperf {row.start_s:g}-{row.end_s:g} s",
            kind="ceiling", relation="<=",
            note="Full 1460-byte segments over RNDIS, in 512-byte bulk packets, 13 per microframe, carry at most "
                 "{model:.1f} Mbit/s.",
            off_note="Full 1460-byte segments over RNDIS on USB 2.0 high speed carry at most {model:.1f} Mbit/s; "
                     "the run prints {published}.",
            formula=(rndis_goodput_expr(), {rndis_mss: 1460})))
    spans = t["end_s"] - t["start_s"]
    whole = t[spans == spans.max()]
    parts = t[spans < spans.max()]
    for index in whole.index:
        inside = parts[(parts["start_s"] >= t.loc[index, "start_s"]) & (parts["end_s"] <= t.loc[index, "end_s"])]
        out.append(checks.compare(
            t, index, "transfer_mbytes", total_of(inside["transfer_mbytes"]),
            f"RNDIS iperf {t.loc[index, 'start_s']:g}-{t.loc[index, 'end_s']:g} s, the sum of its intervals",
            kind="consistency",
            note=f"The {len(inside)} intervals inside it add up to {{model:.2f}} MBytes.",
            off_note=f"The {len(inside)} intervals inside it add up to {{model:.2f}} MBytes, not {{published}}."))
    return out


def rndis_rate_checks(t) -> list:
    """Each bandwidth of the ``am243x-rndis-iperf`` table (or an edited copy) against the transfer on its row
    over the row's interval. Iperf prints both from one count of bytes, so an interval's check verifies the
    transfer it is computed from as well as the bandwidth (``verifies=2``, as a CRC verifies the bytes it is
    computed from); the whole run's transfer has a check of its own (the sum of the intervals,
    :func:`rndis_checks`), so its bandwidth's check verifies the bandwidth only."""
    spans = t["end_s"] - t["start_s"]
    out = []
    for row in t.itertuples():
        whole = spans[row.Index] == spans.max() and (spans < spans.max()).any()
        out.append(checks.compare(
            t, row.Index, "bandwidth_mbit_s",
            row.transfer_mbytes * (1 << 20) * 8 / 1e6 / (row.end_s - row.start_s),
            f"RNDIS iperf {row.start_s:g}-{row.end_s:g} s",
            note="" if whole else f"From the row's {t.attrs['printed']['transfer_mbytes'][row.Index]} MBytes: "
                                  "one count of bytes gives both.",
            off_note=f"{row.transfer_mbytes} MiB in {row.end_s - row.start_s:g} s is {{model:.2f}} Mbit/s, "
                     "not {published}.", verifies=1 if whole else 2))
    return out


@checks.provider(tcp)
def rndis_source_checks():
    """The RNDIS iperf run against the USB 2.0 bulk ceiling, and its total against its intervals."""
    return rndis_checks(data.load("am243x-rndis-iperf"))


@checks.provider(tcp)
def rndis_rate_source_checks():
    """The RNDIS iperf run: each bandwidth against the transfer and the interval on its row."""
    return rndis_rate_checks(data.load("am243x-rndis-iperf"))
