"""``tf.contrib.learn.Estimator`` (TF 1.15) on ``tf1clip.estimator.Estimator``.

The learn ``model_fn`` (``(features, labels[, mode][, params][, config][, model_dir])`` returning ``ModelFnOps`` or
``(predictions, loss, train_op)``) runs inside a ``tf1clip.estimator.Estimator``, whose training, evaluation and
prediction loops build the graph in TF 1.15's order (seed, global step, ``input_fn``, ``model_fn``) and save the same
checkpoints. ``fit``/``evaluate``/``predict`` take ``x``/``y`` (NumPy arrays or dicts of them) as TF 1.15 did: fed
through placeholders ``input``/``output`` in batches of ``batch_size`` (default: all rows); ``fit`` shuffles with
``RandomState(42)`` and reshuffles every epoch, ``evaluate`` and ``predict`` read one epoch in order.
As in TF 1.15, a ``model_fn``'s own ``'loss'`` eval metric is kept, and in INFER mode the ``model_fn`` gets
placeholders of the training labels' signature once this object has trained or evaluated (else ``None``).
Differences from TF 1.15 (docs/learn.rst): ``monitors`` must be ``SessionRunHook`` objects; training also writes
a ``loss`` summary and logs; ``export_savedmodel`` writes ``tf1clip.estimator``'s signatures (``serving_default``
and the ``output_alternatives`` keys).
"""

import copy
import tempfile
from typing import Any, Callable, Dict, List, NamedTuple, Optional

import numpy as np

from tf1clip import estimator as _core
from tf1clip.compat import _estimator as _estimator_compat
from tf1clip.compat._tf import tf
from tf1clip.contrib.learn import model_fn as model_fn_lib
from tf1clip.contrib.learn import run_config as run_config_lib
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


class NotFittedError(ValueError, AttributeError):
    """Raised by ``evaluate``/``predict`` when ``model_dir`` has no checkpoint."""


def _fn_args(fn: Callable[..., Any]) -> tuple:
    import functools
    import inspect

    if isinstance(fn, functools.partial):
        bound = set(fn.keywords or {})
        names = list(inspect.signature(fn.func).parameters)[len(fn.args) :]
        return tuple(n for n in names if n not in bound)
    return tuple(inspect.signature(fn).parameters)


def _verify_input_args(x: Any, y: Any, input_fn: Any, feed_fn: Any, batch_size: Any) -> None:
    if input_fn is None:
        if x is None:
            raise ValueError("Either x or input_fn must be provided.")
        if tf.is_tensor(x) or (y is not None and tf.is_tensor(y)):
            raise ValueError("Inputs cannot be tensors. Please provide input_fn.")
        if feed_fn is not None:
            raise ValueError("Can not provide both feed_fn and x or y.")
    else:
        if x is not None or y is not None:
            raise ValueError("Can not provide both input_fn and x or y.")
        if batch_size is not None:
            raise ValueError("Can not provide both input_fn and batch_size.")


class _DataFeeder:
    """TF 1.15's ``DataFeeder`` for NumPy ``x``/``y``: placeholders and a feed function over batches of rows."""

    def __init__(self, x: Any, y: Any, batch_size: Optional[int], shuffle: bool, epochs: Optional[int]):
        self._x, self._y = x, y
        first = next(iter(x.values())) if isinstance(x, dict) else x
        self._rows = int(np.shape(first)[0])
        if batch_size is not None and batch_size <= 0:
            raise ValueError("Invalid batch_size %d." % batch_size)
        self._batch_size = self._rows if batch_size is None else batch_size
        self._shuffle, self._epochs = shuffle, epochs
        self._random_state = np.random.RandomState(42)
        self._indices = self._order()
        self._offset = self._epoch = 0
        self._names: Dict[Any, str] = {}

    def _order(self) -> np.ndarray:
        return self._random_state.permutation(self._rows) if self._shuffle else np.arange(self._rows)

    def input_fn(self) -> Any:
        """Builds the placeholders ``input`` (``input_<key>``) and ``output`` (``output_<key>``)."""
        features = _map(self._x, lambda a, key: self._placeholder(a, "input", key, _input_shape(a)))
        if self._y is None:
            return features, None
        return features, _map(self._y, lambda a, key: self._placeholder(a, "output", key, _output_shape(a)))

    def _placeholder(self, array: Any, prefix: str, key: Optional[str], shape: List[Optional[int]]) -> Any:
        name = prefix if key is None else prefix + "_" + key
        placeholder = _v1.placeholder(tf.as_dtype(np.asarray(array).dtype), shape, name=name)
        self._names[(prefix, key)] = placeholder.name
        return placeholder

    def feed_fn(self) -> Dict[str, Any]:
        if self._epochs is not None and self._epoch + 1 > self._epochs:
            raise StopIteration
        batch = self._indices[self._offset : min(self._rows, self._offset + self._batch_size)]
        feed = {}
        for prefix, data, shape_fn in (("input", self._x, _input_shape), ("output", self._y, _output_shape)):
            if data is None:
                continue
            items = data.items() if isinstance(data, dict) else [(None, data)]
            for key, array in items:
                feed[self._names[(prefix, key)]] = np.asarray(array)[batch].reshape([len(batch)] + shape_fn(array)[1:])
        self._offset += self._batch_size
        if self._offset >= self._rows:
            self._indices, self._offset, self._epoch = self._order(), 0, self._epoch + 1
        return feed


