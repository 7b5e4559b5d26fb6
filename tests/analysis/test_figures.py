"""The study's figures beyond the fronts: convergence axes and the selection heatmap."""

import numpy as np
import pytest

from pymoo_fs.analysis import plot_convergence, plot_fronts, plot_selection_heatmap

TRACES = {"ISRPSO": [([30, 3000, 60000], [0.5, 0.8, 0.9]), ([30, 2500, 58000], [0.4, 0.7, 0.9])],
          "NSGA-II": [([30, 1500, 3000], [0.5, 0.6, 0.7]), ([30, 1500, 3000], [0.5, 0.65, 0.7])]}


def test_convergence_uses_a_log_axis_so_small_budgets_keep_their_width():
    ax = plot_convergence(TRACES, "hypervolume").axes[0]
    assert ax.get_xscale() == "log" and ax.get_xlabel() == "evaluations (log scale)"
    lo, hi = ax.get_xlim()
    # the 3,000-evaluation runs reach past half the width (a linear axis: 5 %)
    assert (np.log(3000) - np.log(lo)) / (np.log(hi) - np.log(lo)) > 0.5
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert "1,000" in labels and not any("times" in t or "^" in t for t in labels)


def test_convergence_on_each_algorithms_own_budget():
    ax = plot_convergence(TRACES, "hypervolume", xscale="budget").axes[0]
    assert ax.get_xlabel() == "share of the algorithm's evaluations (%)"
    ends = [line.get_xdata()[-1] for line in ax.get_lines() if len(line.get_xdata()) > 1]
    assert ends == [100.0, 100.0]
    with pytest.raises(ValueError, match="xscale must be 'log', 'linear' or 'budget'"):
        plot_convergence(TRACES, "hypervolume", xscale="sqrt")


def test_selection_heatmap_is_algorithms_by_features():
    freq = {"A": [1.0, 0.5, 0.0, 0.25], "B": [0.0, 1.0, 1.0, 0.0]}
    fig = plot_selection_heatmap(freq, q={"A": 0.4})
    ax = fig.axes[0]
    image = ax.get_images()[0].get_array()
    np.testing.assert_array_equal(image, [[1.0, 0.5, 0.0, 0.25], [0.0, 1.0, 1.0, 0.0]])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A (Q 0.40)", "B"]
    assert ax.get_xlabel() == "feature (0-based index; all 4 features)"
    assert len(fig.axes) == 2  # and a colour bar


def test_selection_heatmap_keeps_the_most_selected_features_of_many():
    rng = np.random.default_rng(0)
    freq = {"A": rng.random(300), "B": rng.random(300)}
    freq["A"][[7, 250]] = freq["B"][[7, 250]] = 1.0
    ax = plot_selection_heatmap(freq, max_features=20).axes[0]
    shown = ax.get_images()[0].get_array().shape
    assert shown == (2, 20)
    assert ax.get_xlabel() == "feature (0-based index; the 20 most often selected of 300 features)"
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert "7" in labels or "250" in labels


@pytest.mark.parametrize("kwargs, match", [
    ({"frequencies": {}}, "at least one algorithm"),
    ({"frequencies": {"A": [0.1, 0.2], "B": [0.1]}}, "one length"),
    ({"frequencies": {"A": [1.5]}}, r"lie in \[0, 1\]"),
    ({"frequencies": {"A": [0.5]}, "max_features": 0}, "max_features must be at least 1"),
])
def test_selection_heatmap_refuses_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        plot_selection_heatmap(**kwargs)


def test_fronts_count_the_features_on_a_second_axis():
    fig = plot_fronts({"A": [[0.2, 0.1], [0.1, 0.5]]}, n_features=60)
    (top,) = [a for a in fig.axes[0].child_axes]
    assert top.get_xlabel() == "Number of features selected"
    with pytest.raises(ValueError, match="n_features must be a positive int"):
        plot_fronts({"A": [[0.2, 0.1]]}, n_features=0)
