"""``tf.contrib.image``'s projective transforms and ``connected_components`` (``contrib/image/python/ops/
image_ops.py``), re-created.

``transform``, ``rotate`` and ``translate`` run the kernel TF 1.15 ran, ``ImageProjectiveTransformV2``, in its
``fill_mode="CONSTANT"`` (TF 2's name for TF 1.15's only mode: a sample outside the input is 0, each of the four
bilinear neighbours alike); TensorFlow registers TF 1.15's gradient for it (the inverse transform of the incoming
gradient, none for the transforms). ``connected_components`` labels with TensorFlow ops (min-label propagation in a
``tf.while_loop``) what TF 1.15's union-find kernel labelled: components numbered 1..n by their first pixel in
row-major order over the batch, 0 for zero pixels, int32 (TF 1.15's relabelling's dtype). ``bipartite_match`` is
TF 1.15's greedy ``BipartiteMatch`` kernel as a ``tf.while_loop``: the smallest distance among unmatched valid rows
and columns first; equal distances go in row-major order (TF 1.15's heap broke such ties its own way).
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1

_IMAGE_DTYPES = (tf.uint8, tf.int32, tf.int64, tf.float16, tf.float32, tf.float64)
_INTERPOLATIONS = ("NEAREST", "BILINEAR")


def _batched(images, function):
    """``images`` as ``[N, H, W, C]`` and a function undoing the expansion, after TF 1.15's checks."""
    if images.dtype.base_dtype not in _IMAGE_DTYPES:
        raise TypeError(
            "%s: invalid dtype %s for images (uint8, int32, int64, float16, float32 or float64)"
            % (function, images.dtype.name)
        )
    rank = images.shape.ndims
    if rank is None:
        raise TypeError("%s: the rank of images must be statically known (got shape %s)" % (function, images.shape))
    if rank == 2:
        return images[None, :, :, None], lambda out: out[0, :, :, 0]
    if rank == 3:
        return images[None, :, :, :], lambda out: out[0, :, :, :]
    if rank == 4:
        return images, lambda out: out
    raise TypeError("%s: images should have rank between 2 and 4 (got shape %s)" % (function, images.shape))


def _interpolation(interpolation, function):
    if not isinstance(interpolation, str) or interpolation.upper() not in _INTERPOLATIONS:
        raise ValueError("%s: interpolation must be 'NEAREST' or 'BILINEAR', got %r" % (function, interpolation))
    return interpolation.upper()


def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
    """Applies projective ``transforms`` to ``images``; samples outside the input are 0.

    ``images``: ``[N, H, W, C]``, ``[H, W, C]`` or ``[H, W]`` (static rank). ``transforms``: ``[8]`` or
    ``[N, 8]``; a row ``[a0, a1, a2, b0, b1, b2, c0, c1]`` maps the *output* point ``(x, y)`` to the input point
    ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1``. ``interpolation``:
    ``"NEAREST"`` or ``"BILINEAR"``. ``output_shape``: ``[height, width]`` of the output, default the input's.
    Gradients flow to ``images``, not to ``transforms``.
    """
    with v1.name_scope(name, "transform"):
        image_or_images = tf.convert_to_tensor(images, name="images")
        transform_or_transforms = tf.convert_to_tensor(transforms, name="transforms", dtype=tf.float32)
        images, unbatch = _batched(image_or_images, "transform")
        mode = _interpolation(interpolation, "transform")
        if output_shape is None:
            output_shape = tf.shape(images)[1:3]
            static = tf.get_static_value(output_shape)
            if static is not None:
                output_shape = static
        output_shape = tf.convert_to_tensor(output_shape, tf.int32, name="output_shape")
        if not output_shape.shape.is_compatible_with([2]):
            raise ValueError(
                "transform: output_shape must be a 1-D Tensor of 2 elements: new_height, new_width (got shape %s)"
                % output_shape.shape
            )
        rank = transform_or_transforms.shape.ndims
        if rank == 1:
            transforms = transform_or_transforms[None]
        elif rank is None:
            raise TypeError("transform: the rank of transforms must be statically known")
        elif rank == 2:
            transforms = transform_or_transforms
        else:
            raise TypeError(
                "transform: transforms should have rank 1 or 2 (got shape %s)" % transform_or_transforms.shape
            )
        output = tf.raw_ops.ImageProjectiveTransformV2(
            images=images,
            transforms=transforms,
            output_shape=output_shape,
            interpolation=mode,
            fill_mode="CONSTANT",
        )
        return unbatch(output)


