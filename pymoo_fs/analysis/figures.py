"""Figures of a study beyond the fronts: convergence, selection frequency, t-SNE views,
per-run distributions, critical-difference diagrams.

Like :func:`~pymoo_fs.analysis.plot_fronts`, every figure is a
:class:`matplotlib.figure.Figure` on the Agg canvas: nothing opens a window or touches pyplot's
state, and each algorithm keeps the colour, marker and line style it has in the front figures.
Every function takes ``style`` (:func:`~pymoo_fs.analysis.figure_style`: the width of one or
two journal columns, 8 pt text, a colour-blind-safe palette), applied through
:func:`matplotlib.rc_context` while the figure is drawn, never to the global rcParams; legends
sit outside the data.
"""

import functools
import math

import numpy as np

from pymoo_fs.analysis.plotting import _styles
from pymoo_fs.analysis.style import figure_style

__all__ = ["plot_convergence", "plot_critical_difference", "plot_run_distributions",
           "plot_selection_frequency", "plot_selection_heatmap", "plot_tsne", "tsne_embedding"]


def _styled(function):
    """Resolve ``style`` and draw the figure inside its rc_context."""
    @functools.wraps(function)
    def wrapper(*args, style=None, **kwargs):
        style = figure_style(style)
        with style.context():
            return function(*args, style=style, **kwargs)
    return wrapper


def _figure(style, n_panels=1, height=None, aspect=0.62, rows=1, layout="constrained"):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=style.size(aspect=aspect, height=height), layout=layout)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(rows, n_panels // rows, squeeze=False).reshape(-1)


def _save(fig, path, style=None):
    if path is not None:
        fig.savefig(path, format="png", dpi=figure_style(style).dpi)
    return fig


def _legend_below(ax, style, n_entries, **kwargs):
    """The axes' legend under its x label, outside the data, in as many columns as fit."""
    ncol = max(1, min(n_entries, 3 if style.narrow else 5))
    return ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=ncol, **kwargs)


def _thin_overlapping_ticks(ax, axis="x"):
    """Drop every other labelled tick of ``axis`` until no two tick labels overlap."""
    fig = ax.figure
    for _ in range(6):
        fig.canvas.draw()
        getter = ax.get_xticklabels if axis == "x" else ax.get_yticklabels
        boxes = [t.get_window_extent() for t in getter() if t.get_text() and t.get_visible()]
        key = (lambda b: b.x0) if axis == "x" else (lambda b: b.y0)
        boxes.sort(key=key)
        if all(not a.overlaps(b) for a, b in zip(boxes, boxes[1:])):
            return
        target = ax.xaxis if axis == "x" else ax.yaxis
        ticks = [t for t in target.get_majorticklocs()]
        lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
        inside = [t for t in ticks if lo <= t <= hi]
        if len(inside) < 3:
            return
        from matplotlib.ticker import FixedLocator

        target.set_major_locator(FixedLocator(inside[::2]))


