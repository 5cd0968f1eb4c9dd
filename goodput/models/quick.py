"""Subcommands of ``goodput`` that run without sympy, pandas or their model module.

Importing a model module (sympy, pandas, every source check) takes a second or more before the first
number; most models keep their numbers in a module of their own that imports none of that
(``goodput.models.usb_numeric``: its ``evaluate``, written once, and its command). The subcommands here are the
other way, older: they compute the same result from :mod:`goodput.models.quick_spec`, which
``tools/gen_cli_spec.py`` writes from the model: its constants, its :class:`~goodput.core.params.Parameter`
declarations and its numeric functions printed from the model's sympy expressions. What is written here
is a copy of the glue the model's ``evaluate`` also has (which checks, in which order, which keys):
``tests/test_quick_commands.py`` runs each subcommand both ways, through the model in the same process and
through this module, and requires the same output, JSON and lines, and the same errors.
"""

from __future__ import annotations

import re

from goodput.core.command import goodput_line, refuse_unapplied, report_lines
from goodput.core.errors import GoodputError, ParameterError
from goodput.models import quick_spec as spec

__all__ = ["COMMANDS"]


# --- goodput coding (goodput.models.coding.link_rates) ---------------------------------------------------

_C = spec.CODING


def _coding_code(key) -> tuple[str, int, int]:
    try:
        return _C["codes"][key]
    except (KeyError, TypeError):
        raise ParameterError("code", key, "one of " + ", ".join(_C["codes"])) from None


def _coding_checked(line_rate_gbaud, n_lanes) -> tuple[float, int]:
    return _C["parameters"]["line_rate_gbaud"].check(line_rate_gbaud), _C["parameters"]["lanes"].check(n_lanes)


def _coding_bit_rate(line_rate_gbaud, n_lanes, key) -> float:
    _name, data_bits, coded_bits = _coding_code(key)
    return spec.coding_bit_rate(*_coding_checked(line_rate_gbaud, n_lanes), data_bits, coded_bits)


def _coding_run(args) -> dict:
    _name, data_bits, coded_bits = _coding_code(args.code)
    rate, n = _coding_checked(args.line_rate_gbaud, args.lanes)
    return {
        "code": args.code,
        "line_rate_gbaud": rate,
        "lanes": n,
        "signalling_rate_gbaud": rate * n,
        "goodput_gbit_s": _coding_bit_rate(rate, n, args.code),
        "goodput_gbyte_s": spec.coding_byte_rate(*_coding_checked(rate, n), data_bits, coded_bits),
        "efficiency": spec.coding_efficiency(data_bits, coded_bits),
    }


def _coding_lines(args, r: dict) -> list[str]:
    return [f"{_C['codes'][r['code']][0]} on {r['lanes']} x {r['line_rate_gbaud']:g} Gbaud "
            f"({r['signalling_rate_gbaud']:g} Gbaud in all)",
            f"  efficiency  {r['efficiency']:.6f}",
            f"  goodput     {r['goodput_gbit_s']:.6g} Gbit/s = {1000 * r['goodput_gbyte_s']:.6g} MB/s per direction"]


# --- goodput ethernet (goodput.models.ethernet.evaluate) ------------------------------------------------

_E = spec.ETHERNET


def _ethernet_stack(key: str) -> tuple[str, int]:
    try:
        return _E["stacks"][key]
    except KeyError:
        raise ParameterError("stack", key, "one of " + ", ".join(_E["stacks"])) from None


def _ethernet_run(args) -> dict:
    parameters = _E["parameters"]
    frame_bytes = parameters["frame_bytes"].check(args.frame_bytes)
    rate = parameters["mac_rate_gbit_s"].check(args.mac_rate_gbit_s)
    counted = parameters["convention"].check(_E["frame_only"] if args.frame_only else _E["wire"])
    key = args.stack
    name, stack_bytes = _ethernet_stack(key)
    vlan_bytes = _E["vlan_tag_bytes"] if args.vlan else 0
    headers = int(spec.ethernet_headers(vlan_bytes, stack_bytes))
    if frame_bytes - headers < 0:
        raise ParameterError("frame_bytes", frame_bytes, f"at least {headers} bytes to hold the headers of {name}")
    values = (frame_bytes, rate, vlan_bytes, stack_bytes, counted)
    return {
        "frame_bytes": frame_bytes, "mac_rate_gbit_s": rate, "stack": key, "vlan": args.vlan,
        "convention": _E["conventions"][counted],
        "counted_bytes": int(spec.ethernet_counted(parameters["frame_bytes"].check(frame_bytes), 0, 0, 0,
                                                   parameters["convention"].check(counted))),
        "frames_per_s": 1e6 * spec.ethernet_frames(*values),
        "frame_gbit_s": spec.ethernet_line(*values),
        "goodput_gbit_s": spec.ethernet_payload(*values),
        "efficiency": spec.ethernet_payload(*values) / rate,
        "bytes": {"payload": float(frame_bytes - headers), "headers": float(headers - _E["fcs_bytes"]),
                  "fcs": float(_E["fcs_bytes"]), "preamble_sfd": float(counted * _E["preamble_sfd_bytes"]),
                  "gap": float(counted * _E["gap_bytes"])},
    }


