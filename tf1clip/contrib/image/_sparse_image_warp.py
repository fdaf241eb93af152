"""``tf.contrib.image.sparse_image_warp`` (``contrib/image/python/ops/sparse_image_warp.py``), re-created.

The control points' flows interpolated to a dense flow by ``interpolate_spline``, then ``dense_image_warp``, with
TF 1.15's grid and boundary points (NumPy constants of the static image shape).
"""

import numpy as np

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.image._dense_image_warp import dense_image_warp
from tf1clip.contrib.image._interpolate_spline import interpolate_spline

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


def _grid_locations(height, width):
    rows, columns = np.meshgrid(np.linspace(0, height - 1, height), np.linspace(0, width - 1, width), indexing="ij")
    return np.stack((rows, columns), -1)


def _tile_batch(array, batch_size):
    return np.tile(np.expand_dims(array, 0), [batch_size] + [1] * array.ndim)


def _boundary_locations(height, width, points_per_edge):
    rows, columns = np.meshgrid(
        np.linspace(0, height - 1, points_per_edge + 2),
        np.linspace(0, width - 1, points_per_edge + 2),
        indexing="ij",
    )
    on_edge = (columns == 0) | (columns == width - 1) | (rows == 0) | (rows == height - 1)
    return np.stack([rows[on_edge], columns[on_edge]], axis=-1)


def sparse_image_warp(
    image,
    source_control_point_locations,
    dest_control_point_locations,
    interpolation_order=2,
    regularization_weight=0.0,
    num_boundary_points=0,
    name="sparse_image_warp",
):
    """Warps ``image`` so that each source control point moves to its destination; returns ``(warped_image,
    flow_field)``.

    ``image``: ``[batch, height, width, channels]`` float with a static shape; the control point locations:
    ``[batch, num_control_points, 2]`` (row, column). ``interpolation_order`` and ``regularization_weight`` are
    ``interpolate_spline``'s. ``num_boundary_points`` > 0 adds zero-flow points on the edges (1: the four corners;
    n: the corners and n - 1 more on each edge). ``flow_field``: the dense ``[batch, height, width, 2]`` flow.
    """
    image = tf.convert_to_tensor(image)
    source = tf.convert_to_tensor(source_control_point_locations)
    dest = tf.convert_to_tensor(dest_control_point_locations)
    flows = dest - source
    with v1.name_scope(name):
        if image.shape.ndims != 4 or not image.shape.is_fully_defined():
            raise ValueError(
                "sparse_image_warp: image must have a static 4-D shape [batch, height, width, channels], got %s"
                % image.shape
            )
        batch_size, height, width, _ = image.shape.as_list()
        grid = np.reshape(_grid_locations(height, width), [height * width, 2])
        grid = tf.constant(_tile_batch(grid, batch_size), image.dtype)
        if num_boundary_points > 0:
            points = _boundary_locations(height, width, num_boundary_points - 1)
            dtype = dest.dtype
            batch = tf.compat.dimension_value(dest.shape[0])
            dest = tf.concat([dest, tf.constant(_tile_batch(points, batch), dtype=dtype)], 1)
            zeros = np.zeros([points.shape[0], 2])
            flows = tf.concat([flows, tf.constant(_tile_batch(zeros, batch), dtype=dtype)], 1)
        dense = interpolate_spline(dest, flows, grid, interpolation_order, regularization_weight)
        dense = tf.reshape(dense, [batch_size, height, width, 2])
        return dense_image_warp(image, dense), dense