@_styled
def plot_convergence(traces, ylabel, path=None, title=None, xscale="log", style=None):
    """Mean convergence curve of each algorithm over its runs, with the runs' range.

    Parameters
    ----------
    traces : dict of {str: list of (array-like, array-like)}
        Per algorithm, one ``(n_eval, value)`` pair per run: the evaluations spent after each
        generation and the value then (best objective, or hypervolume of the current front).
        Runs may have different lengths.
    ylabel : str
        What the value is (e.g. ``"best fitness"`` or ``"hypervolume (train)"``).
    path : path, optional
        Save as PNG.
    title : str, optional
    xscale : {"log", "linear", "budget"}, default="log"
        The x axis: evaluations on a logarithmic axis (so that a 3,000-evaluation run and a
        60,000-evaluation one both use the width), on a linear axis, or each algorithm's own
        budget: the share of the evaluations its longest run spent (0 to 100 %).
    style : FigureStyle or str, optional
        :func:`~pymoo_fs.analysis.figure_style` (default two columns wide).

    Returns
    -------
    fig : matplotlib.figure.Figure
        Per algorithm the mean over runs (of each run's value carried forward at every
        evaluation count any run reached) as a line, the min-max band, and a marker where
        the longest run ends; the legend below the axes. On a log axis the labelled ticks
        are decades (1-2-5 within a short range), written in full (``1,000``), and thinned
        until no two labels overlap.

    Raises
    ------
    ValueError
        If ``traces`` is empty, a run's two arrays differ in length or are empty, or
        ``xscale`` is unknown.

    Examples
    --------
    >>> from pymoo_fs.analysis import plot_convergence
    >>> fig = plot_convergence({"PSO": [([10, 20, 30], [0.3, 0.2, 0.2]),
    ...                                 ([10, 20, 30], [0.4, 0.25, 0.1])]}, "best fitness")
    >>> fig.axes[0].get_xlabel(), fig.axes[0].get_xscale()
    ('evaluations (log scale)', 'log')
    """
    if not traces:
        raise ValueError("traces must hold at least one algorithm")
    if xscale not in ("log", "linear", "budget"):
        raise ValueError(f"xscale must be 'log', 'linear' or 'budget', got {xscale!r}")
    fig, (ax,) = _figure(style, aspect=0.5 if not style.narrow else 0.8)
    styles = _styles(list(traces), style)
    lo, hi = math.inf, 0.0
    for name, runs in traces.items():
        grid, values = _common_grid(runs, name)
        if xscale == "budget":
            grid = 100.0 * grid / grid[-1]
        lo, hi = min(lo, float(grid[grid > 0].min(initial=math.inf))), max(hi, float(grid[-1]))
        color, marker, linestyle = styles[name]
        ax.fill_between(grid, values.min(axis=0), values.max(axis=0), color=color, alpha=0.15,
                        linewidth=0, step="post")
        mean = values.mean(axis=0)
        ax.step(grid, mean, where="post", color=color, linestyle=linestyle, label=name)
        ax.plot(grid[-1:], mean[-1:], linestyle="none", marker=marker, color=color,
                markerfacecolor="none")
    if xscale == "log":
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

        ax.set_xscale("log")
        decades = math.log10(hi / lo) if hi > lo > 0 else 1.0
        subs = (1.0, 2.0, 5.0) if decades <= 1.5 else (1.0,)
        ax.xaxis.set_major_locator(LogLocator(subs=subs))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}" if x >= 1
                                                   else f"{x:g}"))
    elif xscale == "linear":
        from matplotlib.ticker import FuncFormatter, MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(nbins=5 if style.narrow else 8))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.set_xlabel({"log": "evaluations (log scale)", "linear": "evaluations",
                   "budget": "share of the algorithm's evaluations (%)"}[xscale])
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    _legend_below(ax, style, len(traces))
    if title:
        ax.set_title(style.wrap(title))
    _thin_overlapping_ticks(ax)
    return _save(fig, path, style)


def _common_grid(runs, name):
    """Every run's values on the union of the evaluation counts, carried forward."""
    parsed = []
    for x, y in runs:
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        if x.ndim != 1 or x.shape != y.shape or x.size == 0:
            raise ValueError(f"traces[{name!r}]: each run needs two equal-length 1-D arrays")
        parsed.append((x, y))
    if not parsed:
        raise ValueError(f"traces[{name!r}] holds no run")
    grid = np.unique(np.concatenate([x for x, _ in parsed]))
    values = np.empty((len(parsed), grid.size))
    for i, (x, y) in enumerate(parsed):
        at = np.searchsorted(x, grid, side="right") - 1
        values[i] = y[np.clip(at, 0, None)]
        values[i, at < 0] = y[0]
    return grid, values


