"""Sphinx extension: the style sheets every page loads keep only the rules the book can use, and the
icon font only the icons they draw.

The themes (pydata-sphinx-theme with Bootstrap and Font Awesome inside, sphinx-book-theme,
sphinx-design, myst-nb, Sphinx's own) ship style sheets for every component and every icon they
know: about 600 KB a page, most of it for elements no page of this book has. When the build ends,
each of those style sheets in the built site (``_static``) is written again with the rules whose
selectors could match nothing left out, the way PurgeCSS decides it:

- a selector is kept when every class, id, element name and attribute it requires (the state it
  stands for in ``:hover``, ``:not(...)``, ``::before`` and the like left aside) is a word of the
  book: an element, class, id or attribute of a built page, or a word of a script the pages load
  (the theme's scripts add classes such as ``show`` and attributes such as ``data-theme`` when a
  reader opens a menu or changes the theme; their words are kept, so are the rules for them);
- a rule is kept with its kept selectors; an at-rule (``@media``, ``@supports``) with its kept
  rules; ``@font-face``, ``@keyframes`` and the like are kept as they are.

Font Awesome's solid font (156 KB) is then cut to the icons the kept rules draw (a ``content`` of a
private-use character, the theme's ``--pst-icon-*`` variables included), written as WOFF under a
name that says which icons it holds, and the style sheet points to it. Its other fonts (regular,
brands) no page draws from; they are left as they are, and no page loads them.

The result depends only on the built pages, the scripts and the theme's files, so the same build
gives the same files; it is cached under ``_build/.goodput-lean`` by the digest of what it read.
The book's own style sheets (``goodput-*.css``) and KaTeX's are not touched.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path

import tinycss2

#: The style sheets trimmed, by their path under ``_static`` (a glob).
SHEETS = ("styles/pydata-sphinx-theme.css", "styles/sphinx-book-theme.css", "sphinx-design.min.css",
          "mystnb.*.css", "basic.css", "togglebutton.css", "copybutton.css", "sphinx-thebe.css", "pygments.css")
#: Scripts whose words are not the book's: the chart libraries (they style what they draw themselves).
FOREIGN_SCRIPTS = ("vega/", "katex/")
#: Font Awesome's solid font, as the theme's style sheet names it from ``styles/``.
SOLID_FONT = "vendor/fontawesome/webfonts/fa-solid-900"
#: Bumped when what this module writes changes, so the cache does not hand back an older result.
VERSION = "2"

_TAG = re.compile(r"<([a-zA-Z][\w-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
_ATTR = re.compile(r"([^\s=/>\"']+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+))?")
_WORD = re.compile(r"[A-Za-z_][\w-]*")
_SRC = re.compile(r"<script[^>]*\ssrc=\"([^\"?]+)")
# pseudo-classes whose argument is a selector that need not match anything for the rule to apply
_FUNCTIONAL = re.compile(r"::?(?:not|is|where|has|matches|-webkit-any|-moz-any|host|host-context|nth-[\w-]+)\(")
_CLASS = re.compile(r"\.((?:[\w-]|\\.)+)")
_ID = re.compile(r"#((?:[\w-]|\\.)+)")
_ATTRIBUTE = re.compile(r"\[\s*([\w-]+)\s*(?:([~|^$*]?)=\s*(\"[^\"]*\"|'[^']*'|[^\]\s]+)\s*(?:[is]\s*)?)?\]")
_ELEMENT = re.compile(r"(?:^|(?<=[\s>+~(,]))([a-zA-Z][\w-]*)")
_PSEUDO = re.compile(r"::?[\w-]+")
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?")


def page_words(html: str, words: set[str]) -> None:
    """Add to ``words`` every element name, attribute name, class, id and attribute value of ``html``."""
    for tag, attrs in _TAG.findall(html):
        words.add(tag.lower())
        for name, value in _ATTR.findall(attrs):
            words.add(name.lower())
            if value:
                value = value.strip("\"'")
                words.add(value)
                words.update(value.split())


def script_words(text: str, words: set[str]) -> None:
    """Add to ``words`` every word of a script: the classes and attributes it may set, and the names
    of ``dataset`` properties as the attributes they stand for (``dataset.theme`` is ``data-theme``)."""
    for word in _WORD.findall(text):
        words.add(word)
        words.add("data-" + re.sub(r"[A-Z]", lambda m: "-" + m.group().lower(), word))


def _strip_functional(selector: str) -> str:
    """``selector`` without the arguments of :not(), :is(), :has() and the like (balanced parentheses)."""
    while True:
        match = _FUNCTIONAL.search(selector)
        if not match:
            return selector
        depth, end = 1, match.end()
        while end < len(selector) and depth:
            depth += {"(": 1, ")": -1}.get(selector[end], 0)
            end += 1
        selector = selector[:match.start()] + selector[end:]


def _unescape(name: str) -> str:
    name = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), name)
    return re.sub(r"\\(.)", r"\1", name)


def selector_used(selector: str, words: set[str]) -> bool:
    """Whether every class, id, element and attribute ``selector`` requires is one of ``words``."""
    text = _strip_functional(selector)
    needed = [_unescape(c) for c in _CLASS.findall(text)] + [_unescape(i) for i in _ID.findall(text)]
    for name, operator, value in _ATTRIBUTE.findall(text):
        needed.append(name.lower())
        if value and operator in ("", "~"):  # [class^=toctree-l] matches toctree-l1: only a whole value is a word
            needed.append(value.strip("\"'"))
    bare = _PSEUDO.sub(" ", _ATTRIBUTE.sub(" ", _ID.sub(" ", _CLASS.sub(" ", text))))
    needed += [e.lower() for e in _ELEMENT.findall(bare)]
    return all(n in words for n in needed)


def _split_selectors(prelude: str) -> list[str]:
    """A selector list split at its top-level commas."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(prelude):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(prelude[start:i].strip())
            start = i + 1
    out.append(prelude[start:].strip())
    return [s for s in out if s]


