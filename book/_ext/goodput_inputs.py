"""Sphinx extension: a page that reads a file Sphinx does not know about is read again when it changes.

Sphinx re-reads a page when its own source changes (and jupyter-cache re-executes a notebook when
its code does). A generated page whose code reads a file, such as the status page reading the build
benchmark's log, names that file in ``goodput_page_inputs`` (page -> paths from the book's root) and
Sphinx keeps it as the page's dependency: a new log rebuilds that page alone. (A change under
goodput/ or data/ otherwise rebuilds every page: see the Makefile.)
"""

from __future__ import annotations


def _note_inputs(app, docname, source):
    for path in app.config.goodput_page_inputs.get(docname, ()):
        app.env.note_dependency(str(app.srcdir / path))


def setup(app):
    app.add_config_value("goodput_page_inputs", {}, "env")
    app.connect("source-read", _note_inputs)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
