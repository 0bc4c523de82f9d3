"""Running many seeded jobs (trials, games, heatmap rows) on one core, local
processes, or Dask.

Work is split into jobs whose results depend only on their own arguments (each job
carries its seeds), and results come back in job order, so a report is identical
for any backend and any number of workers.
"""

from .intervals import ci95, ci95_text, wilson_interval
from .runner import Backend, job_rng, run_jobs, settle_heap

__all__ = ["Backend", "run_jobs", "job_rng", "settle_heap", "wilson_interval", "ci95", "ci95_text"]
