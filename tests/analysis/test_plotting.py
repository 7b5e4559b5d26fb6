"""Tests for pymoo_fs.analysis.plotting.plot_fronts."""

import matplotlib
import matplotlib.image
import numpy as np
import pytest
from matplotlib.figure import Figure

from pymoo_fs.analysis import plot_fronts

TRAIN = {
    "NSGA-II": np.array([[0.20, 0.1], [0.12, 0.3], [0.10, 0.5]]),
    "CMDPSOFS": np.array([[0.18, 0.1], [0.15, 0.2]]),
    "SPEA2": np.empty((0, 2)),
}
TEST = {
    "NSGA-II": np.array([[0.25, 0.1], [0.20, 0.3], [0.22, 0.5]]),
    "CMDPSOFS": np.array([[0.22, 0.1], [0.24, 0.2]]),
    "SPEA2": np.empty((0, 2)),
}


def _legend_labels(ax):
    """The labelled series of a panel (the figure's one legend, below the panels, shows the
    union of the panels' series)."""
    return ax.get_legend_handles_labels()[1]


def _marker_colors(ax):
    handles, labels = ax.get_legend_handles_labels()
    return {label: matplotlib.colors.to_hex(h.get_color()) for h, label in zip(handles, labels)}


def test_plot_writes_valid_png_with_two_panels(tmp_path):
    path = tmp_path / "fronts.png"
    fig = plot_fronts(TRAIN, TEST, path=path, title="sonar", full_error=(0.16, 0.21))
    assert isinstance(fig, Figure)
    assert path.is_file()
    image = matplotlib.image.imread(path)
    width, height = fig.get_size_inches() * 150  # saved at 150 dpi
    assert image.shape[:2] == (round(height), round(width))
    assert image.shape[2] in (3, 4)
    assert len(fig.axes) == 2
    assert [ax.get_title() for ax in fig.axes] == ["Training (inner CV)", "Test (hold-out)"]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        "NSGA-II", "CMDPSOFS", "SPEA2", "all features"]
    for ax in fig.axes:
        assert ax.get_legend() is None  # one legend, outside the data
        labels = _legend_labels(ax)
        assert labels == ["NSGA-II", "CMDPSOFS", "SPEA2", "all features"]
        assert ax.get_xlabel() == "Fraction of features selected"
        assert ax.get_ylabel() == "Classification error"
    assert fig.get_suptitle() == "sonar"


def test_plot_same_colour_per_algorithm_in_both_panels():
    fig = plot_fronts(TRAIN, TEST)
    train_colors, test_colors = (_marker_colors(ax) for ax in fig.axes)
    assert train_colors == test_colors
    assert len(set(train_colors.values())) == len(TRAIN)


def _marker_styles(ax):
    handles, labels = ax.get_legend_handles_labels()
    return {label: (h.get_marker(), matplotlib.colors.to_hex(h.get_color()))
            for h, label in zip(handles, labels) if label != "all features"}


def test_plot_each_algorithm_has_its_own_marker_and_colour_in_both_panels():
    fig = plot_fronts(TRAIN, TEST)
    train, test = (_marker_styles(ax) for ax in fig.axes)
    assert train == test and list(train) == list(TRAIN)
    markers = [marker for marker, _ in train.values()]
    colours = [colour for _, colour in train.values()]
    assert len(set(markers)) == len(set(colours)) == len(TRAIN)
    # hollow markers: a point drawn on top of another leaves the one below visible
    handles, _ = fig.axes[0].get_legend_handles_labels()
    assert all(h.get_markerfacecolor() == "none" for h in handles[:len(TRAIN)])


def test_plot_ten_algorithms_all_differ_in_marker_and_colour():
    fronts = {f"A{i}": np.array([[0.1 + 0.01 * i, 0.5]]) for i in range(10)}
    styles = _marker_styles(plot_fronts(fronts).axes[0])
    assert len({marker for marker, _ in styles.values()}) == 10
    assert len({colour for _, colour in styles.values()}) == 10