def _map(data: Any, fn: Callable[[Any, Optional[str]], Any]) -> Any:
    if isinstance(data, dict):
        return {key: fn(value, key) for key, value in data.items()}
    return fn(data, None)


def _input_shape(array: Any) -> List[Optional[int]]:
    shape = list(np.shape(array))
    return [None] + (shape[1:] if len(shape) > 1 else [1])


def _output_shape(array: Any) -> List[Optional[int]]:
    rest = list(np.shape(array))[1:]
    return [None] + (rest[1:] if rest and rest[0] == 1 else rest)


class _StopAfterOneBatch(tf.compat.v1.train.SessionRunHook):
    """TF 1.15's prediction loop read one batch when the input had no queue runners and no feed function."""

    def begin(self) -> None:
        self._constant = not _v1.get_collection(_v1.GraphKeys.QUEUE_RUNNERS)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        if self._constant:
            run_context.request_stop()


class MetricSpec:
    """``metric_fn(predictions, labels[, weights])`` on the named prediction/label/weight tensors (TF 1.15)."""

    def __init__(
        self,
        metric_fn: Callable[..., Any],
        prediction_key: Optional[str] = None,
        label_key: Optional[str] = None,
        weight_key: Optional[str] = None,
    ):
        if not callable(metric_fn):
            raise TypeError("metric_fn must be callable, got %r" % (metric_fn,))
        self.metric_fn, self.prediction_key, self.label_key, self.weight_key = (
            metric_fn,
            prediction_key,
            label_key,
            weight_key,
        )

    def create_metric_ops(self, inputs: Any, labels: Any, predictions: Any) -> Any:
        def pick(tensors: Any, key: Optional[str], what: str) -> Any:
            if key is None:
                if isinstance(tensors, dict) and len(tensors) != 1:
                    raise ValueError("MetricSpec without %s_key got several %ss: %s" % (what, what, sorted(tensors)))
                return next(iter(tensors.values())) if isinstance(tensors, dict) else tensors
            if not isinstance(tensors, dict) or key not in tensors:
                raise ValueError("MetricSpec %s_key %r not in the %ss" % (what, key, what))
            return tensors[key]

        kwargs = {"predictions": pick(predictions, self.prediction_key, "prediction")}
        kwargs["labels"] = pick(labels, self.label_key, "label")
        if self.weight_key is not None:
            kwargs["weights"] = inputs[self.weight_key]
        return self.metric_fn(**kwargs)


