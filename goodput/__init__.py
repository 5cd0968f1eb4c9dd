"""Goodput: how fast data really moves over embedded interconnects.

The library is built in layers, one package each, lowest first; a module imports only its own layer and
those below (``tests/test_imports.py`` holds it, with no import cycle):

``core``
    errors, declared parameters, symbols, a subcommand's declaration, the digits every machine agrees on,
    fitting, the chapters' registry (:mod:`goodput.core.chapters`), the published tables, the cache
``logs``
    one parser per log format
``checks``
    a source check and its verdict; how much of what the documents print is checked
``models``
    one module per link: its symbols, parameters, sympy expressions, numbers and subcommand
``machine``
    what Linux prints of the reader's link, read
``analysis``
    what several models and measurements make: the chooser, boot, code size, fits, host benchmarks
``sources``
    one module (or package) per source document: its configurations and check providers
``render`` and ``render.chapters``
    the Vega printer, live figures, calculated tables, workbooks and pages; one module per chapter
:mod:`goodput.cli`
    the ``goodput`` command
"""

import sys

# jsonschema (which altair imports) checks the "iri" string format with rfc3987_syntax when that is
# installed (jupyter-events pulls it in), and that module compiles a Lark grammar on import: about
# 1 s in every kernel and every `goodput` command, for a format nothing here validates. Marking it
# absent before altair is imported makes jsonschema skip that one checker.
sys.modules.setdefault("rfc3987_syntax", None)

__version__ = "0.1.0"