def _trim_rules(nodes, words: set[str]) -> str:
    out = []
    for node in nodes:
        if node.type == "qualified-rule":
            kept = [s for s in _split_selectors(tinycss2.serialize(node.prelude)) if selector_used(s, words)]
            if kept:
                out.append(",".join(kept) + "{" + tinycss2.serialize(node.content).strip() + "}")
        elif node.type == "at-rule":
            keyword = node.lower_at_keyword
            if keyword in ("media", "supports", "layer", "container", "document") and node.content is not None:
                inner = _trim_rules(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True),
                                    words)
                if inner:
                    out.append(f"@{node.at_keyword} {tinycss2.serialize(node.prelude).strip()}{{{inner}}}")
            else:
                out.append(tinycss2.serialize([node]).strip())
    return "".join(out)


def trim_css(css: str, words: set[str]) -> str:
    """``css`` with only the rules (and selectors) that :func:`selector_used` keeps."""
    nodes = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    return _trim_rules(nodes, words) + "\n"


def icon_codepoints(css: str) -> set[int]:
    """The private-use characters ``css`` writes in a string (a glyph of an icon font)."""
    points = set()
    for string in re.findall(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", css):
        for ch in _unescape(string[1:-1]):
            if 0xE000 <= ord(ch) <= 0xF8FF or ord(ch) >= 0xF0000:
                points.add(ord(ch))
    return points


def subset_font(ttf: Path, codepoints: set[int]) -> bytes:
    """The glyphs of ``codepoints`` from the TrueType font ``ttf``, as a WOFF file."""
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    font = subset.load_font(str(ttf), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    buffer = io.BytesIO()
    font.flavor = "woff"
    font.save(buffer)
    return buffer.getvalue()


def book_words(outdir: Path) -> set[str]:
    """The words of every built page and of every script they load (but the chart libraries')."""
    words: set[str] = set()
    scripts: set[Path] = set()
    for page in outdir.rglob("*.html"):
        if "_static" in page.parts or "_sources" in page.parts:
            continue
        text = page.read_text(encoding="utf-8")
        page_words(text, words)
        for src in _SRC.findall(text):
            path = (page.parent / src).resolve()
            if path.is_file() and not any(f"/_static/{f}" in path.as_posix() for f in FOREIGN_SCRIPTS):
                scripts.add(path)
        for inline in re.findall(r"<script(?![^>]*\ssrc=)[^>]*>(.*?)</script>", text, flags=re.S):
            script_words(inline, words)
    for script in sorted(scripts):
        script_words(script.read_text(encoding="utf-8", errors="replace"), words)
    return words


def _solid_font_face(css: str, static: Path, cache: Path) -> str:
    """``css`` (the theme's sheet) with the solid icon font cut to the icons it draws."""
    ttf = static / (SOLID_FONT + ".ttf")
    face = re.search(r"@font-face\{[^}]*" + re.escape(SOLID_FONT) + r"\.woff2[^}]*\}", css)
    if face is None or not ttf.is_file():
        return css
    points = icon_codepoints(css)
    key = hashlib.sha256(ttf.read_bytes() + json.dumps(sorted(points)).encode() + VERSION.encode()).hexdigest()[:16]
    name = f"{SOLID_FONT}-{key}.woff"
    cached = cache / Path(name).name
    if not cached.is_file():
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_bytes(subset_font(ttf, points))
    (static / name).write_bytes(cached.read_bytes())
    src = re.search(r"src:[^;}]*", face.group()).group()
    lean_face = face.group().replace(src, f'src:url(../{name}) format("woff")')
    return css.replace(face.group(), lean_face)


def trim_site(outdir: Path, cache: Path) -> dict[str, tuple[int, int]]:
    """Trim every style sheet of :data:`SHEETS` in the site at ``outdir``: {sheet: (bytes before, after)}."""
    static = outdir / "_static"
    words = book_words(outdir)
    digest = hashlib.sha256(("\n".join(sorted(words)) + VERSION).encode()).hexdigest()
    sizes = {}
    for pattern in SHEETS:
        for sheet in sorted(static.glob(pattern)):
            css = sheet.read_text(encoding="utf-8")
            if css.startswith("/* trimmed by goodput_lean"):
                continue  # written by an earlier build and not copied again
            key = hashlib.sha256((css + digest).encode()).hexdigest()
            cached = cache / f"{key}.css"
            if cached.is_file():
                lean = cached.read_text(encoding="utf-8")
            else:
                lean = "/* trimmed by goodput_lean: the rules no page of the book can use are left out */\n"
                lean += trim_css(css, words)
                cache.mkdir(parents=True, exist_ok=True)
                cached.write_text(lean, encoding="utf-8")
            if sheet.name == "pydata-sphinx-theme.css":
                lean = _solid_font_face(lean, static, cache)
            sheet.write_text(lean, encoding="utf-8")
            sizes[str(sheet.relative_to(static))] = (len(css.encode()), len(lean.encode()))
    return sizes


def _trim(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    trim_site(Path(app.outdir), Path(app.outdir).parent / ".goodput-lean")


def setup(app):
    app.connect("build-finished", _trim)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
