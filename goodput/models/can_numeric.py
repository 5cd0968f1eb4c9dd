"""CAN FD and classical CAN frames in numbers: :func:`evaluate` and ``goodput can``, without sympy.

The model is :mod:`goodput.models.can`, which re-exports what is here. Its parameters and numeric functions
come from :mod:`goodput.models.quick_spec`, which ``tools/gen_cli_spec.py`` writes from that model (each
function printed from one of its expressions, as :func:`goodput.core.symbols.lambdify` prints it): the
command imports neither sympy nor the model. They are looked up when called, so that the tool can
import the model while it writes them.
"""

from __future__ import annotations

import math

from goodput.core.command import goodput_line
from goodput.core.errors import GoodputError, ParameterError
from goodput.core.params import DEFAULT
from goodput.models import quick_spec as spec

__all__ = ["DATA_LENGTHS", "CLASSICAL_DATA_LENGTHS", "data_length", "frame_bits", "classical_frame_bits",
           "evaluate", "transfer_time_us", "run", "lines", "messages_in_load", "messages_that_fit", "bus_load_of",
           "parse_message"]

DATA_LENGTHS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 64)  #: what a DLC can say
CLASSICAL_DATA_LENGTHS = tuple(range(9))  #: data bytes of a classical frame (a DLC of 9-15 also means 8)


def data_length(n: int, classical_frame: bool = False) -> int:
    """``n`` data bytes if a frame (a classical one with ``classical_frame``) can carry exactly that many."""
    if classical_frame:
        if n not in CLASSICAL_DATA_LENGTHS:
            raise ParameterError("data_bytes", n, "a classical CAN data length: a whole number from 0 to 8")
    elif n not in DATA_LENGTHS:
        raise ParameterError("data_bytes", n, "a CAN FD data length: " + ", ".join(map(str, DATA_LENGTHS)))
    return int(n)


def classical_frame_bits(n: int, extended_id: bool, stuffing_share: float = DEFAULT) -> float:
    """Bits of one classical frame of ``n`` data bytes and its intermission."""
    n = data_length(n, classical_frame=True)
    s = spec.CAN["parameters"]["stuffing"].check(stuffing_share)
    return float(spec.can_classical_bits(n, 1 if extended_id else 0, s))


def frame_bits(n: int, extended_id: bool, stuffing_share: float = DEFAULT) -> tuple[float, float]:
    """(nominal-rate bits, data-rate bits) of one frame and its intermission."""
    n = data_length(n)
    s = spec.CAN["parameters"]["stuffing"].check(stuffing_share)
    return tuple(float(bits) for bits in spec.can_phase_bits(n, 1 if extended_id else 0, s))


def evaluate(n: int, extended_id: bool = False, arbitration_mbit_s: float = DEFAULT,
             data_mbit_s: float = DEFAULT, stuffing_share: float = DEFAULT, classical_frame: bool = False) -> dict:
    """One frame as a JSON-ready dict: bits per phase, frame time, messages/s, goodput, efficiency
    (goodput over the rate the data is sent at).

    A classical frame (``classical_frame``) has one bit rate, the nominal one: all its bits count as
    nominal-rate bits, and a data bit rate is refused (:class:`ParameterError`) rather than ignored."""
    if classical_frame:
        return _evaluate_classical(n, extended_id, arbitration_mbit_s, data_mbit_s, stuffing_share)
    p = spec.CAN["parameters"]
    n = data_length(n)
    ra, rd = p["arbitration_mbit_s"].check(arbitration_mbit_s), p["data_mbit_s"].check(data_mbit_s)
    s = p["stuffing"].check(stuffing_share)
    nominal, fast = frame_bits(n, extended_id, s)
    t = spec.can_time(n, 1 if extended_id else 0, ra, rd, s)
    goodput = 8 * n / t
    return {"data_bytes": n, "extended_id": bool(extended_id), "arbitration_mbit_s": ra, "data_mbit_s": rd,
            "stuffing": s, "nominal_bits": nominal, "data_phase_bits": fast, "frame_time_us": t,
            "messages_per_s": 1e6 / t, "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000,
            "efficiency": goodput / rd, "classical": False}


