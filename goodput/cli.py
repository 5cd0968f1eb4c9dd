"""The ``goodput`` command: a subcommand for each model that declares one (its module's ``COMMAND``,
found through :mod:`goodput.core.chapters`), plus ``checks`` and ``export``.

The parser is built from :mod:`goodput.models.cli_spec` (``tools/gen_cli_spec.py`` writes it from the
``COMMAND`` declarations), so no model module, sympy or pandas is imported before the arguments are
parsed. A subcommand then imports only what it runs: :mod:`goodput.models.quick` where it has a quick
version of the subcommand, else the module that runs it: its model's numbers where the model keeps
them in a module of their own that imports no sympy (``goodput.models.usb_numeric``), else its model module
and its ``COMMAND``.

Exit status: 0 on success, 2 on a bad parameter (the message names the
parameter and its allowed range), as argparse does for bad usage, and 1 when
the output cannot be written (a full disk, a closed pipe, no standard output at all).

An option that takes a value is given once (a second ``--lanes`` is refused, not silently the one that
counts), and a value that starts with a minus sign is the option's value, not an option of its own:
``--gap-ns -inf`` is refused naming ``-inf``, as ``--gap-ns -1`` is.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import io
import json
import math
import os
import re
import sys
from pathlib import Path

from goodput import __version__
from goodput.core.errors import GoodputError, ParameterError
from goodput.models import cli_spec

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


class _Once(argparse._StoreAction):
    """An option's value, given once: a second occurrence is refused naming both values. The options given on
    the command line are kept in ``given`` (their dests), so a subcommand can refuse two that conflict."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("given", set())
        if self.dest in given:
            parser.error(f"{option_string} given twice ({getattr(namespace, self.dest)} and {values}): give it once")
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


#: A command-line word that is a number with a minus sign (``-1``, ``-1e5``, ``-.5``, ``-inf``, ``-nan``): an
#: option's value, which the option then refuses naming it (argparse takes only ``-1`` and ``-1.5`` so).
_NEGATIVE = re.compile(r"^-(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$|^-(?:inf|infinity|nan)$", re.IGNORECASE)


def _command(sub, name: str, run, json_flag: bool = True, **texts):
    """A subcommand with the function that runs it (and its ``--json`` flag, unless ``json_flag`` is off); each
    of its options that takes a value is given once (:class:`_Once`)."""
    p = sub.add_parser(name, **texts)
    p.register("action", None, _Once)
    p.register("action", "store", _Once)
    p._negative_number_matcher = _NEGATIVE
    if json_flag:
        p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)
    return p


def _add_model_command(sub, name: str, module: str, texts: dict, arguments) -> None:
    """A model's subcommand, as :mod:`goodput.models.cli_spec` declares it: its result as JSON or as its lines
    (``arguments`` empty: only its name and texts, for a parser that will not parse its arguments)."""

    def run(args) -> int:
        run_, lines = _implementation(name, module)
        result = run_(args)
        return _output(args, result, lines(args, result))

    p = _command(sub, name, run, **texts)
    for flags, options in arguments:
        p.add_argument(*flags, **options)


def _implementation(name: str, module: str):
    """``(run, lines)`` of the subcommand ``name``: its quick version if it has one, else those of the
    module ``module`` that :mod:`goodput.models.cli_spec` names for it: its model's ``COMMAND``, or the ``run``
    and ``lines`` of the model's numbers (a module that imports no sympy)."""
    from goodput.models import quick  # the numeric functions of the quick subcommands, loaded only to run one

    if name in quick.COMMANDS:
        return quick.COMMANDS[name]
    found = importlib.import_module(f"goodput.{module}")
    command = getattr(found, "COMMAND", None)
    return (command.run, command.lines) if command is not None else (found.run, found.lines)


