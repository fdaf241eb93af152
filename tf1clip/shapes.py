"""The old path of :func:`tf1clip.use_tf1_shapes` and :func:`tf1_shapes_enabled` (they live in
``tf1clip/fidelity/shapes.py``, with the other TF 1.15 fidelity switches; programs and tests import them from here)."""

from tf1clip.fidelity.shapes import tf1_shapes_enabled, use_tf1_shapes

__all__ = ["use_tf1_shapes", "tf1_shapes_enabled"]
