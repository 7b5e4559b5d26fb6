"""The report of a study: tables, statistics, figures and provenance, from its result store.

:func:`load_results` reads a study directory (finished runs, references, what is missing,
provenance). :func:`summary_data` computes, per dataset and algorithm, the measures as numbers
(subset sizes and test scores, or hypervolume and IGD of the fronts; evaluations, seconds,
Wilcoxon signs and p-values against the reference algorithm, the Q-measure) beside the
all-features scores; :func:`summary_tables` lays them out as text, :func:`legend` says what
every column and sign means, :func:`latex_tables` sets them for a paper. For a study under
the protocol of Nguyen, Xue, Liu, Andreae & Zhang (Soft Computing 20, 2016; preset ``S003``),
:func:`report_checks` decides that paper's statements in words (:data:`CHECKS`) on the study's
fronts: held, not held or not run. :func:`write_report`
writes the report directory, all files together:

=========================  ==================================================================
``report.md``              the tables with their legend, the figures, the checks (S003), the
                           provenance
``report.html``            the same, self-contained (figures embedded)
``tables.tex``             the tables in LaTeX (``booktabs``), one ``table`` per dataset
``summary.csv``            the tables' numbers, one row per dataset and algorithm
``summary.json``           the same, with the all-features scores, the legend, the checks
``all_features.csv``       the classifier on every feature, per dataset
``runs.csv``               one row per run (:func:`run_table`)
``fronts.csv``             one row per front member (:func:`front_table`), front studies only
``<dataset>_<figure>.*``   every figure as PNG, PDF and SVG
``manifest.json``          the files above; a later report removes those it does not rewrite
=========================  ==================================================================

:func:`text_table` lays a table out for a terminal.
"""

from pymoo_fs.studies.report.checks import (CHECK_COLUMNS, CHECK_DATASETS, CHECKS, Check,
                                            CheckResult, check_fronts, checks_markdown,
                                            report_checks, statement_checks)
from pymoo_fs.studies.report.figures import fronts_figure
from pymoo_fs.studies.report.latex import latex_tables
from pymoo_fs.studies.report.results import CITATIONS, StudyResults, load_results
from pymoo_fs.studies.report.tables import (ALL_FEATURES_COLUMNS, FRONT_COLUMNS,
                                            FRONT_RUN_COLUMNS, FRONT_SUMMARY_COLUMNS,
                                            SUBSET_RUN_COLUMNS, SUBSET_SUMMARY_COLUMNS,
                                            SummaryTable, all_features_line, front_table,
                                            legend, run_table, summary_data, summary_tables,
                                            text_table)
from pymoo_fs.studies.report.writer import MANIFEST, write_report

__all__ = ["ALL_FEATURES_COLUMNS", "CHECKS", "CHECK_COLUMNS", "CHECK_DATASETS", "CITATIONS",
           "Check", "CheckResult", "FRONT_COLUMNS", "FRONT_RUN_COLUMNS",
           "FRONT_SUMMARY_COLUMNS", "MANIFEST", "SUBSET_RUN_COLUMNS", "SUBSET_SUMMARY_COLUMNS",
           "StudyResults", "SummaryTable", "all_features_line", "check_fronts", "checks_markdown",
           "front_table", "fronts_figure",
           "latex_tables", "legend", "load_results", "report_checks", "run_table",
           "statement_checks", "summary_data", "summary_tables", "text_table", "write_report"]