def test_plot_markers_follow_ratio_order():
    shuffled = {"A": np.array([[0.1, 0.5], [0.3, 0.1], [0.2, 0.3]])}
    fig = plot_fronts(shuffled)
    handles, labels = fig.axes[0].get_legend_handles_labels()
    line = handles[labels.index("A")]
    np.testing.assert_array_equal(line.get_xdata(), [0.1, 0.3, 0.5])
    np.testing.assert_array_equal(line.get_ydata(), [0.3, 0.2, 0.1])


def test_plot_training_only_has_one_axes_and_full_error_line():
    fig = plot_fronts(TRAIN, full_error=(0.16, None))
    assert len(fig.axes) == 1
    assert _legend_labels(fig.axes[0]) == ["NSGA-II", "CMDPSOFS", "SPEA2", "all features"]
    fig = plot_fronts(TRAIN)
    assert _legend_labels(fig.axes[0]) == ["NSGA-II", "CMDPSOFS", "SPEA2"]


def test_plot_algorithm_only_in_test_gets_its_own_colour():
    fig = plot_fronts({"A": TRAIN["NSGA-II"]}, {"A": TEST["NSGA-II"], "B": TEST["CMDPSOFS"]})
    assert _legend_labels(fig.axes[1]) == ["A", "B"]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["A", "B"]
    colors = _marker_colors(fig.axes[1])
    assert colors["A"] != colors["B"]


def test_plot_does_not_change_backend_or_register_with_pyplot(tmp_path):
    import matplotlib.pyplot as plt

    backend = matplotlib.get_backend()
    figures = plt.get_fignums()
    plot_fronts(TRAIN, TEST, path=tmp_path / "f.png")
    assert matplotlib.get_backend() == backend
    assert plt.get_fignums() == figures


def test_plot_missing_directory_raises(tmp_path):
    with pytest.raises(ValueError, match="path's parent directory does not exist"):
        plot_fronts(TRAIN, path=tmp_path / "missing" / "fronts.png")
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(train_fronts={}), "train_fronts must hold at least one algorithm"),
        (dict(train_fronts=[TRAIN["NSGA-II"]]), "train_fronts must be a dict"),
        (dict(train_fronts={"A": np.zeros((2, 3))}), r"train_fronts\['A'\] must have 2"),
        (dict(train_fronts=TRAIN, test_fronts={"A": np.zeros(2)}),
         r"test_fronts\['A'\] must be 2-D"),
        (dict(train_fronts=TRAIN, full_error=0.1), "full_error must be a pair"),
        (dict(train_fronts=TRAIN, train_average={"PAES": np.zeros((1, 2))}),
         "train_average names 'PAES', which has no front"),
        (dict(train_fronts=TRAIN, test_average={"SPEA2": np.zeros((1, 2))}),
         "test_average needs the fronts of its panel"),
        (dict(train_fronts=TRAIN, train_average={"SPEA2": np.zeros(3)}),
         r"train_average\['SPEA2'\] must be 2-D"),
    ],
)
def test_plot_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        plot_fronts(**kwargs)


def test_plot_average_fronts_beside_the_best_ones_in_the_same_colour():
    average = {"NSGA-II": np.array([[0.22, 0.1], [0.16, 0.3], [0.30, 0.2]]),
               "CMDPSOFS": np.array([[0.19, 0.1]])}
    fig = plot_fronts(TRAIN, TEST, full_error=(0.15, 0.2), train_average=average,
                      test_average={"NSGA-II": average["NSGA-II"] + 0.05})
    train, test = fig.axes
    assert _legend_labels(train) == ["NSGA-II-Best", "CMDPSOFS-Best", "SPEA2-Best",
                                     "NSGA-II-Ave", "CMDPSOFS-Ave", "all features"]
    assert _legend_labels(test) == ["NSGA-II-Best", "CMDPSOFS-Best", "SPEA2-Best",
                                    "NSGA-II-Ave", "all features"]
    colours = _marker_colors(train)
    assert colours["NSGA-II-Best"] == colours["NSGA-II-Ave"] != colours["CMDPSOFS-Ave"]
    # the average front is drawn in ratio order (it may hold dominated points)
    line = next(h for h, label in zip(*train.get_legend_handles_labels())
                if label == "NSGA-II-Ave")
    np.testing.assert_array_equal(line.get_xdata(), [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(line.get_ydata(), [0.22, 0.30, 0.16])
