"""Figure styles for journals: :class:`FigureStyle`, :func:`figure_style`, :func:`save_figure`.

A style fixes the figure width (one column, 3.5 in, or two columns, 7.16 in: the IEEE and ACM
text widths), the text size at that width (8 pt, ticks and legends 7 pt: never below 7 pt once
printed at the width), a colour-blind-safe palette paired with distinct markers and line
styles, and the font embedding that publishers accept: TrueType (Type 42) fonts in PDF and
PostScript, real text in SVG. It is applied in a scoped way, through
:func:`matplotlib.rc_context` (:meth:`FigureStyle.context`), never by changing the global
``rcParams``.
"""

from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["FIGURE_STYLES", "PALETTES", "FigureStyle", "figure_style", "save_figure"]

#: colour-blind-safe palettes (and matplotlib's default, not safe, for comparison)
PALETTES = {
    # M. Okabe, K. Ito, "Color universal design" (2002), https://jfly.uni-koeln.de/color/;
    # ordered so that neighbours differ most, yellow (low contrast on white) last, then two
    # of Tol's muted colours (wine, grey) for a 9th and 10th algorithm
    "okabe-ito": ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
                  "#F0E442", "#882255", "#999999"),
    # P. Tol, "Colour schemes", SRON/EPS/TN/09-002 (2021), https://personal.sron.nl/~pault/:
    # the "bright" qualitative scheme
    "tol-bright": ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377",
                   "#BBBBBB"),
    "tab10": ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
              "#7f7f7f", "#bcbd22", "#17becf"),
}
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")
_LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 2)))


@dataclass(frozen=True)
class FigureStyle:
    """How the report's figures look.

    Attributes
    ----------
    width : float
        Figure width in inches (3.5 one column, 7.16 two columns); heights follow from it.
    font_size : float
        Text size in points at that width (labels, titles); ticks, legends and annotations are
        one point smaller, never below 7 pt.
    palette : tuple of str
        Colours, one per algorithm in order (cycled beyond its length).
    markers : tuple of str
        Marker shapes, one per algorithm (paired with the colours, so that a reader who cannot
        tell two colours apart still tells the algorithms apart).
    linestyles : tuple
        Line styles, one per algorithm.
    dpi : int
        Resolution of PNG files.

    Raises
    ------
    ValueError
        If ``width`` is not in [2, 20] inches, ``font_size`` not in [7, 14] points, ``dpi``
        not in [50, 1200], or ``palette`` holds fewer than 2 colours.
    """

    width: float = 7.16
    font_size: float = 8.0
    palette: tuple = PALETTES["okabe-ito"]
    markers: tuple = _MARKERS
    linestyles: tuple = _LINESTYLES
    dpi: int = 150

    def __post_init__(self):
        import matplotlib.colors

        if not isinstance(self.width, (int, float)) or not 2.0 <= self.width <= 20.0:
            raise ValueError(f"width must be a number of inches in [2, 20], got {self.width!r}")
        if not isinstance(self.font_size, (int, float)) or not 7 <= self.font_size <= 14:
            raise ValueError(f"font_size must be in [7, 14] points, got {self.font_size!r}")
        if isinstance(self.dpi, bool) or not isinstance(self.dpi, int) \
                or not 50 <= self.dpi <= 1200:
            raise ValueError(f"dpi must be an int in [50, 1200], got {self.dpi!r}")
        palette = tuple(self.palette)
        if len(palette) < 2 or not all(matplotlib.colors.is_color_like(c) for c in palette):
            raise ValueError(f"palette must hold at least 2 colours, got {self.palette!r}")
        object.__setattr__(self, "palette", palette)

    @property
    def small(self):
        """float: the size of ticks, legends and annotations (``font_size - 1``, >= 7)."""
        return max(7.0, self.font_size - 1)

    @property
    def narrow(self):
        """bool: whether the width is one column's (under 5 in): panels stack vertically."""
        return self.width < 5.0

    def rc(self):
        """dict: the rcParams of the style (for :func:`matplotlib.rc_context`)."""
        from cycler import cycler

        return {"font.size": self.font_size, "axes.titlesize": self.font_size,
                "axes.labelsize": self.font_size, "figure.titlesize": self.font_size + 1,
                "xtick.labelsize": self.small, "ytick.labelsize": self.small,
                "legend.fontsize": self.small, "legend.title_fontsize": self.small,
                "axes.prop_cycle": cycler(color=list(self.palette)),
                "axes.linewidth": 0.6, "lines.linewidth": 1.1, "lines.markersize": 4.0,
                "xtick.major.width": 0.6, "ytick.major.width": 0.6, "grid.linewidth": 0.5,
                "legend.frameon": False, "pdf.fonttype": 42, "ps.fonttype": 42,
                "svg.fonttype": "none", "figure.dpi": 100, "savefig.dpi": self.dpi}

    @contextmanager
    def context(self):
        """A ``with`` block in which matplotlib uses the style (scoped rcParams)."""
        import matplotlib

        with matplotlib.rc_context(self.rc()):
            yield self

    def series(self, names):
        """{name: (colour, marker, line style)}: one combination per name, in order.

        Colours cycle with the palette's length, markers with 10, line styles with 6; the
        first ``min(len(palette), 10)`` names differ in all three.
        """
        return {name: (self.palette[i % len(self.palette)], self.markers[i % len(self.markers)],
                       self.linestyles[i % len(self.linestyles)])
                for i, name in enumerate(names)}

    def wrap(self, text, panels=1):
        """``text`` broken into lines that fit the width of ``panels`` side-by-side panels at
        the style's font size (about 0.62 em per character); existing line breaks are kept."""
        import textwrap

        chars = max(20, int(self.width / panels * 72.0 / (0.62 * self.font_size)))
        lines = str(text).split("\n")
        if all(len(line) <= chars for line in lines):
            return text
        return "\n".join(part for line in lines for part in (textwrap.wrap(line, chars) or [""]))

    def size(self, aspect=0.62, height=None):
        """(width, height) in inches: the style's width and ``aspect`` times it (or ``height``),
        the height set a quarter pixel above a whole number of pixels at ``dpi`` (so that a PNG
        is ``round(height * dpi)`` pixels high)."""
        h = height if height is not None else self.width * aspect
        return (self.width, (round(h * self.dpi) + 0.25) / self.dpi)


