"""The ``goodput`` command: one subcommand per model, plus ``checks``.

Exit status: 0 on success, 2 on a bad parameter (the message names the
parameter and its allowed range), as argparse does for bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import checks, coding
from .errors import GoodputError, ParameterError

__all__ = ["main", "build_parser"]


def _add_coding(sub) -> None:
    p = sub.add_parser(
        "coding",
        help="data rate of a serial link after its line code",
        description="Bit rate left for data after a line code, over all lanes, one direction.",
    )
    p.add_argument("--code", required=True,
                   help="line code: " + ", ".join(coding.CODES))
    p.add_argument("--rate-gbaud", required=True, dest="line_rate_gbaud", metavar="GBAUD",
                   help="symbol rate per lane in Gbaud (GT/s): "
                        + coding.PARAMETERS["line_rate_gbaud"].describe_range())
    p.add_argument("--lanes", default="1", metavar="N",
                   help="number of lanes: " + coding.PARAMETERS["lanes"].describe_range())
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_run_coding)


def _run_coding(args) -> int:
    result = coding.link_rates(args.code, args.line_rate_gbaud, args.lanes)
    if args.json:
        print(json.dumps(result))
        return 0
    code = coding.CODES[result["code"]]
    print(f"{code.name} on {result['lanes']} x {result['line_rate_gbaud']:g} Gbaud "
          f"({result['signalling_rate_gbaud']:g} Gbaud in all)")
    print(f"  efficiency  {result['efficiency']:.6f}")
    print(f"  goodput     {result['goodput_gbit_s']:.6g} Gbit/s = "
          f"{1000 * result['goodput_gbyte_s']:.6g} MB/s per direction")
    return 0


def _add_checks(sub) -> None:
    p = sub.add_parser(
        "checks",
        help="every number the sources calculated, against the models",
        description="Print every registered source check: published value as printed, "
                    "model value, tolerance implied by the printed precision, status.",
    )
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("--chapter", help="only this chapter's checks")
    p.add_argument("--status", choices=checks.STATUSES, help="only checks with this status")
    p.set_defaults(run=_run_checks)


def _run_checks(args) -> int:
    try:
        items = checks.collect(args.chapter)
    except KeyError as exc:
        raise GoodputError(exc.args[0]) from None
    if args.status:
        items = [c for c in items if c.status == args.status]
    sys.stdout.write(checks.to_csv(items) if args.format == "csv" else checks.to_json(items) + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="goodput",
        description="Models of embedded interconnect throughput, checked against their sources.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_coding(sub)
    _add_checks(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ParameterError as exc:
        option = _option_of(parser, args.command, exc.name)
        parser.exit(2, f"goodput {args.command}: error: {option} {exc.value}: "
                       f"{exc.name} must be {exc.allowed}\n")
    except GoodputError as exc:
        parser.exit(2, f"goodput {args.command}: error: {exc}\n")


def _option_of(parser: argparse.ArgumentParser, command: str, dest: str) -> str:
    """The command-line option that fills ``dest`` (``line_rate_gbaud`` -> ``--rate-gbaud``)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for action in sub.choices[command]._actions:
        if action.dest == dest and action.option_strings:
            return action.option_strings[0]
    return dest


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
