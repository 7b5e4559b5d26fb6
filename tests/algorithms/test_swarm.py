"""Pure particle-swarm steps: velocity update, move, decode, coefficient draws."""

import numpy as np

from pymoo_fs.algorithms import swarm


def _state(rng, n=4, D=5):
    V = rng.uniform(-1, 1, (n, D))
    X = rng.random((n, D))
    P = rng.random((n, D))
    G = rng.random(D)
    return V, X, P, G


def test_velocity_update_matches_hand_computation_per_dimension():
    V, X, P, G = _state(np.random.default_rng(0))
    w, c1, c2 = 0.7, 1.4, 1.6
    out = swarm.velocity_update(V, X, P, G, w, c1, c2, np.random.default_rng(7))

    draws = np.random.default_rng(7)  # the same stream: r1 for all particles, then r2
    r1 = draws.random(X.shape)
    r2 = draws.random(X.shape)
    expected = np.empty_like(V)
    for i in range(X.shape[0]):
        for d in range(X.shape[1]):
            expected[i, d] = (w * V[i, d] + c1 * r1[i, d] * (P[i, d] - X[i, d])
                              + c2 * r2[i, d] * (G[d] - X[i, d]))
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-15)


def test_velocity_update_with_per_particle_coefficients_and_leaders():
    rng = np.random.default_rng(1)
    V, X, P, _ = _state(rng)
    G = rng.random(X.shape)  # one leader per particle
    w = np.array([[0.1], [0.2], [0.3], [0.4]])
    c1 = np.array([[1.5], [1.6], [1.7], [1.8]])
    c2 = np.array([[2.0], [1.9], [1.8], [1.7]])
    out = swarm.velocity_update(V, X, P, G, w, c1, c2, np.random.default_rng(3))
    draws = np.random.default_rng(3)
    r1, r2 = draws.random(X.shape), draws.random(X.shape)
    for i in range(X.shape[0]):
        row = w[i, 0] * V[i] + c1[i, 0] * r1[i] * (P[i] - X[i]) + c2[i, 0] * r2[i] * (G[i] - X[i])
        np.testing.assert_allclose(out[i], row, rtol=0, atol=1e-15)


def test_velocity_update_per_particle_draws_one_r_per_particle():
    V, X, P, G = _state(np.random.default_rng(2))
    out = swarm.velocity_update(V, X, P, G, 0.5, 1.0, 1.0, np.random.default_rng(11),
                                per_dimension=False)
    draws = np.random.default_rng(11)
    r1 = draws.random((X.shape[0], 1))
    r2 = draws.random((X.shape[0], 1))
    expected = 0.5 * V + r1 * (P - X) + r2 * (G - X)
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-15)
    # with w = 0 and pbest = gbest, each particle's velocity is a single multiple of (P - X)
    out = swarm.velocity_update(V, X, P, P, 0.0, 1.0, 1.0, np.random.default_rng(11),
                                per_dimension=False)
    ratio = out / (P - X)
    np.testing.assert_allclose(ratio, np.repeat(ratio[:, :1], X.shape[1], axis=1))
    np.testing.assert_allclose(ratio[:, 0], (r1 + r2)[:, 0])


def test_velocity_update_consumes_exactly_two_draws_per_coordinate():
    V, X, P, G = _state(np.random.default_rng(3))
    rs = np.random.default_rng(5)
    swarm.velocity_update(V, X, P, G, 0.7, 1.5, 1.5, rs)
    reference = np.random.default_rng(5)
    reference.random(2 * X.size)
    assert rs.random() == reference.random()


def test_move_clamps_velocity_then_position():
    X = np.array([[0.5, 0.5, 0.9, 0.1, 0.5]])
    V = np.array([[0.3, -0.8, 0.5, -0.5, 0.05]])
    X_new, V_new = swarm.move(X, V, vmax=0.4)
    np.testing.assert_allclose(V_new, [[0.3, -0.4, 0.4, -0.4, 0.05]])
    np.testing.assert_allclose(X_new, [[0.8, 0.1, 1.0, 0.0, 0.55]])
    assert X_new.min() >= 0.0 and X_new.max() <= 1.0
    # inputs are not modified
    np.testing.assert_array_equal(V, [[0.3, -0.8, 0.5, -0.5, 0.05]])


def test_move_reverse_velocity_negates_only_clamped_coordinates():
    X = np.array([[0.9, 0.1, 0.5, 0.8]])
    V = np.array([[0.5, -0.5, 0.2, 0.2]])  # the last one lands exactly on 1.0: not out
    X_new, V_new = swarm.move(X, V, vmax=0.3, reverse_velocity=True)
    np.testing.assert_allclose(X_new, [[1.0, 0.0, 0.7, 1.0]])
    np.testing.assert_allclose(V_new, [[-0.3, 0.3, 0.2, 0.2]])
    _, V_plain = swarm.move(X, V, vmax=0.3)
    np.testing.assert_allclose(V_plain, [[0.3, -0.3, 0.2, 0.2]])


def test_decode_strict_and_inclusive_threshold():
    X = np.array([[0.59, 0.6, 0.61, 0.0, 1.0]])
    strict = swarm.decode(X, 0.6)
    inclusive = swarm.decode(X, 0.6, inclusive=True)
    assert strict.dtype == bool and inclusive.dtype == bool
    np.testing.assert_array_equal(strict, [[False, False, True, False, True]])
    np.testing.assert_array_equal(inclusive, [[False, True, True, False, True]])


def test_draw_coefficient_constant():
    rs = np.random.default_rng(0)
    c = swarm.draw_coefficient(0.7298, 3, rs)
    assert c.shape == (3, 1)
    np.testing.assert_array_equal(c, 0.7298)
    # a constant draws nothing from the generator
    assert rs.random() == np.random.default_rng(0).random()


def test_draw_coefficient_range_draws_per_particle():
    c = swarm.draw_coefficient((0.1, 0.5), 50, np.random.default_rng(4))
    assert c.shape == (50, 1)
    assert np.all((c >= 0.1) & (c < 0.5))
    np.testing.assert_array_equal(c, np.random.default_rng(4).uniform(0.1, 0.5, (50, 1)))
    assert np.unique(c).size == 50
    again = swarm.draw_coefficient((0.1, 0.5), 50, np.random.default_rng(5))
    assert not np.array_equal(c, again)
