"""USB 3.x SuperSpeed bulk transfers in numbers: :func:`evaluate` and ``goodput usb``, without sympy.

The model is :mod:`goodput.models.usb`, which re-exports what is here. Its parameters, generations and
numeric function come from :mod:`goodput.models.quick_spec`, which ``tools/gen_cli_spec.py`` writes from
that model (the function printed from :func:`goodput.models.usb.transfer_exprs`, as
:func:`goodput.core.symbols.lambdify` prints it): the command imports neither sympy nor the model. They are
looked up when called, so that the tool can import the model while it writes them.
"""

from __future__ import annotations

from goodput.core.command import report_lines
from goodput.core.params import DEFAULT
from goodput.models import quick_spec as spec

__all__ = ["evaluate", "goodput_gbit_s", "run", "lines"]


def _checked(packet_bytes, generation_number, transfer_bytes, burst_packets, count_link_commands) -> tuple:
    p = spec.USB["parameters"]
    return (p["generation"].check(generation_number), p["packet_bytes"].check(packet_bytes),
            p["transfer_bytes"].check(transfer_bytes), p["burst"].check(burst_packets),
            p["link_commands"].check(count_link_commands))


def evaluate(packet_bytes: int = DEFAULT, generation: int = DEFAULT, transfer_bytes: int = DEFAULT,
             burst: int = DEFAULT, link_commands: int = DEFAULT) -> dict:
    """One bulk transfer as a JSON-ready dict: packets, bursts, link symbols, byte times by kind,
    goodput (Gbit/s and MB/s), efficiency and the share of the other direction's link it takes."""
    args = _checked(packet_bytes, generation, transfer_bytes, burst, link_commands)
    values = dict(zip(spec.USB["results"], spec.usb_transfer(*args)))
    g = spec.USB["generations"][args[0]]
    return {"generation": args[0], "packet_bytes": args[1], "transfer_bytes": args[2], "burst": args[3],
            "link_commands": args[4], "rate_gbaud": g["rate_gbaud"],
            "code": g["code"], "packets": int(values["packets"]), "bursts": int(values["bursts"]),
            "link_symbols": int(values["link_symbols"]), "line_bytes": values["line_bytes"],
            "goodput_gbit_s": values["goodput_gbit_s"], "goodput_mbyte_s": 1000 * values["goodput_gbit_s"] / 8,
            "goodput_gbyte_s": values["goodput_gbit_s"] / 8,
            "efficiency": values["efficiency"], "after_code_gbit_s": values["after_code_gbit_s"],
            "return_share": values["return_share"],
            "bytes": {k.removeprefix("bytes:"): float(v) for k, v in values.items() if k.startswith("bytes:")}}


def goodput_gbit_s(packet_bytes: int = DEFAULT, generation: int = DEFAULT, transfer_bytes: int = DEFAULT,
                   burst: int = DEFAULT, link_commands: int = DEFAULT) -> float:
    """Goodput (Gbit/s) of one bulk transfer, each argument checked against its parameter."""
    return evaluate(packet_bytes, generation, transfer_bytes, burst, link_commands)["goodput_gbit_s"]


# --- goodput usb (its arguments: goodput.models.usb.COMMAND) ---------------------------------------------

def run(args) -> dict:
    r = evaluate(args.packet_bytes, args.generation, args.transfer_bytes, args.burst, args.link_commands)
    wait = spec.USB["parameters"]["burst_wait_ns"].check(args.burst_wait_ns)
    # one transfer: its bits over the goodput (Gbit/s = bit/ns), and the wait after each of its bursts
    return {**r, "burst_wait_ns": wait, "latency_ns": 8 * r["transfer_bytes"] / r["goodput_gbit_s"] + r["bursts"] * wait}


def lines(args, r: dict) -> list[str]:
    g = spec.USB["generations"][r["generation"]]
    return report_lines(
        f"USB 3.x {g['name']} bulk, {r['transfer_bytes']} bytes in {r['packets']} packets of at most "
        f"{r['packet_bytes']} bytes, {r['bursts']} bursts of at most {r['burst']}: {r['link_symbols']} link "
        f"symbols, {r['line_bytes']:.6g} byte times at {g['rate_gbaud']:g} Gbaud; {r['goodput_mbyte_s']:.6g} MB/s; "
        f"the ACKs and link commands take {r['return_share']:.2%} of the other direction", r) + [
        f"  one         {r['latency_ns']:.6g} ns: {r['latency_ns'] - r['bursts'] * r['burst_wait_ns']:.6g} on the link"
        + (f" and {r['bursts']} waits of {r['burst_wait_ns']:g}" if r["burst_wait_ns"] else "")]
