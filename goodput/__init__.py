"""Goodput: how fast data really moves over embedded interconnects.

The library behind the book, one module per link model and one per concern:

models
    one module per link or measurement, each presented by a chapter of the book:
    :mod:`goodput.core.chapters` declares every chapter and the model modules it presents
    (``coding`` for line codes, ``pcie`` for PCI Express packets, ``can`` for CAN FD...); a model may
    keep its numbers in a module of their own that imports no sympy (``can_numeric``: its ``evaluate``
    and its command, computing with ``quick_spec``'s functions), which it re-exports
model machinery
    ``params`` (ranged inputs), ``symbols`` (distinct sympy symbols), ``command`` (a model's
    subcommand), ``cli`` (the ``goodput`` command), ``cli_spec`` and ``quick_spec`` (written by
    ``tools/gen_cli_spec.py`` from the models: what the command reads to start without sympy), ``quick``
    (the subcommands that run without their model module), ``fit`` (fitting free parameters; time = fixed
    cost + bytes / bandwidth), ``precision`` (the digits every machine agrees on),
    ``spreadsheet`` (the spreadsheet printer)
data and checks
    ``data`` (published tables and provenance), ``checks`` (source checks: kinds and verdicts),
    ``coverage`` (how many of the numbers the documents print are checked), ``logs`` (one parser
    per log format)
book
    ``render`` (Vega printer, live charts, tables, widget panels; one module per chapter), ``pages``
    (errata and sources pages), ``status`` (what built the book)
"""

import sys

# jsonschema (which altair imports) checks the "iri" string format with rfc3987_syntax when that is
# installed (jupyter-events pulls it in), and that module compiles a Lark grammar on import: about
# 1 s in every kernel and every `goodput` command, for a format nothing here validates. Marking it
# absent before altair is imported makes jsonschema skip that one checker.
sys.modules.setdefault("rfc3987_syntax", None)

__version__ = "0.1.0"