@_styled
def plot_selection_frequency(frequencies, path=None, title=None, style=None):
    """Sorted selection frequency of the features, one curve per algorithm.

    The view of T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature
    selection: a size-controlled approach", AusDM 2015, CRPIT 168, section 5.5, Fig. 1.

    Parameters
    ----------
    frequencies : dict of {str: array-like of float, shape (n_features,)}
        Per algorithm, the fraction of runs that selected each feature
        (:func:`~pymoo_fs.analysis.selection_frequency`).
    path : path, optional
    title : str, optional
    style : FigureStyle or str, optional
        :func:`~pymoo_fs.analysis.figure_style`.

    Returns
    -------
    fig : matplotlib.figure.Figure
        x: features ranked by frequency (as a fraction of all features), y: frequency. A deeper
        (more bowed) curve means a more consistent algorithm.

    Raises
    ------
    ValueError
        If ``frequencies`` is empty.
    """
    if not frequencies:
        raise ValueError("frequencies must hold at least one algorithm")
    fig, (ax,) = _figure(style, aspect=0.5 if not style.narrow else 0.8)
    styles = _styles(list(frequencies), style)
    for name, f in frequencies.items():
        f = np.sort(np.asarray(f, dtype=float))
        color, marker, linestyle = styles[name]
        ax.plot(np.arange(1, f.size + 1) / f.size, f, color=color, linestyle=linestyle,
                label=name)
    ax.set_xlabel("features, by increasing selection frequency (fraction of all)")
    ax.set_ylabel("selection frequency over runs")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(True, alpha=0.3)
    _legend_below(ax, style, len(frequencies))
    if title:
        ax.set_title(style.wrap(title))
    return _save(fig, path, style)


