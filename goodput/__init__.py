"""Goodput: how fast data really moves over embedded interconnects.

The library behind the book, one module per link model and one per concern:

models
    ``coding`` (line codes), ``pcie`` (packets), ``pcie_latency`` (latency-bound
    transfers), ``pcie_transactions`` (transaction sequences, the Intel
    examples), ``bus`` (KeyStone II memory buses and EDMA), ``srio`` (Serial
    RapidIO), ``hyperlink``, ``ethernet``, ``tcp`` (segments over Ethernet),
    ``spi``, ``can`` (CAN FD), ``am243x`` (the AM243x datasheet's size sweeps),
    ``boot`` (AM243x boot and execute-in-place)
data and checks
    ``data`` (published tables and provenance), ``checks`` (source checks),
    ``pcie_spec`` (the Base Specification's latency tables), ``logs`` (one parser
    per log format), ``fit`` (fitting free parameters; time = fixed cost + bytes /
    bandwidth), ``hostbench`` (our captured firmware logs next to the models),
    ``sizing`` (code and data bytes of ELF files), ``precision`` (the digits every
    machine agrees on)
book
    ``render`` (Vega printer, live charts, tables, widget panels), ``pages``
    (errata and sources pages), ``status`` (what built the book)
"""

import sys

# jsonschema (which altair imports) checks the "iri" string format with rfc3987_syntax when that is
# installed (jupyter-events pulls it in), and that module compiles a Lark grammar on import: about
# 1 s in every kernel and every `goodput` command, for a format nothing here validates. Marking it
# absent before altair is imported makes jsonschema skip that one checker.
sys.modules.setdefault("rfc3987_syntax", None)

from . import (am243x, boot, bus, can, checks, coding, data, errors, ethernet, fit, hostbench, hyperlink, logs,
               pages, params, pcie, pcie_latency, pcie_spec, pcie_transactions, precision, sizing, spi, srio,
               status, tcp)

__all__ = ["am243x", "boot", "bus", "can", "checks", "coding", "data", "errors", "ethernet", "fit", "hostbench",
           "hyperlink", "logs", "pages", "params", "pcie", "pcie_latency", "pcie_spec", "pcie_transactions", "precision",
           "sizing", "spi", "srio", "status", "tcp"]
__version__ = "0.1.0"
