"""The interactive window: pyglet events → :class:`Session` calls, session → layers.

Left button: click selects (shift+click picks the profile's second model), drag a
model to move it, or drag to measure with the measure tool (``m``). Right button
drag pans, the wheel zooms, ``h`` shows the help. Layers are rebuilt only when what
they show changed; panning shifts the world layers with the view matrix until the
button is released.
"""

from __future__ import annotations

import pyglet
from pyglet.window import key, mouse

from .camera import Camera
from .draw import Canvas, clear_window
from .labels import declutter
from .render import profile_panel, panel_height
from .scene import WORLD_LAYERS, help_prims, info_prims, legend_prims, status_prims, wrap
from .grid_view import GridSession
from .session import Session

STATUS_HEIGHT = 24
#: 8 bits a channel (some drivers offer 16-bit colour first).
RGBA8 = {"red_size": 8, "green_size": 8, "blue_size": 8, "alpha_size": 8}
KEY_NAMES = {key.H: "h", key.S: "s", key.M: "m", key.T: "t", key.C: "c", key.R: "r", key.A: "a", key.P: "p",
             key.L: "l", key.Q: "q", key.E: "e", key.D: "d", key.X: "x", key.TAB: "tab", key.ESCAPE: "escape",
             key.RIGHT: "right", key.LEFT: "left", key.HOME: "home", key.END: "end"}  # the last four: replay mode


