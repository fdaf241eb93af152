"""Cases of tf.contrib.image recorded on TF 1.15 (make_refs.py) and rebuilt with tf1clip (tests/unit/test_contrib_image.py).

Each case is ``build(tf, image)``, ``tf`` the TensorFlow module, ``image`` TF 1.15's ``tf.contrib.image`` or
``tf1clip.contrib.image``; it returns a dict of tensors (gradients included), evaluated in a Session. Python 3.7 and
3.11.
"""

import importlib

import numpy as np

RNG = np.random.RandomState(7)
IMAGES = RNG.uniform(-1.0, 1.0, size=(2, 6, 7, 3)).astype(np.float32)
IMAGES_U8 = RNG.randint(0, 256, size=(5, 6, 2)).astype(np.uint8)
FLOW = RNG.uniform(-2.5, 2.5, size=(2, 6, 7, 2)).astype(np.float32)
TRANSFORM = np.array([0.9, 0.2, 0.7, -0.15, 1.1, -0.4, 0.01, -0.02], np.float32)
MASK = np.array(
    [
        [[1, 1, 0, 0, 1], [0, 1, 0, 1, 1], [1, 0, 0, 0, 0], [1, 1, 1, 0, 1]],
        [[0, 0, 0, 0, 0], [2, 2, 3, 3, 0], [0, 0, 0, 3, 0], [1, 0, 1, 3, 3]],
    ],
    np.int32,
)
SNAKE = np.array([[1, 1, 1, 1, 1], [0, 0, 0, 0, 1], [1, 1, 1, 0, 1], [1, 0, 1, 1, 1], [1, 0, 0, 0, 0]], bool)


def _weights(tf, shape):
    return tf.constant(np.linspace(-1.0, 1.0, int(np.prod(shape))).reshape(shape).astype(np.float32))


def _with_grad(tf, out, x, key):
    loss = tf.reduce_sum(out * _weights(tf, out.shape.as_list()))
    return {key: out, key + "_grad": tf.gradients(loss, x)[0]}


def rotate(tf, image):
    x = tf.constant(IMAGES)
    out = {}
    for mode in ("NEAREST", "BILINEAR"):
        out.update(_with_grad(tf, image.rotate(x, [0.4, -2.2], interpolation=mode), x, "rotate_" + mode))
    out["rotate_hwc"] = image.rotate(IMAGES[0], 1.0)
    out["rotate_hw"] = image.rotate(IMAGES[0, :, :, 0], np.pi / 2, "BILINEAR")
    out["rotate_u8"] = image.rotate(IMAGES_U8, 0.3, "BILINEAR")
    return out


def transform(tf, image):
    x = tf.constant(IMAGES)
    out = {}
    for mode in ("NEAREST", "BILINEAR"):
        out.update(_with_grad(tf, image.transform(x, TRANSFORM, interpolation=mode), x, "transform_" + mode))
        shaped = image.transform(x, np.stack([TRANSFORM, TRANSFORM * 0.5]), mode, output_shape=[4, 9])
        out.update(_with_grad(tf, shaped, x, "shape_" + mode))
    # Samples on and just past the borders: exactly -1, -0.5, size - 1, size - 0.5, size.
    for dx in (-1.0, -0.5, -0.25, 0.5, 6.0, 6.5, 7.0):
        key = ("border_%s" % dx).replace(".", "p").replace("-", "m")
        out[key] = image.transform(x, [1, 0, dx, 0, 1, dx * 0.5, 0, 0], "BILINEAR")
        out[key + "_nearest"] = image.transform(x, [1, 0, dx, 0, 1, dx * 0.5, 0, 0], "NEAREST")
    out["translate"] = image.translate(x, [[1.5, -0.5], [-2.0, 3.0]], "BILINEAR")
    out["translate_nearest"] = image.translate(IMAGES_U8, [2.5, 1.5])
    out["angles"] = image.angles_to_projective_transforms([0.3, -1.0], 6.0, 7.0)
    out["translations"] = image.translations_to_projective_transforms([[1.0, 2.0], [-3.0, 0.5]])
    scaled = [0.5, 0, 0, 0, 0.5, 0, 0, 0]
    out["compose"] = image.compose_transforms(TRANSFORM, np.float32(scaled), np.float32([1, 0, 2, 0, 1, -1, 0, 0]))
    out["matrices"] = image.flat_transforms_to_matrices(np.stack([TRANSFORM, np.float32(scaled)]))
    out["flat"] = image.matrices_to_flat_transforms(2.0 * np.eye(3, dtype=np.float32))
    return out


