"""The options every command with big runs shares: --workers, --backend, --scheduler."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import SkirmishError


def add_scale_args(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--workers", type=int, default=1, help=f"processes for {what} (same result for any number)")
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="local processes, or a local Dask cluster started and stopped here (needs the scale "
                        "extra: pip install \".[scale]\")")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="an existing Dask scheduler, tcp://host:port (see docs/analysis.md); implies --backend dask")


def scale_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """``workers``, ``backend`` and ``scheduler`` for :func:`skirmish.scale.run_jobs`, checked."""
    if args.workers < 1:
        raise SkirmishError(f"--workers must be 1 or more, got {args.workers}", kind="range")
    backend = "dask" if args.scheduler else args.backend
    return {"workers": args.workers, "backend": backend, "scheduler": args.scheduler}
