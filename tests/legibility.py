"""What a reader can read: the contrast of every visible text on a page, as WCAG 2.2 measures it.

:data:`CONTRAST_SWEEP` runs in the page. For every text node a reader can see it takes its element's
colour (its alpha and the opacity of every ancestor blended in) against the element's effective
background: the background colours of the element and its ancestors, composited from the first opaque
one upward (the page's canvas colour below them all). For every text a chart draws (a text mark, an axis
label or title, a legend's labels: vega's scenegraph, whichever renderer drew it) it takes the item's fill
against the chart's background, or the effective background of the chart's element where the chart has
none. Each text whose ratio falls below AA (4.5:1; 3:1 for large text, 24 px or 18.66 px bold) is a
violation; so is chart text under 12 px, and a button, select or input of the text column under 13 px.
"""

from __future__ import annotations

#: In the page: ``() => [{where, text, color, background, ratio, need}]``, the violations.
CONTRAST_SWEEP = r"""
() => {
  const parse = (css) => {
    const m = /rgba?\(([^)]+)\)/.exec(css || "");
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  // a colour vega was given in any CSS form, through the browser's own parser
  const probe = document.createElement("span");
  document.body.append(probe);
  const cssColor = (any) => {
    probe.style.color = "";
    probe.style.color = String(any);
    return parse(getComputedStyle(probe).color);
  };
  const over = (top, below) => {
    const a = top.a + below.a * (1 - top.a);
    if (a === 0) return {r: 0, g: 0, b: 0, a: 0};
    const mix = k => (top[k] * top.a + below[k] * below.a * (1 - top.a)) / a;
    return {r: mix("r"), g: mix("g"), b: mix("b"), a};
  };
  const lum = (c) => {
    const lin = v => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const canvas = () => {
    const root = parse(getComputedStyle(document.documentElement).backgroundColor);
    const body = parse(getComputedStyle(document.body).backgroundColor);
    let c = {r: 255, g: 255, b: 255, a: 1};
    if (root && root.a) c = over(root, c);
    if (body && body.a) c = over(body, c);
    return c;
  };
  const page = canvas();
  // each element's effective background and opacity, kept once worked out: its texts and its descendants'
  // share them (the sweep reads a page that does not change while it runs)
  const backgrounds = new Map(), opacities = new Map();
  const backgroundOf = (el) => {
    if (!el || el.nodeType !== 1) return page;
    if (!backgrounds.has(el)) {
      const c = parse(getComputedStyle(el).backgroundColor);
      backgrounds.set(el, c && c.a >= 1 ? over(c, page) : c && c.a > 0 ? over(c, backgroundOf(el.parentElement))
                                                                       : backgroundOf(el.parentElement));
    }
    return backgrounds.get(el);
  };
  const opacityOf = (el) => {
    if (!el || el.nodeType !== 1) return 1;
    if (!opacities.has(el)) opacities.set(el, Number(getComputedStyle(el).opacity) * opacityOf(el.parentElement));
    return opacities.get(el);
  };
  const name = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && parts.length < 4; e = e.parentElement) {
      parts.unshift(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
                    + (e.classList.length ? "." + [...e.classList].slice(0, 2).join(".") : ""));
    }
    return parts.join(" > ");
  };
  const width = document.documentElement.scrollWidth;
  const out = [];
  // where: a function that names the text's place, called only for a violation
  const judge = (where, text, fg, bg, px, bold) => {
    const large = px >= 24 || (px >= 18.66 && bold);
    const need = large ? 3 : 4.5;
    const r = ratio(over(fg, bg), bg);
    if (r < need - 0.005) out.push({where: where(), text: text.slice(0, 60), color: fg, background: bg,
                                    ratio: Math.round(r * 100) / 100, need});
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || seen.has(el) || !node.textContent.trim()) continue;
    seen.add(el);
    if (el.closest("script, style, noscript, template, svg, .goodput-offscreen")) continue;
    if (el.closest(":disabled")) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== "visible" || style.display === "none") continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 1 && r.height > 1);
    // not drawn, drawn outside the page (a closed drawer, a visually hidden heading), or clipped to a dot
    if (!rects.length || rects.every(r => r.right + window.scrollX <= 0 || r.left + window.scrollX >= width)) continue;
    if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") continue;
    const fg = parse(style.color);
    if (!fg) continue;
    fg.a *= opacityOf(el);
    judge(() => name(el), node.textContent.trim(), fg, backgroundOf(el), parseFloat(style.fontSize),
          Number(style.fontWeight) >= 700);
  }
  // a control a reader operates is set in 13 px at least
  for (const el of document.querySelectorAll("article.bd-article button, article.bd-article select, article.bd-article input")) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility !== "visible") continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 13 - 0.01) out.push({where: name(el), text: (el.textContent || el.value || "").trim().slice(0, 60), fontSize: px, need: "13 px"});
  }
  for (const view of window.__views || []) {
    const host = view.container();
    if (!host || !host.isConnected || !host.getClientRects().length) continue;
    const given = view.background();
    const bg = given && cssColor(given) && cssColor(given).a > 0 ? over(cssColor(given), backgroundOf(host)) : backgroundOf(host);
    const walk = (node) => {
      for (const item of (node && node.items) || []) {
        if (node.marktype === "text" && item.text !== undefined && item.text !== null && String(item.text).trim()
            && (item.opacity === undefined || item.opacity > 0) && item.fill !== "transparent") {
          const fg = cssColor(item.fill || "#000");
          if (fg) {
            fg.a *= (item.opacity === undefined ? 1 : item.opacity) * (item.fillOpacity === undefined ? 1 : item.fillOpacity);
            const px = item.fontSize || 11;
            const text = Array.isArray(item.text) ? item.text.join(" ") : String(item.text);
            judge(() => `chart in ${name(host)} (${node.role || "text"})`, text, fg, bg, px, String(item.fontWeight) === "bold");
            if (px < 12) out.push({where: `chart in ${name(host)} (${node.role || "text"})`, text: text.slice(0, 60),
                                   fontSize: px, need: "12 px"});
          }
        }
        walk(item);
      }
    };
    walk(view.scenegraph().root);
  }
  probe.remove();
  return out;
}
"""
