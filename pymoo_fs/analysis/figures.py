"""Figures of a study beyond the fronts: convergence, selection frequency, t-SNE views.

Like :func:`~pymoo_fs.analysis.plot_fronts`, every figure is a
:class:`matplotlib.figure.Figure` on the Agg canvas: nothing opens a window or touches pyplot's
state, and each algorithm keeps the colour and marker it has in the front figures.
"""

import numpy as np

from pymoo_fs.analysis.plotting import _styles

__all__ = ["plot_convergence", "plot_selection_frequency", "plot_selection_heatmap", "plot_tsne",
           "tsne_embedding"]


def _figure(n_panels=1, width=6.0, height=4.5):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width * n_panels, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots(1, n_panels, squeeze=False)[0]


def _save(fig, path):
    if path is not None:
        fig.savefig(path, format="png", dpi=120)
    return fig


def plot_convergence(traces, ylabel, path=None, title=None, xscale="log"):
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

    Returns
    -------
    fig : matplotlib.figure.Figure
        Per algorithm the mean over runs (of each run's value carried forward at every
        evaluation count any run reached) as a line, the min-max band, and a marker where
        the longest run ends.

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
    fig, (ax,) = _figure()
    styles = _styles(list(traces))
    for name, runs in traces.items():
        grid, values = _common_grid(runs, name)
        if xscale == "budget":
            grid = 100.0 * grid / grid[-1]
        color, marker, linestyle = styles[name]
        ax.fill_between(grid, values.min(axis=0), values.max(axis=0), color=color, alpha=0.15,
                        linewidth=0, step="post")
        mean = values.mean(axis=0)
        ax.step(grid, mean, where="post", color=color, linestyle=linestyle, label=name)
        ax.plot(grid[-1:], mean[-1:], linestyle="none", marker=marker, color=color,
                markerfacecolor="none")
    if xscale == "log":
        from matplotlib.ticker import FuncFormatter, LogLocator

        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: ""))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.set_xlabel({"log": "evaluations (log scale)", "linear": "evaluations",
                   "budget": "share of the algorithm's evaluations (%)"}[xscale])
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    if title:
        ax.set_title(title)
    return _save(fig, path)


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


def plot_selection_frequency(frequencies, path=None, title=None):
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
    fig, (ax,) = _figure()
    styles = _styles(list(frequencies))
    for name, f in frequencies.items():
        f = np.sort(np.asarray(f, dtype=float))
        color, marker, linestyle = styles[name]
        ax.plot(np.arange(1, f.size + 1) / f.size, f, color=color, linestyle=linestyle,
                label=name)
    ax.set_xlabel("features, by increasing selection frequency (fraction of all)")
    ax.set_ylabel("selection frequency over runs")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    if title:
        ax.set_title(title)
    return _save(fig, path)


def plot_selection_heatmap(frequencies, path=None, title=None, max_features=80, q=None,
                           feature_names=None):
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
        Column labels; default the 0-based feature indices.

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
    width = min(14.0, max(6.0, 0.14 * columns.size + 2.5))
    fig, (ax,) = _figure(width=width, height=1.2 + 0.45 * len(names))
    image = ax.imshow(F[:, columns], aspect="auto", cmap="Greys", vmin=0.0, vmax=1.0,
                      interpolation="nearest")
    ax.set_yticks(np.arange(len(names)))
    ax.set_yticklabels([f"{n} (Q {q[n]:.2f})" if q and n in q else n for n in names])
    step = max(1, int(np.ceil(columns.size / 40)))
    ax.set_xticks(np.arange(0, columns.size, step))
    ax.set_xticklabels(labels[::step], rotation=90, fontsize="x-small")
    shown = (f"the {columns.size} most often selected of {n_features} features"
             if columns.size < n_features else f"all {n_features} features")
    ax.set_xlabel(f"feature (0-based index; {shown})")
    fig.colorbar(image, ax=ax, label="fraction of runs", fraction=0.05, pad=0.01)
    if title:
        ax.set_title(title)
    return _save(fig, path)


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


def plot_tsne(embeddings, y, path=None, title=None):
    """Side-by-side t-SNE views of one dataset, e.g. on all features and on a selected subset.

    Parameters
    ----------
    embeddings : dict of {str: ndarray of shape (n_samples, 2)}
        Panel title -> embedding (:func:`tsne_embedding`).
    y : array-like of shape (n_samples,)
        Class labels, one colour each.
    path : path, optional
    title : str, optional

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
    fig, axes = _figure(len(embeddings), width=5.0, height=4.5)
    for ax, (name, Y) in zip(axes, embeddings.items()):
        Y = np.asarray(Y, dtype=float)
        if Y.shape != (y.size, 2):
            raise ValueError(f"embedding {name!r} must have shape ({y.size}, 2), got {Y.shape}")
        for i, c in enumerate(classes):
            ax.scatter(Y[y == c, 0], Y[y == c, 1], s=10, color=f"C{i % 10}", label=str(c))
        ax.set_title(name)
        ax.set_xticks([])
        ax.set_yticks([])
    if classes.size <= 12:
        axes[-1].legend(loc="best", fontsize="x-small", title="class")
    if title:
        fig.suptitle(title)
    return _save(fig, path)
