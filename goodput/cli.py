"""The ``goodput`` command: one subcommand per model, plus ``checks``.

Exit status: 0 on success, 2 on a bad parameter (the message names the
parameter and its allowed range), as argparse does for bad usage, and 1 when
the output cannot be written (a full disk, a closed pipe).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import re
import sys
from pathlib import Path

from . import bus, can, checks, coding, ethernet, hyperlink, pcie, sizing, spi, srio, tcp
from .errors import GoodputError, ParameterError

__all__ = ["main", "build_parser"]


def _output(args, result: dict, lines) -> int:
    """Print ``result`` as one JSON object with ``--json``, else the human ``lines``; refuse to print
    a result with a number that is NaN or infinite."""
    bad = _non_finite(result)
    if bad:
        raise GoodputError(f"the result's {bad} is not a finite number: the inputs lie outside what "
                           "the model can compute")
    if args.json:
        print(json.dumps(result, allow_nan=False))
    else:
        for line in lines:
            print(line)
    return 0


def _non_finite(value, key: str = "result") -> str | None:
    """The key of the first NaN or infinite number in ``value`` (nested dicts and lists), or None."""
    if isinstance(value, dict):
        return next(filter(None, (_non_finite(v, k) for k, v in value.items())), None)
    if isinstance(value, (list, tuple)):
        return next(filter(None, (_non_finite(v, key) for v in value)), None)
    return key if isinstance(value, float) and not math.isfinite(value) else None


def _whole(text: str):
    """An option's text as an int if it is a whole number in ASCII digits, else the text itself,
    for the model to refuse naming its allowed values (``int`` also takes other scripts' digits
    and ``1_000``)."""
    return int(text) if re.fullmatch(r"[+-]?[0-9]{1,18}", text) else text


def _goodput_line(result: dict) -> str:
    return f"  goodput     {result['goodput_gbit_s']:.6g} Gbit/s, efficiency {result['efficiency']:.4f}"


def _report(args, result: dict, headline: str) -> int:
    """The common report: the headline, goodput and efficiency, then the line bytes by kind."""
    return _output(args, result, [headline, _goodput_line(result)] + [
        f"  {name:<16} {value:10.2f} line bytes per transfer" for name, value in result.get("bytes", {}).items()])


def _command(sub, name: str, run, json_flag: bool = True, **texts):
    """A subcommand with the function that runs it (and its ``--json`` flag, unless ``json_flag`` is off)."""
    p = sub.add_parser(name, **texts)
    if json_flag:
        p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)
    return p


def _ranged(p, option: str, parameter, default=None, metavar: str = "N", what: str | None = None) -> None:
    """An option filled by a model :class:`~goodput.params.Parameter`: its dest is the parameter's
    name (so errors name the option) and its help states the allowed range."""
    kwargs = {"required": True} if default is None else {"default": str(default)}
    p.add_argument(option, dest=parameter.name, metavar=metavar,
                   help=f"{what or parameter.label}: {parameter.describe_range()}", **kwargs)


def _add_coding(sub) -> None:
    p = _command(sub, "coding", _run_coding, help="data rate of a serial link after its line code",
                 description="Bit rate left for data after a line code, over all lanes, one direction.")
    p.add_argument("--code", required=True, help="line code: " + ", ".join(coding.CODES))
    _ranged(p, "--rate-gbaud", coding.PARAMETERS["line_rate_gbaud"], metavar="GBAUD",
            what="symbol rate per lane in Gbaud (GT/s)")
    _ranged(p, "--lanes", coding.PARAMETERS["lanes"], 1, what="number of lanes")


def _run_coding(args) -> int:
    r = coding.link_rates(args.code, args.line_rate_gbaud, args.lanes)
    return _output(args, r, [
        f"{coding.CODES[r['code']].name} on {r['lanes']} x {r['line_rate_gbaud']:g} Gbaud "
        f"({r['signalling_rate_gbaud']:g} Gbaud in all)",
        f"  efficiency  {r['efficiency']:.6f}",
        f"  goodput     {r['goodput_gbit_s']:.6g} Gbit/s = {1000 * r['goodput_gbyte_s']:.6g} MB/s per direction"])


def _add_pcie(sub) -> None:
    p = _command(sub, "pcie", _run_pcie, help="goodput of PCI Express writes or reads",
                 description="Payload bit rate of back-to-back PCI Express memory writes or reads of "
                             "SIZE bytes, with a breakdown of every byte on the wire.")
    p.add_argument("kind", choices=("write", "read"))
    sizes = ", ".join(map(str, pcie.SIZES_POW2))
    p.add_argument("--gen", type=_whole, default=1,
                   help=f"generation: {', '.join(map(str, pcie.GENERATIONS))} (flit mode: "
                        f"{', '.join(map(str, sorted(pcie.FLIT_MODE)))})")
    p.add_argument("--lanes", type=_whole, default=1, help="link width: " + ", ".join(map(str, pcie.LANES)))
    p.add_argument("--mps", type=_whole, default=256, help=f"max payload size, bytes: {sizes}")
    p.add_argument("--size", type=_whole, required=True,
                   help=f"transfer size, bytes: 1 to {pcie.MAX_TRANSFER_BYTES}")
    p.add_argument("--mrrs", type=_whole, default=512, help=f"max read request size, bytes: {sizes}")
    p.add_argument("--rcb", type=_whole, default=64,
                   help="read completion boundary, bytes: " + " or ".join(map(str, pcie.RCBS)))
    p.add_argument("--split", default="mps", help="completions split at 'mps' (default) or 'rcb'")
    p.add_argument("--addr", type=_whole, default=32, help="address bits: 32 (3DW header) or 64 (4DW)")
    p.add_argument("--ecrc", action="store_true", help="add the 4-byte ECRC digest")
    p.add_argument("--dllp", default="every:4",
                   help="ACK/UpdateFC policy: none; spec (the specification's latency limits); every:N "
                        "(one ACK and one UpdateFC per N data TLPs); every-any:N (per N TLPs of any kind, "
                        "read requests included); N from 1 to 1024 (default every:4)")
    p.add_argument("--skp", default="none",
                   help="SKP ordered sets: none, min or max rate, or A/B (A symbols of SKP in every B, "
                        "e.g. 4/1538)")
    p.add_argument("--duplex", action="store_true", help="both directions at once (AN3935 Eq. 2-5)")


def _run_pcie(args) -> int:
    link = pcie.Link(gen=args.gen, lanes=args.lanes, mps=args.mps, mrrs=args.mrrs, rcb=args.rcb,
                     addr=args.addr, ecrc=args.ecrc, dllp=args.dllp, skp=args.skp, split=args.split)
    r = pcie.evaluate(args.kind, link, args.size, duplex=args.duplex)
    return _report(args, r, f"PCIe gen{link.gen} x{link.lanes} {args.kind} of {args.size} bytes"
                            f"{' (both directions)' if args.duplex else ''}: {r['tlps']} TLPs")


def _add_hyperlink(sub) -> None:
    p = _command(sub, "hyperlink", _run_hyperlink, help="goodput of TI KeyStone HyperLink writes and reads",
                 description="Payload bit rate of HyperLink transfers of SIZE bytes: writes in packets of the "
                             "master's burst (at most 256 bytes), reads in the answering memory's burst; "
                             "8 control bytes per packet, 8b/9b coding.")
    par = hyperlink.PARAMETERS
    p.add_argument("kind", choices=("write", "read"))
    _ranged(p, "--rate-gbaud", par["line_rate_gbaud"], 6.25, "GBAUD")
    _ranged(p, "--lanes", par["lanes"], 4)
    _ranged(p, "--size", par["size_bytes"], None, "BYTES")
    _ranged(p, "--burst", hyperlink.BURST, hyperlink.MAX_PACKET_BYTES, "BYTES",
            what="the master's burst (EDMA data burst size)")
    p.add_argument("--memory", help="reads: the memory that answers (DDR3, 'MSMC SRAM', 'C66x L1/L2')")


def _run_hyperlink(args) -> int:
    r = hyperlink.evaluate(args.kind, args.line_rate_gbaud, args.lanes, args.size_bytes, args.burst_bytes,
                           args.memory)
    return _report(args, r, f"HyperLink {r['kind']} of {r['size_bytes']} bytes over {r['lanes']} x "
                            f"{r['line_rate_gbaud']:g} Gbaud in {r['packets']} packets of {r['packet_bytes']} bytes")


def _add_ethernet(sub) -> None:
    p = _command(sub, "ethernet", _run_ethernet, help="goodput of back-to-back Ethernet frames",
                 description="Frame rate and payload goodput of back-to-back frames of FRAME bytes (MAC header "
                             "to FCS), with preamble, SFD and inter-packet gap on the wire.")
    _ranged(p, "--frame", ethernet.PARAMETERS["frame_bytes"], None, "BYTES")
    _ranged(p, "--rate-gbit-s", ethernet.PARAMETERS["mac_rate_gbit_s"], 10, "GBIT_S")
    p.add_argument("--stack", default="raw", help="protocol stack: " + ", ".join(ethernet.STACKS))
    p.add_argument("--vlan", action="store_true", help="frames carry an 802.1Q tag")


def _run_ethernet(args) -> int:
    r = ethernet.evaluate(args.frame_bytes, args.mac_rate_gbit_s, args.stack, args.vlan)
    return _report(args, r, f"{r['frame_bytes']}-byte frames at {r['mac_rate_gbit_s']:g} Gbit/s, "
                            f"{ethernet.STACKS[r['stack']].name}: {r['frames_per_s']:.6g} frames/s")


def _add_bus(sub) -> None:
    p = _command(sub, "bus", _run_bus,
                 help="which port, memory or transfer controller bounds a KeyStone II EDMA copy",
                 description="Theoretical maximum of a copy between two KeyStone II endpoints by EDMA transfer "
                             "controllers: the lowest of the TCs' buses, the source and the destination "
                             "(SPRABK5 §3-5). Name the TCs (--tc TC0 --tc TC1) or describe alike ones (--tcs, "
                             "--tc-width, --tc-divider; default 2 x 128 bits at CPU/3).")
    where = "one of MSMC SRAM, DDR3A, DDR3B, CorePac<k> L2"
    p.add_argument("--from", dest="endpoint_a", required=True, metavar="ENDPOINT", help="source: " + where)
    p.add_argument("--to", dest="endpoint_b", required=True, metavar="ENDPOINT", help="destination: " + where)
    p.add_argument("--tc", dest="tc_names", action="append", default=[], metavar="TCn",
                   help="a transfer controller by the guide's number, TC0 to TC13 (repeat for more)")
    par = bus.PARAMETERS
    for option, name in (("--tcs", "tcs"), ("--tc-width", "tc_width_bits"), ("--tc-divider", "tc_clock_divider")):
        p.add_argument(option, dest=name, metavar="N", help=f"{par[name].label}: {par[name].describe_range()}")
    _ranged(p, "--cpu-clock", par["cpu_clock_mhz"], 1200)
    _ranged(p, "--ddr3-mtps", par["ddr3_mtps"], 1600)
    _ranged(p, "--ddr3-width", par["ddr3_width_bits"], 64)


def _run_bus(args) -> int:
    alike = {"tcs": args.tcs, "tc_width_bits": args.tc_width_bits, "tc_clock_divider": args.tc_clock_divider}
    if args.tc_names and any(v is not None for v in alike.values()):
        raise GoodputError("give either --tc (named transfer controllers) or --tcs/--tc-width/--tc-divider "
                           "(alike ones)")
    defaults = {name: bus.PARAMETERS[name].default for name in alike}
    alike = {name: defaults[name] if v is None else v for name, v in alike.items()}
    r = bus.evaluate(args.endpoint_a, args.endpoint_b, tuple(args.tc_names), cpu_clock_mhz=args.cpu_clock_mhz,
                     ddr3_mtps=args.ddr3_mtps, ddr3_width_bits=args.ddr3_width_bits, **alike)
    tcs = (", ".join(r["tcs"]) if args.tc_names
           else f"{r['tcs']} x {r['tc_width_bits']}-bit TC at CPU/{r['tc_clock_divider']}")
    return _output(args, r, [
        f"copy {r['endpoint_a']} <-> {r['endpoint_b']} by {tcs}: at most {r['bound_mb_s']:.6g} MB/s "
        f"({r['goodput_gbit_s']:.6g} Gbit/s), bound by {' and '.join(r['binding'])}",
        *(f"  {name:<22} {value:10.1f} MB/s" for name, value in r["limits_mb_s"].items()),
        *(f"  bridge {b} is shared by {', '.join(u)} (Table 5)" for b, u in r["shared_bridges"].items())])


def _add_srio(sub) -> None:
    p = _command(sub, "srio", _run_srio, help="goodput of Serial RapidIO NWRITE, NREAD and Type 11 transfers",
                 description="Payload bit rate of back-to-back Serial RapidIO transfers of SIZE bytes, cut into "
                             "packets of at most 256 bytes, each with its header, CRC(s), padding and start-of-"
                             "packet control symbol; 8b/10b on 1, 2 or 4 lanes. For NREAD, the response "
                             "direction.")
    par = srio.PARAMETERS
    p.add_argument("kind", choices=tuple(srio.KINDS))
    _ranged(p, "--rate-gbaud", par["line_rate_gbaud"], 3.125, "GBAUD")
    p.add_argument("--lanes", default="4", metavar="N", help="lanes: 1, 2 or 4")
    _ranged(p, "--size", par["size_bytes"], None, "BYTES",
            what="transfer or message size, bytes (a message is at most 4096)")
    p.add_argument("--id-bits", dest="id_bits", default="16", metavar="BITS", help="device ID width: 8 or 16")
    _ranged(p, "--control-symbols", par["control_symbols"], 1, what="4-byte control symbols per packet")
    p.add_argument("--strict", action="store_true", help="accept only the baud rates RapidIO defines")


def _run_srio(args) -> int:
    r = srio.evaluate(args.kind, args.line_rate_gbaud, args.lanes, args.size_bytes, args.id_bits,
                      args.control_symbols, args.strict)
    return _report(args, r, f"SRIO {srio.KINDS[r['kind']].name} of {r['size_bytes']} bytes over {r['lanes']}x "
                            f"{r['line_rate_gbaud']:g} Gbaud in {r['packets']} packets")


def _add_tcp(sub) -> None:
    p = _command(sub, "tcp", _run_tcp, help="goodput of TCP writes over Ethernet",
                 description="Goodput of back-to-back writes of MESSAGE bytes, each cut into segments of at "
                             "most one MSS that each pay a whole Ethernet frame (headers, FCS, preamble, gap); "
                             "and the ceiling of a stream of full segments.")
    par = tcp.PARAMETERS
    _ranged(p, "--message", par["message_bytes"], None, "BYTES", what="write size")
    _ranged(p, "--rate-mbit-s", par["line_rate_mbit_s"], 100, "MBIT_S")
    _ranged(p, "--mtu", par["mtu_bytes"], 1500, "BYTES")
    p.add_argument("--ipv6", action="store_true", help="IPv6 (40-byte header) instead of IPv4")
    p.add_argument("--timestamps", action="store_true", help="TCP timestamps on (12 option bytes)")


def _run_tcp(args) -> int:
    r = tcp.evaluate(args.message_bytes, args.line_rate_mbit_s, args.mtu_bytes, 6 if args.ipv6 else 4,
                     args.timestamps)
    return _report(args, r, f"{r['message_bytes']}-byte writes over IPv{r['ip_version']} at "
                            f"{r['line_rate_mbit_s']:g} Mbit/s: {r['segments']} segments of at most "
                            f"{r['mss_bytes']} bytes; a stream of full segments gets "
                            f"{r['stream_goodput_mbit_s']:.6g} Mbit/s")


def _add_spi(sub) -> None:
    p = _command(sub, "spi", _run_spi, help="time and throughput of an SPI transfer",
                 description="Time of N words of W bits at a clock f, with a gap of GAP ns plus one bit time "
                             "between words (the AM243x MCSPI's, by default).")
    par = spi.PARAMETERS
    _ranged(p, "--words", par["words"])
    _ranged(p, "--bits", par["word_bits"], None, "W")
    _ranged(p, "--clock-mhz", par["clock_mhz"], 50, "MHZ")
    _ranged(p, "--gap-ns", par["gap_ns"], spi.GAP_NS, "NS", what="gap between words besides one bit time")


def _run_spi(args) -> int:
    r = spi.evaluate(args.words, args.word_bits, args.clock_mhz, args.gap_ns)
    return _output(args, r, [
        f"{r['words']} words of {r['word_bits']} bits at {r['clock_mhz']:g} MHz: {r['transfer_time_us']:.6g} us "
        f"({r['clock_time_us']:.6g} us of clocks, {r['gap_time_us']:.6g} us of gaps)", _goodput_line(r)])


def _add_can(sub) -> None:
    p = _command(sub, "can", _run_can, help="CAN FD frame time and messages per second",
                 description="Bits of a CAN FD frame in its arbitration and data phases, the time from one frame "
                             "to the next, and messages per second.")
    par = can.PARAMETERS
    p.add_argument("--bytes", dest="data_bytes", type=_whole, required=True, metavar="N",
                   help="data bytes: " + ", ".join(map(str, can.DATA_LENGTHS)))
    p.add_argument("--extended", action="store_true", help="29-bit identifier (default 11-bit)")
    _ranged(p, "--arb-mbit-s", par["arbitration_mbit_s"], 1, "MBIT_S")
    _ranged(p, "--data-mbit-s", par["data_mbit_s"], 5, "MBIT_S")
    _ranged(p, "--stuffing", par["stuffing"], 0, "SHARE", what="share of the worst-case dynamic stuff bits")


def _run_can(args) -> int:
    r = can.evaluate(args.data_bytes, args.extended, args.arbitration_mbit_s, args.data_mbit_s, args.stuffing)
    return _output(args, r, [
        f"{r['data_bytes']}-byte CAN FD frames, {'extended' if r['extended_id'] else 'standard'} identifier: "
        f"{r['nominal_bits']:g} bits at {r['arbitration_mbit_s']:g} Mbit/s and {r['data_phase_bits']:g} at "
        f"{r['data_mbit_s']:g} Mbit/s; {r['frame_time_us']:.6g} us, {r['messages_per_s']:.6g} messages/s",
        _goodput_line(r)])


def _add_size(sub) -> None:
    p = _command(sub, "size", _run_size,
                 help="code and data bytes of ELF files, per section and by type (the NDK's sizing method)",
                 description="Sections of each ELF file (object, library member or program) that take memory, "
                             "as code, initialized data and uninitialized data, with totals.")
    p.add_argument("files", nargs="+", metavar="FILE.elf")


def _run_size(args) -> int:
    r = sizing.report(args.files)
    lines = []
    for f in r["files"]:
        lines.append(f"{f['file']} ({f['machine']})")
        lines += [f"  {s['name']:<24} {s['size_bytes']:>10}  {s['kind']}" for s in f["sections"]]
    lines.append("totals by section type")
    lines += [f"  {kind:<24} {value:>10}" for kind, value in r["totals"].items()]
    return _output(args, r, lines)


def _add_checks(sub) -> None:
    p = _command(sub, "checks", _run_checks, json_flag=False,
                 help="every number the sources calculated, against the models",
                 description="Print every registered source check: published value as printed, "
                             "model value, tolerance implied by the printed precision, status.")
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("--chapter", help="only this chapter's checks")
    p.add_argument("--status", choices=checks.STATUSES, help="only checks with this status")


def _run_checks(args) -> int:
    try:
        items = checks.collect(args.chapter)
    except KeyError as exc:
        raise GoodputError(exc.args[0]) from None
    if args.status:
        items = [c for c in items if c.status == args.status]
    sys.stdout.write(checks.to_csv(items) if args.format == "csv" else checks.to_json(items) + "\n")
    return 0


def _add_export(sub) -> None:
    p = _command(sub, "export", _run_export, json_flag=False,
                 help="a chapter's model as a workbook of live formulas",
                 description="Write a chapter's calculation as .xlsx: named, validated inputs; a Model sheet of "
                             "formulas printed from the sympy model; the chapter's source checks.")
    p.add_argument("format", choices=("xlsx",), help="file format")
    p.add_argument("chapter", nargs="?", help="chapter (notebook name), e.g. line-coding")
    p.add_argument("--all", action="store_true", help="every chapter with a model, into the directory -o")
    p.add_argument("-o", "--output", help="file to write (default CHAPTER.xlsx); with --all, a directory")


def _run_export(args) -> int:
    from .render import calculations, workbook

    if args.output == "":
        raise GoodputError("-o is empty: name the .xlsx file to write (with --all, a directory)")
    if args.all == bool(args.chapter):
        known = ", ".join(calculations.CHAPTERS)
        raise GoodputError(f"name one chapter or give --all; chapters with a model: {known}")
    if args.chapter and args.chapter not in calculations.CHAPTERS:
        raise GoodputError(f"chapter {args.chapter!r} has no model to export; "
                           f"chapters with one: {', '.join(calculations.CHAPTERS)}")
    if args.all:
        if not args.output:
            raise GoodputError("--all needs -o DIRECTORY")
        targets = {c: Path(args.output) / f"{c}.xlsx" for c in calculations.CHAPTERS}
    else:
        targets = {args.chapter: Path(args.output or f"{args.chapter}.xlsx")}
    for chapter, path in targets.items():
        _export(workbook, chapter, path)
        print(path)
    return 0


def _export(workbook, chapter: str, path: Path) -> None:
    """Write ``chapter``'s workbook to ``path``, or :class:`GoodputError` saying in one line why not."""
    from xlsxwriter.exceptions import FileCreateError

    if path.is_dir():
        raise GoodputError(f"{path} is a directory: -o names the .xlsx file to write (a directory only "
                           "with --all)")
    try:
        workbook.export(chapter, path)
    except FileCreateError as exc:  # xlsxwriter's wrapper of the OSError of opening the file
        raise GoodputError(f"cannot write {path}: {_os_reason(exc.args[0], path)}") from None
    except OSError as exc:
        raise GoodputError(f"cannot write {path}: {_os_reason(exc, path)}") from None
    except ValueError as exc:  # the workbook's own refusal, which names the path
        raise GoodputError(str(exc)) from None


