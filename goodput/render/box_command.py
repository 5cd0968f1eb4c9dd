"""A "your link" box's values as a ``goodput`` command line: the box's *Copy as command*.

A chapter whose model has a subcommand declares, beside its calculation, how the box's state reads as
that command (:class:`BoxCommand`): the words it adds itself (the subcommand's positional words, a case
column as an option, a value the command spells otherwise: 3 header DWs as ``--addr 32``) and which of the
command's JSON keys each of the box's values is. Every other input of the box is an option of the command
by its name: the option whose ``dest`` is the input's parameter (``line_rate_gbaud`` is ``--rate-gbaud``),
as :mod:`goodput.models.cli_spec` declares it. An input that is neither is named in ``left_out`` with the reason;
a box whose input is none of these is refused where it is declared.

The page writes the command from :meth:`BoxCommand.spec` (``goodput-live.js``) as Python does with
:meth:`BoxCommand.argv`; the tests hold the two texts to each other and run the command, whose JSON must
equal the box's values.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from goodput.models import cli_spec

__all__ = ["Word", "BoxCommand", "argument_text", "command_text"]


@dataclass(frozen=True)
class Word:
    """One word of the command (with its value): ``flag`` alone where ``source`` is None (``write``,
    ``--ecrc``); else the value of ``source``, an input or a case column, after ``flag`` (or alone where
    ``flag`` is empty: a positional word), spelt by ``values`` (the box's value -> the command's) and
    ``form`` (``"every:{}"``). ``when`` = (source, value): the word is written only where that holds (a tuple
    of values: where the source has one of them); ``unless``, only where it does not."""

    flag: str
    source: str | None = None
    values: Mapping[Any, Any] = field(default_factory=dict)
    form: str = "{}"
    when: tuple | None = None
    unless: tuple | None = None

    def sources(self) -> set[str]:
        return {s for s in (self.source, *(c[0] for c in (self.when, self.unless) if c)) if s is not None}

    def words(self, value_of) -> list[str]:
        """The word(s) this writes, ``value_of(source)`` giving a source's value; none where ``when`` fails."""
        if self.when is not None and not _holds(value_of(self.when[0]), self.when[1]):
            return []
        if self.unless is not None and _holds(value_of(self.unless[0]), self.unless[1]):
            return []
        if self.source is None:
            return [self.flag]
        value = value_of(self.source)
        for box, command in self.values.items():
            if _same(value, box):
                value = command
                break
        else:
            if self.values:
                raise ValueError(f"{self.flag or self.source}: the command has no word for {value!r}")
        text = self.form.format(argument_text(value))
        return [self.flag, text] if self.flag else [text]

    def spec(self) -> dict:
        out: dict = {"flag": self.flag, "form": self.form}
        if self.source is not None:
            out["source"] = self.source
        if self.values:
            out["values"] = [[k, v] for k, v in self.values.items()]
        for name in ("when", "unless"):
            condition = getattr(self, name)
            if condition is not None:
                source, value = condition
                out[name] = [source, list(value) if isinstance(value, tuple) else value]
        return out


def _holds(value, when) -> bool:
    return any(_same(value, v) for v in when) if isinstance(when, tuple) else _same(value, when)


def _same(a, b) -> bool:
    """Equal as the page compares values: numbers by value (4 == 4.0), else as they are."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def argument_text(value) -> str:
    """A value as an argument, as the page's script writes it (JavaScript's ``String``): whole numbers
    without a point, others in their shortest round-trip form."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    if hasattr(value, "item"):  # a numpy number from a case column
        return argument_text(value.item())
    return str(value)


@dataclass(frozen=True)
class BoxCommand:
    """How a box's state reads as ``goodput COMMAND ...``.

    Parameters
    ----------
    command : str
        The subcommand (a key of :data:`goodput.models.cli_spec.COMMANDS`).
    words : sequence of Word
        Its words besides the inputs that are options by their names, in order (positional words first).
    outputs : mapping
        The box's output -> the key of the command's JSON holding the same value.
    left_out : mapping
        An input the command does not take -> why (what the command computes without it).
    """

    command: str
    words: Sequence[Word]
    outputs: Mapping[str, str]
    left_out: Mapping[str, str] = field(default_factory=dict)

    def options(self) -> dict[str, str]:
        """The command's options by the parameter they fill: dest -> first flag."""
        arguments = cli_spec.COMMANDS[self.command][2]
        return {o.get("dest", f[0].lstrip("-").replace("-", "_")): f[0] for f, o in arguments if f[0].startswith("-")}

    def resolved(self, inputs: Sequence[str], columns: Sequence[str]) -> list[Word]:
        """Every word: the declared ones, then each input no word names as the option filling its parameter.
        Raises where a word names what the box lacks or an input is in no word and not left out."""
        if self.command not in cli_spec.COMMANDS:
            raise ValueError(f"no goodput command {self.command!r}")
        known = set(inputs) | set(columns)
        named = set()
        for w in self.words:
            missing = w.sources() - known
            if missing:
                raise ValueError(f"goodput {self.command}: {', '.join(sorted(missing))} is neither an input "
                                 "nor a case column of the box")
            named |= w.sources()
        options = self.options()
        out = list(self.words)
        for name in inputs:
            if name in named or name in self.left_out:
                continue
            if name not in options:
                raise ValueError(f"goodput {self.command} has no option for the box's input {name!r}: "
                                 "give it a word, or say in left_out why the command does without it")
            out.append(Word(options[name], name))
        return out

    def argv(self, inputs: Sequence[str], columns: Sequence[str], values: Mapping[str, Any],
             case: Mapping[str, Any]) -> list[str]:
        """The command's arguments (after ``goodput``) at the box's ``values`` (by input, and the reader's list by its
        name where the box has one) and ``case``."""
        def value_of(source):
            return values[source] if source in values else case[source]
        return [self.command] + [t for w in self.resolved(inputs, columns) for t in w.words(value_of)]

    def spec(self, inputs: Sequence[str], columns: Sequence[str]) -> dict:
        """What the page's script writes the command from: the words, each source an input's signal or a
        case column of the row (``goodput-live.js``: commandText)."""
        return {"command": self.command, "inputs": list(inputs),
                "words": [w.spec() for w in self.resolved(inputs, columns)]}


def command_text(argv: Sequence[str]) -> str:
    """The command line as a reader pastes it into a shell."""
    return "goodput " + shlex.join(argv)