class ViewerWindow(pyglet.window.Window):
    """A window on a :class:`Session`. ``visible=False`` makes it drawable headless."""

    def __init__(self, session: Session | GridSession, width: int = 1280, height: int = 900, *, visible: bool = True,
                 **kwargs: object) -> None:
        config = kwargs.pop("config", None)
        configs = [config] if config is not None else [
            *([_config(sample_buffers=1, samples=4)] if hardware_renderer() else []),  # smooth edges on a GPU
            _config(), None]
        for i, cfg in enumerate(configs):
            try:
                super().__init__(width, height, caption=_caption(session), resizable=True, visible=visible,
                                 config=cfg, **kwargs)
                break
            except pyglet.window.NoSuchConfigException:
                if i == len(configs) - 1:
                    raise
        self.session = session
        self.canvas = Canvas(self)
        self._drawn: tuple[int, int, Camera, tuple[int, int]] | None = None
        self._drawn_static: tuple[int, Camera] | None = None
        self._panning = False
        self.panel_rect: tuple[float, float, float, float] | None = None
        #: Height of the profile strip under the table (0 when no profile is shown).
        self.strip = 0.0
        self.camera = self.fitted_camera()

    # -- view ----------------------------------------------------------------------------
    def table_viewport(self) -> tuple[float, float, float, float]:
        """Where the table is drawn: above the status bar and the profile strip."""
        bottom = STATUS_HEIGHT + self.strip
        return (0, bottom, self.width, self.height - bottom)

    def fitted_camera(self) -> Camera:
        return Camera.fit(self.session.table.bounds(), self.table_viewport(), margin=28)

    def to_world(self, x: float, y: float) -> tuple[float, float]:
        return self.camera.to_world(x, y)

    def screen_of(self, wx: float, wy: float) -> tuple[float, float]:
        """Where a table point is drawn now (tests and tools use it to aim events)."""
        return self.camera.to_screen(wx, wy)

    # -- building layers --------------------------------------------------------------------
    def refresh(self) -> None:
        """Rebuild the layers whose content changed since the last frame (twice when the
        profile strip appeared or went and the table view was refitted)."""
        camera = self.camera
        self._refresh()
        if self.camera != camera:
            self._refresh()

    def _refresh(self) -> None:
        s = self.session
        size = (self.width, self.height)
        if self._drawn_static != (s.table_version, self.camera):
            static = declutter(s.static_scene(), self.camera)
            for name in ("table", "scenery", "models"):
                self.canvas.set(name, static[name], self.camera)
            self._drawn_static = (s.table_version, self.camera)
            self._drawn = None
        state = (s.table_version, s.overlay_version, self.camera, size)
        if self._drawn == state:
            return
        over = s.overlay_scene()
        for name in WORLD_LAYERS:
            if name not in ("table", "scenery", "models"):
                self.canvas.set(name, over[name], self.camera)
        self._build_ui()
        self._drawn = state

    def _set_strip(self, height: float) -> None:
        """Give the profile its own strip under the table; the table view shrinks to make
        room (refitted unless the player has zoomed or panned)."""
        if height == self.strip:
            return
        fitted = self.camera == self.fitted_camera()
        self.strip = height
        if fitted:
            self.camera = self.fitted_camera()
            self._drawn_static = None

    def _build_ui(self) -> None:
        s = self.session
        w, h = self.width, self.height
        self.canvas.clear("panel", "panel_content", "panel_text", "legend", "hud", "help")
        self.panel_rect = None
        strip = 0.0
        if s.verdict() is not None and s.show_profile:
            pw = w - 24
            first = s.profile()
            if first is not None:
                ph = min(panel_height(first, pw, 160, 260), h * 0.35)
                prof = s.profile(aspect=(pw - 72) / (ph - 64))
                if prof is not None:
                    frame, content, cam = profile_panel(prof, 12, STATUS_HEIGHT + 6, pw, ph)
                    self.canvas.set("panel", frame)
                    self.canvas.set("panel_content", content, cam)
                    self.panel_rect = (12, STATUS_HEIGHT + 6, pw, ph)
                    strip = ph + 12
        self._set_strip(strip)
        status = s.status()
        title, lines, refused = s.info_lines()
        if len(wrap(status, w - 30)) > 1:  # the status bar cannot hold it all: the panel shows it
            lines = [*lines, s.message] if lines else [s.message]
            title = title or "message"
            refused = refused or s.error
        if lines:
            self.canvas.set("panel_text", info_prims(lines, 10, h - 10, min(560, w * 0.5), title=title,
                                                     error=refused))
        if s.show_legend:
            items = s.legend()
            if items:
                self.canvas.set("legend", legend_prims(items, w - 290, h - 10, 280))
        self.canvas.set("hud", status_prims(status, w, error=s.error))
        if s.show_help:
            self.canvas.set("help", help_prims(w, h, s.help_lines()))

    # -- pyglet events --------------------------------------------------------------------------
    def on_draw(self) -> None:
        self.refresh()
        clear_window(self)
        self.canvas.draw()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        if hasattr(self, "session"):
            self._drawn = None

    def _in_panel(self, x: float, y: float) -> bool:
        r = self.panel_rect
        return r is not None and r[0] <= x <= r[0] + r[2] and r[1] <= y <= r[1] + r[3]

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button == mouse.RIGHT:
            self._panning = True
            return
        if button == mouse.LEFT and not self._in_panel(x, y) and y > STATUS_HEIGHT:
            run = bool(modifiers & (key.MOD_CTRL | key.MOD_ALT))  # ctrl (or alt) + drag: Run
            self.session.press(*self.to_world(x, y), shift=bool(modifiers & key.MOD_SHIFT), run=run)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        if y > STATUS_HEIGHT and not self._in_panel(x, y):
            self.session.hover(*self.to_world(x, y))

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        if buttons & mouse.RIGHT and self._panning:
            ox, oy = self.canvas.world.offset
            self.canvas.world.offset = (ox + dx, oy + dy)
            return
        if buttons & mouse.LEFT:
            self.session.drag(*self.to_world(x, y))

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button == mouse.RIGHT and self._panning:
            self._panning = False
            ox, oy = self.canvas.world.offset
            self.canvas.world.offset = (0.0, 0.0)
            self.camera = self.camera.panned(ox, oy)
            return
        if button == mouse.LEFT:
            self.session.release(*self.to_world(x, y))

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        if scroll_y:
            self.camera = self.camera.zoomed(1.15 ** scroll_y, x, y)
            self.session.slop = 4 / self.camera.scale

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == key._0 or symbol == key.NUM_0:
            self.camera = self.fitted_camera()
            return
        name = KEY_NAMES.get(symbol)
        if name is None:
            return
        s = self.session
        if name == "escape" and not s.confirm_quit and not (s.show_help or s.selected or s.tool != "select"):
            self.on_close()  # nothing left to clear: quit, asking first when there is unsaved work
            return
        s.key(name)
        if s.quit_now:
            self.close()

    def on_close(self) -> None:
        """The window's close button, or esc with nothing to clear: close at once when
        everything is saved, else ask (s: save and quit, d: discard, esc: cancel)."""
        if self.session.request_quit():
            self.close()


def _config(**kw: int) -> pyglet.gl.Config:
    """A double-buffered 8-bit RGBA config (with ``kw``: multisampling)."""
    return pyglet.gl.Config(double_buffer=True, **RGBA8, **kw)  # type: ignore[abstract]


def hardware_renderer() -> bool:
    """Whether OpenGL runs on a GPU. Software renderers (llvmpipe, softpipe, swrast)
    would spend most of a frame on multisampling, so the window goes without it."""
    try:
        name = pyglet.gl.gl_info.get_renderer() if pyglet.gl.current_context is not None else ""
    except Exception:  # noqa: BLE001 - no context to ask: assume a GPU
        return True
    return not any(k in name.lower() for k in ("llvmpipe", "softpipe", "swrast", "software"))


def _caption(session: Session | GridSession) -> str:
    t = session.table
    return f"skirmish — {t.name or t.source or 'table'}"
