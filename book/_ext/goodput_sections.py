"""Sphinx extension: the headings in a code cell's Markdown output become sections of the page.

myst-nb renders a heading that a cell's output prints as a rubric, a heading outside the page's
outline: a generated page (the sources page, one heading per document and per log) would show none
of them in the page's contents. A cell tagged ``output-sections`` hands its Markdown output to the
page instead: the output's nodes take the cell's place, and each heading opens a section at its
level, closing the open sections of its level and below, as a heading written in the page would.
What follows such a cell (more text, another cell, a section written in the page) goes on in the
last section opened, or where its own heading puts it. A ``(label)=`` target before a heading
labels the section, so ``{ref}`` and ``page.html#label`` find it.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.transforms import SphinxTransform

TAG = "output-sections"


def _tagged(node: nodes.Node) -> bool:
    return (isinstance(node, nodes.container) and node.get("nb_element") == "cell_code"
            and TAG in node.get("cell_metadata", {}).get("tags", []))


def _markdown_output(cell: nodes.container) -> list[nodes.Node]:
    """The cell's nodes with each output shown as its Markdown (the other renderings of it dropped)."""
    out = []
    for part in cell.children:
        if part.get("nb_element") != "cell_code_output":
            out.append(part)  # the cell's input, where it is shown
            continue
        for output in part.children:
            markdown = [m for m in output.children if m.get("mime_type") == "text/markdown"] \
                if output.get("nb_element") == "mime_bundle" else []
            out.extend(markdown[0].children if markdown else [output])
    return out


def _depth(section: nodes.section) -> int:
    depth, node = 0, section
    while isinstance(node, nodes.section):
        depth, node = depth + 1, node.parent
    return depth


class OutputSections(SphinxTransform):
    """Rebuild each section that holds a tagged cell: its body in order, the output's headings opening
    sections. Runs before docutils' PropagateTargets (260), so a target before a heading is then moved
    onto the section, as in a page written by hand."""

    default_priority = 210

    def apply(self, **kwargs) -> None:
        for section in list(self.document.findall(nodes.section)):
            if any(_tagged(child) for child in section.children):
                self._rebuild(section)

    def _rebuild(self, section: nodes.section) -> None:
        body = section.children[1:]  # after its title
        del section[1:]
        open_sections = [(_depth(section), section)]
        for child in body:
            for node in (_markdown_output(child) if _tagged(child) else [child]):
                if isinstance(node, nodes.rubric) and "level" in node:
                    level = max(node["level"], open_sections[0][0] + 1)  # never above the cell's section
                    new = nodes.section("", nodes.title("", "", *node.children), ids=node["ids"],
                                        names=node["names"], classes=node["classes"])
                    new.source, new.line = node.source, node.line
                    for id_ in node["ids"]:
                        self.document.ids[id_] = new
                elif isinstance(node, nodes.section):
                    level, new = open_sections[0][0] + 1, node  # a section written in the page
                else:
                    open_sections[-1][1].append(node)
                    continue
                while open_sections[-1][0] >= level:
                    open_sections.pop()
                open_sections[-1][1].append(new)
                open_sections.append((level, new))


def setup(app):
    app.add_transform(OutputSections)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
