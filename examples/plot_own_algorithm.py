"""
Your own algorithm in a study, beside the papers' baselines
===========================================================

``my_algorithms.py`` (next to this file) writes a new algorithm in about 25 lines: NSGA-II
with uniform crossover and bit-flip mutation on masks, registered as ``UX-NSGA-II``. Here it
runs in a small study beside NSGA-II and CMDPSOFS on Sonar, as the reference of the tests.

Run: ``python examples/plot_own_algorithm.py`` (some seconds).

**How a study finds the module.** Importing ``my_algorithms`` registers the name in this
process, which is enough for a study with one worker. Worker processes (``--jobs 2``, Dask)
and the command line start fresh: name the class by its importable reference,
``name = "my_algorithms:UniformNSGA2"`` in the TOML, and put the directory holding
``my_algorithms.py`` on the module search path, ``PYTHONPATH=. pymoo-fs study spec.toml``
(or install it as a package); every worker then imports it. Its report label is the class
name unless the spec gives ``label = "UX-NSGA-II"``.
"""

import sys
import tempfile
from pathlib import Path

try:
    HERE = Path(__file__).resolve().parent
except NameError:  # sphinx-gallery runs the example in its directory, without __file__
    HERE = Path.cwd()
sys.path.insert(0, str(HERE))  # where my_algorithms.py is

import my_algorithms  # noqa: E402, F401  (registers UX-NSGA-II)

from pymoo_fs.studies import load_study, run_study  # noqa: E402
from pymoo_fs.studies.report import (fronts_figure, load_results, summary_tables,  # noqa: E402
                                     text_table)

SPEC = """
name = "own-algorithm"
seed = 0
runs = 4
datasets = ["sonar"]
protocol = "S003"
reference = "UX-NSGA-II"

[budget]
n_gen = 5

[[algorithms]]
name = "UX-NSGA-II"
pop_size = 10

[[algorithms]]
name = "NSGA-II"
pop_size = 10

[[algorithms]]
name = "CMDPSOFS"
pop_size = 10
"""

# %%
# Run the study (4 runs of each algorithm, 5 generations of 10) and print its table: the
# signs compare UX-NSGA-II with each baseline (Wilcoxon rank-sum, 4 runs per side).

out = tempfile.mkdtemp()
run_study(load_study(SPEC), out, progress=False)
results = load_results(out)
header, rows = summary_tables(results)["sonar"]
print("\n".join(text_table(header, rows)))

# %%
# The best and average fronts of each algorithm, on the training and the test data.

figure = fronts_figure(results, "sonar", style="two-column")