def transfer_time_us(size_bytes: int, extended_id: bool = False, arbitration_mbit_s: float = DEFAULT,
                     data_mbit_s: float = DEFAULT, stuffing_share: float = DEFAULT) -> float:
    """Time (us) of ``size_bytes`` sent in CAN FD frames: as many full frames of 64 data bytes as fit and
    one more for the rest, its data field padded to the next length a DLC can say (frame by frame,
    with :func:`evaluate`)."""
    if isinstance(size_bytes, bool) or not isinstance(size_bytes, int) or size_bytes < 1:
        raise ParameterError("size_bytes", size_bytes, "a whole number of bytes, at least 1")
    full, rest = divmod(size_bytes, DATA_LENGTHS[-1])
    frames = [(full, DATA_LENGTHS[-1])] + ([(1, min(n for n in DATA_LENGTHS if n >= rest))] if rest else [])
    return sum(count * evaluate(n, extended_id, arbitration_mbit_s, data_mbit_s, stuffing_share)["frame_time_us"]
               for count, n in frames if count)


def _evaluate_classical(n: int, extended_id: bool, arbitration_mbit_s, data_mbit_s, stuffing_share) -> dict:
    if data_mbit_s is not DEFAULT:
        raise ParameterError("data_mbit_s", data_mbit_s,
                             "left out for a classical CAN frame, which is sent at one bit rate, the nominal "
                             "(arbitration) one")
    p = spec.CAN["parameters"]
    n = data_length(n, classical_frame=True)
    ra, s = p["arbitration_mbit_s"].check(arbitration_mbit_s), p["stuffing"].check(stuffing_share)
    t = spec.can_classical_time(n, 1 if extended_id else 0, ra, s)
    goodput = 8 * n / t
    return {"data_bytes": n, "extended_id": bool(extended_id), "arbitration_mbit_s": ra, "stuffing": s,
            "nominal_bits": classical_frame_bits(n, extended_id, s), "data_phase_bits": 0.0, "frame_time_us": t,
            "messages_per_s": 1e6 / t, "goodput_mbit_s": goodput, "goodput_gbit_s": goodput / 1000,
            "efficiency": goodput / ra, "classical": True}


# --- goodput can (its arguments: goodput.models.can.COMMAND) ---------------------------------------------

def bus_load_of(messages, arbitration_mbit_s: float = DEFAULT, data_mbit_s: float = DEFAULT,
                stuffing_share: float = DEFAULT) -> dict:
    """The share of the bus a list of messages takes, each ``(data bytes, period ms, extended, classical)`` sent
    once a period at the bus's bit rates: each frame's time over its period (:func:`goodput.models.can.load_percent_expr`),
    summed. Over 100 % is an answer, not an error: the bus cannot carry them at those periods."""
    if not messages:
        raise GoodputError("a bus load needs at least one message: its data bytes and its period")
    p = spec.CAN["parameters"]
    rows = []
    for n, period_ms, extended_id, classical_frame in messages:
        r = evaluate(n, extended_id, arbitration_mbit_s, DEFAULT if classical_frame else data_mbit_s, stuffing_share,
                     classical_frame=classical_frame)
        t = p["period_ms"].check(period_ms)
        rows.append({"data_bytes": r["data_bytes"], "period_ms": t, "extended_id": r["extended_id"],
                     "classical": r["classical"], "frame_time_us": r["frame_time_us"],
                     "load_percent": spec.can_load(r["frame_time_us"], t)})
    total = sum(r["load_percent"] for r in rows)
    return {"messages": rows, "load_percent": total, "carried": total <= 100}


def parse_message(text: str) -> tuple:
    """One ``--message``: ``BYTES:PERIOD_MS``, then ``:ext`` for a 29-bit identifier and ``:classical`` for a
    classical frame, as ``(data bytes, period ms, extended, classical)``; a clear error naming the text."""
    parts = text.split(":")
    flags = parts[2:]
    if len(parts) < 2 or any(f not in ("ext", "classical") for f in flags) or len(set(flags)) != len(flags):
        raise GoodputError(f"--message {text!r}: write BYTES:PERIOD_MS, then :ext for a 29-bit identifier and "
                           ":classical for a classical frame (8:10:classical)")
    try:
        n, period_ms = int(parts[0]), float(parts[1])
    except ValueError:
        raise GoodputError(f"--message {text!r}: its data bytes are a whole number and its period a number of "
                           "ms") from None
    return n, period_ms, "ext" in flags, "classical" in flags


