"""``tf.contrib.image``: TF 1.15's image transforms and warps, re-created (docs/contrib.rst, "image").

``transform``, ``rotate``, ``translate`` and the transform helpers (``image_ops``, on TensorFlow's
``ImageProjectiveTransformV2`` kernel, which TF 1.15 ran), ``connected_components``, ``dense_image_warp``,
``interpolate_spline`` and ``sparse_image_warp``, with TF 1.15's numbers and gradients. ``bipartite_match``,
``single_image_random_dot_stereograms`` and ``distort_image_ops`` (custom kernels) are not re-created. ``image_ops``
is imported on first use of one of its names; the three modules named like their function are imported
here, binding the function over the module (importing a submodule sets the package's attribute to it), as TF 1.15's
``__init__`` did.
"""

from tf1clip.contrib import _manifest
from tf1clip.contrib.image.dense_image_warp import dense_image_warp as dense_image_warp
from tf1clip.contrib.image.interpolate_spline import interpolate_spline as interpolate_spline
from tf1clip.contrib.image.sparse_image_warp import sparse_image_warp as sparse_image_warp

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.image", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.image", globals())
