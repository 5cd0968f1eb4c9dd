"""Sphinx extension: pages load only what the book serves itself, and nothing they do not use.

- Jupyter Book 1 always loads sphinx-thebe, which writes an inline script naming
  thebe's CDN address (and emits it twice, hence a console error) even when
  thebe is off, as it is here. That script and the thebe loader are dropped.
- myst-nb embeds the widget state of every notebook that made widgets. The book
  shows no widgets (the panels need a kernel: see ``goodput.render.panels``), so
  that state is dropped too.
- Sphinx puts the vega bundles and the live figures' script (``html_js_files``) on
  every page; a page without a chart drops them, and a page without a sortable table
  (the errata page's, ``goodput.render.pages.errata_table``) drops the script that sorts it.
- pydata-sphinx-theme loads ``fontawesome.js`` (1.5 MB), which swaps each icon for an
  SVG; its stylesheet already draws the same icons from the Font Awesome web font, so
  the script is dropped on every page. The theme writes that tag in its template, not
  through ``script_files``, so it is taken out of the written pages when the build ends.
- altair's chart output carries a fallback list of CDN addresses it loads vega
  from when vega is not on the page yet. In the book vega always is (see
  ``js-assets.json``), so the fallback is pointed at the book's own copy. The
  notebooks keep altair's output as it is, so charts still load in JupyterLab.
"""

from __future__ import annotations

import re
from pathlib import Path

ALTAIR_CDN = "https://cdn.jsdelivr.net/npm/"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _is_widget_state(js) -> bool:
    return (getattr(js, "attributes", None) or {}).get("type") == WIDGET_STATE


def _is_vega(js) -> bool:
    filename = (getattr(js, "filename", None) or "").split("?")[0]
    return filename.startswith(("_static/vega/", "_static/goodput/altair-versions", "_static/goodput-live.js"))


def _is_sort(js) -> bool:
    return (getattr(js, "filename", None) or "").split("?")[0] == "_static/goodput-sort.js"


def _is_thebe(js) -> bool:
    filename = getattr(js, "filename", None) or ""
    body = (getattr(js, "attributes", None) or {}).get("body", "") or ""
    return filename.split("?")[0].endswith("sphinx-thebe.js") or "THEBE_JS_URL" in body


def _localize(app, pagename, templatename, context, doctree):
    body = context.get("body")
    charts = bool(body) and "vegaEmbed" in body
    sortable = bool(body) and "goodput-sortable" in body
    if "script_files" in context:
        context["script_files"] = [js for js in context["script_files"]
                                   if not (_is_thebe(js) or _is_widget_state(js) or (_is_vega(js) and not charts)
                                           or (_is_sort(js) and not sortable))]
    if body and ALTAIR_CDN in body:
        local = context["pathto"]("_static/vega/", 1)
        context["body"] = body.replace(ALTAIR_CDN, local)


#: The theme's icon script, as its template writes it (one line, any digest).
FONTAWESOME = re.compile(r'[ \t]*<script defer src="[^"]*_static/scripts/fontawesome\.js(?:\?[^"]*)?"></script>\n?')


def _drop_fontawesome(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        lean = FONTAWESOME.sub("", text)
        if lean != text:
            page.write_text(lean, encoding="utf-8")


def setup(app):
    app.connect("html-page-context", _localize, priority=900)
    app.connect("build-finished", _drop_fontawesome)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