def _ethernet_lines(args, r: dict) -> list[str]:
    counted = ("preamble, SFD and gap counted (wire)" if r["convention"] == _E["conventions"][_E["wire"]]
               else "frame bytes only (payload over frame)")
    headline = (f"{r['frame_bytes']}-byte frames at {r['mac_rate_gbit_s']:g} Gbit/s, {_E['stacks'][r['stack']][0]}"
                f"{', VLAN tag' if r['vlan'] else ''}, {counted}: {r['frames_per_s']:.6g} frames/s")
    return report_lines(headline, r)


# --- goodput pcie (goodput.models.pcie.evaluate and its Link) ----------------------------------------------

_P = spec.PCIE
_DLLP = re.compile(_P["dllp_pattern"])
_SKP = re.compile(_P["skp_pattern"])


def _one_of(name, value, allowed):
    if value not in allowed:
        raise ParameterError(name, value, "one of " + ", ".join(str(a) for a in allowed))


def _pcie_dllp_policy(link: dict) -> tuple[str, int]:
    if link["dllp"] in ("none", "spec"):
        return link["dllp"], 0
    match = _DLLP.fullmatch(str(link["dllp"]))
    if match and 1 <= int(match["n"]) <= 1024:
        return match["kind"], int(match["n"])
    raise ParameterError("dllp", link["dllp"], "none, spec, every:N or every-any:N with N from 1 to 1024")


def _pcie_code(link: dict) -> str:
    return (_P["flit_conventions"][link["flit"]] if link["gen"] in _P["flit_mode"]
            else _P["generations"][link["gen"]][1])


def _pcie_skp_share(link: dict) -> float:
    skp, policies = link["skp"], _P["skp_policies"]
    if skp in policies:
        code = _pcie_code(link)
        if code not in policies[skp]:
            raise ParameterError("skp", skp, "none or A/B in flit mode (gen6): its SKP rate is not modelled")
        symbols, interval = policies[skp][code]
        return symbols / interval
    match = _SKP.fullmatch(str(skp))
    if match and int(match["a"]) < int(match["b"]):
        return int(match["a"]) / int(match["b"])
    raise ParameterError("skp", skp, "none, min, max, or A/B symbols, integers with A < B < 10**9, e.g. 4/1538")


def _pcie_values(link: dict, size: int) -> tuple:
    policy, n = _pcie_dllp_policy(link)
    gen, lanes, mps = link["gen"], link["lanes"], link["mps"]
    if policy == "spec" and gen not in _P["flit_mode"]:
        try:
            ack, fc = _P["latency_limits"][(gen, lanes, mps)]
        except KeyError:
            raise ParameterError("gen/lanes/mps", (gen, lanes, mps), "a combination the specification tabulates "
                                                                     "(gen 1-5, x1-x32, MPS 128-4096)") from None
    else:
        ack, fc = 1, 1
    code = _pcie_code(link)
    _name, data_bits, coded_bits = _coding_code(code)
    sizes = [int(v) for v in spec.pcie_sizes(gen, link["addr"] // 32 + 2, int(link["ecrc"]))]
    return (size, mps, link["mrrs"], link["rcb"], *sizes, max(n, 1), ack, fc, _pcie_skp_share(link),
            _coding_bit_rate(_P["generations"][gen][0], lanes, code), lanes, data_bits, coded_bits)


def _pcie_function(what: str, *variant):
    return getattr(spec, "_".join(["pcie", what, *(str(v).replace("-", "_") for v in variant)]))


def _pcie_checked(link: dict) -> dict:
    _one_of("gen", link["gen"], tuple(_P["generations"]))
    _one_of("lanes", link["lanes"], _P["lanes"])
    _one_of("mps", link["mps"], _P["sizes"])
    _one_of("mrrs", link["mrrs"], _P["sizes"])
    _one_of("rcb", link["rcb"], _P["rcbs"])
    _one_of("addr", link["addr"], (32, 64))
    _one_of("flit", link["flit"], tuple(_P["flit_conventions"]))
    _pcie_skp_share(link)
    _one_of("split", link["split"], ("mps", "rcb"))
    policy = _pcie_dllp_policy(link)[0]
    values = _pcie_values(link, 1)
    if _pcie_function("time_share", policy)(*values) <= 0:
        dllps = _pcie_function("dllp_share", policy)(*values)
        raise ParameterError("skp", link["skp"], f"a share below {1 - dllps:.6g} of the link's time: with "
                                                 f"dllp={link['dllp']!r} (DLLPs take {dllps:.6g} of it) a larger "
                                                 "one leaves no time for TLPs")
    return link


def _pcie_size(size) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, float)) or size != int(size) \
            or not 1 <= size <= _P["max_transfer_bytes"]:
        raise ParameterError("size", size, f"an integer from 1 to {_P['max_transfer_bytes']} bytes")
    return int(size)


