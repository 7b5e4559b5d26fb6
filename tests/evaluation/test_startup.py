"""Start-up (issue 22, item 4): what a fresh process imports before and at its first score.

Behaviour, not timing (``benchmarks/startup.py`` times it): importing the evaluators imports
neither numba nor pymoo nor scikit-learn's neighbours; loading a dataset from disk imports no
downloader; a first score by the Gram matrix loads only the Gram path's kernels (not the tree
path's, the flips' or the replay of scikit-learn's). Each check runs in a fresh interpreter.
"""

import json
import subprocess
import sys

import pytest


def _fresh(code):
    """Run ``code`` in a fresh interpreter; return what it printed last, read as JSON."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


#: modules importing the evaluation layer must not import: what the first score needs is
#: imported on first use
DEFERRED = ("numba", "llvmlite", "pymoo", "matplotlib", "sklearn.neighbors",
            "pymoo_fs.pareto", "pymoo_fs.evaluation._fitb_kernels",
            "pymoo_fs.evaluation.knn.kernels.bounds", "pymoo_fs.evaluation.knn.kernels.jit")


def test_importing_the_evaluators_imports_no_numba_pymoo_or_neighbours():
    loaded = _fresh("import json, sys\nimport pymoo_fs.evaluation\n"
                    f"print(json.dumps([m for m in {DEFERRED!r} if m in sys.modules]))")
    assert loaded == []


def test_loading_a_bundled_dataset_imports_no_downloader():
    loaded = _fresh("import json, sys\nfrom pymoo_fs.datasets import load_dataset\n"
                    "load_dataset('sonar')\n"
                    "print(json.dumps([m for m in ('urllib.request', 'http.client', "
                    "'xml.etree.ElementTree', 'numba') if m in sys.modules]))")
    assert loaded == []


def test_first_gram_score_loads_only_the_gram_kernels():
    # 30 of sonar's 60 features: beyond the tree path's 15, and no row the rounding bound
    # leaves open (so nothing needs the replay of scikit-learn)
    code = """
import json, sys
import numpy as np
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import KNNEvaluator
data = load_dataset("sonar")
ev = KNNEvaluator(data.X, data.y, n_neighbors=5, cv=10, random_state=0)
mask = np.zeros(data.n_features, dtype=bool)
mask[::2] = True
score = float(ev.score(mask)[0])
kernels = sorted(m.rsplit(".", 1)[1] for m in sys.modules
                 if m.startswith("pymoo_fs.evaluation.knn.kernels."))
print(json.dumps({"score": score, "open": ev._settler.n_uncertified, "kernels": kernels,
                  "neighbours": "sklearn.neighbors" in sys.modules,
                  "pymoo": "pymoo" in sys.modules}))
"""
    out = _fresh(code)
    assert out["open"] == 0
    assert 0.5 < out["score"] <= 1.0
    # loaded: the batch/one-mask kernels and what they call; not loaded: tree, flips, replay
    assert {"cv", "gram", "rows", "blas"} <= set(out["kernels"])
    assert not {"tree", "flips", "sklearn_replay"} & set(out["kernels"])
    assert not out["neighbours"] and not out["pymoo"]


@pytest.mark.parametrize("call", ["holdout", "fitb", "recorder"])
def test_deferred_imports_arrive_when_used(call):
    # the paths whose imports moved into functions still find them
    code = """
import json
import numpy as np
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import FitBEvaluator, FrontRecorder, KNNEvaluator
data = load_dataset("sonar")
X, y = data.X[:150], data.y[:150]
mask = np.zeros(data.n_features, dtype=bool)
mask[:7] = True
call = CALL
if call == "holdout":
    ev = KNNEvaluator(X, y, n_neighbors=3, cv=5)
    out = float(ev.holdout_score(mask, data.X[150:], data.y[150:])[0])
elif call == "fitb":
    out = float(FitBEvaluator(X, y, n_folds=5).score(mask)[0])
else:
    rec = FrontRecorder(KNNEvaluator(X, y, n_neighbors=3, cv=5))
    rec.score(np.stack([mask, ~mask]))
    out = len(rec.masks)
print(json.dumps(out))
""".replace("CALL", repr(call))
    out = _fresh(code)
    assert out > 0
