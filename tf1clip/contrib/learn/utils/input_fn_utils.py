"""``tf.contrib.learn.utils.input_fn_utils`` (TF 1.15): ``InputFnOps`` and the serving ``input_fn`` builders."""

import collections
from typing import Any, Callable, Optional

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


class InputFnOps(collections.namedtuple("InputFnOps", ["features", "labels", "default_inputs"])):
    """What a serving ``input_fn`` returns: ``features``, ``labels`` (None) and the fed ``default_inputs``."""


def build_parsing_serving_input_fn(feature_spec: dict, default_batch_size: Optional[int] = None) -> Callable[[], Any]:
    """A serving ``input_fn`` parsing ``tf.Example`` strings fed to ``input_example_tensor`` (key ``examples``)."""

    def input_fn() -> InputFnOps:
        examples = tf.compat.v1.placeholder(tf.string, [default_batch_size], name="input_example_tensor")
        features = tf.compat.v1.parse_example(examples, feature_spec)
        return InputFnOps(features, None, {"examples": examples})

    return input_fn


def build_default_serving_input_fn(features: dict, default_batch_size: Optional[int] = None) -> Callable[[], Any]:
    """A serving ``input_fn`` whose placeholders (named as ``features``' ops) are fed directly."""

    def input_fn() -> InputFnOps:
        placeholders = {}
        for name, tensor in features.items():
            shape = tensor.get_shape().as_list()
            shape[0] = default_batch_size
            placeholders[name] = tf.compat.v1.placeholder(tensor.dtype, shape, name=tensor.op.name)
        return InputFnOps(placeholders, None, placeholders)

    return input_fn
