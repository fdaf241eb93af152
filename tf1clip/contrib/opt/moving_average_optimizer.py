"""``tf.contrib.opt.MovingAverageOptimizer``: an optimizer that keeps moving averages of what it trains."""

from tf1clip.core import _delegate
from tf1clip.compat import _tf
from tf1clip.core import _validate
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


def _saver_names(var_list):
    """``{checkpoint name: variable or list of partitions}`` as ``Saver`` keys ``var_list``.

    The names ``tf.compat.v1.train.Saver`` gives: ``var.op.name`` for a
    variable (the variable's own name for a resource variable), the full name
    of a partitioned variable for the list of its partitions.
    """
    names = {}
    for var in var_list:
        if not isinstance(var, tf.Variable) and hasattr(var, "__iter__"):
            parts = list(var)
            full = _tf.save_slice_info(parts[0]).full_name if parts else _validate.op_name(var)
            names.setdefault(full, []).extend(parts)
            continue
        info = _tf.save_slice_info(var)
        if info is not None:
            names.setdefault(info.full_name, []).append(var)
        else:
            names[var.op.name] = var
    return names


class MovingAverageOptimizer(_delegate.DelegatingOptimizer):
    """Optimizer that maintains exponential moving averages of the variables it trains.

    ``tf.contrib.opt.MovingAverageOptimizer``: ``apply_gradients`` runs
    ``opt.apply_gradients`` and ``tf.compat.v1.train.ExponentialMovingAverage(
    average_decay, num_updates).apply`` on every variable with a gradient
    (after the update when ``sequential_update``), and returns
    ``tf.group(train_op, ma_op, name="train_with_avg")``. The averages are
    the variables ``<var>/ExponentialMovingAverage``, as in TF 1.15.

    ``swapping_saver()`` is the saver to train with: it saves each average
    under its variable's name and each variable under its average's name, so
    an evaluation program restoring with a plain saver gets the averages.

    Differences from TF 1.15 (fixes): the constructor initialises the
    ``tf.compat.v1.train.Optimizer`` base (contrib did not, so ``get_name()``,
    ``get_slot()`` and ``variables()`` raised ``AttributeError``); ``get_name``
    is ``opt``'s name and slots are ``opt``'s; ``grads_and_vars`` may be any
    iterable (contrib iterated it twice, so a Python 3 ``zip`` left the
    averages unapplied).

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance that computes and applies the gradients.
      average_decay: decay of the moving averages.
      num_updates: optional count of updates, see ``ExponentialMovingAverage``.
      sequential_update: if True the averages are updated after the variables;
        if False at the same time (a benign race, as in TF 1.15).

    Raises:
      TypeError: ``opt`` is not a ``tf.compat.v1.train.Optimizer`` instance.
    """

    def __init__(self, opt, average_decay=0.9999, num_updates=None, sequential_update=True):
        _common.check_optimizer(opt)
        super().__init__(use_locking=False, name=opt.get_name())
        self._optimizer = opt
        self._ema = tf.compat.v1.train.ExponentialMovingAverage(average_decay, num_updates=num_updates)
        self._swapped_variable_name_map = None
        self._sequential_update = sequential_update

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """``opt.apply_gradients``, then the moving averages; returns ``train_with_avg``."""
        grads_and_vars = list(grads_and_vars)
        train_op = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name)
        var_list = [v for g, v in grads_and_vars if g is not None]
        self._swapped_variable_name_map = {}
        with _common.control_flow_for(var_list):
            if self._sequential_update:
                with tf.control_dependencies([train_op]):
                    ma_op = self._ema.apply(var_list)
            else:
                ma_op = self._ema.apply(var_list)
        for var in var_list:
            avg = self._ema.average(var)
            self._swapped_variable_name_map[var.op.name] = avg.op.name
            self._swapped_variable_name_map[avg.op.name] = var.op.name
        return tf.group(train_op, ma_op, name="train_with_avg")

    def _swapped(self, by_name, name, var):
        swapped = self._swapped_variable_name_map.get(name)
        if swapped is None:
            return var
        if swapped not in by_name:
            raise ValueError(
                "Variable to swap %s is not part of variables to save. This breaks MovingAverageOptimizer." % swapped
            )
        return by_name[swapped]

    def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
        """A ``tf.compat.v1.train.Saver`` that swaps the variables and their moving averages.

        Train with it: it saves each average under its variable's name (and the
        variable under the average's name). Call it after ``minimize`` /
        ``apply_gradients`` and after every variable exists.

        Args:
          var_list: what to save, as for ``Saver`` (list or dict); default all
            global variables.
          name: the saver's name.
          **kwargs: other ``Saver`` arguments.

        Raises:
          RuntimeError: ``apply_gradients`` / ``minimize`` was not called before.
          ValueError: ``var_list`` holds a variable but not its average (or the reverse).
        """
        if self._swapped_variable_name_map is None:
            raise RuntimeError("Must call apply_gradients or minimize before creating the swapping_saver")
        if var_list is None:
            var_list = tf.compat.v1.global_variables()
        if not isinstance(var_list, dict):
            var_list = _saver_names(var_list)

        by_name = {}
        for key, entry in var_list.items():
            if isinstance(entry, (list, tuple)) or (not isinstance(entry, tf.Variable) and hasattr(entry, "__iter__")):
                for part in entry:
                    by_name[part.op.name] = part
            else:
                by_name[key] = entry

        swapped = {}
        for key, entry in var_list.items():
            if isinstance(entry, (list, tuple)) or (not isinstance(entry, tf.Variable) and hasattr(entry, "__iter__")):
                swapped[key] = [self._swapped(by_name, part.op.name, part) for part in entry]
            else:
                swapped[key] = self._swapped(by_name, key, entry)
        return tf.compat.v1.train.Saver(swapped, name=name, **kwargs)
