"""sphinx-gallery image scraper for pymoo-fs's figures (named in ``docs/conf.py``).

pymoo-fs draws on the Agg canvas without pyplot, so sphinx-gallery's own matplotlib scraper
(which asks pyplot for its figures) finds nothing. This one looks for
:class:`matplotlib.figure.Figure` objects among the example's variables after each code
block, shows each once, and saves it through :func:`pymoo_fs.analysis.save_figure` (the
figure style's fonts).
"""


def figure_scraper(block, block_vars, gallery_conf):
    """Save the figures a code block left in the example's globals; their reST."""
    from matplotlib.figure import Figure
    from sphinx_gallery.scrapers import figure_rst

    from pymoo_fs.analysis import save_figure

    example = block_vars["example_globals"]
    seen = example.setdefault("__pymoo_fs_shown__", set())
    paths = []
    for value in list(example.values()):
        if isinstance(value, Figure) and id(value) not in seen:
            seen.add(id(value))
            path = next(block_vars["image_path_iterator"])
            save_figure(value, path)
            paths.append(path)
    return figure_rst(paths, gallery_conf["src_dir"])


def _get_sg_image_scraper():
    """The hook sphinx-gallery calls for a scraper given by module name."""
    return figure_scraper
