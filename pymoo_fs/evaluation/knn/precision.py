"""Precision of the Gram products: ``precision="auto"``'s move from float32 to float64."""

from pymoo_fs.evaluation.base import check_float32_range

#: precision="auto" leaves float32 once this fraction of the rows scored needed their float32
#: rounding band re-measured in float64 (and were then certified)...
AUTO_REFINED = 0.02
#: ...counted over at least this many masks' worth of rows
AUTO_MIN_MASKS = 4


class AutoPrecision:
    """The rule of ``precision="auto"``: leave float32 for good once float32's rounding band
    sends more than :data:`AUTO_REFINED` of the rows scored to a float64 re-measurement that
    settles them (heavy-tailed data: a row's band grows with the largest row norms). Rows left
    uncertified either way (exact ties) do not count. Only the speed depends on this.

    Parameters
    ----------
    n_rows : int
        CV rows per mask (R).
    """

    def __init__(self, n_rows):
        self.n_rows = n_rows
        self.rows = 0  # rows scored in float32...
        self.refined = 0  # ...and those float64 had to settle

    def leaves_float32(self, n_unc, refined):
        """Count a float32 batch; True once float64 should take over.

        Parameters
        ----------
        n_unc : ndarray of int64, shape (n_masks,)
            Rows of each mask left uncertified after the float64 re-measurement.
        refined : int
            Rows re-measured in float64 during the batch (:meth:`.RowSeeds.new_refinements`).

        Returns
        -------
        bool
        """
        self.rows += n_unc.size * self.n_rows
        self.refined += refined - int(n_unc.sum())
        return (self.rows >= AUTO_MIN_MASKS * self.n_rows
                and self.refined > AUTO_REFINED * self.rows)


def float32_holds(X):
    """Whether float32 Gram products can hold the squared distances of ``X``.

    Parameters
    ----------
    X : ndarray of float64, shape (n_samples, n_features)

    Returns
    -------
    bool
        False where :func:`~pymoo_fs.evaluation.base.check_float32_range` raises.
    """
    try:
        check_float32_range(X)
    except ValueError:
        return False
    return True
