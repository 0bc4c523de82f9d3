#!/usr/bin/env python3
"""Benchmark: the viewer's frame rate and the render-to-PNG time (headless, EGL).

On scenarios/dense-ruins.toml (36"x36", 20 models, 25 scenery pieces) in a 1280x900
window it times

* a frame with LoS overlays on: one model selected (Awareness, reach bands, its LoS
  to the 19 others with blockers highlighted) and "who sees whom" (every visible
  ordered pair) — the goal is 60 frames per second or more;
* a frame of the bare table;
* rebuilding the overlays after a click (the LoS batch for the new model included);
* one drag event while moving a model (the engine's path, the rebuild, the frame);
* ``skirmish render`` to a PNG (1200 px, supersampled x2), bare and with overlays.

Every number is a median. Frames end with glFinish, so the GPU work is counted.

    python tools/bench_viewer.py [--frames 120]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pyglet  # noqa: E402

pyglet.options["headless"] = True

from _bench import fmt, median_seconds  # noqa: E402
from skirmish.scenario.load import load  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DENSE = ROOT / "scenarios" / "dense-ruins.toml"
MILL = ROOT / "scenarios" / "mill-ambush.toml"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=120, help="frames timed per case (default 120)")
    args = ap.parse_args()

    from pyglet import gl

    from skirmish.viewer.render import RenderRequest, render_png
    from skirmish.viewer.session import Session
    from skirmish.viewer.window import ViewerWindow

    table = load(DENSE)
    session = Session(table)
    window = ViewerWindow(session, 1280, 900, visible=False)
    window.switch_to()

    def one_frame() -> None:
        window.dispatch_events()
        window.dispatch_event("on_draw")
        window.dispatch_events()
        gl.glFinish()
        window.flip()

    print(f"{DENSE.name}: {len(table.models)} models, {len(table.scenery)} scenery, window 1280x900, "
          f"{window.config.samples or 1}x multisampling")

    bare = median_seconds(one_frame, repeat=args.frames)
    print(f"{'frame, bare table':<52} median {fmt(bare)}   {1 / bare:8.0f} fps")

    ids = list(table.model_ids)
    session.select(ids[0])
    session.select(ids[-1], as_target=True)  # the profile panel too
    session.key("a")  # who sees whom: every visible ordered pair
    one_frame()
    tris = sum(t for t, _ in window.canvas.stats().values())
    labels = sum(n for _, n in window.canvas.stats().values())
    busy = median_seconds(one_frame, repeat=args.frames)
    print(f"{'frame, LoS overlays on (selection + all pairs)':<52} median {fmt(busy)}   {1 / busy:8.0f} fps"
          f"   ({tris} triangles, {labels} labels; goal >= 60 fps)")

    k = [1]

    def click_next() -> None:  # a new selection: LoS batch for it + overlay rebuild + frame
        session.select(ids[k[0] % len(ids)])
        session._sight.clear()  # noqa: SLF001 - time the engine's LoS query too
        k[0] += 1
        one_frame()

    click = median_seconds(click_next, repeat=15)
    print(f"{'select a model (LoS to 19 + rebuild + frame)':<52} median {fmt(click)}")

    m = table.model(ids[0])
    spots = [(m.x + 1.5 * math.cos(a), m.y + 1.5 * math.sin(a)) for a in range(12)]
    j = [0]

    def drag_step() -> None:  # one mouse-drag event while moving a model: plan_move + rebuild + frame
        session._preview_move(ids[0], spots[j[0] % len(spots)])  # noqa: SLF001
        j[0] += 1
        one_frame()

    drag_t = median_seconds(drag_step, repeat=24)
    print(f"{'drag a model (plan_move + rebuild + frame)':<52} median {fmt(drag_t)}")
    window.close()

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "t.png"
        dense_bare = median_seconds(lambda: render_png(table, out), repeat=5)
        print(f"{'render to PNG, dense-ruins, bare (1200 px)':<52} median {fmt(dense_bare)}")
        req = RenderRequest(frm=ids[0], los=((ids[0], ids[-1]),))
        dense_los = median_seconds(lambda: render_png(table, out, req), repeat=5)
        print(f"{'render to PNG, dense-ruins, --from + --los (1200 px)':<52} median {fmt(dense_los)}")
        mill = load(MILL)
        mreq = RenderRequest(los=(("yumi", "brute"),))
        mill_t = median_seconds(lambda: render_png(mill, out, mreq), repeat=5)
        print(f"{'render to PNG, mill-ambush --los yumi brute':<52} median {fmt(mill_t)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
