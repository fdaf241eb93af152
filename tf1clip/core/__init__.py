"""The clipping core: the compute -> cap -> apply pipeline over ``(gradient, variable)`` pairs.

Its public names are re-exported from ``tf1clip`` (``tf1clip.clip_by_global_norm``, ...), the supported
spelling; the submodules here are the implementation. Importing this package does not import TensorFlow.
"""
