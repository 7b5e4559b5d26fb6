"""Pareto-front figures of feature-selection runs, drawn off-screen.

Figures are built with :class:`matplotlib.figure.Figure` and the Agg canvas directly, so calling
:func:`plot_fronts` never opens a window, never registers the figure with ``pyplot`` and never
changes the user's matplotlib backend.
"""

import os
from collections.abc import Mapping

import numpy as np

from pymoo_fs.analysis.indicators import _as_front

__all__ = ["plot_fronts"]

_PANEL_TITLES = ("Training (inner CV)", "Test (hold-out)")


def _check_fronts(fronts, name):
    """Validate a {algorithm name: (n, 2) front} mapping; return {str(name): ndarray}."""
    if not isinstance(fronts, Mapping):
        raise ValueError(
            f"{name} must be a dict {{algorithm name: (n, 2) array}}, got {type(fronts).__name__}"
        )
    if len(fronts) == 0:
        raise ValueError(f"{name} must hold at least one algorithm, got an empty dict")
    return {str(k): _as_front(v, f"{name}[{k!r}]", n_obj=2) for k, v in fronts.items()}


def _check_averages(averages, fronts, name):
    """Validate average fronts against the fronts they accompany; None stays None."""
    if averages is None:
        return None
    if fronts is None:
        raise ValueError(f"{name} needs the fronts of its panel (test_fronts)")
    averages = _check_fronts(averages, name)
    unknown = [k for k in averages if k not in fronts]
    if unknown:
        raise ValueError(f"{name} names {unknown[0]!r}, which has no front to accompany")
    return averages


def _styles(names, style=None):
    """{name: (colour, marker, line style)}: the style's colour-blind-safe palette paired with
    distinct markers and line styles (:meth:`~pymoo_fs.analysis.FigureStyle.series`); the
    default palette's first 10 names all differ in colour and marker. Markers are drawn
    hollow, so that two algorithms' points on the same spot both show."""
    from pymoo_fs.analysis.style import figure_style

    return figure_style(style).series(names)


def _draw_panel(ax, fronts, styles, title, full_error, averages=None, n_features=None,
                error_label="Classification error"):
    """Draw one panel: each front as hollow markers joined by a step line in ratio order.

    With ``averages``, each algorithm's average front is drawn too, in its colour with small
    filled markers on a dotted line, and the labels become ``NAME-Best`` and ``NAME-Ave``.
    """
    for name, F in fronts.items():
        color, marker, linestyle = styles[name]
        order = np.lexsort((F[:, 0], F[:, 1]))  # ratio ascending, ties by error
        ratio, error = F[order, 1], F[order, 0]
        ax.step(ratio, error, where="post", color=color, linestyle=linestyle, linewidth=1.0,
                alpha=0.85)
        ax.plot(ratio, error, linestyle="none", marker=marker, markersize=4.5,
                markerfacecolor="none", markeredgewidth=1.0, color=color,
                label=name if averages is None else f"{name}-Best")
    for name, F in (averages or {}).items():
        color, marker, _ = styles[name]
        order = np.argsort(F[:, 1], kind="stable")
        ax.plot(F[order, 1], F[order, 0], linestyle=":", linewidth=0.9, marker=marker,
                markersize=2.5, color=color, alpha=0.9, label=f"{name}-Ave")
    if full_error is not None:
        ax.axhline(full_error, color="grey", linestyle="--", linewidth=0.9, label="all features")
    ax.set_title(title)
    ax.set_xlabel("Fraction of features selected")
    ax.set_ylabel(error_label)
    ax.grid(True, alpha=0.3)
    if n_features is not None:
        top = ax.secondary_xaxis("top", functions=(lambda r: r * n_features,
                                                    lambda k: k / n_features))
        top.set_xlabel("Number of features selected")


