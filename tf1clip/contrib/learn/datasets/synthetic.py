"""``tf.contrib.learn.datasets.synthetic`` (TF 1.15): the ``circles`` and ``spirals`` toy datasets.

Both draw from NumPy's global generator (``numpy.random.seed(seed)`` first when ``seed`` is given), in TF 1.15's
order, so a seed gives TF 1.15's data.
"""

from typing import Any, Optional

import numpy as np

from tf1clip.contrib import _manifest
from tf1clip.contrib.learn.datasets.base import Dataset

__all__ = _manifest.names_of(__name__)


def circles(n_samples=100, noise=None, seed=None, factor=0.8, n_classes=2, *args, **kwargs) -> Dataset:
    """``n_classes`` concentric circles of points (the radius shrinking by ``factor``), labels by circle; the
    ``n_samples % n_classes`` extra points on the unit circle get label 0. ``noise`` is a normal noise's scale."""
    if seed is not None:
        np.random.seed(seed)
    linspace = np.linspace(0, 2 * np.pi, n_samples // n_classes)
    circ_x, circ_y, y = np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32)
    base_cos, base_sin = np.cos(linspace), np.sin(linspace)
    for label in range(n_classes):
        circ_x, circ_y = np.append(circ_x, base_cos), np.append(circ_y, base_sin)
        base_cos, base_sin = base_cos * factor, base_sin * factor
        y = np.append(y, label * np.ones(n_samples // n_classes, dtype=np.int32))
    extras = n_samples % n_classes
    circ_x = np.append(circ_x, np.cos(np.random.rand(extras) * 2 * np.pi))
    circ_y = np.append(circ_y, np.sin(np.random.rand(extras) * 2 * np.pi))
    y = np.append(y, np.zeros(extras, dtype=np.int32))
    return _permuted(np.vstack((circ_x, circ_y)).T, np.hstack([y]), n_samples, noise)


def _permuted(data: np.ndarray, target: np.ndarray, n_samples: int, noise: Optional[float]) -> Dataset:
    indices = np.random.permutation(range(n_samples))
    if noise is not None:
        data = data + np.random.normal(scale=noise, size=data.shape)
    return Dataset(data=data[indices], target=target[indices])


def _normalized(x: np.ndarray, y: np.ndarray) -> Any:
    return x / np.max(np.abs(x)), y / np.max(np.abs(y))


def _archimedes_spiral(theta, theta_offset=0.0, *args, **kwargs):
    return _normalized(theta * np.cos(theta + theta_offset), theta * np.sin(theta + theta_offset))


def _bernoulli_spiral(theta, theta_offset=0.0, *args, **kwargs):
    exp_scale = kwargs.pop("exp_scale", 0.1)
    radius = np.exp(exp_scale * theta)
    return _normalized(radius * np.cos(theta + theta_offset), radius * np.sin(theta + theta_offset))


def _fermat_spiral(theta, theta_offset=0.0, *args, **kwargs):
    radius = np.sqrt(theta)
    return _normalized(radius * np.cos(theta + theta_offset), radius * np.sin(theta + theta_offset))


_MODES = {"archimedes": _archimedes_spiral, "bernoulli": _bernoulli_spiral, "fermat": _fermat_spiral}


def spirals(n_samples=100, noise=None, seed=None, mode="archimedes", n_loops=2, *args, **kwargs) -> Dataset:
    """Two interleaved spirals (``mode``: ``'archimedes'``, ``'bernoulli'`` or ``'fermat'``) of ``n_loops``
    loops, label 0 and 1; ``noise`` is a normal noise's scale."""
    if mode is None or mode not in _MODES:
        raise ValueError("Cannot generate spiral with mode %s" % mode)
    if seed is not None:
        np.random.seed(seed)
    linspace = np.linspace(0, 2 * n_loops * np.pi, n_samples // 2)
    spir_x, spir_y, y = np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32)
    for label in range(2):
        base_cos, base_sin = _MODES[mode](linspace, label * np.pi, *args, **kwargs)
        spir_x, spir_y = np.append(spir_x, base_cos), np.append(spir_y, base_sin)
        y = np.append(y, label * np.ones(n_samples // 2, dtype=np.int32))
    extras = n_samples % 2
    if extras > 0:
        x_extra, y_extra = _MODES[mode](np.random.rand(extras) * 2 * np.pi, *args, **kwargs)
        spir_x, spir_y = np.append(spir_x, x_extra), np.append(spir_y, y_extra)
        y = np.append(y, np.zeros(extras, dtype=np.int32))
    return _permuted(np.vstack((spir_x, spir_y)).T, np.hstack([y]), n_samples, noise)