def rotate(images, angles, interpolation="NEAREST", name=None):
    """Rotates ``images`` counterclockwise by ``angles`` (radians; a scalar or one per image) about their centre."""
    with v1.name_scope(name, "rotate"):
        image_or_images = tf.convert_to_tensor(images)
        images, unbatch = _batched(image_or_images, "rotate")
        height = tf.cast(tf.shape(images)[1], tf.float32)[None]
        width = tf.cast(tf.shape(images)[2], tf.float32)[None]
        output = transform(images, angles_to_projective_transforms(angles, height, width), interpolation=interpolation)
        return unbatch(output)


def translate(images, translations, interpolation="NEAREST", name=None):
    """Translates ``images`` by ``translations``: ``[dx, dy]``, or ``[N, 2]`` one per image."""
    with v1.name_scope(name, "translate"):
        return transform(images, translations_to_projective_transforms(translations), interpolation=interpolation)


def angles_to_projective_transforms(angles, image_height, image_width, name=None):
    """``[N, 8]`` transforms rotating images of the given size by ``angles`` (scalar or ``[N]``) about the centre."""
    with v1.name_scope(name, "angles_to_projective_transforms"):
        angle_or_angles = tf.convert_to_tensor(angles, name="angles", dtype=tf.float32)
        rank = angle_or_angles.shape.ndims
        if rank == 0:
            angles = angle_or_angles[None]
        elif rank == 1:
            angles = angle_or_angles
        else:
            raise TypeError(
                "angles_to_projective_transforms: angles should have rank 0 or 1 (got shape %s)" % angle_or_angles.shape
            )
        cos, sin = tf.cos(angles), tf.sin(angles)
        x_offset = ((image_width - 1) - (cos * (image_width - 1) - sin * (image_height - 1))) / 2.0
        y_offset = ((image_height - 1) - (sin * (image_width - 1) + cos * (image_height - 1))) / 2.0
        count = tf.shape(angles)[0]
        columns = [cos, -sin, x_offset, sin, cos, y_offset]
        return tf.concat([c[:, None] for c in columns] + [tf.zeros((count, 2), tf.float32)], axis=1)


def translations_to_projective_transforms(translations, name=None):
    """``[N, 8]`` transforms translating by ``translations``: ``[dx, dy]`` or ``[N, 2]``."""
    with v1.name_scope(name, "translations_to_projective_transforms"):
        given = tf.convert_to_tensor(translations, name="translations", dtype=tf.float32)
        rank = given.shape.ndims
        if rank is None:
            raise TypeError("translations_to_projective_transforms: the rank of translations must be statically known")
        if rank == 1:
            translations = given[None]
        elif rank == 2:
            translations = given
        else:
            raise TypeError(
                "translations_to_projective_transforms: translations should have rank 1 or 2 (got shape %s)"
                % given.shape
            )
        count = tf.shape(translations)[0]
        ones = tf.ones((count, 1), tf.float32)
        zeros = tf.zeros((count, 1), tf.float32)
        return tf.concat(
            [ones, zeros, -translations[:, 0, None], zeros, ones, -translations[:, 1, None], tf.zeros((count, 2))],
            axis=1,
        )


def compose_transforms(*transforms):
    """One transform applying each of ``transforms`` (each ``[8]`` or ``[N, 8]``, all alike) in turn."""
    if not transforms:
        raise ValueError("compose_transforms: transforms cannot be empty")
    with v1.name_scope("compose_transforms"):
        composed = flat_transforms_to_matrices(transforms[0])
        for each in transforms[1:]:
            composed = tf.matmul(composed, flat_transforms_to_matrices(each))
        return matrices_to_flat_transforms(composed)


