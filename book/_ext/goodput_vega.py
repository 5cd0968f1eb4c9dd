"""Sphinx extension: each chart goes into its page compiled to Vega, so no page loads Vega-Lite.

altair writes a chart as a Vega-Lite spec that the page compiles to Vega with vega-lite (250 KB of
script) before it draws anything. Vega-Lite stays the charts' source (the notebooks keep altair's
output, and JupyterLab draws it as before); the book compiles each spec once, at build time, with the
vendored vega-lite run by Node (``goodput_vega.js``), and the page's call of ``vegaEmbed`` gets the
Vega spec and ``mode: "vega"``.

What the page's script (``book/_static/goodput-live.js``) does to every chart whatever the page's
state is done before the compile: sized to its column, altair's sliders left out for the figure's
controls, the text sizes and the light theme. What depends on the page is left to the script, on the
Vega spec: the state's values (its signals and a list of links' rows), a title wrapped to the column,
a phone's legend, and the dark theme, which the build hands over as the few changes that turn the
light compile into the dark one (``goodput`` in the embed options, with whether the chart is one view).

Each compile is cached under ``_build/.goodput-vega`` by the digest of the spec, what the figure
gives it, vega-lite and the theme, so a build compiles only new charts.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import math
import re
import subprocess
from pathlib import Path

from sphinx.errors import ExtensionError

HERE = Path(__file__).resolve().parent
COMPILER = HERE / "goodput_vega.js"
#: Where altair's script calls its embedding function with the spec, and the options after it.
CALL = "})({"
VEGA_LITE_OPTIONS = ', {"mode": "vega-lite"});'
FIGURE_CHART = '<div class="goodput-chart">'
FIGURE_SPEC = 'class="goodput-live-spec">'
NAN = "__goodput_NaN__"
_INFINITE = {"__goodput_Infinity__": math.inf, "__goodput_-Infinity__": -math.inf}


def _to_json(value):
    """``value`` with each non-finite float as a string JSON can carry (Node's JSON has no NaN)."""
    if isinstance(value, float) and not math.isfinite(value):
        return NAN if math.isnan(value) else f"__goodput_{'-' if value < 0 else ''}Infinity__"
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    return value


def _from_json(value):
    if isinstance(value, str):
        return math.nan if value == NAN else _INFINITE.get(value, value)
    if isinstance(value, dict):
        return {k: _from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


class Compiler:
    """One Node process compiling chart after chart, started at the first chart of the build."""

    def __init__(self, vendor: Path, live_script: Path, cache: Path):
        self.vendor, self.live_script, self.cache = vendor, live_script, cache
        self.process = None
        theme = re.search(r"// --- the charts' theme.*?// --- end of the charts' theme ---",
                          live_script.read_text(encoding="utf-8"), flags=re.S)
        if theme is None:
            raise ExtensionError(f"goodput_vega: {live_script} has no block between the charts' theme markers")
        digest = hashlib.sha256()
        for part in (COMPILER.read_bytes(), (vendor / "vega-lite.min.js").read_bytes(), theme.group().encode()):
            digest.update(hashlib.sha256(part).digest())
        self.tools = digest.hexdigest()

    def compile(self, request: dict) -> dict:
        line = json.dumps(_to_json(request), sort_keys=True, allow_nan=False, separators=(",", ":"))
        key = hashlib.sha256((self.tools + line).encode()).hexdigest()
        cached = self.cache / key[:2] / f"{key}.json"
        if cached.is_file():
            return _from_json(json.loads(cached.read_text(encoding="utf-8")))
        if self.process is None:
            self.process = subprocess.Popen(["node", str(COMPILER), str(self.vendor), str(self.live_script)],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")
            atexit.register(self.close)
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise ExtensionError(f"goodput_vega: {COMPILER.name} stopped (exit status {self.process.poll()})")
        out = json.loads(answer)
        if "error" in out:
            raise ExtensionError(f"goodput_vega: a chart did not compile: {out['error']}")
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(answer, encoding="utf-8")
        return _from_json(out)

    def close(self):
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait()
            self.process = None


def _figure_request(body: str, at: int) -> dict:
    """What the live figure holding the chart whose spec starts at ``at`` gives it: the signals its controls
    set (altair's sliders go) and each list of links' dataset with the columns the page spreads."""
    chart = body.rfind(FIGURE_CHART, 0, at)
    if chart < 0 or body.rfind("</script>", chart, at) >= 0:
        return {}
    spec_at = body.rfind(FIGURE_SPEC, 0, chart)
    figure, _ = json.JSONDecoder().raw_decode(body, spec_at + len(FIGURE_SPEC))
    controls = figure["controls"]
    spread = {c["dataset"]: [k for k, v in (c.get("extra") or {}).items() if isinstance(v, list)]
              for c in controls if c.get("kind") == "links"}
    return {"params": [c["signal"] for c in controls if c.get("signal")], "spread": spread}


def compiled_body(body: str, compiler: Compiler) -> str:
    """``body`` with every altair chart's Vega-Lite spec replaced by its Vega compile."""
    out, done = [], 0
    decoder = json.JSONDecoder()
    while (start := body.find(CALL, done)) >= 0:
        spec_at = start + len(CALL) - 1
        spec, end = decoder.raw_decode(body, spec_at)
        if not body.startswith(VEGA_LITE_OPTIONS, end):
            out.append(body[done:end])
            done = end
            continue
        answer = compiler.compile({"spec": spec, **_figure_request(body, spec_at)})
        options = {"mode": "vega", "goodput": {key: answer[key] for key in ("single", "titleString", "encoding", "dark")}}
        text = json.dumps(answer["vega"], separators=(",", ":"))
        out.append(body[done:spec_at] + text.replace("</", "<\\/") + ", "
                   + json.dumps(options, separators=(",", ":")).replace("</", "<\\/") + ");")
        done = end + len(VEGA_LITE_OPTIONS)
    out.append(body[done:])
    return "".join(out)


def _compile(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if not body or VEGA_LITE_OPTIONS not in body:
        return
    if not hasattr(app, "goodput_vega"):
        root = Path(app.confdir)
        app.goodput_vega = Compiler(root / "_vendor" / "vega", root / "book" / "_static" / "goodput-live.js",
                                    Path(app.outdir).parent / ".goodput-vega")
    context["body"] = compiled_body(body, app.goodput_vega)


def _close(app, exception):
    if hasattr(app, "goodput_vega"):
        app.goodput_vega.close()


def setup(app):
    app.connect("html-page-context", _compile, priority=800)
    app.connect("build-finished", _close)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
