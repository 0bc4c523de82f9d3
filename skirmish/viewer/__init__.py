"""The viewer: see the table, settle a dispute by pointing, export a picture.

Layers, from pure to OpenGL:

- :mod:`.palette`, :mod:`.camera`, :mod:`.scene`, :mod:`.tessellate`, :mod:`.session`,
  :mod:`.png`: pure Python (numpy, shapely). Engine answers become plain drawable
  values; nothing here imports pyglet, so all of it is testable without a display.
- :mod:`.draw`: those drawables in a pyglet ``Batch`` with ordered ``Group`` s.
- :mod:`.window`: the interactive window and its event handlers.
- :mod:`.render`: the same scene drawn headless (EGL) to a PNG, with a legend.

pyglet is imported only by ``draw``, ``window`` and ``render`` (and only here in the
package). The viewer never decides a rule: every verdict comes from the map.
"""