def pcie_unapplied(args) -> None:
    """Refuse ``--flit`` for a generation without flits (the command's full path, :mod:`goodput.models.pcie`, asks too)."""
    refuse_unapplied(args, "--flit", "flit", args.gen in _P["flit_mode"],
                     f"what counts as data in a flit, and gen {args.gen} sends no flits (gen 6 does)")


def pcie_applied(result: dict) -> dict:
    """The command's result without what it did not apply: the flit convention of a generation without flits."""
    return result if result["gen"] in _P["flit_mode"] else {k: v for k, v in result.items() if k != "flit"}


def _pcie_run(args) -> dict:
    pcie_unapplied(args)
    link = _pcie_checked({name: getattr(args, name) for name in _P["link"]})
    size = _pcie_size(args.size)
    policy = _pcie_dllp_policy(link)[0]
    variant = (args.kind, policy, "duplex" if args.duplex else "simplex", link["split"])
    values = _pcie_values(link, size)
    names = _P["breakdown"][" ".join(variant)]
    parts = dict(zip(names, (float(x) for x in _pcie_function("parts", *variant)(*values))))
    return pcie_applied({
        "kind": args.kind,
        "size_bytes": size,
        "duplex": args.duplex,
        **link,
        "tlps": _pcie_function("tlps", args.kind, link["split"])(*values),
        "goodput_gbit_s": _pcie_function("goodput", *variant)(*values),
        "efficiency": size / sum(parts.values()),
        "bytes": parts,
        **_pcie_latency_bound(args, link, variant, values),
        **(_pcie_read(args, link, values) if args.kind == "read" else {}),
    })


def pcie_latency_timings(args, split: str) -> dict | None:
    """The latency-bound model's timings ``goodput pcie`` is given (``--serial-ns`` and ``--latency-ns``, the transfers
    in flight their default if left out), checked; None where it is given neither. The command's full path
    (:func:`goodput.models.pcie_command._command_run`) checks them here too."""
    if args.serial_ns is None and args.latency_ns is None:
        if args.in_flight is not None:
            raise ParameterError("serial_ns", None, "given with --latency-ns for --transfers-in-flight to mean anything")
        return None
    if split != "mps":
        raise ParameterError("split", split, "mps with the latency-bound model (it splits completions at MPS)")
    p = _P["latency"]["parameters"]
    for name in ("serial_ns", "latency_ns"):
        if getattr(args, name) is None:
            raise ParameterError(name, None, f"given too: {p[name].describe_range()}")
    return {"serial_ns": p["serial_ns"].check(args.serial_ns), "latency_ns": p["latency_ns"].check(args.latency_ns),
            "in_flight": p["in_flight"].check(p["in_flight"].default if args.in_flight is None else args.in_flight)}


def _pcie_latency_bound(args, link: dict, variant: tuple, values: tuple) -> dict:
    """With ``--serial-ns`` and ``--latency-ns``: the latency-bound model's goodput (the pcie-measured chapter's)."""
    timings = pcie_latency_timings(args, link["split"])
    if timings is None:
        return {}
    f = _pcie_function("latency_bound", *variant)
    return {**timings, "latency_bound_gbit_s": float(f(*values, timings["serial_ns"], timings["latency_ns"],
                                                       timings["in_flight"], _P["latency"]["np_credits"]))}