@_styled
def plot_selection_heatmap(frequencies, path=None, title=None, max_features=80, q=None,
                           feature_names=None, style=None):
    """Selection frequency of every feature by every algorithm, as a heatmap.

    Parameters
    ----------
    frequencies : dict of {str: array-like of float, shape (n_features,)}
        Per algorithm, the fraction of runs that selected each feature
        (:func:`~pymoo_fs.analysis.selection_frequency`), in [0, 1].
    path : path, optional
        Save as PNG.
    title : str, optional
    max_features : int, default=80
        At most this many columns: with more features, the ``max_features`` features most
        often selected over all algorithms (mean frequency; ties by index), in index order.
    q : dict of {str: float}, optional
        A Q-measure per algorithm (:func:`~pymoo_fs.analysis.q_measure`), shown beside its
        name.
    feature_names : sequence of str, optional
        Column labels, one per feature (e.g. the CSV header,
        :attr:`~pymoo_fs.datasets.Dataset.feature_names`); default the 0-based feature
        indices.
    style : FigureStyle or str, optional
        :func:`~pymoo_fs.analysis.figure_style`; column labels are thinned to every
        ``k``-th so that they stay at the style's tick size without overlapping.

    Returns
    -------
    fig : matplotlib.figure.Figure
        Rows: algorithms, in the order given; columns: features; colour: the fraction of runs
        that selected the feature (white 0, dark 1), with a colour bar. A consistent algorithm
        has a few dark cells and a pale rest; an indiscriminate one a uniform grey row.

    Raises
    ------
    ValueError
        If ``frequencies`` is empty, its arrays differ in length or leave [0, 1], or
        ``max_features`` is below 1.

    References
    ----------
    T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
    size-controlled approach", AusDM 2015, CRPIT 168, §5.5 (selection frequencies and the
    Q-measure).

    Examples
    --------
    >>> from pymoo_fs.analysis import plot_selection_heatmap
    >>> fig = plot_selection_heatmap({"PSO": [1.0, 0.5, 0.0], "SFS": [1.0, 0.0, 0.0]},
    ...                              q={"PSO": 0.5, "SFS": 1.33})
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['PSO (Q 0.50)', 'SFS (Q 1.33)']
    """
    if not frequencies:
        raise ValueError("frequencies must hold at least one algorithm")
    if max_features < 1:
        raise ValueError(f"max_features must be at least 1, got {max_features!r}")
    names = list(frequencies)
    F = [np.asarray(frequencies[n], dtype=float) for n in names]
    if any(f.ndim != 1 or f.shape != F[0].shape for f in F):
        raise ValueError("frequencies must be 1-D arrays of one length (one per feature)")
    F = np.vstack(F)
    if not np.all((F >= 0) & (F <= 1)):
        raise ValueError("frequencies must lie in [0, 1]")
    n_features = F.shape[1]
    columns = np.arange(n_features)
    if n_features > max_features:
        order = np.lexsort((columns, -F.mean(axis=0)))
        columns = np.sort(order[:max_features])
    labels = ([str(i) for i in columns] if feature_names is None
              else [str(feature_names[i]) for i in columns])
    if feature_names is not None and len(feature_names) != n_features:
        raise ValueError(f"feature_names has {len(feature_names)} names for {n_features} "
                         f"features")
    longest = max(len(s) for s in labels)
    fig, (ax,) = _figure(style, height=1.0 + 0.18 * len(names) + 0.075 * min(longest, 24)
                         + (0.25 if title else 0.0))
    image = ax.imshow(F[:, columns], aspect="auto", cmap="Greys", vmin=0.0, vmax=1.0,
                      interpolation="nearest")
    ax.set_yticks(np.arange(len(names)))
    ax.set_yticklabels([f"{n} (Q {q[n]:.2f})" if q and n in q else n for n in names])
    # room per column (points): the axes take about 55 % of a one-column width (the names and
    # the colour bar take the rest), 70 % of a two-column one; a label needs ~1.5 x its size
    room = (0.55 if style.narrow else 0.7) * style.width * 72.0 / columns.size
    step = max(1, int(np.ceil(1.5 * style.small / room)))
    ax.set_xticks(np.arange(0, columns.size, step))
    ax.set_xticklabels([s if len(s) <= 24 else s[:23] + "…" for s in labels[::step]],
                       rotation=90)
    shown = (f"the {columns.size} most often selected of {n_features} features"
             if columns.size < n_features else f"all {n_features} features")
    every = f", a label every {step} features" if step > 1 else ""
    ax.set_xlabel(style.wrap(f"feature ({'0-based index; ' if feature_names is None else ''}"
                             f"{shown}{every})"))
    fig.colorbar(image, ax=ax, label="fraction of runs", fraction=0.05, pad=0.01)
    if title:
        ax.set_title(style.wrap(title))
    return _save(fig, path, style)


def tsne_embedding(X, random_state=0, perplexity=30.0):
    """Two-dimensional t-SNE embedding (scikit-learn's :class:`~sklearn.manifold.TSNE`).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    random_state : int, default=0
    perplexity : float, default=30.0
        Lowered to ``(n_samples - 1) / 3`` for small datasets (it must be below
        ``n_samples``).

    Returns
    -------
    Y : ndarray of float64, shape (n_samples, 2)

    Raises
    ------
    ValueError
        If ``X`` is not 2-D with at least 2 samples and 1 feature.

    Notes
    -----
    The embedding starts from PCA (scikit-learn's ``init="pca"``), which needs 2 features; a
    one-feature ``X`` (a selection of a single feature) starts from a random layout instead.
    """
    from sklearn.manifold import TSNE

    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 1:
        raise ValueError(f"X must be 2-D with at least 2 samples and 1 feature for a t-SNE "
                         f"view, got shape {X.shape}")
    perplexity = min(perplexity, max(1.0, (X.shape[0] - 1) / 3))
    return TSNE(n_components=2, perplexity=perplexity,
                init="pca" if X.shape[1] >= 2 else "random",
                random_state=random_state).fit_transform(X)


