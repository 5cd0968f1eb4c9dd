"""Sphinx extension: keep pages from naming hosts they never load from.

- Jupyter Book 1 always loads sphinx-thebe, which writes an inline script naming
  thebe's CDN address (and emits it twice, hence a console error) even when
  thebe is off, as it is here. That script and the thebe loader are dropped.
- altair's chart output carries a fallback list of CDN addresses it loads vega
  from when vega is not on the page yet. In the book vega always is (see
  ``js-assets.json``), so the fallback is pointed at the book's own copy. The
  notebooks keep altair's output as it is, so charts still load in JupyterLab.
"""

from __future__ import annotations

ALTAIR_CDN = "https://cdn.jsdelivr.net/npm/"


def _is_thebe(js) -> bool:
    filename = getattr(js, "filename", None) or ""
    body = (getattr(js, "attributes", None) or {}).get("body", "") or ""
    return filename.split("?")[0].endswith("sphinx-thebe.js") or "THEBE_JS_URL" in body


def _localize(app, pagename, templatename, context, doctree):
    if "script_files" in context:
        context["script_files"] = [js for js in context["script_files"] if not _is_thebe(js)]
    body = context.get("body")
    if body and ALTAIR_CDN in body:
        local = context["pathto"]("_static/vega/", 1)
        context["body"] = body.replace(ALTAIR_CDN, local)


def setup(app):
    app.connect("html-page-context", _localize, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