def _os_reason(exc: Exception, path: Path) -> str:
    """Why ``exc`` (an OSError) failed, without Python's ``[Errno n]``, naming its file if that is
    not ``path``."""
    # mkdir of the parent directories raises FileExistsError where a file is in the way
    reason = "Not a directory" if isinstance(exc, FileExistsError) else getattr(exc, "strerror", None) or str(exc)
    filename = getattr(exc, "filename", None)
    return reason if filename in (None, str(path)) else f"{filename}: {reason}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="goodput",
        description="Models of embedded interconnect throughput, checked against their sources.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_coding(sub)
    _add_pcie(sub)
    _add_hyperlink(sub)
    _add_ethernet(sub)
    _add_bus(sub)
    _add_srio(sub)
    _add_tcp(sub)
    _add_spi(sub)
    _add_can(sub)
    _add_size(sub)
    _add_checks(sub)
    _add_export(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv``; what it prints reaches stdout in one write at the end, and if that
    write fails (a full disk, a closed pipe) the status is 1 with a message on stderr."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            return _run(argv)
    finally:
        if not _write_stdout(out.getvalue()):
            sys.exit(1)


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ParameterError as exc:
        option = _option_of(parser, args.command, exc.name)
        parser.exit(2, f"goodput {args.command}: error: {option} {_shown(exc.value)}: "
                       f"{exc.name} must be {exc.allowed}\n")
    except GoodputError as exc:
        parser.exit(2, f"goodput {args.command}: error: {exc}\n")


def _shown(value, limit: int = 40) -> str:
    """``value`` as the error message echoes it: cut short past ``limit`` characters."""
    text = str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _write_stdout(text: str) -> bool:
    """Write ``text`` to stdout and flush; False (with a message on stderr) if that fails."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
        return True
    except OSError as exc:  # ENOSPC, EPIPE (BrokenPipeError), EIO
        sys.stderr.write(f"goodput: error: cannot write the output: {exc.strerror or exc}\n")
        with contextlib.suppress(OSError, ValueError):  # no file descriptor: not a real stdout
            # what stays buffered goes to /dev/null when Python flushes stdout at exit (the
            # signal module's recipe for a closed pipe), instead of failing a second time
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return False


def _option_of(parser: argparse.ArgumentParser, command: str, dest: str) -> str:
    """The command-line option that fills ``dest`` (``line_rate_gbaud`` -> ``--rate-gbaud``)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for action in sub.choices[command]._actions:
        if action.dest == dest and action.option_strings:
            return action.option_strings[0]
    return dest


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
