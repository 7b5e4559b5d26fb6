"""Studies: algorithms x datasets x independent runs, resumable, run locally or on Dask.

:class:`StudySpec` (or a TOML file read by :func:`load_study`) says what to run;
:func:`run_study` runs what its :class:`ResultStore` does not hold yet, in this process, in
local worker processes (joblib) or on a Dask cluster; :mod:`pymoo_fs.studies.report` turns the
store into tables, figures and an HTML report.
"""

from pymoo_fs.studies.identity import DataChangedError, ForeignRunError
from pymoo_fs.studies.runner import execute_run, plan_runs, prepare_study, run_study
from pymoo_fs.studies.spec import (PRESETS, AlgorithmSpec, Budget, Protocol, StudySpec,
                                   StudySpecError, load_study)
from pymoo_fs.studies.store import ResultStore, RunKey, StoreFileError

__all__ = [
    "AlgorithmSpec",
    "Budget",
    "DataChangedError",
    "ForeignRunError",
    "PRESETS",
    "Protocol",
    "ResultStore",
    "RunKey",
    "StudySpec",
    "StoreFileError",
    "StudySpecError",
    "execute_run",
    "load_study",
    "plan_runs",
    "prepare_study",
    "run_study",
]
