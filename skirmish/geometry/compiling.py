"""The notice of the kernels' first compile (:mod:`.kernels`): what a fresh install waits
for on its first query, about a minute, once. Kept apart from the kernels (no numpy, no
numba here) so that a command line can ask for it without importing them."""

from __future__ import annotations

from collections.abc import Callable

#: called once, as the first kernel missing from numba's disk cache starts compiling
_notice: Callable[[], None] | None = None


def on_first_compile(notice: Callable[[], None] | None) -> None:
    """Have ``notice()`` called once, when the first kernel that numba's disk cache does
    not hold starts compiling (None: no call). A fresh install compiles the kernels a
    query needs on its first use, for about a minute, once: a command line tells its
    user why it waits."""
    global _notice
    _notice = notice


def listen_for_compiles(module: str) -> None:
    """Call the :func:`on_first_compile` notice at the first compile of a kernel of
    ``module`` (numba announces a compile only where its disk cache misses; called once
    numba is imported)."""
    from numba.core import event

    class FirstCompile(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            global _notice
            func = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
            if _notice is not None and getattr(func, "__module__", None) == module:
                notice, _notice = _notice, None
                notice()

        def on_end(self, ev: event.Event) -> None:
            pass

    event.register("numba:compile", FirstCompile())
