"""The heatmap layer: exposure counts as coloured cells, with a colour bar in the legend.

Pure: :func:`heat_extras` turns a :class:`~skirmish.analysis.heatmap.Heatmap` into an
``Extras`` (world primitives under the models, legend rows) for ``RenderRequest.layers``
and the interactive viewer.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from ..analysis.heatmap import Heatmap
from . import palette as P
from .overlays import Extras
from .palette import Color
from .scene import Fill, LegendItem, Prim

#: Ramp from unseen (green) through yellow to seen by many (red); alpha lets the table show.
RAMP: tuple[Color, ...] = ((26, 150, 65, 170), (166, 217, 106, 170), (255, 230, 100, 175), (253, 174, 97, 180),
                           (240, 80, 50, 185), (165, 0, 38, 190))


def heat_color(value: float, top: float) -> Color:
    """The colour of ``value`` on a ramp whose last stop is ``top`` (0 is always green).

    >>> heat_color(0, 10) == RAMP[0], heat_color(10, 10) == RAMP[-1]
    (True, True)
    """
    if top <= 0:
        return RAMP[0]
    t = min(1.0, max(0.0, value / top)) * (len(RAMP) - 1)
    k = min(int(t), len(RAMP) - 2)
    return P.mix(RAMP[k], RAMP[k + 1], t - k)


def heat_prims(hm: Heatmap, which: str = "exposure") -> list[Prim]:
    """One fill per count: the cells (step × step squares) with that count."""
    a = hm.array(which)
    top = max(1, len(hm.enemies))
    half = hm.step / 2
    cells: dict[int, list[np.ndarray]] = defaultdict(list)
    for iy, y in enumerate(hm.ys):
        for ix, x in enumerate(hm.xs):
            v = a[iy, ix]
            if v == v:  # not NaN
                c = np.array([(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)])
                cells[int(v)].append(np.array([[c[0], c[1], c[2]], [c[0], c[2], c[3]]]))
    return [Fill(np.concatenate(tris), heat_color(v, top)) for v, tris in sorted(cells.items())]


def heat_legend(hm: Heatmap, which: str = "exposure") -> list[LegendItem]:
    """The colour bar: a swatch for every count from 0 to the number of enemies."""
    n = len(hm.enemies)
    what = ("enemies that see it (front arcs)" if which == "exposure" else "enemies it sees (360°)")
    items = [LegendItem("heading", f"Heatmap: a {hm.size} model of {hm.side}"),
             LegendItem("text", f'cell colour: {what}, step {hm.step:g}"', P.PANEL_DIM)]
    for v in sorted(set(range(0, n + 1, max(1, (n + 1) // 10))) | {n}):
        items.append(LegendItem("fill", f"{v} of {n}", heat_color(v, max(1, n))))
    items.append(LegendItem("text", "no colour: a model cannot stand there", P.PANEL_DIM))
    return items


def heat_extras(hm: Heatmap, which: str = "exposure") -> Extras:
    """The heatmap as a picture layer: cells under the models, colour bar in the legend."""
    ex = Extras()
    ex.scene["underlay"] = heat_prims(hm, which)
    ex.legend = heat_legend(hm, which)
    return ex
