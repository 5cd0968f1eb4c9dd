"""The machinery every layer stands on: errors, declared parameters, symbols, a model's subcommand, the digits
every machine agrees on, pieces of a transfer, fitting, the chapters' registry, the published tables and where the
book's files are. It imports nothing of goodput's above it."""