def _metric_ops(metrics: Optional[dict], features: Any, labels: Any, predictions: Any) -> dict:
    """TF 1.15's ``_make_metrics_ops``: MetricSpec, a bare ``fn(predictions, labels)`` or a ``(name, key)`` key."""
    if isinstance(labels, dict) and len(labels) == 1:
        labels = next(iter(labels.values()))
    result = {}
    for name, metric in sorted((metrics or {}).items(), key=lambda item: str(item[0])):
        if isinstance(metric, MetricSpec):
            result[name] = metric.create_metric_ops(features, labels, predictions)
        elif isinstance(name, tuple):
            if len(name) != 2 or not isinstance(predictions, dict):
                raise ValueError("Invalid metric for %s: a (name, prediction key) needs dict predictions." % (name,))
            result[name[0]] = metric(predictions[name[1]], labels)
        elif isinstance(predictions, dict):
            raise ValueError(
                "Metrics passed provide only name, no prediction, but predictions are dict. Metrics: %s, Labels: %s."
                % (metrics, labels)
            )
        else:
            result[name] = metric(predictions, labels)
    return result


class BaseEstimator:
    """Config, ``model_dir`` and variable access shared by ``Estimator`` (TF 1.15's ``BaseEstimator``)."""

    def __init__(self, model_dir: Optional[str] = None, config: Any = None):
        config = run_config_lib.RunConfig() if config is None else config
        if not isinstance(config, _core.RunConfig):
            raise TypeError("config must be a tf.contrib.learn.RunConfig, got %s" % type(config).__name__)
        if model_dir is not None and config.model_dir is not None and model_dir != config.model_dir:
            raise ValueError(
                "model_dir are set both in constructor and RunConfig, but with different values. In constructor: "
                "'{}', in RunConfig: '{}' ".format(model_dir, config.model_dir)
            )
        self._model_dir = model_dir or config.model_dir or tempfile.mkdtemp()
        if config.model_dir is None:
            config = config.replace(model_dir=self._model_dir)
        self._config = config
        self._session_config = config.session_config or _v1.ConfigProto(allow_soft_placement=True)

    @property
    def config(self) -> Any:
        return copy.deepcopy(self._config)

    @property
    def model_dir(self) -> str:
        return self._model_dir

    def get_variable_value(self, name: str) -> np.ndarray:
        return tf.train.load_variable(self._model_dir, name)

    def get_variable_names(self) -> List[str]:
        return [name for name, _ in tf.train.list_variables(self._model_dir)]

    def _checkpoint(self, checkpoint_path: Optional[str] = None) -> str:
        path = checkpoint_path or tf.train.latest_checkpoint(self._model_dir)
        if not path:
            raise NotFittedError("Couldn't find trained model at %s." % self._model_dir)
        return path


class TensorSignature(NamedTuple):
    """TF 1.15's ``tensor_signature.TensorSignature`` (not exported; messages print it as TF 1.15 did)."""

    dtype: Any
    shape: Any
    is_sparse: bool


def _signatures(tensors: Any) -> Any:
    """TF 1.15's ``tensor_signature.create_signatures``: dtype, shape and sparseness of each tensor."""
    if tensors is None:
        return None
    if isinstance(tensors, dict):
        return {key: _signatures(value) for key, value in tensors.items()}
    if isinstance(tensors, tf.SparseTensor):
        return TensorSignature(tensors.values.dtype, None, True)
    return TensorSignature(tensors.dtype, tensors.get_shape(), False)


def _compatible(tensors: Any, signatures: Any) -> bool:
    """TF 1.15's ``tensors_compatible``: each signature's key given, same dtype and sparseness, shapes compatible
    except in dimension 0."""
    if tensors is None:
        return signatures is None
    if isinstance(tensors, dict):
        if not isinstance(signatures, dict):
            return False
        return all(key in tensors and _compatible(tensors[key], value) for key, value in signatures.items())
    if signatures is None or isinstance(signatures, dict):
        return False
    given = _signatures(tensors)
    if signatures.is_sparse or given.is_sparse:
        return signatures.is_sparse and given.is_sparse and given.dtype.is_compatible_with(signatures.dtype)
    if not given.dtype.is_compatible_with(signatures.dtype):
        return False
    if given.shape.rank is None or signatures.shape.rank is None:
        return True
    return given.shape.rank == signatures.shape.rank and given.shape[1:].is_compatible_with(signatures.shape[1:])


def _placeholders(signatures: Any) -> Any:
    """TF 1.15's ``create_placeholders_from_signatures``: placeholders ``[None] + shape[1:]`` of each label."""
    if signatures is None:
        return None
    if isinstance(signatures, dict):
        return {key: _placeholders(value) for key, value in signatures.items()}
    if signatures.is_sparse:
        return _v1.sparse_placeholder(dtype=signatures.dtype)
    shape = None if signatures.shape.rank is None else [None] + signatures.shape[1:].as_list()
    return _v1.placeholder(dtype=signatures.dtype, shape=shape)