def _add_from(sub) -> None:
    p = _command(sub, "from", _run_from,
                 help="your link from what Linux prints: its ceiling, and a measurement's share of it",
                 description="Read lspci -vv, ethtool IFACE, ip [-details] link show, iperf3 -J and the book's TCP firmware's "
                             "outputs (any mix, "
                             "'-' for standard input): each link's settings as trained and programmed, the ceiling the "
                             "book's model gives for them, each measurement's share of it, and what looks wrong (a link "
                             "trained below its capability, MRRS below MPS). Example: lspci -vv | goodput from -")
    p.add_argument("files", nargs="+", metavar="FILE", help="a file of one of these outputs, or - for standard input")
    p.add_argument("--rate-mbit-s", dest="rate_mbit_s", type=float, default=None, metavar="MBIT_S",
                   help="the Ethernet line rate a measurement crossed, where no ethtool output gives it")
    p.add_argument("--tcp-options", dest="tcp_options_bytes", type=int, default=None, metavar="BYTES",
                   help="the TCP option bytes of a measurement's segments (12: timestamps), where its MSS does not "
                        "say them (an iperf3 run's does; the firmware's logs do not): none by default")


def _run_from(args) -> int:
    from goodput.machine import report  # the readers and the models they need: only for this subcommand

    if args.rate_mbit_s is not None and not (math.isfinite(args.rate_mbit_s) and args.rate_mbit_s > 0):
        raise GoodputError(f"--rate-mbit-s {args.rate_mbit_s:g}: a line rate is a number above 0")
    result = report.report(args.files, args.rate_mbit_s, args.tcp_options_bytes)
    return _output(args, result, report.lines(result))


def _add_checks(sub) -> None:
    p = _command(sub, "checks", _run_checks, json_flag=False,
                 help="every number the sources calculated, against the models",
                 description="Print every registered source check: published value as printed, "
                             "model value, tolerance implied by the printed precision, status.")
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("--chapter", help="only this chapter's checks")
    p.add_argument("--status", choices=cli_spec.CHECK_STATUSES, help="only checks with this status")
    p.add_argument("--kind", choices=cli_spec.CHECK_KINDS, help="only checks of this kind")


def _run_checks(args) -> int:
    from goodput import checks  # every model and its source checks: only for this subcommand

    try:
        items = checks.collect(args.chapter)
    except KeyError as exc:
        raise GoodputError(exc.args[0]) from None
    if args.status:
        items = [c for c in items if c.status == args.status]
    if args.kind:
        items = [c for c in items if c.kind == args.kind]
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
    from goodput.render import calculations, workbook

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

    try:  # is_dir itself fails on a name too long or a directory that may not be read
        if path.is_dir():
            raise GoodputError(f"{path} is a directory: -o names the .xlsx file to write (a directory only "
                               "with --all)")
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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; with ``command``, one that gives the model subcommands other than
    ``command`` no arguments (it parses the command lines that start with ``command`` as the whole
    parser does, and is quicker to build)."""
    parser = argparse.ArgumentParser(
        prog="goodput",
        description="Models of embedded interconnect throughput, checked against their sources.",
        epilog="Each option that takes a value is given once; one the subcommand would not apply (--gap-ns with "
               "--continuous) is refused. Exit status: 0 done, 2 a command line or input refused (the message "
               "names the option or the file and line), 1 the output could not be written.",
    )
    parser.add_argument("--version", action="version", version=f"goodput {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, texts, arguments) in cli_spec.COMMANDS.items():
        _add_model_command(sub, name, module, texts, arguments if command in (None, name) else ())
    _add_from(sub)
    _add_checks(sub)
    _add_export(sub)
    return parser


# A parser is kept once built: one process that runs many command lines (the tests call main thousands of
# times) builds each kind once. Parsing leaves a parser as it was; its messages go to the streams of the call.
_parser = functools.cache(build_parser)


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
    argv = sys.argv[1:] if argv is None else argv
    # a command line that starts with a subcommand parses only that one's arguments, and one that starts
    # with -h prints the list of subcommands and stops: neither needs the other subcommands' arguments
    first = argv[0] if argv else None
    parser = _parser(first if first in (*cli_spec.COMMANDS, "-h", "--help") else None)
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
    if sys.stdout is None:  # started with standard output closed (``goodput ... >&-``)
        if sys.stderr is not None:
            sys.stderr.write("goodput: error: cannot write the output: standard output is closed\n")
        return False
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
