"""What a notebook or a page of the book sets up once, in its first cell, to show goodput's tables and charts.

:func:`setup` makes, in the running kernel, every DataFrame display as :func:`goodput.render.display.frame_html`,
every altair chart carry the loader that draws it in JupyterLab from the repository's vega
(:func:`goodput.render.live.use_renderer`), and the data of a chart made in the notebook itself pass through
:func:`goodput.core.precision.stable` (:data:`STABLE_DATA`), as goodput's own charts' data does where it is
made. Importing a module of :mod:`goodput.render` sets up none of this: only this call changes the kernel's
display.
"""

from __future__ import annotations

import altair as alt

from goodput.core.precision import stable
from goodput.render import display, live

__all__ = ["setup", "STABLE_DATA"]

#: The name of the altair data transformer :func:`setup` enables: altair's default, after
#: :func:`goodput.core.precision.stable` has rounded every float, so no chart embeds digits that another
#: CPU would compute differently.
STABLE_DATA = "goodput-stable"


def _stable_data(data=None, **kwargs):
    if data is None:
        return lambda d: alt.default_data_transformer(stable(d), **kwargs)
    return alt.default_data_transformer(stable(data), **kwargs)


def setup() -> None:
    """Set up the running kernel to show goodput's tables and charts as the book does (once is enough; again
    changes nothing)."""
    display.show_frames()
    live.use_renderer()
    if STABLE_DATA not in alt.data_transformers.names():
        alt.data_transformers.register(STABLE_DATA, _stable_data)
    alt.data_transformers.enable(STABLE_DATA)