def _hooks(monitors: Optional[list], estimator: Any) -> list:
    """TF 1.15's ``replace_monitors_with_hooks``: the hooks, then one hook running the ``monitors.BaseMonitor``
    objects (after the checkpoint saver, as TF 1.15's, so they see the checkpoint of the step just run)."""
    from tf1clip.contrib.learn import monitors as monitor_lib

    for monitor in monitors or []:
        if not isinstance(monitor, (_v1.train.SessionRunHook, monitor_lib.BaseMonitor)):
            raise TypeError(
                "monitors: expected tf.compat.v1.train.SessionRunHook or tf.contrib.learn.monitors objects, got %s"
                % type(monitor).__name__
            )
    return monitor_lib.replace_monitors_with_hooks(monitors, estimator)


class Estimator(BaseEstimator):
    """TF 1.15's ``tf.contrib.learn.Estimator``: a learn ``model_fn`` trained by ``tf1clip.estimator.Estimator``."""

    def __init__(
        self,
        model_fn: Optional[Callable[..., Any]] = None,
        model_dir: Optional[str] = None,
        config: Any = None,
        params: Optional[dict] = None,
        feature_engineering_fn: Optional[Callable[..., Any]] = None,
    ):
        super().__init__(model_dir=model_dir, config=config)
        if model_fn is not None:
            if not callable(model_fn):
                raise TypeError("model_fn must be callable, got %r" % (model_fn,))
            if params is not None and "params" not in _fn_args(model_fn):
                raise ValueError(
                    "Estimator's model_fn (%s) does not have a params argument, but params (%s) were passed to the "
                    "Estimator's constructor." % (model_fn, params)
                )
        self._model_fn = model_fn
        self.params = params
        self._feature_engineering_fn = feature_engineering_fn or (lambda features, labels: (features, labels))
        self._metrics: Optional[dict] = None
        self._output_alternative_key: Optional[str] = None
        self._features_info: Any = None
        self._labels_info: Any = None
        self._exporting = False
        core_config = self._config.replace(session_config=self._session_config)
        core = _core.Estimator(model_fn=self._core_model_fn, model_dir=self._model_dir, config=core_config)
        self._core = _estimator_compat.report_metric_aliases(core)

    @property
    def model_fn(self) -> Callable[..., Any]:
        """``model_fn(features, labels, mode, config)`` returning ``ModelFnOps``, bound to ``params``."""

        def public_model_fn(features: Any, labels: Any, mode: str, config: Any) -> Any:
            return self._call_model_fn(features, labels, mode, config=config)

        return public_model_fn

    def _call_model_fn(self, features: Any, labels: Any, mode: str, metrics: Any = None, config: Any = None) -> Any:
        features, labels = self._feature_engineering_fn(features, labels)
        model_fn = self._model_fn
        if model_fn is None:
            raise TypeError("Estimator: model_fn is None, so there is no model to build")
        args = _fn_args(model_fn)
        kwargs: Dict[str, Any] = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = config if config else self.config
        if "model_dir" in args:
            kwargs["model_dir"] = self.model_dir
        results = model_fn(features, labels, **kwargs)
        if isinstance(results, model_fn_lib.ModelFnOps):
            ops = results
        else:
            if not isinstance(results, (tuple, list)) or len(results) != 3:
                raise ValueError("Unrecognized value returned by model_fn, please return ModelFnOps.")
            ops = model_fn_lib.ModelFnOps(mode=mode, predictions=results[0], loss=results[1], train_op=results[2])
        if metrics:
            ops.eval_metric_ops.update(_metric_ops(metrics, features, labels, ops.predictions))
        return ops

    def _core_model_fn(self, features: Any, labels: Any, mode: str, config: Any) -> Any:
        if mode == model_fn_lib.ModeKeys.INFER:
            labels = None if self._exporting else _placeholders(self._labels_info)
        else:
            self._check_inputs(features, labels)
        ops = self._call_model_fn(features, labels, mode, metrics=self._metrics if mode == "eval" else None)
        if mode == model_fn_lib.ModeKeys.TRAIN:
            _v1.add_to_collection(_v1.GraphKeys.LOSSES, ops.loss)
        loss_key = model_fn_lib.MetricKey.LOSS
        if mode == model_fn_lib.ModeKeys.EVAL and loss_key in ops.eval_metric_ops:
            ops.eval_metric_ops[_estimator_compat.METRIC_ALIAS_PREFIX + loss_key] = ops.eval_metric_ops.pop(loss_key)
        return ops.estimator_spec(self._output_alternative_key)

    def _check_inputs(self, features: Any, labels: Any) -> None:
        """TF 1.15's ``_check_inputs`` (training and evaluation): the first features and labels set the signatures
        later ones must match; INFER's label placeholders take the labels'."""
        if self._features_info is None:
            self._features_info = _signatures(features)
        elif not _compatible(features, self._features_info):
            raise ValueError(
                "Features are incompatible with given information. Given features: %s, required signatures: %s."
                % (features, self._features_info)
            )
        if labels is None:
            return
        if self._labels_info is None:
            self._labels_info = _signatures(labels)
        elif not _compatible(labels, self._labels_info):
            raise ValueError(
                "Labels are incompatible with given information. Given labels: %s, required signatures: %s."
                % (labels, self._labels_info)
            )

    def fit(self, x=None, y=None, input_fn=None, steps=None, batch_size=None, monitors=None, max_steps=None) -> Any:
        """Trains ``steps`` more steps (or up to ``max_steps``) on ``input_fn()`` or on ``x``/``y``."""
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        _verify_input_args(x, y, input_fn, None, batch_size)
        hooks = _hooks(monitors, self)
        if x is not None:
            feeder = _DataFeeder(x, y, batch_size, shuffle=True, epochs=None)
            input_fn = feeder.input_fn
            hooks.insert(0, _v1.train.FeedFnHook(feeder.feed_fn))
        self._core.train(input_fn, hooks=hooks, steps=steps, max_steps=max_steps)
        return self

    def partial_fit(self, x=None, y=None, input_fn=None, steps=1, batch_size=None, monitors=None) -> Any:
        return self.fit(x=x, y=y, input_fn=input_fn, steps=steps, batch_size=batch_size, monitors=monitors)

    def evaluate(
        self,
        x=None,
        y=None,
        input_fn=None,
        feed_fn=None,
        batch_size=None,
        steps=None,
        metrics=None,
        name=None,
        checkpoint_path=None,
        hooks=None,
        log_progress=True,
    ) -> Dict[str, Any]:
        """The metrics (``'loss'``: the mean loss, and ``'global_step'``) of the latest (or given) checkpoint."""
        _verify_input_args(x, y, input_fn, feed_fn, batch_size)
        if metrics is not None and not isinstance(metrics, dict):
            raise ValueError("Metrics argument should be None or dict. Got %s." % metrics)
        hooks = list(hooks or [])
        if x is not None:
            feeder = _DataFeeder(x, y, batch_size, shuffle=False, epochs=1)
            input_fn, feed_fn = feeder.input_fn, feeder.feed_fn
        if feed_fn is not None:
            hooks.append(_v1.train.FeedFnHook(feed_fn))
        path = self._checkpoint(checkpoint_path)
        self._metrics = metrics
        try:
            return self._core.evaluate(input_fn, steps=steps or None, hooks=hooks, checkpoint_path=path, name=name)
        finally:
            self._metrics = None

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True, iterate_batches=False):
        """Predictions of the latest checkpoint: an iterator over rows (or batches), or the first batch's arrays
        (all of ``x``'s, concatenated) with ``as_iterable=False``."""
        _verify_input_args(x, None, input_fn, None, batch_size)
        path = self._checkpoint()
        if x is not None:
            feeder = _DataFeeder(x, None, batch_size, shuffle=False, epochs=1)
            input_fn, hooks = feeder.input_fn, [_v1.train.FeedFnHook(feeder.feed_fn)]
        else:
            hooks = [_StopAfterOneBatch()]
        single = as_iterable and not iterate_batches
        results = self._core.predict(input_fn, outputs or None, hooks, path, yield_single_examples=single)
        if as_iterable:
            return results
        batches = list(results) if x is not None else [next(results)]
        results.close()
        return _concatenate(batches)

    def export_savedmodel(
        self,
        export_dir_base: str,
        serving_input_fn: Callable[[], Any],
        default_output_alternative_key: Optional[str] = None,
        assets_extra: Optional[dict] = None,
        as_text: bool = False,
        checkpoint_path: Optional[str] = None,
        graph_rewrite_specs: Any = None,
        strip_default_attrs: bool = False,
    ) -> bytes:
        """Exports a SavedModel under ``export_dir_base/<timestamp>``; ``serving_input_fn`` returns ``InputFnOps``
        (or a ``ServingInputReceiver``). Returns the export directory (bytes)."""
        if graph_rewrite_specs not in (None, ()):
            raise NotImplementedError("export_savedmodel: graph_rewrite_specs is not supported by tf1clip")
        self._output_alternative_key, self._exporting = default_output_alternative_key, True
        try:
            return self._core.export_saved_model(
                export_dir_base, _receiver_fn(serving_input_fn), assets_extra, as_text, checkpoint_path
            )
        finally:
            self._output_alternative_key, self._exporting = None, False


