"""Drawables into a pyglet ``Batch``: one ordered ``Group`` per layer, one vertex list each.

World layers (table, scenery, underlay, models, overlays) hang under one
:class:`WorldGroup`, which can shift them while the view is panned and clip them to a
rectangle; UI layers (panels, legend, help, status) hang under a second group and
are drawn last. Each layer is four groups: opaque triangles (no blending), blended
triangles, label plates, labels; a layer's primitives are either all opaque or go to
the blended group together, so their order is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pyglet
from pyglet import gl
from pyglet.graphics import Batch, Group
from pyglet.graphics.shader import ShaderProgram
from pyglet.math import Mat4, Vec3

from . import palette as P
from .camera import Camera
from .scene import WORLD_LAYERS, Prim
from .tessellate import Label, Mesh, tessellate

#: The UI layers, bottom to top.
UI_LAYERS = ("panel", "panel_content", "panel_text", "legend", "hud", "help")

FONT = ("DejaVu Sans", "Arial", "Helvetica")

_VERTEX = """#version 150 core
in vec2 position;
in vec4 colors;
out vec4 vertex_colors;
uniform WindowBlock { mat4 projection; mat4 view; } window;
void main() {
    gl_Position = window.projection * window.view * vec4(position, 0.0, 1.0);
    vertex_colors = colors;
}
"""
_FRAGMENT = """#version 150 core
in vec4 vertex_colors;
out vec4 final_color;
void main() { final_color = vertex_colors; }
"""


def flat_program() -> ShaderProgram:
    """The shader of every triangle the viewer draws (cached per GL context)."""
    ctx = pyglet.gl.current_context
    assert ctx is not None, "no OpenGL context: open a window first"
    return ctx.create_program((_VERTEX, "vertex"), (_FRAGMENT, "fragment"))


class WorldGroup(Group):
    """Parent of the world layers: an optional pixel shift (live panning) and clip rectangle."""

    def __init__(self, window: pyglet.window.Window, order: int = 0) -> None:
        super().__init__(order=order)
        self.window = window
        self.offset = (0.0, 0.0)
        self.clip: tuple[int, int, int, int] | None = None
        self._saved: Mat4 | None = None

    def set_state(self) -> None:
        if self.offset != (0.0, 0.0):
            self._saved = self.window.view
            self.window.view = Mat4.from_translation(Vec3(self.offset[0], self.offset[1], 0.0))
        if self.clip is not None:
            gl.glEnable(gl.GL_SCISSOR_TEST)
            gl.glScissor(*self.clip)

    def unset_state(self) -> None:
        if self.clip is not None:
            gl.glDisable(gl.GL_SCISSOR_TEST)
        if self._saved is not None:
            self.window.view = self._saved
            self._saved = None


class TriangleGroup(Group):
    """Binds the flat shader, with alpha blending or (for opaque meshes) without: a
    software renderer fills unblended triangles about three times faster."""

    def __init__(self, program: ShaderProgram, order: int, parent: Group | None, blend: bool = True) -> None:
        super().__init__(order=order, parent=parent)
        self.program = program
        self.blend = blend

    def set_state(self) -> None:
        self.program.use()
        if self.blend:
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFuncSeparate(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA)

    def unset_state(self) -> None:
        if self.blend:
            gl.glDisable(gl.GL_BLEND)
        self.program.stop()


@dataclass
class _Slot:
    opaque_group: TriangleGroup
    tri_group: TriangleGroup
    box_group: TriangleGroup
    text_group: Group
    vertex_lists: list = field(default_factory=list)
    labels: list = field(default_factory=list)
    triangles: int = 0

    def clear(self) -> None:
        for vl in self.vertex_lists:
            vl.delete()
        for lb in self.labels:
            lb.delete()
        self.vertex_lists.clear()
        self.labels.clear()
        self.triangles = 0


class Canvas:
    """A batch of named layers. ``set(layer, prims, camera)`` replaces a layer's content.

    ``ratio`` multiplies every pixel size (line widths, text, offsets): 2 for a
    supersampled picture.
    """

    def __init__(self, window: pyglet.window.Window, ratio: float = 1.0) -> None:
        self.window = window
        self.ratio = ratio
        self.batch = Batch()
        self.program = flat_program()
        self.world = WorldGroup(window, order=0)
        self.ui = Group(order=1)
        self.slots: dict[str, _Slot] = {}
        for i, name in enumerate(WORLD_LAYERS):
            self.slots[name] = self._slot(i, self.world)
        for i, name in enumerate(UI_LAYERS):
            self.slots[name] = self._slot(i, self.ui)

    def _slot(self, i: int, parent: Group) -> _Slot:
        return _Slot(TriangleGroup(self.program, 4 * i, parent, blend=False),
                     TriangleGroup(self.program, 4 * i + 1, parent), TriangleGroup(self.program, 4 * i + 2, parent),
                     Group(order=4 * i + 3, parent=parent))

    def set(self, layer: str, prims: Sequence[Prim], camera: Camera | None = None) -> None:
        """Replace ``layer`` with ``prims`` seen through ``camera`` (screen pixels if None)."""
        self.add(layer, prims, camera, replace=True)

    def add(self, layer: str, prims: Sequence[Prim], camera: Camera | None = None, *, replace: bool = False) -> None:
        """Add ``prims`` to ``layer`` (several cameras may share a layer)."""
        slot = self.slots[layer]
        if replace:
            slot.clear()
        mesh, labels = tessellate(prims, camera or Camera(), self.ratio)
        opaque = bool(mesh.count) and bool((mesh.colors[:, 3] == 255).all())
        self._mesh(slot, mesh, slot.opaque_group if opaque else slot.tri_group)
        boxes: list[np.ndarray] = []
        box_colors: list[tuple[int, int, int, int]] = []
        for lb in labels:
            label = self._label(lb, slot.text_group)
            slot.labels.append(label)
            if lb.box is not None:
                boxes.append(_plate(label, lb, self.ratio))
                box_colors.append(lb.box)
        if boxes:
            tris = np.concatenate(boxes)
            cols = np.repeat(np.array(box_colors, np.uint8), 6, axis=0)
            self._mesh(slot, Mesh(tris.reshape(-1, 2).astype(np.float32), cols), slot.box_group)

    def _mesh(self, slot: _Slot, mesh: Mesh, group: Group) -> None:
        if not mesh.count:
            return
        vl = self.program.vertex_list(mesh.count, gl.GL_TRIANGLES, batch=self.batch, group=group,
                                      position=("f", mesh.positions.ravel()), colors=("Bn", mesh.colors.ravel()))
        slot.vertex_lists.append(vl)
        slot.triangles += mesh.count // 3

    def _label(self, lb: Label, group: Group) -> pyglet.text.Label:
        return pyglet.text.Label(lb.text, x=round(lb.x), y=round(lb.y), anchor_x=lb.anchor_x,  # type: ignore[arg-type]
                                 anchor_y=lb.anchor_y,  # type: ignore[arg-type]
                                 font_name=list(FONT), font_size=lb.size, weight="bold" if lb.bold else "normal",
                                 color=lb.color, batch=self.batch, group=group)

    def clear(self, *layers: str) -> None:
        for name in layers or tuple(self.slots):
            self.slots[name].clear()

    def draw(self) -> None:
        self.batch.draw()

    def stats(self) -> dict[str, tuple[int, int]]:
        """Triangles and labels per layer (for the benchmark and tests)."""
        return {k: (s.triangles, len(s.labels)) for k, s in self.slots.items()}


def _plate(label: pyglet.text.Label, lb: Label, ratio: float) -> np.ndarray:
    """Two triangles behind a label, padded."""
    w, h = label.content_width, label.content_height
    x = lb.x - {"left": 0, "center": w / 2, "right": w}[lb.anchor_x]
    if lb.anchor_y == "baseline":
        y = lb.y + label.font_size * 0.0 - h * 0.25
    else:
        y = lb.y - {"bottom": 0, "center": h / 2, "top": h}[lb.anchor_y]
    px, py = 4 * ratio, 1 * ratio
    x0, y0, x1, y1 = round(x) - px, round(y) - py, round(x) + w + px, round(y) + h + py
    c = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], float)
    return np.array([[c[0], c[1], c[2]], [c[0], c[2], c[3]]])


def clear_window(window: pyglet.window.Window) -> None:
    r, g, b, a = P.BACKGROUND
    gl.glClearColor(r / 255, g / 255, b / 255, a / 255)
    window.clear()


def read_pixels() -> np.ndarray:
    """The current colour buffer as an (h, w, 4) uint8 array, top row first."""
    img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    data = img.get_data("RGBA", img.width * 4)
    return np.frombuffer(data, np.uint8).reshape(img.height, img.width, 4)[::-1].copy()
