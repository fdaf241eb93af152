"""``tf.contrib.image.dense_image_warp`` (``contrib/image/python/ops/dense_image_warp.py``), re-created.

Bilinear sampling at ``grid - flow`` with TF 1.15's clamping (the floor kept in ``[0, size - 2]``, the weight in
``[0, 1]``: outside the image, the nearest boundary pixel), gather order and ops, so its numbers and gradients are
TF 1.15's.
"""

import numpy as np

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


def _corners(unstacked, order, sizes, query_type, grid_type):
    """(alphas, floors, ceils) of the query coordinates ``unstacked`` along the grid dimensions in ``order``."""
    alphas, floors, ceils = [], [], []
    for dim in order:
        with v1.name_scope("dim-" + str(dim)):
            queries = unstacked[dim]
            max_floor = tf.cast(sizes[dim + 1] - 2, query_type)
            floor = tf.minimum(tf.maximum(tf.constant(0.0, query_type), tf.floor(queries)), max_floor)
            int_floor = tf.cast(floor, tf.int32)
            floors.append(int_floor)
            ceils.append(int_floor + 1)
            alpha = tf.cast(queries - floor, grid_type)
            alpha = tf.minimum(tf.maximum(tf.constant(0.0, grid_type), alpha), tf.constant(1.0, grid_type))
            alphas.append(tf.expand_dims(alpha, 2))
    return alphas, floors, ceils


def _interpolate_bilinear(grid, query_points, name="interpolate_bilinear", indexing="ij"):
    """Values of ``grid`` ``[batch, height, width, channels]`` at ``query_points`` ``[batch, n, 2]``
    (``ij``: row, column; ``xy``: column, row): ``[batch, n, channels]``."""
    if indexing not in ("ij", "xy"):
        raise ValueError("interpolate_bilinear: indexing must be 'ij' or 'xy', got %r" % (indexing,))
    with v1.name_scope(name):
        grid = tf.convert_to_tensor(grid)
        query_points = tf.convert_to_tensor(query_points)
        if grid.shape.ndims != 4:
            raise ValueError("Grid must be 4 dimensional. Received size: %s" % grid.shape)
        shape = tf.shape(grid)
        batch_size, height, width, channels = shape[0], shape[1], shape[2], shape[3]
        sizes = [batch_size, height, width, channels]
        query_type = query_points.dtype
        grid_type = grid.dtype
        with tf.control_dependencies(
            [
                tf.debugging.assert_equal(len(query_points.shape), 3, message="Query points must be 3 dimensional."),
                tf.debugging.assert_equal(
                    tf.shape(query_points)[2], 2, message="Query points must be size 2 in dim 2."
                ),
            ]
        ):
            num_queries = tf.shape(query_points)[1]
        with tf.control_dependencies(
            [
                tf.debugging.assert_greater_equal(height, 2, message="Grid height must be at least 2."),
                tf.debugging.assert_greater_equal(width, 2, message="Grid width must be at least 2."),
            ]
        ):
            order = [0, 1] if indexing == "ij" else [1, 0]
            unstacked = tf.unstack(query_points, axis=2)
        alphas, floors, ceils = _corners(unstacked, order, sizes, query_type, grid_type)
        with tf.control_dependencies(
            [
                tf.debugging.assert_less_equal(
                    tf.cast(batch_size * height * width, tf.float32),
                    np.iinfo(np.int32).max / 8,
                    message="The image size or batch size is sufficiently large that the linearized addresses "
                    "used by gather may exceed the int32 limit.",
                )
            ]
        ):
            flattened = tf.reshape(grid, [batch_size * height * width, channels])
            offsets = tf.reshape(tf.range(batch_size) * height * width, [batch_size, 1])

        def gather(rows, columns, label):
            with v1.name_scope("gather-" + label):
                values = tf.gather(flattened, offsets + rows * width + columns)
                return tf.reshape(values, [batch_size, num_queries, channels])

        top_left = gather(floors[0], floors[1], "top_left")
        top_right = gather(floors[0], ceils[1], "top_right")
        bottom_left = gather(ceils[0], floors[1], "bottom_left")
        bottom_right = gather(ceils[0], ceils[1], "bottom_right")
        with v1.name_scope("interpolate"):
            top = alphas[1] * (top_right - top_left) + top_left
            bottom = alphas[1] * (bottom_right - bottom_left) + bottom_left
            return alphas[0] * (bottom - top) + top


def dense_image_warp(image, flow, name="dense_image_warp"):
    """``output[b, j, i, c] = image[b, j - flow[b, j, i, 0], i - flow[b, j, i, 1], c]``, bilinearly interpolated;
    outside the image, the nearest boundary pixel.

    ``image``: ``[batch, height, width, channels]`` float, height and width at least 2. ``flow``:
    ``[batch, height, width, 2]`` float (half, float32 or float64, not necessarily ``image``'s). Returns ``image``'s
    shape and dtype.
    """
    with v1.name_scope(name):
        image = tf.convert_to_tensor(image, name="image")
        flow = tf.convert_to_tensor(flow, name="flow")
        if image.shape.ndims is not None and image.shape.ndims != 4:
            raise ValueError(
                "dense_image_warp: image must be 4-D [batch, height, width, channels], got shape %s" % image.shape
            )
        if flow.shape.ndims is not None and flow.shape.ndims != 4:
            raise ValueError("dense_image_warp: flow must be 4-D [batch, height, width, 2], got shape %s" % flow.shape)
        shape = tf.shape(image)
        batch_size, height, width, channels = shape[0], shape[1], shape[2], shape[3]
        grid_x, grid_y = tf.meshgrid(tf.range(width), tf.range(height))
        stacked = tf.cast(tf.stack([grid_y, grid_x], axis=2), flow.dtype)
        query = tf.expand_dims(stacked, axis=0) - flow
        query = tf.reshape(query, [batch_size, height * width, 2])
        interpolated = _interpolate_bilinear(image, query)
        return tf.reshape(interpolated, [batch_size, height, width, channels])