def flat_transforms_to_matrices(transforms):
    """``[N, 3, 3]`` matrices (output to input coordinates) of ``transforms``, ``[8]`` or ``[N, 8]``."""
    with v1.name_scope("flat_transforms_to_matrices"):
        transforms = tf.convert_to_tensor(transforms, name="transforms")
        if transforms.shape.ndims not in (1, 2):
            raise ValueError("flat_transforms_to_matrices: transforms should be 1D or 2D, got: %s" % transforms)
        transforms = tf.reshape(transforms, tf.constant([-1, 8]))
        count = tf.shape(transforms)[0]
        return tf.reshape(tf.concat([transforms, tf.ones([count, 1])], axis=1), tf.constant([-1, 3, 3]))


def matrices_to_flat_transforms(transform_matrices):
    """``[N, 8]`` transforms of ``transform_matrices`` (``[3, 3]`` or ``[N, 3, 3]``, output to input coordinates),
    each divided by its last entry."""
    with v1.name_scope("matrices_to_flat_transforms"):
        transform_matrices = tf.convert_to_tensor(transform_matrices, name="transform_matrices")
        if transform_matrices.shape.ndims not in (2, 3):
            raise ValueError(
                "matrices_to_flat_transforms: transform_matrices should be 2D or 3D, got: %s" % transform_matrices
            )
        flat = tf.reshape(transform_matrices, tf.constant([-1, 9]))
        flat /= flat[:, 8:9]
        return flat[:, :8]


def _shifted(values, axis, forward, pad_value):
    """``values`` moved one step along ``axis`` (towards higher indices when ``forward``), padded."""
    size = tf.shape(values)[axis]
    pad = [[0, 0]] * 3
    if forward:
        pad[axis] = [1, 0]
        kept = tf.gather(values, tf.range(size - 1), axis=axis)
    else:
        pad[axis] = [0, 1]
        kept = tf.gather(values, tf.range(1, size), axis=axis)
    return tf.pad(kept, pad, constant_values=pad_value)


def connected_components(images):
    """Labels each image's 4-connected components of equal non-zero values: ids 1..n over the whole batch in
    row-major order of each component's first pixel, 0 for zero pixels (``scipy.ndimage.label``'s numbering).

    ``images``: ``[H, W]`` or ``[N, H, W]``. Returns int32 of the same shape.
    """
    with v1.name_scope("connected_components"):
        image_or_images = tf.convert_to_tensor(images, name="images")
        rank = image_or_images.shape.ndims
        if rank == 2:
            images = image_or_images[None, :, :]
        elif rank == 3:
            images = image_or_images
        else:
            raise TypeError(
                "connected_components: images should have rank 2 (HW) or 3 (NHW). Static shape is %s"
                % image_or_images.shape
            )
        shape = tf.shape(images, out_type=tf.int64)
        size = tf.reduce_prod(shape)
        nonzero = tf.not_equal(images, tf.zeros([], images.dtype))
        background = size + 1
        ids = tf.reshape(tf.range(1, size + 1, dtype=tf.int64), shape)
        start = tf.where(nonzero, ids, tf.fill(shape, background))
        joins = []
        for axis in (1, 2):
            for forward in (True, False):
                neighbour = _shifted(images, axis, forward, tf.zeros([], images.dtype))
                neighbour_nonzero = _shifted(nonzero, axis, forward, False)
                joins.append((axis, forward, nonzero & neighbour_nonzero & tf.equal(images, neighbour)))

        def step(labels, _):
            new = labels
            for axis, forward, joined in joins:
                neighbour = _shifted(labels, axis, forward, background)
                new = tf.where(joined, tf.minimum(new, neighbour), new)
            flat = tf.concat([tf.reshape(new, [-1]), [background]], axis=0)
            new = tf.gather(flat, new - 1)
            return new, tf.reduce_any(tf.not_equal(new, labels))

        labels, _ = tf.while_loop(lambda labels, changed: changed, step, (start, tf.constant(True)))
        labels = tf.where(nonzero, labels, tf.zeros_like(labels))
        unique_ids, index = tf.unique(tf.reshape(labels, [-1]))
        consecutive = tf.cumsum(tf.cast(tf.not_equal(unique_ids, 0), tf.int32))
        new_ids = tf.where(tf.equal(unique_ids, 0), tf.zeros_like(consecutive), consecutive)
        components = tf.reshape(tf.gather(new_ids, index), tf.shape(images))
        return components[0, :, :] if rank == 2 else components


