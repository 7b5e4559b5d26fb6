"""The PSO coefficients mixin: one check of w, c1, c2, vmax (and kin) for every swarm."""

import pytest

from pymoo_fs.algorithms import AMSO, BPSO, CEPSOFL, PSO, SCTSOFS, UBPSO, VLPSO, ParticleSwarm
from pymoo_fs.algorithms.coefficients import PSOCoefficients

#: swarm -> (coefficients that take ranges, coefficients that must be numbers)
SWARMS = {
    PSO: (("w", "c1", "c2"), ("vmax",)),
    BPSO: (("w", "c1", "c2"), ("vmax",)),
    CEPSOFL: (("w",), ("c1", "c2")),
    AMSO: ((), ("w", "w_end", "c", "vmax")),
    VLPSO: ((), ("w", "w_end", "c", "vmax")),
}


@pytest.mark.parametrize("cls", [ParticleSwarm, BPSO, CEPSOFL, AMSO, VLPSO])
def test_every_swarm_with_coefficients_uses_the_mixin(cls):
    assert issubclass(cls, PSOCoefficients)


@pytest.mark.parametrize("cls", list(SWARMS), ids=lambda c: c.__name__)
def test_ranges_where_the_swarm_draws_them_numbers_elsewhere(cls):
    ranged, plain = SWARMS[cls]
    for name in ranged:
        assert getattr(cls(**{name: (0.5, 0.75)}), name) == (0.5, 0.75)
        with pytest.raises(ValueError, match=rf"^{name} must be a number or a \(low, high\) "
                                              rf"pair, got \(0\.9, 0\.1\)"):
            cls(**{name: (0.9, 0.1)})
    for name in plain:
        assert getattr(cls(**{name: 2}), name) == 2.0
        assert type(getattr(cls(**{name: 2}), name)) is float
        with pytest.raises(ValueError, match=rf"^{name} must be a number, got \(0\.5, 0\.75\)"):
            cls(**{name: (0.5, 0.75)})


@pytest.mark.parametrize("cls", list(SWARMS), ids=lambda c: c.__name__)
def test_each_error_names_the_coefficient(cls):
    for name in sum(SWARMS[cls], ()):
        kind = "positive" if name == "vmax" else "non-negative"
        with pytest.raises(ValueError, match=rf"^{name} must be {kind}, got -1\.0"):
            cls(**{name: -1.0})
        with pytest.raises(ValueError, match=rf"^{name} must be finite, got inf"):
            cls(**{name: float("inf")})
        with pytest.raises(ValueError, match=rf"^{name} must be a number"):
            cls(**{name: "fast"})


@pytest.mark.parametrize("cls", [PSO, BPSO, AMSO, VLPSO])
def test_the_velocity_limit_must_be_positive(cls):
    with pytest.raises(ValueError, match=r"^vmax must be positive, got 0\.0"):
        cls(vmax=0.0)


def test_ubpso_and_sctsofs_check_their_own_coefficients_the_same_way():
    with pytest.raises(ValueError, match=r"^w_max must be a number, got \(0\.5, 1\.0\)"):
        UBPSO(w_max=(0.5, 1.0))
    with pytest.raises(ValueError, match=r"^w_max must be non-negative, got -0\.1"):
        UBPSO(w_max=-0.1)
    with pytest.raises(ValueError, match=r"^c3 must be non-negative, got -2\.0"):
        SCTSOFS(c3=-2.0)
    assert SCTSOFS(c1=1.2).c3 == 1.2  # c3 defaults to c1


def test_a_new_swarm_declares_its_ranges():
    class Mine(PSOCoefficients):
        ranged_coefficients = ("c1",)

        def __init__(self, c1, vmax):
            self._set_coefficients(c1=c1, vmax=vmax)

    assert Mine((1.0, 2.0), 3).c1 == (1.0, 2.0)
    with pytest.raises(ValueError, match=r"^vmax must be positive, got 0"):
        Mine(1.0, 0)
