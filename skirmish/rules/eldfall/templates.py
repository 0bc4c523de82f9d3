"""The template table: every AoE template's size, band and shape as data (E-TMPL-*).

Sizes are from the rule text (E-TMPL-CIRCLE: 70 mm and 120 mm diameters;
E-TMPL-SPRAY: 213 mm and 260 mm lengths). The spray's widths are **not** in the
texts: the narrow-end and far-end widths below are assumed values (documented in
``docs/templates.md``), kept here and nowhere else.

>>> TEMPLATES["circle-small"]
TemplateSpec('circle-small', circle, 70mm, band ±3")
>>> round(template_spec("Spray Large").length, 3)
10.236
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Literal

from ...errors import UnknownIdError
from ...units import MM_PER_INCH

TemplateKind = Literal["circle", "spray"]


def _mm(v: float) -> float:
    return v / MM_PER_INCH


@dataclass(frozen=True, repr=False)
class TemplateSpec:
    """One template. Lengths in inches.

    * circle: ``size`` is the diameter; the template lies on the main target's surface
      and affects bases within ``band`` inches above or below it (E-TMPL-CIRCLE).
    * spray: ``size`` is the length, tip to tip; a teardrop whose narrow end is a round
      end ``near_width`` wide and whose far end is a round end ``far_width`` wide, joined
      by straight sides; ``band`` is measured from the attacker's base (E-TMPL-SPRAY).
    """

    name: str
    kind: TemplateKind
    size: float
    band: float
    near_width: float = 0.0
    far_width: float = 0.0
    assumed: tuple[str, ...] = ()  # fields whose values the rule texts do not give

    def __repr__(self) -> str:
        what = "diameter" if self.kind == "circle" else "long"
        shape = f"{self.size * MM_PER_INCH:g}mm" + ("" if self.kind == "circle" else f" {what}, "
                                                   f"{self.near_width * MM_PER_INCH:g}->"
                                                   f"{self.far_width * MM_PER_INCH:g}mm wide")
        return f"TemplateSpec({self.name!r}, {self.kind}, {shape}, band ±{self.band:g}\")"

    @property
    def radius(self) -> float:
        """A circle's radius (inches)."""
        return self.size / 2

    @property
    def length(self) -> float:
        """A spray's length, narrow tip to far tip (inches)."""
        return self.size


#: Vertical band of a circle (E-TMPL-CIRCLE): bases within ±3" of its surface.
CIRCLE_BAND = 3.0
#: Vertical band of a spray (E-TMPL-SPRAY): bases within ±5" of the attacker's base.
SPRAY_BAND = 5.0

#: Every template the engine knows, by name. Spray widths are assumed values.
TEMPLATES: dict[str, TemplateSpec] = {
    t.name: t
    for t in (
        TemplateSpec("circle-small", "circle", _mm(70), CIRCLE_BAND),
        TemplateSpec("circle-large", "circle", _mm(120), CIRCLE_BAND),
        TemplateSpec("spray-small", "spray", _mm(213), SPRAY_BAND, near_width=_mm(20), far_width=_mm(65),
                     assumed=("near_width", "far_width")),
        TemplateSpec("spray-large", "spray", _mm(260), SPRAY_BAND, near_width=_mm(20), far_width=_mm(90),
                     assumed=("near_width", "far_width")),
    )
}


def template_spec(name: str | TemplateSpec) -> TemplateSpec:
    """The template called ``name`` (case, spaces and underscores ignored).

    Raises :class:`UnknownIdError` naming the known templates.
    """
    if isinstance(name, TemplateSpec):
        return name
    key = str(name).strip().casefold().replace("_", "-").replace(" ", "-")
    if key in TEMPLATES:
        return TEMPLATES[key]
    close = difflib.get_close_matches(key, list(TEMPLATES), n=2)
    hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
    raise UnknownIdError(f"no template called {name!r}; {hint}known templates: {', '.join(TEMPLATES)}")
