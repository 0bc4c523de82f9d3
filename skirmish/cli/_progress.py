"""Progress on stderr for long runs: a tqdm bar, shown only on a terminal and only
once the work has run for a second."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(total: int, desc: str, *, enabled: bool = True, unit: str = "it") -> Iterator[Callable[[int], None]]:
    """Yields ``update(done)``: set the bar to ``done`` of ``total`` (a no-op when off)."""
    if not enabled or not sys.stderr.isatty():
        yield lambda done: None
        return
    from tqdm import tqdm

    bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, delay=1.0, leave=False)
    try:
        def update(done: int) -> None:
            bar.update(done - bar.n)

        yield update
    finally:
        bar.close()
