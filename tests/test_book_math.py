"""The book's formulas, typeset when it is built (KaTeX, book/_ext/goodput_math.py).

Every formula a page's source holds (markdown ``$...$`` and ``$$...$$``, and notebook outputs of
``display(Math(...))``) is static KaTeX HTML in the built page, with no TeX left over; no page loads
MathJax or any other math script; only pages with a formula link KaTeX's style sheet, which the
book serves itself with its fonts; a display formula too wide for a phone scrolls inside the
column; a formula KaTeX cannot typeset fails the build and is named.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser import WIDTHS, errors, opened
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
KATEX = ROOT / "_vendor" / "katex"

PAGES = sorted(str(p.relative_to(HTML)) for p in HTML.rglob("*.html")
               if "_static" not in p.parts and "_sources" not in p.parts)

# What myst parses as math in markdown: its dollarmath plugin (Jupyter Book's default options).
_MARKDOWN = MarkdownIt("commonmark").enable("table").use(dollarmath_plugin)
# Notebook outputs myst-nb shows in place of a text/latex one (its priority for HTML).
_BEFORE_LATEX = ("text/html", "image/svg+xml", "image/png", "image/jpeg", "text/markdown")
# TeX the reader would see as source: a formula that was not typeset.
_RAW_TEX = re.compile(r"\$\$|\\begin\{|\\end\{|\\\(|\\\)|\\\[|\\\]"
                      r"|\\(frac|left|right|mathrm|operatorname|displaystyle|text|quad)\b")
# A script that typesets math (MathJax, KaTeX or its auto-render) or configures it.
_MATH_SCRIPT = re.compile(r"mathjax|katex|tex-(mml-)?(chtml|svg)|auto-render", re.I)


def _markdown_formulas(text: str) -> int:
    def count(tokens):
        return sum(t.type.startswith("math_") + count(t.children or []) for t in tokens)

    return count(_MARKDOWN.parse(text))


def _source(page: str) -> Path | None:
    """The notebook or markdown file ``page`` was built from (None for Sphinx's own pages)."""
    for suffix in (".ipynb", ".md"):
        path = ROOT / page.removesuffix(".html")
        if path.with_suffix(suffix).is_file():
            return path.with_suffix(suffix)
    return None


def formulas_in_source(path: Path | None) -> dict[str, int]:
    """The formulas the source of a page holds, counted from the source itself: in its markdown,
    and as notebook outputs (``display(Math(...))``)."""
    found = {"markdown": 0, "outputs": 0}
    if path is None:
        return found
    if path.suffix == ".md":
        found["markdown"] = _markdown_formulas(path.read_text(encoding="utf-8"))
        return found
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            found["markdown"] += _markdown_formulas("".join(cell["source"]))
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/latex" in data and not any(m in data for m in _BEFORE_LATEX):
                found["outputs"] += 1
            elif "text/markdown" in data and "text/html" not in data:
                found["outputs"] += _markdown_formulas("".join(data["text/markdown"]))
    return found


class _TextOutsideFormulas(HTMLParser):
    """The page's text outside KaTeX's formulas and outside code, scripts and styles (which show
    source as it was typed); also every style sheet it links."""

    SKIP = {"script", "style", "pre", "code", "textarea", "math"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.text, self.stylesheets = [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and "stylesheet" in (a.get("rel") or ""):
            self.stylesheets.append(a.get("href", "").split("?")[0])
        if tag in self.VOID:
            return
        classes = (a.get("class") or "").split()
        self.open.append((tag, tag in self.SKIP or "katex" in classes or "katex-display" in classes))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                return

    def handle_data(self, data):
        if not any(skip for _, skip in self.open):
            self.text.append(data)


def test_the_sources_have_formulas_of_both_kinds_to_typeset():
    counted = {page: formulas_in_source(_source(page)) for page in PAGES}
    assert sum(c["markdown"] for c in counted.values()) >= 50
    assert sum(c["outputs"] for c in counted.values()) >= 30
    assert all(counted[p]["markdown"] and counted[p]["outputs"] for p in ("notebooks/pcie-packets.html",
                                                                         "notebooks/spi.html"))


@pytest.mark.parametrize("page", PAGES)
def test_every_formula_of_a_page_is_static_katex_html(page):
    text = (HTML / page).read_text(encoding="utf-8")
    want = sum(formulas_in_source(_source(page)).values())
    assert text.count('class="katex"') == want, "formulas in the source vs KaTeX formulas in the page"
    assert "katex-error" not in text, "a formula KaTeX showed as an error"
    parser = _TextOutsideFormulas()
    parser.feed(text)
    outside = "".join(parser.text)
    raw = [outside[max(0, m.start() - 30):m.end() + 30] for m in _RAW_TEX.finditer(outside)]
    assert raw == [], "TeX shown as text, not typeset"
    katex_css = [s for s in parser.stylesheets if s.endswith("_static/katex/katex.min.css")]
    math_css = [s for s in parser.stylesheets if s.endswith("_static/goodput-math.css")]
    if want:
        assert len(katex_css) == 1 and len(math_css) == 1
        assert (HTML / page).parent.joinpath(katex_css[0]).resolve() == HTML / "_static" / "katex" / "katex.min.css"
    else:
        assert katex_css == [] and math_css == [], "a page without a formula links the math style sheets"
    assert not any(s.endswith("katex-math.css") for s in parser.stylesheets)


@pytest.mark.parametrize("page", PAGES)
def test_no_page_loads_mathjax_or_any_math_script(page):
    text = (HTML / page).read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", text)
    assert [s for s in scripts if _MATH_SCRIPT.search(s)] == []
    assert not re.search(r"MathJax|mjx-|katex\.render|renderMathInElement", text)


def test_the_math_style_sheet_and_its_fonts_are_the_books_own():
    css = HTML / "_static" / "katex" / "katex.min.css"
    fonts = re.findall(r"url\((fonts/[^)]+\.woff2)\)", css.read_text(encoding="utf-8"))
    assert len(fonts) >= 19
    assert [f for f in fonts if not (css.parent / f).is_file()] == []
    # The browser takes the first source a @font-face lists that it can read: woff2, which is vendored.
    assert all(block.index(".woff2") < block.index(".woff)")
               for block in re.findall(r"@font-face\{[^}]*\}", css.read_text(encoding="utf-8")))
    # KaTeX itself runs only in the build; no page could load it.
    assert (KATEX / "katex.min.js").is_file() and not (HTML / "_static" / "katex" / "katex.min.js").exists()


def test_a_display_formula_too_wide_for_a_phone_scrolls_inside_the_column(browser, book_url):
    with opened(browser, book_url + "notebooks/pcie-packets.html", viewport=WIDTHS["390px"]) as (page, log):
        got = page.evaluate("""() => {
          const display = document.querySelector('div.math .katex-display');
          const html = display.querySelector('.katex-html');
          for (const part of [...html.children]) for (let i = 0; i < 3; i++) html.appendChild(part.cloneNode(true));
          const column = document.querySelector('article.bd-article').getBoundingClientRect();
          const r = display.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(html);
          return {left: r.left - column.left, right: column.right - r.right, formula: range.getBoundingClientRect().width,
                  column: column.width, scrolls: display.scrollWidth > display.clientWidth + 1,
                  page: document.documentElement.scrollWidth - document.documentElement.clientWidth};
        }""")
        assert got["formula"] > got["column"], "the formula was not made too wide"
        assert got["left"] >= -1 and got["right"] >= -1, got
        assert got["scrolls"] and got["page"] <= 0, got
        assert errors(log) == []


def _build(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    """A one-page Sphinx project with the book's math extension and ``body`` as its page."""
    if not (KATEX / "katex.min.js").is_file():
        pytest.fail("_vendor/katex is missing: run `make book` (make test does)")
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(textwrap.dedent(f"""\
        import sys
        sys.path.insert(0, {str(ROOT / "book" / "_ext")!r})
        extensions = ["goodput_math"]
        html_math_renderer = "goodput_katex"
        katex_prerender = True
        katex_js_path = {str(KATEX / "katex.min.js")!r}
        katex_css_path = "katex/katex.min.css"
        """))
    (src / "index.rst").write_text(body)
    # The output goes to files, not pipes: a process the build leaves behind holding them (a KaTeX
    # server, see goodput_math._stop_server) cannot keep this waiting for their end.
    with open(tmp_path / "stdout", "w+") as out, open(tmp_path / "stderr", "w+") as err:
        done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(src), str(tmp_path / "out")],
                              stdout=out, stderr=err, text=True, timeout=120)
        out.seek(0), err.seek(0)
        return subprocess.CompletedProcess(done.args, done.returncode, out.read(), err.read())


@pytest.mark.slow
def test_the_book_s_kinds_of_formula_typeset_in_a_small_build(tmp_path):
    done = _build(tmp_path, textwrap.dedent(r"""
        Inline :math:`N_{\mathrm{ack}}` and a block:

        .. math::

           \begin{aligned}
           G &= \frac{B S \left(1 - \sigma\right)}{u_{1}} \\
           &\text{where} \\
           u_{1} &= 2 D \left\lceil{\frac{S}{\mathrm{MPS}}}\right\rceil \quad + \operatorname{x} + \min(a, b)
           + \max(c, d) + \begin{cases} 4 & \text{for}\: H + P > 80 \\2 & \text{otherwise} \end{cases}
           \end{aligned}
        """))
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="katex"') == 2 and 'class="katex-display"' in page and "katex-error" not in page
    assert "_static/katex/katex.min.css" in page


@pytest.mark.slow
def test_a_formula_katex_cannot_typeset_fails_the_build_and_is_named(tmp_path):
    done = _build(tmp_path, "Fine :math:`\\frac{a}{b}`, then a refusal:\n\n.. math:: \\notacommand{x} + 1\n")
    assert done.returncode != 0
    assert "\\notacommand{x} + 1" in done.stderr and "index.rst:3" in done.stderr, done.stderr
