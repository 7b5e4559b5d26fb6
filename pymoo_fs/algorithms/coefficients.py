"""The particle-swarm coefficients (inertia weight, acceleration coefficients, velocity limit),
checked and stored one way for every swarm that has them.
"""

from pymoo_fs._validation import check_coefficient

__all__ = ["PSOCoefficients"]


class PSOCoefficients:
    """Mixin: checks PSO coefficients and stores them as attributes of the same name.

    A swarm lists the coefficients it takes as ranges in :attr:`ranged_coefficients` and calls
    :meth:`_set_coefficients` from its ``__init__``, in the order its parameters are checked.

    Attributes
    ----------
    ranged_coefficients : tuple of str
        Class attribute: the coefficients that may be given as a ``(low, high)`` pair, drawn
        ``U[low, high]`` per particle and move
        (:func:`~pymoo_fs.algorithms.swarm.draw_coefficient`); every other one must be a
        number. Default ``("w", "c1", "c2")``, the canonical PSO's (CMDPSOFS's original
        ``w ~ U[0.1, 0.5]``, ``c ~ U[1.5, 2.0]``).
    positive_coefficients : tuple of str
        Class attribute: the coefficients that must be > 0 rather than >= 0. Default
        ``("vmax",)``: a velocity limit of 0 would freeze the swarm.

    Notes
    -----
    Used by :class:`~pymoo_fs.algorithms.ParticleSwarm` (``w``, ``c1``, ``c2``, ``vmax``),
    :class:`~pymoo_fs.algorithms.BPSO` (the same; UBPSO's ``w_min``, ``w_max``),
    :class:`~pymoo_fs.algorithms.CEPSOFL` (``w`` a range, ``c1``, ``c2`` numbers) and
    :class:`~pymoo_fs.algorithms.varlen.VariableLengthSwarm` (``w``, ``w_end``, ``c``,
    ``vmax``, all numbers); SCTSOFS's ``c3`` too.

    Examples
    --------
    >>> from pymoo_fs.algorithms import PSO
    >>> PSO(w=(0.4, 0.9)).w
    (0.4, 0.9)
    >>> PSO(vmax=0.0)
    Traceback (most recent call last):
    ...
    ValueError: vmax must be positive, got 0.0
    """

    ranged_coefficients: tuple[str, ...] = ("w", "c1", "c2")
    positive_coefficients = ("vmax",)

    def _set_coefficients(self, **values):
        """Check each coefficient and set it on the instance, in the order given.

        Parameters
        ----------
        **values : float or tuple (low, high)
            Coefficient name -> value as given to the constructor.

        Raises
        ------
        ValueError
            Naming the first coefficient that is not a finite number (or, for one of
            :attr:`ranged_coefficients`, a ``(low, high)`` pair with ``low <= high``), that
            is negative, or that is 0 and one of :attr:`positive_coefficients`
            (:func:`pymoo_fs._validation.check_coefficient`).
        """
        for name, value in values.items():
            setattr(self, name, check_coefficient(
                name, value, positive=name in self.positive_coefficients,
                allow_range=name in self.ranged_coefficients))
