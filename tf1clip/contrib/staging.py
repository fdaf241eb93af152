"""``tf.contrib.staging``: TF 1.15's ``StagingArea`` on TF 2's public ``tf.raw_ops`` (docs/contrib.rst).

The same ``Stage`` / ``Unstage`` / ``StagePeek`` / ``StageSize`` / ``StageClear`` kernels, the same node and shared
names (``StagingArea``, ``StagingArea_1``, ... from the graph's ``unique_name``; ``<name>_put``, ``<name>_get``,
``<name>_peek``, ``<name>_size``, ``<name>_clear``, ``<name>_root/NoOp`` the ops colocate with) and TF 1.15's
``ValueError`` messages. Differences from TF 1.15, on input it failed on obscurely: values to put must be tensors
(TF 1.15: an ``AttributeError`` or NumPy's ``TypeError``; tf1clip: a ``TypeError`` naming ``values``); ``dtypes``,
``shapes`` and ``names`` that are not lists or tuples raise a ``TypeError`` naming them; creating one eagerly
raises ``RuntimeError`` (TF 1.15's ``get`` then failed with an ``AttributeError``).
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


def _unknown(name, value):
    return TypeError("StagingArea: %s must be a list or tuple, got %r" % (name, value))


class StagingArea:
    """Stores tensors across ``Session.run`` steps (no ordering guarantees): ``put`` an element of
    ``len(dtypes)`` tensors, ``get`` (or ``peek``) it in a later step. ``shapes`` and ``names`` (the keys of
    the dicts ``put`` takes and ``get`` returns) have one entry per dtype; ``capacity`` and ``memory_limit``
    (bytes) bound the area when non-zero, and ``put`` blocks at the bound. Built on the default graph."""

    def __init__(self, dtypes, shapes=None, names=None, shared_name=None, capacity=0, memory_limit=0):
        if tf.executing_eagerly():
            raise RuntimeError(
                "StagingArea builds graph ops run by a Session: create it in a tf.Graph (with "
                "tf.Graph().as_default(), or after tf.compat.v1.disable_v2_behavior()), not eagerly"
            )
        if shared_name is None:
            self._name = _v1.get_default_graph().unique_name(type(self).__name__)
        elif isinstance(shared_name, str):
            self._name = shared_name
        else:
            raise ValueError("shared_name must be a string")
        if not isinstance(dtypes, (list, tuple)):
            raise _unknown("dtypes", dtypes)
        self._dtypes = dtypes
        if shapes is not None:
            if not isinstance(shapes, (list, tuple)):
                raise _unknown("shapes", shapes)
            if len(shapes) != len(dtypes):
                raise ValueError("StagingArea shapes must be the same length as dtypes")
            self._shapes = [tf.TensorShape(s) for s in shapes]
        else:
            self._shapes = [tf.TensorShape(None) for _ in dtypes]
        if names is not None:
            if not isinstance(names, (list, tuple)):
                raise _unknown("names", names)
            if len(names) != len(dtypes):
                raise ValueError("StagingArea names must be the same length as dtypes")
        self._names = names
        self._capacity = capacity
        self._memory_limit = memory_limit
        with _v1.name_scope("%s_root" % self._name):
            self._coloc_op = tf.no_op()

    @property
    def name(self):
        """The staging area's name: its kernels' ``shared_name``."""
        return self._name

    @property
    def dtypes(self):
        """The dtype of each component of an element."""
        return self._dtypes

    @property
    def shapes(self):
        """The ``TensorShape`` of each component (unknown when ``shapes`` was None)."""
        return self._shapes

    @property
    def names(self):
        """The component names (the dict keys of ``put`` and ``get``), or None."""
        return self._names

    @property
    def capacity(self):
        """The most elements the area holds (0: unbounded)."""
        return self._capacity

    @property
    def memory_limit(self):
        """The most bytes the area holds (0: unbounded)."""
        return self._memory_limit

    def _op_name(self, name, op):
        return "%s_%s" % (self._name, op) if name is None else name

    def _attrs(self):
        return dict(shared_name=self._name, capacity=self._capacity, memory_limit=self._memory_limit)

    def _check_put_dtypes(self, vals, indices):
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Staging areas must have names to enqueue a dictionary")
            if not set(vals.keys()).issubset(self._names):
                raise ValueError(
                    "Keys in dictionary to put do not match names of staging area. Dictionary: (%s), Queue: (%s)"
                    % (sorted(vals.keys()), sorted(self._names))
                )
            pairs = [(vals[k], i) for i, k in enumerate(self._names) if k in vals]
            vals, indices = [v for v, _ in pairs], [i for _, i in pairs]
        elif self._names:
            raise ValueError("You must enqueue a dictionary in a staging area with names")
        if not len(vals) <= len(self._dtypes):
            raise ValueError("Unexpected number of inputs '%s' vs '%s'" % (len(vals), len(self._dtypes)))
        tensors = []
        for val, i in zip(vals, indices):
            dtype, shape = self._dtypes[i], self._shapes[i]
            if not isinstance(getattr(val, "dtype", None), tf.DType):
                raise TypeError("StagingArea.put: values must be tensors, got %r for component %d" % (val, i))
            if val.dtype != dtype:
                raise ValueError("Datatypes do not match. '%s' != '%s'" % (str(val.dtype), str(dtype)))
            val.get_shape().assert_is_compatible_with(shape)
            tensors.append(tf.convert_to_tensor(val, dtype=dtype, name="component_%d" % i))
        return tensors

    @staticmethod
    def _scope_vals(values):
        if isinstance(values, (list, tuple)):
            return values
        if isinstance(values, dict):
            return list(values.values())
        return [values]

    def put(self, values, name=None):
        """The ``Stage`` op putting ``values`` (a tensor, a list or tuple of them, or a dict keyed by ``names``;
        the first components, or the named ones, of an element) into the area."""
        with _v1.name_scope(name, "%s_put" % self._name, self._scope_vals(values)) as scope:
            if not isinstance(values, (list, tuple, dict)):
                values = [values]
            vals = self._check_put_dtypes(values, list(range(len(values))))
            with _v1.colocate_with(self._coloc_op):
                return tf.raw_ops.Stage(values=vals, name=scope, container="", **self._attrs())

    def _returned(self, tensors):
        if tf.no_op().device != self._coloc_op.device:
            tensors = [tf.identity(t) for t in tensors]
        for t, shape in zip(tensors, self._shapes):
            t.set_shape(shape)
        if self._names:
            return {self._names[i]: t for i, t in enumerate(tensors)}
        return tensors

    def get(self, name=None):
        """The element gotten (removed) from the area: a list of tensors, or a dict keyed by ``names``. Its
        ``Unstage`` op blocks while the area is empty: put an element in a warm-up step first."""
        with _v1.colocate_with(self._coloc_op):
            tensors = tf.raw_ops.Unstage(
                dtypes=self._dtypes, name=self._op_name(name, "get"), container="", **self._attrs()
            )
        return self._returned(tensors)

    def peek(self, index, name=None):
        """The element at position ``index`` of the area, left in it (blocks until there are enough)."""
        with _v1.colocate_with(self._coloc_op):
            tensors = tf.raw_ops.StagePeek(
                index=index, dtypes=self._dtypes, name=self._op_name(name, "peek"), container="", **self._attrs()
            )
        return self._returned(tensors)

    def size(self, name=None):
        """The number of elements in the area (an int32 tensor)."""
        return tf.raw_ops.StageSize(
            dtypes=self._dtypes, name=self._op_name(name, "size"), container="", **self._attrs()
        )

    def clear(self, name=None):
        """The op emptying the area."""
        return tf.raw_ops.StageClear(
            dtypes=self._dtypes, name=self._op_name(name, "clear"), container="", **self._attrs()
        )
