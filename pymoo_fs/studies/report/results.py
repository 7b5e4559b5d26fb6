"""A study's results as read from its store: :class:`StudyResults`, :func:`load_results`."""

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CITATIONS", "StudyResults", "load_results"]


from pymoo_fs.studies.spec import Protocol
from pymoo_fs.studies.store import (REFERENCE_KEYS, ResultStore, RunKey, StoreFileError,
                                    read_checked)


CITATIONS = {
    "fronts": "H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, \"New mechanism for archive "
              "maintenance in PSO-based multi-objective feature selection\", Soft Computing 20, "
              "3927-3946 (2016), doi:10.1007/s00500-016-2128-8, section \"Results and "
              "discussion\", Figs. 1-6",
    "q_measure": "T. Butler-Yeoman, B. Xue, M. Zhang, \"Particle swarm optimisation for "
                 "feature selection: a size-controlled approach\", AusDM 2015, CRPIT 168, "
                 "section 5.5 and Table 5",
    "tsne": "B. Tran, B. Xue, M. Zhang, \"Adaptive multi-subswarm optimisation for feature "
            "selection on high-dimensional classification\", GECCO 2019, "
            "doi:10.1145/3321707.3321713, section 5.1.4 and Fig. 3",
    "tables": "A.-D. Li, B. Xue, M. Zhang, \"A forward search inspired particle swarm "
              "optimization algorithm for feature selection in classification\", IEEE CEC "
              "2021, 786-793, doi:10.1109/CEC45853.2021.9504949, Tables II and III",
    "hypervolume": "E. Zitzler, L. Thiele, \"Multiobjective evolutionary algorithms: a "
                   "comparative case study and the strength Pareto approach\", IEEE Trans. "
                   "Evolutionary Computation 3(4), 257-271 (1999), doi:10.1109/4235.797969",
    "wilcoxon": "F. Wilcoxon, \"Individual comparisons by ranking methods\", Biometrics "
                "Bulletin 1(6), 80-83 (1945)",
}


@dataclass
class StudyResults:
    """What a study directory holds.

    Attributes
    ----------
    spec : dict
        The stored spec (``study.json``).
    records : list of dict
        Every finished run's record, with ``"seconds"`` added.
    references : dict
        ``{(dataset, fold): record}``: all-features scores of each split.
    missing : list of RunKey
        Runs the spec asks for that are not in the store.
    provenance : dict or None
        The study's ``provenance.json`` (:meth:`~pymoo_fs.studies.ResultStore.read_provenance`:
        one session per ``run_study``), None for a study stored before it was kept.
    """

    spec: dict
    records: list
    references: dict
    missing: list = field(default_factory=list)
    provenance: dict | None = None

    @property
    def datasets(self):
        """list of str: dataset names, in the order of the references."""
        return list(dict.fromkeys(d for d, _ in sorted(self.references)))

    @property
    def labels(self):
        """list of str: algorithm labels, in the spec's order."""
        return [a["label"] for a in self.spec["algorithms"]]

    @property
    def protocol(self):
        """Protocol: the stored protocol (older stores' flat objective keys understood)."""
        return Protocol.from_dict(self.spec["protocol"])

    @property
    def pareto(self):
        """bool: whether each run returns a Pareto front (else one subset)."""
        return self.protocol.objective.result == "front"

    def runs_of(self, dataset, label):
        """list of dict: the records of one algorithm on one dataset, by (fold, run)."""
        return sorted((r for r in self.records if r["dataset"] == dataset
                       and r["algorithm"] == label), key=lambda r: (r["fold"], r["run"]))


def load_results(directory, keys=None):
    """Read a study directory.

    Parameters
    ----------
    directory : path
    keys : iterable of RunKey, optional
        Only these runs (and their splits and algorithms), e.g. the runs of one command in a
        directory that also holds more; default every run the directory holds.

    Returns
    -------
    results : StudyResults

    Raises
    ------
    ValueError
        If the directory holds no ``study.json``.
    StoreFileError
        (a ``ValueError``) Naming the file, if ``study.json``, a reference file, a run file or
        ``provenance.json`` is damaged (truncated, not JSON, keys missing), or a run file holds
        a value outside its domain (:func:`pymoo_fs.studies.identity.impossible_value`): a
        damaged run is redone by running the study again.
    ForeignRunError
        (a ``ValueError``) Naming the run file and the field, for a run of another study (its
        seed, configuration or data fingerprint is not what ``study.json`` gives).
    """
    directory = Path(directory)
    if not (directory / "study.json").is_file():
        raise ValueError(f"{directory} is not a study directory (no study.json)")
    store = ResultStore(directory)
    spec = store.read_spec()
    references = {}
    for path in sorted((directory / "reference").glob("*_fold-*.json")):
        record = read_checked(path, REFERENCE_KEYS)
        references[(record["dataset"], record["fold"])] = record
    if keys is None:
        wanted = [RunKey(d, a["label"], run, fold) for (d, fold) in sorted(references)
                  for a in spec["algorithms"] for run in range(spec["runs"])]
        finished = store.finished()
    else:
        wanted = sorted(set(keys))
        labels = {k.algorithm for k in wanted}
        spec = dict(spec, runs=max(k.run for k in wanted) + 1,
                    algorithms=[a for a in spec["algorithms"] if a["label"] in labels])
        references = {k: v for k, v in references.items()
                      if k in {(key.dataset, key.fold) for key in wanted}}
        finished = [k for k in wanted if store.has(k)]
    for key in finished:  # a run whose split lost its reference would vanish from the tables
        if (key.dataset, key.fold) not in references:
            raise StoreFileError(store.reference_path(key.dataset, key.fold),
                                 f"runs of its split are stored ({key})", missing=True)
    from pymoo_fs.studies.identity import run_file_problems

    for key in finished:  # a run of another study, or values no run gives: refused by name
        run_file_problems(store, spec, key, references[(key.dataset, key.fold)]["n_features"])
    records = [store.read_run(key) for key in finished]
    missing = [k for k in wanted if not store.has(k)]
    return StudyResults(spec, records, references, missing, store.read_provenance())
