"""World (table inches) to screen (pixels, y up) and back: scale, then offset."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

#: How far in and out the wheel may zoom, relative to the fitted view.
MIN_SCALE, MAX_SCALE = 0.5, 400.0


@dataclass(frozen=True)
class Camera:
    """``screen = world × scale + (ox, oy)``; y points up on both (the table's +y is up)."""

    scale: float = 1.0
    ox: float = 0.0
    oy: float = 0.0

    @classmethod
    def fit(cls, bounds: tuple[float, float, float, float], viewport: tuple[float, float, float, float],
            margin: float = 0.0) -> Camera:
        """The camera that shows ``bounds`` (x0, y0, x1, y1) centred in ``viewport`` (x, y, w, h).

        >>> Camera.fit((0, 0, 10, 10), (0, 0, 120, 100), margin=0).to_screen(5, 5)
        (60.0, 50.0)
        """
        x0, y0, x1, y1 = bounds
        vx, vy, vw, vh = viewport
        bw, bh = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
        scale = max(1e-6, min((vw - 2 * margin) / bw, (vh - 2 * margin) / bh))
        ox = vx + vw / 2 - (x0 + bw / 2) * scale
        oy = vy + vh / 2 - (y0 + bh / 2) * scale
        return cls(scale, ox, oy)

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.scale + self.ox, y * self.scale + self.oy)

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        return ((px - self.ox) / self.scale, (py - self.oy) / self.scale)

    def apply(self, points: np.ndarray) -> np.ndarray:
        """Many world points (..., 2) to screen points, vectorised."""
        return np.asarray(points, dtype=float) * self.scale + np.array([self.ox, self.oy])

    def zoomed(self, factor: float, px: float, py: float) -> Camera:
        """Zoom by ``factor`` keeping the world point under the pixel (px, py) in place."""
        scale = min(MAX_SCALE, max(MIN_SCALE, self.scale * factor))
        wx, wy = self.to_world(px, py)
        return Camera(scale, px - wx * scale, py - wy * scale)

    def panned(self, dx: float, dy: float) -> Camera:
        """Move the picture by (dx, dy) pixels."""
        return replace(self, ox=self.ox + dx, oy=self.oy + dy)

    def scaled_screen(self, factor: float) -> Camera:
        """The same view on a screen ``factor`` times larger (supersampled rendering)."""
        return Camera(self.scale * factor, self.ox * factor, self.oy * factor)
