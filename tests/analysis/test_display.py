"""ParetoFrontDisplay: what it draws, where, and what it refuses."""

import matplotlib
import matplotlib.image
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from sklearn.exceptions import NotFittedError

from pymoo_fs.analysis import ParetoFrontDisplay
from pymoo_fs.datasets import load_dataset
from pymoo_fs.selector import SwarmFeatureSelector


@pytest.fixture(scope="module")
def selector():
    data = load_dataset("sonar")
    return SwarmFeatureSelector(n_gen=4, pop_size=8, select="min_error",
                                random_state=0).fit(data.X, data.y)


@pytest.fixture
def pyplot():
    """pyplot, with every figure a test opens closed afterwards."""
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    yield plt
    for number in set(plt.get_fignums()) - before:
        plt.close(number)


def test_from_estimator_draws_front_chosen_subset_and_all_features(selector, pyplot):
    display = ParetoFrontDisplay.from_estimator(selector)
    front = selector.pareto_front_
    np.testing.assert_array_equal(display.line_.get_xdata(), front["n_features"])
    np.testing.assert_array_equal(display.line_.get_ydata(), front["error"])
    assert display.line_.get_drawstyle() == "steps-post"
    i = selector.chosen_index_
    assert display.chosen_.get_xydata().tolist() == [[front["n_features"][i], front["error"][i]]]
    assert display.all_features_.get_ydata()[0] == selector.all_features_error_
    labels = display.ax_.get_legend_handles_labels()[1]
    assert labels[0] == "SwarmFeatureSelector (ISRPSO)"
    assert labels[1] == (f"chosen (min_error): {front['n_features'][i]} features, "
                         f"error {front['error'][i]:.3f}")
    assert labels[2] == f"all 60 features: error {selector.all_features_error_:.3f}"
    assert isinstance(display.figure_, Figure) and display.ax_.figure is display.figure_


def test_from_estimator_draws_on_pyplots_current_figure_like_scikit_learn(selector, pyplot,
                                                                          tmp_path):
    """Issue 24, defect 4: plt.savefig after from_estimator saves the front, not a blank."""
    before = pyplot.get_fignums()
    display = ParetoFrontDisplay.from_estimator(selector)
    assert len(pyplot.get_fignums()) == len(before) + 1
    assert pyplot.gcf() is display.figure_ and pyplot.gca() is display.ax_
    path = tmp_path / "front.png"
    pyplot.savefig(path)
    image = matplotlib.image.imread(path)
    blank = tmp_path / "blank.png"
    pyplot.figure(figsize=display.figure_.get_size_inches()).savefig(blank)
    assert image.shape == matplotlib.image.imread(blank).shape
    assert not np.array_equal(image, matplotlib.image.imread(blank))  # something was drawn
    dark = (image[..., :3].mean(axis=2) < 0.5).mean()
    assert dark > 0.01  # lines, markers, ticks and labels, not an empty canvas
    # scikit-learn's RocCurveDisplay does the same: a new current pyplot figure per call
    from sklearn.metrics import RocCurveDisplay

    roc = RocCurveDisplay(fpr=[0, 1], tpr=[0, 1]).plot()
    assert pyplot.gcf() is roc.figure_ and roc.figure_ is not display.figure_


def test_plot_on_a_given_axes_with_overrides(selector, pyplot):
    before = pyplot.get_fignums()
    figure = Figure()
    FigureCanvasAgg(figure)
    ax = figure.subplots()
    display = ParetoFrontDisplay.from_estimator(selector, ax=ax, name="mine",
                                                front_kw={"color": "C2"})
    assert display.ax_ is ax and display.figure_ is figure
    assert pyplot.get_fignums() == before  # a given axes: nothing created
    assert display.ax_.get_legend_handles_labels()[1][0] == "mine"
    assert matplotlib.colors.to_hex(display.line_.get_color()) == matplotlib.colors.to_hex("C2")


def test_constructor_then_plot_orders_by_size_and_draws_only_what_is_given(pyplot):
    display = ParetoFrontDisplay(error=[0.1, 0.3, 0.2], n_features=[9, 1, 4]).plot()
    assert display.line_.get_xdata().tolist() == [1, 4, 9]
    assert display.line_.get_ydata().tolist() == [0.3, 0.2, 0.1]
    assert display.chosen_ is None and display.all_features_ is None
    display = ParetoFrontDisplay(error=[0.2], n_features=[3], all_features_error=0.25).plot()
    assert display.ax_.get_legend_handles_labels()[1][-1] == "all features: error 0.250"


@pytest.mark.parametrize("kwargs, match", [
    ({"error": [0.1, 0.2], "n_features": [1]}, "one length"),
    ({"error": [], "n_features": []}, "non-empty"),
    ({"error": [np.nan], "n_features": [1]}, "finite"),
    ({"error": [0.1], "n_features": [1], "chosen_index": 1},
     r"chosen_index must be an int in \[0, 1\)"),
    ({"error": [0.1], "n_features": [1], "all_features_error": "x"}, "all_features_error"),
])
def test_bad_inputs_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ParetoFrontDisplay(**kwargs).plot()


def test_unfitted_selector_is_refused():
    with pytest.raises(NotFittedError):
        ParetoFrontDisplay.from_estimator(SwarmFeatureSelector())