@_styled
def plot_tsne(embeddings, y, path=None, title=None, style=None):
    """Side-by-side t-SNE views of one dataset, e.g. on all features and on a selected subset.

    Parameters
    ----------
    embeddings : dict of {str: ndarray of shape (n_samples, 2)}
        Panel title -> embedding (:func:`tsne_embedding`).
    y : array-like of shape (n_samples,)
        Class labels, one colour each.
    path : path, optional
    title : str, optional
    style : FigureStyle or str, optional
        :func:`~pymoo_fs.analysis.figure_style`: classes take the palette's colours and
        markers.

    Returns
    -------
    fig : matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If ``embeddings`` is empty or an embedding does not have one 2-D point per label.
    """
    if not embeddings:
        raise ValueError("embeddings must hold at least one view")
    y = np.asarray(y)
    classes = np.unique(y)
    fig, axes = _figure(style, len(embeddings), aspect=0.55 if len(embeddings) > 1 else 0.9)
    series = style.series([str(c) for c in classes])
    for ax, (name, Y) in zip(axes, embeddings.items()):
        Y = np.asarray(Y, dtype=float)
        if Y.shape != (y.size, 2):
            raise ValueError(f"embedding {name!r} must have shape ({y.size}, 2), got {Y.shape}")
        for i, c in enumerate(classes):
            color, marker, _ = series[str(c)]
            ax.scatter(Y[y == c, 0], Y[y == c, 1], s=6, color=color, marker=marker,
                       linewidths=0.3, label=str(c))
        ax.set_title(style.wrap(name, len(embeddings)))
        ax.set_xticks([])
        ax.set_yticks([])
    if classes.size <= 12:
        fig.legend(*axes[-1].get_legend_handles_labels(), loc="outside right upper",
                   title="class")
    if title:
        fig.suptitle(style.wrap(title))
    return _save(fig, path, style)


@_styled
def plot_run_distributions(panels, path=None, title=None, style=None):
    """Per-run distributions of a measure, one box per algorithm, every run drawn on top.

    Parameters
    ----------
    panels : dict of {str: dict of {str: array-like of float}}
        Panel title (the measure, e.g. ``"HV (test), higher is better"``) -> algorithm ->
        one value per run. Panels sit side by side (stacked below 5 in).
    path : path, optional
        Save as PNG.
    title : str, optional
    style : FigureStyle or str, optional
        :func:`~pymoo_fs.analysis.figure_style`.

    Returns
    -------
    fig : matplotlib.figure.Figure
        Per panel, one box per algorithm (median, quartiles, whiskers to 1.5 IQR), in the
        algorithm's colour, and each run's value as a hollow marker of its shape, spread
        evenly across the box's width.

    Raises
    ------
    ValueError
        If ``panels`` or a panel is empty, or a value is not finite.

    Examples
    --------
    >>> from pymoo_fs.analysis import plot_run_distributions
    >>> fig = plot_run_distributions({"HV": {"A": [0.5, 0.6, 0.7], "B": [0.4, 0.5]}})
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]
    ['A', 'B']
    """
    if not panels:
        raise ValueError("panels must hold at least one measure")
    names = list(dict.fromkeys(n for values in panels.values() for n in values))
    styles = _styles(names, style)
    n = len(panels)
    rows = n if style.narrow else 1
    fig, axes = _figure(style, n, rows=rows,
                        height=(2.3 * rows if style.narrow else 2.6) + (0.3 if title else 0.0))
    for ax, (measure, values) in zip(axes, panels.items()):
        if not values:
            raise ValueError(f"panel {measure!r} holds no algorithm")
        data = []
        for name, v in values.items():
            v = np.asarray(v, dtype=float).reshape(-1)
            if v.size == 0 or not np.all(np.isfinite(v)):
                raise ValueError(f"panel {measure!r}, {name!r}: values must be finite and "
                                 f"non-empty")
            data.append(v)
        box = ax.boxplot(data, widths=0.6, patch_artist=True, showfliers=False,
                         medianprops={"color": "black", "linewidth": 1.0})
        for patch, name in zip(box["boxes"], values):
            patch.set_facecolor(styles[name][0])
            patch.set_alpha(0.35)
        for i, (name, v) in enumerate(zip(values, data), start=1):
            color, marker, _ = styles[name]
            x = i + (np.linspace(-0.18, 0.18, v.size) if v.size > 1 else np.zeros(1))
            ax.plot(x, v, linestyle="none", marker=marker, markerfacecolor="none",
                    markersize=3.5, markeredgewidth=0.8, color=color)
        ax.set_xticks(np.arange(1, len(values) + 1))
        ax.set_xticklabels(list(values), rotation=30 if len(values) > 3 else 0,
                           ha="right" if len(values) > 3 else "center")
        ax.set_ylabel(measure)
        ax.grid(True, axis="y", alpha=0.3)
    if title:
        fig.suptitle(style.wrap(title))
    return _save(fig, path, style)


