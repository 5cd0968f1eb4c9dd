"""``goodput pcie``: a transfer on the reader's link by the packet model, and, when asked, by the read model of the
pcie-reads chapter and the latency-bound model of the pcie-measured chapter.

It is a module of its own because it stands on all three: the read and latency models are built on the packet
model (:mod:`goodput.models.pcie`), so the command that runs them sits above them, not inside it. Its options' facts
(the reader's link, the read and latency parameters) are the packet model's.
"""

from __future__ import annotations

from goodput.core.command import Arg, Command, Ranged, whole
from goodput.models import pcie_latency
from goodput.models import pcie_transactions as pt
from goodput.models.pcie import (
    FLIT_MODE,
    LATENCY_PARAMETERS,
    LINK_PARAMETERS,
    MAX_TRANSFER_BYTES,
    RCBS,
    READ_PARAMETERS,
    READER_LINK,
    Link,
    evaluate,
)
from goodput.models.quick import COMMANDS, pcie_applied, pcie_latency_timings, pcie_unapplied

__all__ = ["COMMAND"]

#: The link's settings: their defaults and allowed values are the model's (:data:`goodput.models.pcie.LINK_PARAMETERS`).
_P = LINK_PARAMETERS


def _words(name: str) -> str:
    """An option's help: the setting's words and the values it takes, as the model declares them."""
    return f"{_P[name].label}: {_P[name].describe_range()}"


def _command_run(args) -> dict:
    pcie_unapplied(args)
    link = Link(gen=args.gen, lanes=args.lanes, mps=args.mps, mrrs=args.mrrs, rcb=args.rcb,
                addr=args.addr, ecrc=args.ecrc, dllp=args.dllp, skp=args.skp, split=args.split, flit=args.flit)
    out = evaluate(args.kind, link, args.size, duplex=args.duplex)
    timings = pcie_latency_timings(args, args.split)
    if timings is not None:
        out.update(timings, latency_bound_gbit_s=float(pcie_latency.latency_bound_gbit_s(
            args.kind, link, [args.size], timings["serial_ns"], timings["latency_ns"], timings["in_flight"],
            duplex=args.duplex)[0]))
    if args.kind == "read":  # a read on its own and with reads in flight: the pcie-reads chapter's model
        p = READ_PARAMETERS
        completion, in_flight = p["completion_ns"].check(args.completion_ns), p["reads_in_flight"].check(args.reads_in_flight)
        out.update({"completion_ns": completion, "reads_in_flight": in_flight,
                    "read_latency_ns": pt.read_latency_ns(args.size, completion, link),
                    "reads_mbyte_s": pt.pipelined_read_mbyte_s(args.size, completion, in_flight, link)})
    return pcie_applied(out)


def _command_lines(args, r: dict) -> list[str]:
    """What ``goodput pcie`` prints: the quick command's lines (:mod:`goodput.models.quick`), written once there."""
    return COMMANDS["pcie"][1](args, r)


COMMAND = Command(
    "pcie", help="goodput of PCI Express writes or reads",
    description="Payload bit rate of back-to-back PCI Express memory writes or reads of SIZE bytes, with a "
                "breakdown of every byte on the wire.",
    arguments=(
        Arg("kind", choices=("write", "read")),
        Arg("--gen", type=whole, default=_P["generation"].default,
            help=f"{_words('generation')} (flit mode: {', '.join(map(str, sorted(FLIT_MODE)))})"),
        Arg("--lanes", type=whole, default=_P["lanes"].default, help=_words("lanes")),
        Arg("--mps", type=whole, default=_P["mps"].default, help=_words("mps")),
        Arg("--size", type=whole, required=True, help=f"transfer size, bytes: 1 to {MAX_TRANSFER_BYTES}"),
        Arg("--mrrs", type=whole, default=_P["mrrs"].default, help=_words("mrrs")),
        Arg("--rcb", type=whole, default=READER_LINK.rcb, help="read completion boundary, bytes: " + " or ".join(map(str, RCBS))),
        Arg("--split", default=READER_LINK.split, help="completions split at 'mps' (default) or 'rcb'"),
        Arg("--addr", type=whole, default=READER_LINK.addr, help="address bits: 32 (3DW header) or 64 (4DW)"),
        Arg("--ecrc", action="store_true", help="add the 4-byte ECRC digest"),
        Arg("--dllp", default=READER_LINK.dllp,
            help="ACK/UpdateFC policy: none; spec (the specification's latency limits); every:N (one ACK and one "
                 "UpdateFC per N data TLPs); every-any:N (per N TLPs of any kind, read requests included); N from "
                 f"1 to 1024 (default {READER_LINK.dllp})"),
        Arg("--skp", default=READER_LINK.skp,
            help="SKP ordered sets: none, min or max rate, or A/B (A symbols of SKP in every B, e.g. 4/1538)"),
        Arg("--duplex", action="store_true", help="both directions at once (AN3935 Eq. 2-5)"),
        Ranged("--completion-ns", READ_PARAMETERS["completion_ns"], "NS",
               "reads: the completer's time from a request to its completion (ns)"),
        Ranged("--in-flight", READ_PARAMETERS["reads_in_flight"], "K", "reads: reads outstanding at once"),
        Arg("--serial-ns", dest="serial_ns", default=None, metavar="NS",
            help="with --latency-ns: the latency-bound model of the pcie-measured chapter, a transfer's time that "
                 f"nothing overlaps: {LATENCY_PARAMETERS['serial_ns'].describe_range()}"),
        Arg("--latency-ns", dest="latency_ns", default=None, metavar="NS",
            help=f"its time that transfers in flight overlap: {LATENCY_PARAMETERS['latency_ns'].describe_range()}"),
        Arg("--transfers-in-flight", dest="in_flight", default=None, metavar="K",
            help=f"transfers in flight (DMA channels): {LATENCY_PARAMETERS['in_flight'].describe_range()} "
                 f"(default {LATENCY_PARAMETERS['in_flight'].default})"),
        Arg("--flit", default=READER_LINK.flit,
            help="flit mode (gen6 only; refused with another generation): what of each 256-byte flit counts as "
                 "data: tlp (236 TLP bytes, default) or dlp (242, the data-link payload too, as some references "
                 "count)")),
    run=_command_run,
    lines=_command_lines)
