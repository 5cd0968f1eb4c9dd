"""Sphinx extension: the page at the site's root sends the reader on to the book's first page with the
address's query and fragment.

The book's first page is ``book/intro`` (``_toc.yml``'s root), so nothing is built as ``index.html``;
sphinx-external-toc writes one when the build ends, a ``<meta http-equiv="Refresh">`` to the first
page, which drops whatever followed the address (``?links=...`` the landing page's chart reads,
``#a-heading``) and is never rewritten once it exists. This writes the root page on every build, before
sphinx-external-toc looks (which then leaves it alone): a script that, once the page has loaded (leaving
earlier aborts the page's own request), replaces the address with the first page's plus the query and
fragment as they came, so Back does not return to it; without scripts, the same refresh and a link. The first page's address is relative, so the site works from a sub-path and from ``file://``.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<script>addEventListener("load", () => location.replace({target_js} + location.search + location.hash));</script>
<noscript><meta http-equiv="Refresh" content="0; url={target}"></noscript>
</head>
<body>
<p><a href="{target}">{title}</a></p>
</body>
</html>
"""


def root_page(target: str, title: str, lang: str = "en") -> str:
    """The root page's HTML: it goes to ``target`` (relative to the root) keeping the query and fragment."""
    return PAGE.format(lang=html.escape(lang), title=html.escape(title), target=html.escape(target),
                       target_js=json.dumps(target).replace("</", "<\\/"))


def _write_root(app, exception):
    if exception is not None or app.builder.format != "html" or app.config.root_doc == "index":
        return
    # no icon: the page is gone before one would load (the browser asks for /favicon.ico, book/_extra)
    page = root_page(app.builder.get_target_uri(app.config.root_doc), app.config.html_title or app.config.project,
                     app.config.language or "en")
    (Path(app.outdir) / "index.html").write_text(page, encoding="utf-8")


def setup(app):
    # before sphinx-external-toc's build-finished handler (priority 500), which writes a root page only
    # when there is none
    app.connect("build-finished", _write_root, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