@_styled
def plot_critical_difference(result, path=None, title=None, style=None):
    """The critical-difference diagram of algorithms ranked across datasets.

    Parameters
    ----------
    result : FriedmanResult
        From :func:`~pymoo_fs.analysis.statistics.friedman_ranks` (mean ranks, Nemenyi
        p-values, critical difference).
    path : path, optional
        Save as PNG.
    title : str, optional
    style : FigureStyle or str, optional
        :func:`~pymoo_fs.analysis.figure_style`; each algorithm keeps its colour.

    Returns
    -------
    fig : matplotlib.figure.Figure
        The mean-rank axis as scikit-posthocs draws it, each algorithm at its mean rank
        (labelled with it), bars joining
        the algorithms whose Nemenyi p-value is not below alpha (no significant difference),
        drawn by :func:`scikit_posthocs.critical_difference_diagram`; the critical
        difference ``CD`` in the title's second line.

    References
    ----------
    J. Demsar, "Statistical comparisons of classifiers over multiple data sets", JMLR
    7:1-30, 2006 (section 3.2.2 and Fig. 1).
    """
    import pandas as pd
    import scikit_posthocs

    labels = list(result.labels)
    styles = _styles(labels, style)
    ranks = pd.Series(result.mean_ranks)
    posthoc = np.asarray(result.posthoc, dtype=float)
    posthoc = np.where(np.isfinite(posthoc), posthoc, 1.0)
    sig = pd.DataFrame(posthoc, index=labels, columns=labels)
    height = 0.9 + 0.16 * len(labels) + (0.3 if title else 0.0)
    fig, (ax,) = _figure(style, height=height, layout=None)
    scikit_posthocs.critical_difference_diagram(
        ranks, sig, ax=ax, alpha=result.alpha,
        color_palette={k: v[0] for k, v in styles.items()},
        label_props={"fontsize": style.small}, marker_props={"s": 14},
        label_fmt_left="{label} ({rank:.2f})", label_fmt_right="({rank:.2f}) {label}")
    for text in ax.texts:
        text.set_fontsize(max(style.small, text.get_fontsize() or 0))
    ax.tick_params(labelsize=style.small)
    ax.set_xlabel("mean rank (1: the best)")
    line = (f"Nemenyi CD = {result.critical_difference:.2f} at alpha {result.alpha:g}; "
            f"Friedman p = {result.pvalue:.3g}" if np.isfinite(result.pvalue) else
            "Friedman's test needs 3 or more algorithms")
    title = style.wrap(f"{title}\n{line}" if title else line)
    ax.set_title(title)
    # the labels sit outside the axes, where the constrained layout does not look: margins
    # as wide as the longest label (about 0.62 em a character) on both sides
    longest = max(len(f"{a} ({r:.2f})") for a, r in result.mean_ranks.items())
    side = min(0.42, (longest * 0.62 * style.small / 72.0 + 0.12) / style.width)
    top = 1.0 - (0.18 + 0.14 * (title.count("\n") + 1)) / fig.get_size_inches()[1]
    fig.subplots_adjust(left=side, right=1.0 - side, top=top,
                        bottom=0.32 / fig.get_size_inches()[1] + 0.05)
    return _save(fig, path, style)
