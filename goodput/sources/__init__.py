"""The source documents, one module each (a package, a module per topic, for a document the book checks in
several chapters): what each document prints that the book transcribes or checks, its configurations, and its
check providers, each registered for the chapter of the model it holds the document to
(``@checks.provider(pcie)``). :func:`goodput.checks.collect` imports every module here."""