def components(tf, image):
    return {
        "components": image.connected_components(MASK),
        "components_snake": image.connected_components(SNAKE),
        "components_float": image.connected_components(MASK[1].astype(np.float32) * 0.5),
    }


def warps(tf, image):
    x = tf.constant(IMAGES)
    flow = tf.constant(FLOW)
    out = {}
    warped = image.dense_image_warp(x, flow)
    loss = tf.reduce_sum(warped * _weights(tf, [2, 6, 7, 3]))
    out["dense"] = warped
    out["dense_grad_image"], out["dense_grad_flow"] = tf.gradients(loss, [x, flow])
    train = tf.constant(RNG.uniform(0, 5, size=(2, 6, 2)).astype(np.float32))
    values = tf.constant(RNG.uniform(-1, 1, size=(2, 6, 3)).astype(np.float32))
    query = tf.constant(RNG.uniform(0, 5, size=(2, 4, 2)).astype(np.float32))
    for order in (1, 2, 3, 4, 5):
        out["spline_%d" % order] = image.interpolate_spline(train, values, query, order)
    spline = image.interpolate_spline(train, values, query, 2, regularization_weight=0.01)
    out["spline_reg"] = spline
    out["spline_reg_grad"] = tf.gradients(tf.reduce_sum(spline * spline), [train])[0]
    source = np.array(
        [[[1.0, 1.0], [4.0, 5.0], [2.0, 4.0], [4.0, 1.0]], [[2.0, 3.0], [3.0, 1.0], [1.0, 5.0], [4.5, 4.0]]],
        np.float32,
    )
    shift = [[[0.5, 1.0], [-1.0, 0.0], [0.0, 0.5], [0.5, 0.5]], [[0.0, -1.5], [1.0, 1.0], [0.5, 0.0], [-1.0, 0.0]]]
    dest = source + np.array(shift, np.float32)
    for boundary in (0, 1, 3):
        warped, flows = image.sparse_image_warp(x, source, dest, num_boundary_points=boundary)
        out["sparse_%d" % boundary] = warped
        out["sparse_flow_%d" % boundary] = flows
    warped, _ = image.sparse_image_warp(x, source, dest, interpolation_order=1, regularization_weight=0.1)
    out["sparse_order1"] = warped
    return out


def matching(tf, image):
    rng = np.random.RandomState(11)
    distances = rng.uniform(0, 1, size=(5, 4)).astype(np.float32)
    out = {}
    for valid, top_k in ((-1, -1), (3, -1), (5, 2), (0, -1), (2.0, 1)):
        rows, columns = image.bipartite_match(distances, valid, top_k)
        key = "match_%s_%s" % (str(valid).replace(".", "p").replace("-", "m"), str(top_k).replace("-", "m"))
        out[key + "_rows"], out[key + "_columns"] = rows, columns
    wide = rng.uniform(0, 1, size=(3, 6)).astype(np.float32)
    out["match_wide_rows"], out["match_wide_columns"] = image.bipartite_match(wide, [-1.0])
    return out


def colours(tf, image):
    if image.__name__.startswith("tf1clip"):
        distort = image.distort_image_ops
    else:
        distort = importlib.import_module("tensorflow.contrib.image.python.ops.distort_image_ops")
    rgb = tf.constant(np.random.RandomState(5).uniform(0, 1, size=(2, 4, 5, 3)).astype(np.float32))
    u8 = tf.constant(np.random.RandomState(6).randint(0, 256, size=(3, 4, 3)).astype(np.uint8))
    return {
        "hsv": distort.adjust_hsv_in_yiq(rgb, 0.7, 1.3, 0.8),
        "hsv_hue": distort.adjust_hsv_in_yiq(rgb, -2.0),
        "hsv_u8": distort.adjust_hsv_in_yiq(u8, 0.3, 0.5, 1.2),
        "random_hsv": distort.random_hsv_in_yiq(rgb, 0.5, 0.5, 1.5, 0.7, 1.1, seed=4),
        "random_hsv_value": distort.random_hsv_in_yiq(u8, lower_value=0.5, upper_value=0.9, seed=9),
    }


CASES = {
    "rotate": rotate,
    "transform": transform,
    "components": components,
    "warps": warps,
    "matching": matching,
    "colours": colours,
}
