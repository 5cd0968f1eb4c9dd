"""Sphinx extension: the formulas are typeset when the book is built; no page loads math JavaScript.

sphinxcontrib-katex, with ``katex_prerender``, hands every math node (markdown ``$...$`` and
``$$...$$``, and the ``text/latex`` outputs of ``display(Math(...))``, which myst-nb makes math
blocks) to one long-running node process with the KaTeX the book vendors (``js-assets.json``:
``_vendor/katex/katex.min.js``, which only the build runs), and writes KaTeX's HTML into the page.
A page then needs KaTeX's style sheet and the fonts its formulas use, both under
``_static/katex/``. On top of sphinxcontrib-katex this extension:

- reads ``katex_js_path`` relative to the book (sphinxcontrib-katex reads a relative path from its
  own package folder) and says what to run when it, or node, is missing;
- fails the build on a formula KaTeX cannot typeset, naming the formula and where it is.
  sphinxcontrib-katex prerenders with ``throwOnError: false`` (KaTeX's red source text, no error)
  and does not pass ``katex_options`` to the prerenderer, so that default is changed here; the
  renderer ``goodput_katex`` (``html_math_renderer``) is sphinxcontrib-katex's, with KaTeX's error
  turned into a warning at the formula's page and line (``make book`` runs with ``-W``) and, even
  without ``-W``, a failed build;
- stops KaTeX's node server when the build ends, failed or not: sphinxcontrib-katex leaves that to
  ``atexit``, and failed builds have left it running, holding the stderr of whatever started the
  build (a caller reading that to its end then waits for ever);
- links KaTeX's style sheet and ``goodput-math.css`` only from pages that show a formula, and
  sphinxcontrib-katex's ``katex-math.css`` from none: ``goodput-math.css`` holds what the book needs
  of it, and its ``div.math`` padding would take 2.5em from a phone's column.
"""

from __future__ import annotations

import atexit
import shutil
import socket
import time
from pathlib import Path
from subprocess import PIPE, Popen

from docutils import nodes
from sphinx.errors import ConfigError
from sphinx.util import logging
from sphinxcontrib import katex

logger = logging.getLogger(__name__)

#: Style sheets only a page with a formula needs (paths under _static).
MATH_CSS = ("katex/katex.min.css", "goodput-math.css")
#: sphinxcontrib-katex's own style sheet, which no page links (see above).
UNUSED_CSS = (katex.filename_css,)


def _config_inited(app, config):
    if not config.katex_prerender:
        raise ConfigError("goodput_math: the book typesets its formulas when it is built: set katex_prerender")
    if shutil.which(katex.NODEJS_BINARY) is None:
        raise ConfigError(f"goodput_math: `{katex.NODEJS_BINARY}` is not on PATH; the build needs it to typeset "
                          "the formulas with KaTeX")
    path = Path(app.confdir, config.katex_js_path).resolve()
    if not path.is_file():
        raise ConfigError(f"goodput_math: {path} is missing: `make assets` fetches KaTeX (js-assets.json)")
    config.katex_js_path = str(path)
    # KaTeX refuses what it cannot typeset instead of printing it in red.
    katex.KATEX_DEFAULT_OPTIONS["throwOnError"] = True
    # KaTeX's node server gets 5 s to start; on a loaded machine (tests building beside a build)
    # that was seen to run out, failing the build with "Connection refused".
    katex.STARTUP_TIMEOUT = max(katex.STARTUP_TIMEOUT, 60.0)


def _refusing(render):
    """sphinxcontrib-katex's visitor ``render``, with KaTeX's refusal reported at the formula."""

    def visit(self, node):
        start = len(self.body)
        try:
            render(self, node)
        except katex.KaTeXError as error:
            del self.body[start:]
            latex = katex.get_latex(node).strip()
            logger.warning("KaTeX cannot typeset the formula `%s`: %s", latex, error, location=node,
                           type="goodput", subtype="katex")
            refused = self.builder.app.goodput_math_refused
            refused.append(latex)
            tag = "div" if isinstance(node, nodes.math_block) else "span"
            self.body.append(f'<{tag} class="math katex-error">{self.encode(latex)}</{tag}>')
            raise nodes.SkipNode from None

    return visit


def _filename(css) -> str:
    return (getattr(css, "filename", None) or str(css)).split("?")[0]


def _stylesheets(app, pagename, templatename, context, doctree):
    if "css_files" not in context:
        return
    formulas = 'class="katex' in (context.get("body") or "")
    context["css_files"] = [css for css in context["css_files"]
                            if not (_filename(css).endswith(UNUSED_CSS)
                                    or (not formulas and _filename(css).endswith(MATH_CSS)))]


def _builder_inited(app):
    app.goodput_math_refused = []


def _build_finished(app, exception):
    refused = getattr(app, "goodput_math_refused", [])
    if exception is None and refused:
        # Raising here would hide the cause behind sphinxcontrib-katex's own build-finished handler,
        # which Sphinx calls again with the exception; a status code fails the build as -W would.
        logger.error("goodput_math: KaTeX cannot typeset %d formula(s): %s", len(refused),
                     "; ".join(f"`{f}`" for f in refused))
        app.statuscode = 1


def _stop_server(app, exception):
    server = katex.KaTeXServer.katex_server
    if server is not None:
        katex.KaTeXServer.katex_server = None
        atexit.unregister(katex.KaTeXServer.terminate)  # it would remove the run folder a second time
        server.terminate()


def _start_server_process(cls, rundir, timeout):
    """sphinxcontrib-katex's start of the KaTeX server, connecting again while it is refused: node creates the
    socket file when it binds, a moment before it listens, and a connection in between is refused (a busy
    machine widens the moment; the build then failed with ConnectionRefusedError)."""
    socket_path = rundir / "katex.sock"
    process = Popen(cls.build_command(socket=socket_path), stdin=PIPE, stdout=PIPE, cwd=rundir)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    start = time.monotonic()
    while True:
        if socket_path.is_socket():
            try:
                sock.connect(str(socket_path))
                return process, sock
            except ConnectionRefusedError:
                pass  # bound, not yet listening
        if process.poll() is not None or time.monotonic() - start > timeout:
            process.kill()
            sock.close()
            if process.returncode not in (None, -9):
                raise RuntimeError(f"the KaTeX server exited with status {process.returncode} before it listened")
            raise katex.KaTeXServer.timeout_error(timeout)
        time.sleep(0.005)


katex.KaTeXServer.start_server_process = classmethod(_start_server_process)


def setup(app):
    app.setup_extension("sphinxcontrib.katex")
    app.add_html_math_renderer(
        "goodput_katex",
        inline_renderers=(_refusing(katex.html_visit_math), None),
        block_renderers=(_refusing(katex.html_visit_displaymath), None),
    )
    app.connect("config-inited", _config_inited)
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _stylesheets, priority=900)
    app.connect("build-finished", _build_finished, priority=900)
    app.connect("build-finished", _stop_server, priority=950)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