def run(args) -> dict:
    if (args.data_bytes is None) == (not args.message):
        raise GoodputError("give --bytes N for one frame, or --message BYTES:PERIOD_MS for each message of a list "
                           "(the bus load they make), one or the other")
    if args.message:
        rates = (args.arbitration_mbit_s, getattr(args, "data_mbit_s", DEFAULT), args.stuffing)
        messages = [parse_message(m) for m in args.message]
        for text, message in zip(args.message, messages):
            try:  # a message's own bytes and period refused with its words
                bus_load_of([message], *rates)
            except ParameterError as exc:
                if exc.name not in ("data_bytes", "period_ms"):
                    raise
                raise GoodputError(f"--message {text!r}: {exc.name} must be {exc.allowed}") from None
        p = spec.CAN["parameters"]
        return {"arbitration_mbit_s": p["arbitration_mbit_s"].check(args.arbitration_mbit_s),
                "stuffing": p["stuffing"].check(args.stuffing), **bus_load_of(messages, *rates)}
    # --data-mbit-s left out is no attribute at all (argparse.SUPPRESS), so a rate typed with --classical is
    # refused by the model even when it equals the default
    r = evaluate(args.data_bytes, args.extended, args.arbitration_mbit_s, getattr(args, "data_mbit_s", DEFAULT),
                 args.stuffing, classical_frame=args.classical)
    p = spec.CAN["parameters"]
    period, load = p["period_ms"].check(args.period_ms), p["bus_load_percent"].check(args.bus_load_percent)
    return {**r, "period_ms": period, "bus_load_percent": load,
            "messages_in_load": messages_in_load(r["messages_per_s"], period, load),
            "messages_that_fit": messages_that_fit(r["messages_per_s"], period, load)}


def lines(args, r: dict) -> list[str]:
    if "messages" in r:
        out = [f"  {m['data_bytes']}-byte {'classical CAN' if m['classical'] else 'CAN FD'}, "
               f"{'extended' if m['extended_id'] else 'standard'} identifier, every {m['period_ms']:g} ms: "
               f"{m['frame_time_us']:.6g} us, {m['load_percent']:.4g} % of the bus" for m in r["messages"]]
        verdict = "" if r["carried"] else ": over 100 %, the bus cannot carry these messages at these periods"
        return out + [f"bus load    {r['load_percent']:.4g} %{verdict}"]
    frame = f"{r['data_bytes']}-byte {'classical CAN' if r['classical'] else 'CAN FD'} frames, " \
            f"{'extended' if r['extended_id'] else 'standard'} identifier: "
    if r["classical"]:
        bits = f"{r['nominal_bits']:g} bits at {r['arbitration_mbit_s']:g} Mbit/s"
    else:
        bits = (f"{r['nominal_bits']:g} bits at {r['arbitration_mbit_s']:g} Mbit/s and {r['data_phase_bits']:g} at "
                f"{r['data_mbit_s']:g} Mbit/s")
    out = [f"{frame}{bits}; {r['frame_time_us']:.6g} us, {r['messages_per_s']:.6g} messages/s", goodput_line(r)]
    if "messages_that_fit" in r:
        out.append(f"  fit         {r['messages_that_fit']} such messages, each once every {r['period_ms']:g} ms, "
                   f"in {r['bus_load_percent']:g} % of the bus")
    return out


def messages_in_load(messages_per_s: float, period_ms: float = DEFAULT, bus_load_percent: float = DEFAULT) -> float:
    """How many messages, each sent every ``period_ms``, ``bus_load_percent`` of a bus that carries
    ``messages_per_s`` of their frames a second back to back holds (a fraction; the period and the load checked)."""
    p = spec.CAN["parameters"]
    return spec.can_fit(messages_per_s, p["period_ms"].check(period_ms), p["bus_load_percent"].check(bus_load_percent))


def messages_that_fit(messages_per_s: float, period_ms: float = DEFAULT, bus_load_percent: float = DEFAULT) -> int:
    """The whole number of :func:`messages_in_load`: the messages that fit."""
    return math.floor(messages_in_load(messages_per_s, period_ms, bus_load_percent))