def _receiver_fn(serving_input_fn: Callable[[], Any]) -> Callable[[], Any]:
    def receiver_fn() -> Any:
        result = serving_input_fn()
        if isinstance(result, (_core.export.ServingInputReceiver, _core.export.TensorServingInputReceiver)):
            return result
        features, _, inputs = result
        receiver = (
            _core.export.ServingInputReceiver if isinstance(features, dict) else _core.export.TensorServingInputReceiver
        )
        return receiver(features, inputs if inputs else features)

    return receiver_fn


def _concatenate(batches: List[Any]) -> Any:
    if not isinstance(batches[0], dict):
        return np.concatenate(batches, axis=0)
    return {key: np.concatenate([batch[key] for batch in batches], axis=0) for key in batches[0]}


class SKCompat:
    """Scikit-learn style ``fit(x, y)``, ``score`` and ``predict`` around an ``Estimator`` (batch size 128)."""

    def __init__(self, estimator: Estimator):
        self._estimator = estimator

    def fit(self, x, y, batch_size=128, steps=None, max_steps=None, monitors=None) -> "SKCompat":
        self._estimator.fit(x=x, y=y, batch_size=batch_size, steps=steps, max_steps=max_steps, monitors=monitors)
        return self

    def score(self, x, y, batch_size=128, steps=None, metrics=None, name=None) -> Dict[str, Any]:
        """``Estimator.evaluate`` (a canned regressor's own ``evaluate``, which maps metrics to its scores, is not
        used, as in TF 1.15)."""
        return Estimator.evaluate(
            self._estimator, x=x, y=y, batch_size=batch_size, steps=steps, metrics=metrics, name=name
        )

    def predict(self, x, batch_size=128, outputs=None) -> Any:
        """Every prediction (a dict of arrays for dict predictions), as ``Estimator.predict`` gives them: a canned
        estimator's ``predict`` (classes, scores) is not used, as in TF 1.15."""
        return Estimator.predict(self._estimator, x=x, batch_size=batch_size, outputs=outputs, as_iterable=False)


def infer_real_valued_columns_from_input_fn(input_fn: Callable[[], Any]) -> List[Any]:
    """A ``tf.contrib.layers.real_valued_column`` per feature ``input_fn()`` returns (built in a scratch graph):
    its name (``""`` for a lone tensor), dtype and flattened size."""
    from tf1clip.contrib.layers import feature_column_ops

    with tf.Graph().as_default():
        features, _ = input_fn()
        return feature_column_ops.infer_real_valued_columns(features)


def infer_real_valued_columns_from_input(x: Any) -> List[Any]:
    """The ``real_valued_column`` objects of the NumPy input ``x`` (an array or a dict of them), as ``fit(x=x)``
    feeds it: one column ``""`` of ``x``'s dtype and row size for an array."""
    _verify_input_args(x, None, None, None, None)
    feeder = _DataFeeder(x, None, None, shuffle=True, epochs=None)
    return infer_real_valued_columns_from_input_fn(feeder.input_fn)
