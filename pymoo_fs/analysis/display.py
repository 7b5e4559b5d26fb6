"""The Pareto front of a fitted feature selector, as a scikit-learn display.

It behaves as scikit-learn's displays (:class:`sklearn.metrics.RocCurveDisplay`): without an
``ax`` it draws on a new pyplot figure, which becomes pyplot's current figure, so
``plt.savefig`` saves it, ``plt.show`` shows it and a notebook displays it; with an ``ax`` it
draws there and creates nothing. (The report's figures, :func:`pymoo_fs.analysis.plot_fronts`
and the others, are built off pyplot instead, on the Agg canvas.)
"""

import numbers

import numpy as np
from sklearn.utils.validation import check_is_fitted

__all__ = ["ParetoFrontDisplay"]


class ParetoFrontDisplay:
    """Pareto front of feature subsets: inner-CV error against the number of features.

    Follows scikit-learn's display convention: build it with :meth:`from_estimator` (or the
    constructor, then :meth:`plot`); the matplotlib objects are kept in attributes ending in
    ``_``.

    Parameters
    ----------
    error : array-like of float, shape (n,)
        Inner-CV classification error of each subset on the front.
    n_features : array-like of int, shape (n,)
        Number of features of each subset.
    chosen_index : int, optional
        Row of the chosen subset, marked with a ring. None marks nothing.
    all_features_error : float, optional
        Inner-CV error of the classifier on all features, drawn as a dashed horizontal line
        (and a square at ``n_features_in`` when that is given). None draws neither.
    n_features_in : int, optional
        Number of features of the data, ``D``.
    name : str, optional
        Legend label of the front; default ``"Pareto front"``.
    chosen_label : str, optional
        Legend label of the chosen subset, followed by its size and error; default
        ``"chosen"``.

    Attributes
    ----------
    line_ : matplotlib.lines.Line2D
        The front: markers at the subsets, joined by a post-step line in order of size (the
        attainment staircase).
    chosen_ : matplotlib.lines.Line2D or None
        The ring around the chosen subset.
    all_features_ : matplotlib.lines.Line2D or None
        The dashed all-features line.
    ax_ : matplotlib.axes.Axes
        The axes drawn on.
    figure_ : matplotlib.figure.Figure
        Its figure (a pyplot figure unless ``ax`` was given).

    Raises
    ------
    ValueError
        At :meth:`plot`, if ``error`` and ``n_features`` are not 1-D, non-empty and of one
        length, ``chosen_index`` is out of range, or ``all_features_error`` is not finite.

    Examples
    --------
    >>> from pymoo_fs.analysis import ParetoFrontDisplay
    >>> display = ParetoFrontDisplay(error=[0.30, 0.18, 0.15], n_features=[1, 3, 9],
    ...                              chosen_index=1, all_features_error=0.2, n_features_in=20)
    >>> display = display.plot()
    >>> display.chosen_.get_xydata().tolist()
    [[3.0, 0.18]]
    >>> display.ax_.get_xlabel()
    'Number of features selected'
    >>> import matplotlib.pyplot as plt
    >>> plt.gcf() is display.figure_  # pyplot's current figure: plt.savefig saves it
    True
    >>> plt.close(display.figure_)
    """

    def __init__(self, *, error, n_features, chosen_index=None, all_features_error=None,
                 n_features_in=None, name=None, chosen_label=None):
        self.error = error
        self.n_features = n_features
        self.chosen_index = chosen_index
        self.all_features_error = all_features_error
        self.n_features_in = n_features_in
        self.name = name
        self.chosen_label = chosen_label

    @classmethod
    def from_estimator(cls, estimator, *, ax=None, name=None, **kwargs):
        """Plot the front of a fitted :class:`~pymoo_fs.selector.SwarmFeatureSelector`.

        Parameters
        ----------
        estimator : fitted SwarmFeatureSelector
            Or any fitted object with ``pareto_front_`` (a dict with ``"error"`` and
            ``"n_features"``), ``chosen_index_``, ``all_features_error_`` and
            ``n_features_in_``.
        ax : matplotlib.axes.Axes, optional
            Where to draw; default a new pyplot figure (``plt.subplots()``, as scikit-learn's
            displays do), which becomes pyplot's current figure.
        name : str, optional
            Legend label of the front; default the class name, with the algorithm's name in
            parentheses when the estimator has ``algorithm_name_``.
        **kwargs
            Passed to :meth:`plot` (``front_kw``, ``chosen_kw``, ``all_features_kw``).

        Returns
        -------
        display : ParetoFrontDisplay

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.

        Notes
        -----
        Every value drawn is an inner cross-validation estimate on the data the selector was
        fitted on, with the folds of the search: the front's errors as the search scored them,
        and the all-features error as scored once after the search (see the selector's
        ``all_features_error_``). The chosen point is optimistic as an estimate of the error
        on new data (it was selected on these folds); score a held-out set for that.

        Examples
        --------
        >>> from pymoo_fs.analysis import ParetoFrontDisplay
        >>> from pymoo_fs.datasets import load_dataset
        >>> from pymoo_fs.selector import SwarmFeatureSelector
        >>> data = load_dataset("sonar")
        >>> selector = SwarmFeatureSelector(n_gen=5, pop_size=10, random_state=0)
        >>> display = ParetoFrontDisplay.from_estimator(selector.fit(data.X, data.y))
        >>> display.ax_.get_legend_handles_labels()[1]
        ['SwarmFeatureSelector (ISRPSO)', 'chosen (within_tol): ... features, error 0...',
         'all 60 features: error 0...']
        >>> import matplotlib.pyplot as plt
        >>> plt.close(display.figure_)
        """
        check_is_fitted(estimator, ["pareto_front_", "chosen_index_"])
        if name is None:
            name = type(estimator).__name__
            algorithm = getattr(estimator, "algorithm_name_", None)
            if algorithm:
                name = f"{name} ({algorithm})"
        front = estimator.pareto_front_
        display = cls(error=front["error"], n_features=front["n_features"],
                      chosen_index=estimator.chosen_index_,
                      all_features_error=getattr(estimator, "all_features_error_", None),
                      n_features_in=getattr(estimator, "n_features_in_", None), name=name,
                      chosen_label=_chosen_label(getattr(estimator, "select", None)))
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, front_kw=None, chosen_kw=None, all_features_kw=None):
        """Draw the front, the chosen subset and the all-features error.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; default a new pyplot figure (``plt.subplots()``, pyplot's current
            figure afterwards, so ``plt.savefig`` saves it), as scikit-learn's displays do.
        front_kw, chosen_kw, all_features_kw : dict, optional
            Keyword arguments for ``ax.plot`` of the front, of the chosen ring and of the
            all-features line, overriding the defaults.

        Returns
        -------
        display : ParetoFrontDisplay
            ``self``, with ``line_``, ``chosen_``, ``all_features_``, ``ax_`` and ``figure_``
            set.

        Raises
        ------
        ValueError
            See the class docstring.
        """
        error, sizes = self._check()
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(layout="constrained")
        order = np.lexsort((error, sizes))
        style = {"drawstyle": "steps-post", "marker": "o", "markersize": 5, "color": "C0",
                 "label": self.name or "Pareto front"}
        (self.line_,) = ax.plot(sizes[order], error[order], **{**style, **(front_kw or {})})
        self.chosen_ = None
        if self.chosen_index is not None:
            i = self.chosen_index
            label = f"{self.chosen_label or 'chosen'}: {sizes[i]} features, error {error[i]:.3f}"
            style = {"linestyle": "none", "marker": "o", "markersize": 13, "markeredgewidth": 2,
                     "markerfacecolor": "none", "color": "C3", "label": label}
            (self.chosen_,) = ax.plot([sizes[i]], [error[i]], **{**style, **(chosen_kw or {})})
        self.all_features_ = None
        if self.all_features_error is not None:
            D = self.n_features_in
            label = "all features" if D is None else f"all {D} features"
            style = {"linestyle": "--", "linewidth": 1.0, "color": "grey",
                     "label": f"{label}: error {self.all_features_error:.3f}"}
            style.update(all_features_kw or {})
            self.all_features_ = ax.axhline(self.all_features_error, **style)
            if D is not None:
                ax.plot([D], [self.all_features_error], linestyle="none", marker="s",
                        color=style["color"])
        ax.set_xlabel("Number of features selected")
        ax.set_ylabel("Inner-CV classification error")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize="small")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    def _check(self):
        error = np.asarray(self.error, dtype=np.float64)
        sizes = np.asarray(self.n_features)
        if error.ndim != 1 or error.shape != sizes.shape or error.size == 0:
            raise ValueError(f"error and n_features must be non-empty 1-D arrays of one "
                             f"length, got shapes {error.shape} and {sizes.shape}")
        if not np.all(np.isfinite(error)):
            raise ValueError("error must hold finite values")
        i = self.chosen_index
        if i is not None and not (isinstance(i, numbers.Integral) and 0 <= i < error.size):
            raise ValueError(f"chosen_index must be an int in [0, {error.size}), got {i!r}")
        e = self.all_features_error
        if e is not None and not (isinstance(e, numbers.Real) and np.isfinite(e)):
            raise ValueError(f"all_features_error must be a finite number, got {e!r}")
        return error, sizes.astype(np.int64)


def _chosen_label(select):
    """Legend label of the chosen subset for the selector's ``select`` rule."""
    if select is None:
        return None
    if isinstance(select, str):
        return f"chosen ({select})"
    return f"chosen (budget {select})"
