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


def test_from_estimator_draws_front_chosen_subset_and_all_features(selector, tmp_path):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    display = ParetoFrontDisplay.from_estimator(selector)
    assert plt.get_fignums() == before  # never registered with pyplot
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
    path = tmp_path / "front.png"
    display.figure_.savefig(path)
    assert matplotlib.image.imread(path).ndim == 3


def test_plot_on_a_given_axes_with_overrides(selector):
    figure = Figure()
    FigureCanvasAgg(figure)
    ax = figure.subplots()
    display = ParetoFrontDisplay.from_estimator(selector, ax=ax, name="mine",
                                                front_kw={"color": "C2"})
    assert display.ax_ is ax and display.figure_ is figure
    assert display.ax_.get_legend_handles_labels()[1][0] == "mine"
    assert matplotlib.colors.to_hex(display.line_.get_color()) == matplotlib.colors.to_hex("C2")


def test_constructor_then_plot_orders_by_size_and_draws_only_what_is_given():
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