def plot_fronts(train_fronts, test_fronts=None, path=None, title=None, full_error=None,
                train_average=None, test_average=None, n_features=None, style=None,
                error_label="Classification error"):
    """Plot the fronts of several algorithms on training and, optionally, test data.

    Parameters
    ----------
    train_fronts : dict of {str: array_like of float, shape (n, 2)}
        One front per algorithm, columns (classification error rate, selection ratio), both
        minimised; for example :func:`~pymoo_fs.analysis.best_front` of several runs on
        inner cross-validation. Empty fronts are allowed (legend entry only).
    test_fronts : dict of {str: array_like of float, shape (n, 2)}, optional
        The same for the hold-out test set (may contain dominated points). When given, a
        second panel is drawn to the right of the training panel, with shared axes.
    path : str or os.PathLike, optional
        Where to save the figure as PNG (150 dpi); its parent directory must exist.
        ``None`` saves nothing.
    title : str, optional
        Figure title (drawn above the panels).
    full_error : tuple of (float or None, float or None), optional
        ``(train_error, test_error)`` of the classifier on all features, each drawn as a dashed
        grey horizontal line labelled "all features" in its panel; ``None`` entries are
        skipped.
    train_average, test_average : dict of {str: array_like of float, shape (n, 2)}, optional
        Each algorithm's "average" front (:func:`~pymoo_fs.analysis.average_front`) on
        training and test data, drawn beside its front of ``train_fronts`` /
        ``test_fronts`` (then taken to be the "best" fronts) in the same colour, as Nguyen et
        al.'s figures do (Soft Computing 2016, doi:10.1007/s00500-016-2128-8): labels
        ``NAME-Best`` and ``NAME-Ave``. Names must be among the fronts' names; a test average
        needs ``test_fronts``.
    n_features : int, optional
        The dataset's number of features ``D``: each panel then has a second x axis on top
        counting the features selected (``D`` times the fraction).
    style : FigureStyle or str, optional
        Size, fonts and palette (:func:`~pymoo_fs.analysis.figure_style`; default
        ``"two-column"``, 7.16 in wide, 8 pt text, the Okabe-Ito palette). Below 5 in wide
        the two panels stack.
    error_label : str, default="Classification error"
        The y axis' label: the error objective's name (``"Normalised MSE"`` for a regression
        target, :func:`pymoo_fs.evaluation.base.error_label`).

    Returns
    -------
    fig : matplotlib.figure.Figure
        One axes (training only) or two (training, test), and one legend for the figure
        below the panels, outside the data (``fig.legends[0]``). Each algorithm keeps one colour,
        one marker shape and one line style in both panels, assigned in the order of
        ``train_fronts`` and then of algorithms found only in ``test_fronts``; the first ten
        algorithms all differ in colour and in marker. Markers are hollow, so that points of
        several algorithms on the same spot all stay visible. Points are joined in
        selection-ratio order by a post-step line (the attainment staircase of a
        non-dominated front).

    Raises
    ------
    ValueError
        If ``train_fronts`` or ``test_fronts`` is not a non-empty dict of (n, 2) finite
        arrays, an average front names an algorithm without a front (or is given for the
        test panel without ``test_fronts``), ``full_error`` is not a pair, ``n_features`` is
        not a positive int, or the parent directory of ``path`` does not exist.

    Notes
    -----
    x is the selection ratio (fraction of features selected), y the classification error.
    The figure is not registered with ``pyplot``; show it in a notebook by leaving it as the
    last expression of a cell, or save it with ``path``.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.analysis import plot_fronts
    >>> fig = plot_fronts({"NSGA-II": np.array([[0.20, 0.1], [0.12, 0.3]]),
    ...                    "CMDPSOFS": np.array([[0.18, 0.1], [0.15, 0.2]])},
    ...                   test_fronts={"NSGA-II": np.array([[0.25, 0.1], [0.20, 0.3]]),
    ...                                "CMDPSOFS": np.array([[0.22, 0.1], [0.24, 0.2]])},
    ...                   full_error=(0.15, 0.21), title="sonar")
    >>> len(fig.axes)
    2
    >>> fig = plot_fronts({"ISRPSO": np.array([[0.10, 0.2]])},
    ...                   train_average={"ISRPSO": np.array([[0.15, 0.2], [0.30, 0.1]])})
    >>> [t.get_text() for t in fig.legends[0].get_texts()]
    ['ISRPSO-Best', 'ISRPSO-Ave']
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    train = _check_fronts(train_fronts, "train_fronts")
    test = None if test_fronts is None else _check_fronts(test_fronts, "test_fronts")
    averages = [_check_averages(train_average, train, "train_average"),
                _check_averages(test_average, test, "test_average")]
    if full_error is None:
        full_error = (None, None)
    elif isinstance(full_error, (str, bytes)) or np.ndim(full_error) != 1 or len(full_error) != 2:
        raise ValueError(
            f"full_error must be a pair (train_error, test_error), got {full_error!r}"
        )
    if n_features is not None and (isinstance(n_features, bool)
                                   or not isinstance(n_features, (int, np.integer))
                                   or n_features < 1):
        raise ValueError(f"n_features must be a positive int, got {n_features!r}")
    if path is not None:
        path = os.fspath(path)
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise ValueError(f"path's parent directory does not exist: {parent!r}")

    from pymoo_fs.analysis.style import figure_style

    style = figure_style(style)
    names = list(train) + ([k for k in test if k not in train] if test is not None else [])
    styles = _styles(names, style)

    n_panels = 1 if test is None else 2
    stacked = style.narrow and n_panels == 2
    rows, cols = (n_panels, 1) if stacked else (1, n_panels)
    n_entries = len(names) * (1 if all(a is None for a in averages) else 2) + 1
    ncol = max(1, min(n_entries, 2 if style.narrow else 4))
    legend_height = 0.16 * -(-n_entries // ncol) + 0.1
    panel = style.width / cols * 0.8
    with style.context():
        fig = Figure(figsize=style.size(height=panel * rows + legend_height
                                        + (0.3 if title else 0.0)), layout="constrained")
        FigureCanvasAgg(fig)
        axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False).reshape(-1)
        _draw_panel(axes[0], train, styles, _PANEL_TITLES[0], full_error[0], averages[0],
                    n_features, error_label)
        if test is not None:
            _draw_panel(axes[1], test, styles, _PANEL_TITLES[1], full_error[1], averages[1],
                        n_features, error_label)
            axes[1].yaxis.set_tick_params(labelleft=True)
            axes[0].xaxis.set_tick_params(labelbottom=True)
        handles, labels = axes[0].get_legend_handles_labels()
        if test is not None:  # an algorithm only in the test panel, and its lines
            for h, label in zip(*axes[1].get_legend_handles_labels()):
                if label not in labels:
                    handles.append(h)
                    labels.append(label)
        fig.legend(handles, labels, loc="outside lower center", ncol=ncol)
        if title is not None:
            fig.suptitle(title)
        if path is not None:
            fig.savefig(path, format="png", dpi=150)
    return fig