def bipartite_match(distance_mat, num_valid_rows, top_k=-1, name="bipartite_match"):
    """Greedy bipartite matching of the rows and columns of ``distance_mat`` ``[num_rows, num_columns]`` (float32):
    ``(row_to_col_match_indices [num_rows], col_to_row_match_indices [num_columns])``, int32, -1 where unmatched.

    The smallest distance among unmatched pairs is matched first, among the first ``num_valid_rows`` rows (a
    1-element float tensor; negative: every row), until ``top_k`` matches (<= 0: as many as possible). Equal
    distances are matched in row-major order; NaN distances are never matched. Not differentiable.
    """
    if isinstance(top_k, bool) or not isinstance(top_k, int):
        raise TypeError("bipartite_match: top_k must be an int, got %r" % (top_k,))
    with v1.name_scope(name):
        distances = tf.convert_to_tensor(distance_mat, tf.float32, name="distance_mat")
        if distances.shape.ndims is not None and distances.shape.ndims != 2:
            raise ValueError(
                "bipartite_match: distance_mat should be 2-dimensional, but got shape %s" % distances.shape
            )
        valid = tf.convert_to_tensor(num_valid_rows, tf.float32, name="num_valid_rows")
        if valid.shape.num_elements() not in (None, 1):
            raise ValueError(
                "bipartite_match: num_valid_rows should be a tensor with 1 element, but got shape %s" % valid.shape
            )
        valid = tf.reshape(valid, [])
        rows, columns = tf.shape(distances)[0], tf.shape(distances)[1]
        valid_rows = tf.where(valid >= 0, tf.cast(valid + 0.1, tf.int32), rows)
        check = tf.debugging.assert_less_equal(
            valid_rows, rows, message="bipartite_match: num_valid_rows exceeds the rows of distance_mat"
        )
        with tf.control_dependencies([check]):
            limit = tf.minimum(valid_rows, columns)
        if top_k > 0:
            limit = tf.minimum(limit, top_k)
        in_valid_rows = tf.range(rows)[:, None] < valid_rows

        def match(step, row_to_col, col_to_row):
            open_pairs = in_valid_rows & tf.equal(row_to_col, -1)[:, None] & tf.equal(col_to_row, -1)[None, :]
            smallest = tf.reduce_min(tf.where(open_pairs, distances, tf.fill(tf.shape(distances), float("inf"))))
            chosen = tf.reshape(open_pairs & tf.equal(distances, smallest), [-1])
            flat = tf.cast(tf.argmax(tf.cast(chosen, tf.int32)), tf.int32)
            row, column = flat // columns, flat % columns
            found = tf.reduce_any(chosen)
            row_to_col = tf.where(found, tf.tensor_scatter_nd_update(row_to_col, [[row]], [column]), row_to_col)
            col_to_row = tf.where(found, tf.tensor_scatter_nd_update(col_to_row, [[column]], [row]), col_to_row)
            return step + 1, row_to_col, col_to_row

        _, row_to_col, col_to_row = tf.while_loop(
            lambda step, *_: step < limit,
            match,
            (tf.constant(0), tf.fill([rows], -1), tf.fill([columns], -1)),
        )
        return tf.stop_gradient(row_to_col), tf.stop_gradient(col_to_row)
