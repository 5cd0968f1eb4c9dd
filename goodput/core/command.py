"""A model's subcommand of ``goodput``, declared beside the model: its options and what it prints.

A model module that has a command sets ``COMMAND = Command(...)``; :mod:`goodput.cli` makes a
subcommand of it for every chapter of :mod:`goodput.core.chapters` that names the module. An option
filled by a model :class:`~goodput.core.params.Parameter` is a :class:`Ranged`: its default, range and
label come from the parameter, so they are typed once.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from goodput.core.errors import GoodputError
from goodput.core.params import Parameter

__all__ = ["Command", "Arg", "Ranged", "whole", "refuse_unapplied", "goodput_line", "report_lines"]


@dataclass(frozen=True)
class Arg:
    """An argument as :meth:`argparse.ArgumentParser.add_argument` takes it."""

    flags: tuple[str, ...]
    options: dict = field(default_factory=dict)

    def __init__(self, *flags: str, **options):
        object.__setattr__(self, "flags", flags)
        object.__setattr__(self, "options", options)

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        options = dict(self.options)
        if "help" in options:
            options["help"] = _literal(options["help"])
        parser.add_argument(*self.flags, **options)


def _literal(text: str) -> str:
    """A help text as argparse prints it: its own ``%`` (a unit, "bus load (%)") is not a format."""
    return text.replace("%", "%%")


@dataclass(frozen=True)
class Ranged:
    """An option filled by a model parameter: its dest is the parameter's name (so errors name the
    option), its help states the allowed range, its default is the parameter's unless ``required``
    or ``default`` says otherwise."""

    option: str
    parameter: Parameter
    metavar: str = "N"
    what: str | None = None
    required: bool = False
    default: Any = None

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        p = self.parameter
        kwargs = ({"required": True} if self.required
                  else {"default": str(p.default if self.default is None else self.default)})
        parser.add_argument(self.option, dest=p.name, metavar=self.metavar,
                            help=_literal(f"{self.what or p.label}: {p.describe_range()}"), **kwargs)


@dataclass(frozen=True)
class Command:
    """A subcommand: its name and texts, its arguments, ``run`` computing its JSON-ready result from
    the parsed arguments, and ``lines`` giving what a reader reads of it (of the arguments and result)."""

    name: str
    help: str
    description: str
    arguments: tuple
    run: Callable[[argparse.Namespace], dict]
    lines: Callable[[argparse.Namespace, dict], list[str]]


def whole(text: str):
    """An option's text as an int if it is a whole number in ASCII digits, else the text itself,
    for the model to refuse naming its allowed values (``int`` also takes other scripts' digits
    and ``1_000``)."""
    return int(text) if re.fullmatch(r"[+-]?[0-9]{1,18}", text) else text


def refuse_unapplied(args, option: str, dest: str, applies: bool, why: str) -> None:
    """Refuse ``option`` (filling ``dest``) where the command line gave it (``args.given``, kept by
    :mod:`goodput.cli`) and the run would not apply it: a value silently ignored while ``--json`` echoed it would
    tell the reader it counted."""
    if not applies and dest in getattr(args, "given", ()):
        raise GoodputError(f"{option} {getattr(args, dest)}: {why}")


def goodput_line(result: dict) -> str:
    return f"  goodput     {result['goodput_gbit_s']:.6g} Gbit/s, efficiency {result['efficiency']:.4f}"


def report_lines(headline: str, result: dict) -> list[str]:
    """The common report: the headline, goodput and efficiency, then the line bytes by kind."""
    return [headline, goodput_line(result)] + [
        f"  {name:<16} {value:10.2f} line bytes per transfer" for name, value in result.get("bytes", {}).items()]
