"""Sphinx extension: the book's search finds what a page says, and shows it.

- **The index.** Sphinx indexes every word of a page's doctree, code cells' source included: a search
  for a term found the chapters whose code names it (``mrrs_bytes=...``), and a search for anything
  a chapter's code mentions ranked it with the chapters that explain it. The index is fed a copy of
  each page without what a reader does not read as text: the source of code cells (myst-nb's
  ``cell_input`` containers, shown or folded) and the TeX of formulas (``\\mathrm``, ``\\frac`` are
  not words of the book). The prose, the headings and what the cells print stay. A page that spells
  out a term engineers type as its abbreviation ("inter-packet gap": IFG) is found by the
  abbreviation too (:data:`ABBREVIATIONS`).
- **The summaries.** Sphinx's ``searchtools.js`` fetches each page it found and shows the text around
  the words searched for, taken from the page's ``[role="main"]`` element; with this theme that is the
  whole main column, so a hit showed the page's header (its buttons and its list of contents) or
  the folded code of a cell. On the search page a script (:data:`SUMMARIES`) takes that text from the
  page's article instead, without code cells, folded-code buttons, displayed formulas, KaTeX's MathML
  copy of an inline formula or heading links, each cell and block of text apart from the next.

The search tools and the index load on the search page alone (``book/_templates/layout.html``): the theme
loaded them on every page, where ``searchtools.js`` ran the search in an address's ``?q=`` and threw
(``Cannot read properties of null``) for want of the search page's results.
"""

from __future__ import annotations

import re

from docutils import nodes

#: The search page's summaries, from the article. (Here rather than in a file of its own: a change to
#: an extension's Python is what makes ``make book`` write every page again, the search page too.)
SUMMARIES = """/* The search page's summaries (goodput_search.py): Sphinx's searchtools.js fetches each page it found
   and shows the text around the words searched for, from Search.htmlToText. That takes the page's
   [role="main"] element, which in this theme holds the page's header and its list of contents as well as
   the article; this takes the article, without what a reader does not read as prose. */
(function () {
  "use strict";

  // Parts of an article that are not its text: code cells' source and the button that unfolds it,
  // displayed formulas (as text, a row of symbols), KaTeX's MathML copy of an inline formula (it shows
  // once, as its HTML), heading links, scripts.
  const NOT_PROSE = [".cell_input", "details.above-input > summary", ".katex-display", ".katex-mathml",
                     ".headerlink", "script", "style", "template", "noscript"].join(", ");
  // Elements whose text a reader sees apart from the next one's: a table's cells, a list's items.
  const APART = "p, li, dt, dd, td, th, caption, h1, h2, h3, h4, h5, h6, br, div";

  function install() {
    if (typeof Search === "undefined" || typeof Search.htmlToText !== "function") return;
    const builtIn = Search.htmlToText;
    Search.htmlToText = (htmlString, anchor) => {
      const page = new DOMParser().parseFromString(htmlString, "text/html");
      const article = page.querySelector("article.bd-article") || page.querySelector("main article");
      if (!article) return builtIn(htmlString, anchor);
      article.querySelectorAll(NOT_PROSE).forEach(el => el.remove());
      article.querySelectorAll(APART).forEach(el => el.after(" "));
      // a hit on a heading: the text of its section (an id as the index holds it, not a CSS selector)
      const id = anchor ? anchor.replace(/^#/, "") : "";
      const part = (id && page.getElementById(id)) || article;
      return (article.contains(part) ? part : article).textContent.replace(/\\s+/g, " ").trim();
    };
  }

  // Where the summary starts: Sphinx looks for the stemmed words in the page's text ("mp" for MPS, found
  // first in "computes"); the words as typed, and then the whole query, come after them and win where found.
  function installStart() {
    if (typeof Search === "undefined" || typeof Search.makeSearchSummary !== "function") return;
    const builtIn = Search.makeSearchSummary;
    const typed = (new URLSearchParams(location.search).get("q") || "").trim().toLowerCase();
    const words = typed.split(/\s+/).filter(Boolean);
    Search.makeSearchSummary = (htmlText, keywords, anchor) =>
      builtIn(htmlText, new Set([...keywords, ...words, typed].filter(Boolean)), anchor);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => { install(); installStart(); });
  else { install(); installStart(); }
})();"""

#: Abbreviations a reader types for what the chapters spell out: a page whose text holds one of the
#: phrases is indexed under the abbreviation as well.
ABBREVIATIONS = {
    "MRRS": ("max read request", "maximum read request"),
    "MPS": ("max payload size", "maximum payload size"),
    "RCB": ("read completion boundary",),
    "IFG": ("inter-packet gap", "interpacket gap", "inter-frame gap", "interframe gap"),
}

def unread(node: nodes.Node) -> bool:
    """Whether ``node`` is left out of the search index: a code cell's source, or a formula's TeX."""
    if isinstance(node, (nodes.math, nodes.math_block)):
        return True
    return isinstance(node, nodes.container) and (
        node.get("nb_element") == "cell_code_source" or "cell_input" in node.get("classes", ()))


def indexed(doctree: nodes.document) -> nodes.document:
    """A copy of ``doctree`` holding what the search index should read (``doctree`` is left as it is):
    without what :func:`unread` names, with the abbreviations of the terms it spells out."""
    copy = doctree.deepcopy()
    for node in list(copy.findall(unread)):
        node.parent.remove(node)
    text = " ".join(copy.astext().lower().split())
    spelled = [short for short, phrases in ABBREVIATIONS.items()
               if not re.search(rf"\b{short.lower()}\b", text) and any(phrase in text for phrase in phrases)]
    if spelled:
        copy.append(nodes.paragraph("", " ".join(spelled)))
    return copy


def _index_read_text(app):
    builder = app.builder
    if getattr(builder, "index_page", None) is None:
        return
    index_page = builder.index_page

    def index_read_text(pagename, doctree, title):
        return index_page(pagename, indexed(doctree), title)

    builder.index_page = index_read_text


def _scripts(app, pagename, templatename, context, doctree):
    # inline, a few lines; it waits for the document: the theme puts searchtools.js after the page's scripts
    if pagename == "search":
        app.add_js_file(None, body=SUMMARIES, priority=900)


def setup(app):
    app.connect("builder-inited", _index_read_text)
    app.connect("html-page-context", _scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
