"""One module per link: its symbols, parameters, sympy expressions, numeric functions and its subcommand (a model
may keep its numbers in a ``<link>_numeric`` module that imports no sympy)."""
