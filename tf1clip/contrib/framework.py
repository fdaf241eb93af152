"""``tf.contrib.framework``: tf1clip's global-step helpers; tf-slim for the rest.

``get_global_step`` and ``get_or_create_global_step`` are tf1clip's (they find
a legacy ``get_variable("global_step")`` step). Other public names
(``arg_scope``, ``add_arg_scope``, ``get_variables``, ``get_model_variables``,
``filter_variables``, ``assign_from_checkpoint_fn`` ...) are tf-slim's
``ops.arg_scope`` / ``ops.variables`` / ``ops.framework_ops``, resolved on
first use (needs ``tf1clip[slim]``).
"""

from typing import Any, Optional

from tf1clip.compat._tf import tf
from tf1clip.compat import _slim
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


def _check_graph(graph):
    if graph is None:
        return _v1.get_default_graph()
    if not isinstance(graph, tf.Graph):
        raise TypeError("`graph` must be a tf.Graph or None; received %s %r." % (type(graph).__name__, graph))
    return graph


def get_global_step(graph: Optional[Any] = None) -> Optional[Any]:
    """Returns the global step variable of ``graph`` (default graph), or ``None``.

    ``tf.compat.v1.train.get_global_step``, plus one case it gets wrong on TF
    2.x: a step made with ``tf.compat.v1.get_variable("global_step", ...)``
    (not in the ``GLOBAL_STEP`` collection) is a resource variable there, and
    TensorFlow's lookup by the tensor name ``global_step:0`` finds its resource
    handle and raises ``TypeError``; TF 1.x found the variable. This returns the
    variable, as TF 1.x did.

    Raises:
      TypeError: ``graph`` is not a ``tf.Graph``; the step found is not an integer scalar.
    """
    graph = _check_graph(graph)
    if not graph.get_collection(_v1.GraphKeys.GLOBAL_STEP):
        for var in graph.get_collection(_v1.GraphKeys.GLOBAL_VARIABLES):
            if var.op.name == "global_step":
                _v1.train.assert_global_step(var)
                return var
    return _v1.train.get_global_step(graph)


def get_or_create_global_step(graph: Optional[Any] = None) -> Any:
    """Returns the global step of ``graph`` (see ``get_global_step``), creating it if missing.

    A new step is TensorFlow's: an int64 variable ``global_step`` in the
    ``GLOBAL_STEP`` collection (``tf.compat.v1.train.create_global_step``).
    """
    graph = _check_graph(graph)
    step = get_global_step(graph)
    if step is None:
        step = _v1.train.create_global_step(graph)
    return step


# Every other public name: tf-slim's (``_slim.DELEGATES["framework"]``), resolved on first use.
__getattr__ = _slim.module_getattr("framework", globals())
__dir__ = _slim.module_dir("framework", globals())