#: named styles: ``"two-column"`` (7.16 in, the default), ``"one-column"`` (3.5 in)
FIGURE_STYLES = {"two-column": FigureStyle(), "one-column": FigureStyle(width=3.5)}


def figure_style(style=None, palette=None, width=None, font_size=None):
    """A :class:`FigureStyle` from a preset name, a style, or None (the default).

    Parameters
    ----------
    style : FigureStyle or {"two-column", "one-column"} or None, default=None
        None is ``"two-column"``.
    palette : str or sequence of str, optional
        A name of :data:`PALETTES` (``"okabe-ito"``, ``"tol-bright"``, ``"tab10"``) or a
        sequence of colours, replacing the style's.
    width : float or {"one-column", "two-column"}, optional
        Inches, or a preset's width, replacing the style's.
    font_size : float, optional
        Points, replacing the style's.

    Returns
    -------
    style : FigureStyle

    Raises
    ------
    ValueError
        For an unknown preset or palette name, or values :class:`FigureStyle` refuses.

    Examples
    --------
    >>> from pymoo_fs.analysis import figure_style
    >>> s = figure_style("one-column", palette="tol-bright")
    >>> s.width, s.palette[0], s.rc()["pdf.fonttype"]
    (3.5, '#4477AA', 42)
    """
    from dataclasses import replace

    if style is None:
        style = FIGURE_STYLES["two-column"]
    elif isinstance(style, str):
        if style not in FIGURE_STYLES:
            raise ValueError(f"unknown figure style {style!r}; choose one of "
                             f"{', '.join(FIGURE_STYLES)}")
        style = FIGURE_STYLES[style]
    elif not isinstance(style, FigureStyle):
        raise ValueError(f"style must be a FigureStyle or one of {', '.join(FIGURE_STYLES)}, "
                         f"got {type(style).__name__}")
    changes = {}
    if palette is not None:
        if isinstance(palette, str):
            if palette not in PALETTES:
                raise ValueError(f"unknown palette {palette!r}; choose one of "
                                 f"{', '.join(PALETTES)}")
            palette = PALETTES[palette]
        changes["palette"] = tuple(palette)
    if width is not None:
        changes["width"] = FIGURE_STYLES[width].width if isinstance(width, str) and \
            width in FIGURE_STYLES else width
        if isinstance(changes["width"], str):
            raise ValueError(f"width must be inches or one of {', '.join(FIGURE_STYLES)}, "
                             f"got {width!r}")
    if font_size is not None:
        changes["font_size"] = font_size
    return replace(style, **changes) if changes else style


def save_figure(figure, path, style=None, format=None):
    """Save a figure with the style's font embedding (Type 42 PDF fonts, SVG text as text).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    path : path or file-like
    style : FigureStyle or str, optional
        As :func:`figure_style`.
    format : str, optional
        ``"png"``, ``"pdf"``, ``"svg"``...; default from the file name.

    Returns
    -------
    path : the ``path`` given
    """
    style = figure_style(style)
    with style.context():
        figure.savefig(path, format=format, dpi=style.dpi)
    return path