def _pcie_read(args, link: dict, values: tuple) -> dict:
    """A read on its own: from its first request to its last data, with the completer's time, and the throughput
    of reads of that size with ``--in-flight`` of them outstanding (the pcie-reads chapter's model)."""
    p = _P["reads"]
    completion, in_flight = p["completion_ns"].check(args.completion_ns), p["reads_in_flight"].check(args.reads_in_flight)
    read = (*values, int(link["split"] == "rcb"), completion, in_flight)
    return {"completion_ns": completion, "reads_in_flight": in_flight,
            "read_latency_ns": spec.pcie_read_latency(*read), "reads_mbyte_s": spec.pcie_read_pipelined(*read)}


def _pcie_lines(args, r: dict) -> list[str]:
    lines = report_lines(f"PCIe gen{args.gen} x{args.lanes} {args.kind} of {args.size} bytes"
                         f"{' (both directions)' if args.duplex else ''}: {r['tlps']} TLPs", r)
    if "latency_bound_gbit_s" in r:
        lines.append(f"  latency     {r['latency_bound_gbit_s']:.6g} Gbit/s with {r['serial_ns']:g} ns serial and "
                     f"{r['latency_ns']:g} ns overlappable a transfer, {r['in_flight']} in flight")
    if args.kind == "read":
        lines.append(f"  one read    {r['read_latency_ns']:.6g} ns from request to last data ({r['completion_ns']:g} ns "
                     f"in the completer); with {r['reads_in_flight']} in flight {r['reads_mbyte_s']:.6g} MB/s")
    return lines


# --- goodput spi (goodput.models.spi.evaluate) ----------------------------------------------------------

_S = spec.SPI


def _spi_run(args) -> dict:
    parameters = _S["parameters"]
    if args.word_bits == 0:
        raise ParameterError("word_bits", args.word_bits, parameters["word_bits"].describe_range())
    if (args.words is None) == (args.transfer_bytes is None):
        raise GoodputError("give the transfer as --words N or as --bytes B, one of the two")
    refuse_unapplied(args, "--gap-ns", "gap_ns", not args.continuous,
                     "the gap between words, which --continuous leaves out: give one of the two")
    bits = parameters["word_bits"].check(args.word_bits)
    size = None if args.transfer_bytes is None else parameters["transfer_bytes"].check(args.transfer_bytes)
    words = parameters["words"].check(args.words if size is None else spec.spi_words_of(size, bits))
    values = (words, bits) + tuple(parameters[name].check(value) for name, value in (
        ("clock_mhz", args.clock_mhz), ("gap_ns", args.gap_ns), ("spaced", 0 if args.continuous else 1),
        ("setup_us", args.setup_us)))
    wire, clocks, total = spec.spi_transfer(*values), spec.spi_clock(*values), spec.spi_total(*values)
    bytes_, payload_us = {}, clocks
    if size is not None:  # the transfer's own bytes over the time, the padding of its last word not counted
        payload_us = spec.spi_clock(1, 8 * size, *values[2:])
        bytes_ = {"transfer_bytes": size}
    # the efficiency is the payload's clock time over the whole time: the same or a larger time, so never above 1
    # in floats either (division rounds monotonically), and the goodput never above the clock
    efficiency = payload_us / total
    throughput = efficiency * values[2]
    # back to back no gap is applied: the result does not echo one
    gap = {"gap_ns": values[3]} if values[4] else {}
    return {**bytes_, "words": values[0], "word_bits": values[1], "clock_mhz": values[2], **gap,
            "spaced": values[4], "setup_us": values[5], "clock_time_us": clocks, "gap_time_us": wire - clocks,
            "transfer_time_us": wire, "total_time_us": total,
            "goodput_mbit_s": throughput, "goodput_gbit_s": throughput / 1000, "efficiency": efficiency}


def _spi_lines(args, r: dict) -> list[str]:
    fixed = f", then {r['setup_us']:g} us of fixed cost: {r['total_time_us']:.6g} us" if r["setup_us"] else ""
    return [f"{r['words']} words of {r['word_bits']} bits at {r['clock_mhz']:g} MHz: {r['transfer_time_us']:.6g} us "
            f"({r['clock_time_us']:.6g} us of clocks, {r['gap_time_us']:.6g} us of gaps){fixed}", goodput_line(r)]


#: The quick subcommands: name -> (run, lines), as a model's ``COMMAND`` has them.
COMMANDS = {"coding": (_coding_run, _coding_lines), "pcie": (_pcie_run, _pcie_lines),
            "ethernet": (_ethernet_run, _ethernet_lines), "spi": (_spi_run, _spi_lines)}
