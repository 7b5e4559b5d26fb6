"""
A whole study report: tables, LaTeX, per-run distributions, ranks across datasets
=================================================================================

A small study of three algorithms on the two bundled datasets (Sonar, Musk1) under Nguyen
et al.'s protocol (``S003``), at a tiny budget, and its report: the table of each dataset,
the per-run box plots, the ranks across datasets with Friedman's test and the
critical-difference diagram, and ``tables.tex`` for a paper. The report directory holds
``report.html`` (everything, figures embedded), ``report.md``, ``tables.tex``, the CSV and
JSON numbers and every figure as PNG, PDF (TrueType fonts) and SVG (text as text). With more
runs and the paper's budget (``examples/study_isrpso.toml``) the same files come out.

Run: ``python examples/plot_study_report.py`` (under a minute).
"""

import tempfile
from pathlib import Path

from pymoo_fs.analysis import plot_critical_difference, plot_run_distributions
from pymoo_fs.studies import load_study, run_study
from pymoo_fs.studies.report import load_results, summary_tables, text_table, write_report
from pymoo_fs.studies.report.ranking import study_ranking
from pymoo_fs.studies.report.tables import _pareto_indicators

SPEC = """
name = "report-example"
seed = 0
runs = 4
datasets = ["sonar", "musk1"]
protocol = "S003"
reference = "CMDPSOFS"

[budget]
n_gen = 3

[[algorithms]]
name = "CMDPSOFS"
pop_size = 6

[[algorithms]]
name = "MOPSO"
pop_size = 6

[[algorithms]]
name = "NSGA-II"
pop_size = 6
"""

# %%
# Run the study and write its report (one-column figures, 3.5 in wide).

study = Path(tempfile.mkdtemp()) / "study"
run_study(load_study(SPEC), study, progress=False)
paths = write_report(study, tsne=False, style="one-column")
results = load_results(study)
for dataset, (header, rows) in summary_tables(results).items():
    print(f"{dataset}:")
    print("\n".join(text_table(header, rows)))
print(sorted(p.name for p in paths["figures"] if p.suffix == ".pdf"))

# %%
# Per-run distributions of the test hypervolume and IGD on Sonar: what the Wilcoxon tests of
# the table compare.

ind = _pareto_indicators(results, "sonar")
figure = plot_run_distributions(
    {"hypervolume (test)": {a: list(v["hv_test"].values()) for a, v in ind.items()},
     "IGD (test)": {a: list(v["igd_test"].values()) for a, v in ind.items()}},
    title="sonar: per-run distributions", style="two-column")

# %%
# Ranks across the two datasets (Friedman; Nemenyi's critical difference). Two datasets are
# far too few for the test to decide: the diagram shows how to read one, not a result.

ranking = study_ranking(results)
print({a: round(r, 2) for a, r in ranking.friedman.mean_ranks.items()})
cd = plot_critical_difference(ranking.friedman, title="ranks by mean test hypervolume")

# %%
# The first table of ``tables.tex`` (``\usepackage{booktabs}``): it fits a one-column page,
# and as a ``table*`` both columns of a two-column one.

tex = paths["latex"].read_text()
print(tex[:tex.index(r"\end{table*}") + len(r"\end{table*}")])
