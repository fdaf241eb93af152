"""``tf.contrib.learn``'s ``DNNLinearCombinedClassifier``, ``...Regressor`` and ``...Estimator`` ("wide and deep",
TF 1.15's ``python/learn/estimators/dnn_linear_combined.py``).

The DNN part is ``DNNClassifier``'s (under ``dnn``; Adagrad, learning rate 0.05), the linear part
``LinearClassifier``'s (under ``linear``; FTRL, learning rate ``min(0.2, 1 / sqrt(number of linear columns))``);
the logits are their sum. Each part is trained by its own ``optimize_loss`` (``name='dnn'``/``'linear'``). As in
TF 1.15, ``fix_global_step_increment_bug=False`` (the default) lets both increment the global step, so ``fit``
counts two steps per training step; ``True`` increments it once.
"""

import math
from typing import Any, List

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.learn import _canned
from tf1clip.contrib.learn import dnn
from tf1clip.contrib.learn import estimator
from tf1clip.contrib.learn import head as head_lib
from tf1clip.contrib.learn import linear

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1
_DNN_LEARNING_RATE = 0.05
_LINEAR_LEARNING_RATE = 0.2


def _add_layer_summary(value: Any, tag: str) -> None:
    _v1.summary.scalar("%s/fraction_of_zero_values" % tag, tf.nn.zero_fraction(value))
    _v1.summary.histogram("%s/activation" % tag, value)


def _check_no_sync_replicas_optimizer(optimizer: Any) -> None:
    if isinstance(optimizer, _v1.train.SyncReplicasOptimizer):
        raise ValueError(
            "SyncReplicasOptimizer is not supported in DNNLinearCombined model. If you want to use this optimizer, "
            "please use either DNN or Linear model."
        )


def _dnn_logits(features, params, mode, head, num_ps_replicas):
    parent_scope, values = "dnn", tuple(features.values())
    if not params.get("dnn_hidden_units"):
        raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is specified.")
    input_partitioner = params.get("input_layer_partitioner") or _v1.min_max_variable_partitioner(
        max_partitions=num_ps_replicas, min_slice_size=64 << 20
    )
    partitioner = _v1.min_max_variable_partitioner(max_partitions=num_ps_replicas)
    with _v1.variable_scope(parent_scope, values=values, partitioner=partitioner):
        with _v1.variable_scope("input_from_feature_columns", values=values, partitioner=input_partitioner) as scope:
            net = _canned.input_layer(features, params["dnn_feature_columns"], parent_scope, scope)
        activation = params.get("dnn_activation_fn") or tf.nn.relu
        return dnn.dnn_layers(
            net, params["dnn_hidden_units"], activation, params.get("dnn_dropout"), mode, parent_scope,
            head.logits_dimension, _add_layer_summary,
        )  # fmt: skip


def _linear_logits(features, params, head, num_ps_replicas):
    if params.get("joint_linear_weights"):
        raise ValueError("tf1clip.contrib.learn does not re-create _joint_linear_weights")
    partitioner = _v1.min_max_variable_partitioner(max_partitions=num_ps_replicas, min_slice_size=64 << 20)
    with _v1.variable_scope("linear", values=tuple(features.values()), partitioner=partitioner) as scope:
        logits = linear.linear_logits(
            features, params["linear_feature_columns"], head.logits_dimension, "linear", scope
        )
        _add_layer_summary(logits, scope.name)
    return logits


def _training_op(loss, params, dnn_optimizer, linear_optimizer, parts: List[str]):
    """One ``optimize_loss`` per part; with ``fix_global_step_increment_bug`` one global step increment after."""
    from tf1clip.contrib import layers

    fix = params.get("fix_global_step_increment_bug", True)
    global_step = _v1.train.get_global_step()
    learning_rates = {
        "dnn": (_DNN_LEARNING_RATE, dnn_optimizer),
        "linear": (_linear_learning_rate(len(params.get("linear_feature_columns") or ())), linear_optimizer),
    }
    train_ops = []
    for part in parts:
        learning_rate, optimizer = learning_rates[part]
        train_ops.append(
            layers.optimize_loss(
                loss=loss,
                global_step=global_step,
                learning_rate=learning_rate,
                optimizer=optimizer,
                clip_gradients=params.get("gradient_clip_norm"),
                variables=_v1.get_collection(part),
                name=part,
                summaries=[],
                increment_global_step=not fix,
            )  # fmt: skip
        )
    train_op = tf.group(*train_ops)
    if fix:
        with tf.control_dependencies([train_op]):
            with _v1.colocate_with(global_step):
                return _v1.assign_add(global_step, 1).op
    return train_op


def _linear_learning_rate(num_linear_feature_columns: int) -> float:
    return (
        min(_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(num_linear_feature_columns)) if num_linear_feature_columns else 0.0
    )


def _dnn_linear_combined_model_fn(features, labels, mode, params, config=None):
    """TF 1.15's ``_dnn_linear_combined_model_fn``: the DNN logits plus the linear logits, then the head."""
    head = params["head"]
    if not params.get("linear_feature_columns") and not params.get("dnn_feature_columns"):
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    num_ps_replicas = config.num_ps_replicas if config else 0
    features = _canned.feature_dict(features)
    linear_optimizer = _canned.call_optimizer(params.get("linear_optimizer") or "Ftrl")
    dnn_optimizer = _canned.call_optimizer(params.get("dnn_optimizer") or "Adagrad")
    _check_no_sync_replicas_optimizer(linear_optimizer)
    _check_no_sync_replicas_optimizer(dnn_optimizer)
    _canned.embedding_multipliers(params.get("embedding_lr_multipliers"))
    parts, logits = [], None
    if params.get("dnn_feature_columns"):
        logits = _dnn_logits(features, params, mode, head, num_ps_replicas)
        parts.append("dnn")
    if params.get("linear_feature_columns"):
        linear_part = _linear_logits(features, params, head, num_ps_replicas)
        logits = linear_part if logits is None else logits + linear_part
        parts.append("linear")

    def train_op_fn(loss: Any) -> Any:
        return _training_op(loss, params, dnn_optimizer, linear_optimizer, parts)

    return head.create_model_fn_ops(features=features, mode=mode, labels=labels, train_op_fn=train_op_fn, logits=logits)


def _input_partitioner(input_layer_min_slice_size: Any, config: Any) -> Any:
    if input_layer_min_slice_size is None:
        return None
    return _v1.min_max_variable_partitioner(
        max_partitions=config.num_ps_replicas if config else 0, min_slice_size=input_layer_min_slice_size
    )


_PARAMS = (
    "head",
    "linear_feature_columns",
    "linear_optimizer",
    "joint_linear_weights",
    "dnn_feature_columns",
    "dnn_optimizer",
    "dnn_hidden_units",
    "dnn_activation_fn",
    "dnn_dropout",
    "gradient_clip_norm",
    "embedding_lr_multipliers",
    "input_layer_partitioner",
    "fix_global_step_increment_bug",
)


def _params(*values: Any) -> dict:
    """The ``params`` of ``_dnn_linear_combined_model_fn``: ``values`` in the order of ``_PARAMS``."""
    params = dict(zip(_PARAMS, values))
    if not tuple(params["linear_feature_columns"]) + tuple(params["dnn_feature_columns"]):
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    return params


class DNNLinearCombinedEstimator(estimator.Estimator):
    """Wide and deep with a given ``head``."""

    def __init__(
        self,
        head,
        model_dir=None,
        linear_feature_columns=None,
        linear_optimizer=None,
        _joint_linear_weights=False,
        dnn_feature_columns=None,
        dnn_optimizer=None,
        dnn_hidden_units=None,
        dnn_activation_fn=None,
        dnn_dropout=None,
        gradient_clip_norm=None,
        config=None,
        feature_engineering_fn=None,
        embedding_lr_multipliers=None,
        fix_global_step_increment_bug=False,
        input_layer_partitioner=None,
    ):
        params = _params(
            head, tuple(linear_feature_columns or []), linear_optimizer, _joint_linear_weights,
            tuple(dnn_feature_columns or []), dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
            gradient_clip_norm, embedding_lr_multipliers, input_layer_partitioner, fix_global_step_increment_bug,
        )  # fmt: skip
        super().__init__(
            model_fn=_dnn_linear_combined_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )


class DNNLinearCombinedClassifier(_canned.Classifier):
    """Wide and deep classification: ``predict`` returns classes, ``predict_proba`` probabilities."""

    def __init__(
        self,
        model_dir=None,
        n_classes=2,
        weight_column_name=None,
        linear_feature_columns=None,
        linear_optimizer=None,
        _joint_linear_weights=False,
        dnn_feature_columns=None,
        dnn_optimizer=None,
        dnn_hidden_units=None,
        dnn_activation_fn=tf.nn.relu,
        dnn_dropout=None,
        gradient_clip_norm=None,
        enable_centered_bias=False,
        config=None,
        feature_engineering_fn=None,
        embedding_lr_multipliers=None,
        input_layer_min_slice_size=None,
        label_keys=None,
        fix_global_step_increment_bug=False,
    ):
        head = head_lib.multi_class_head(
            n_classes=n_classes, weight_column_name=weight_column_name, enable_centered_bias=enable_centered_bias,
            label_keys=label_keys,
        )  # fmt: skip
        linear_columns, dnn_columns = tuple(linear_feature_columns or []), tuple(dnn_feature_columns or [])
        self._feature_columns = linear_columns + dnn_columns
        params = _params(
            head, linear_columns, linear_optimizer, _joint_linear_weights, dnn_columns, dnn_optimizer,
            dnn_hidden_units, dnn_activation_fn, dnn_dropout, gradient_clip_norm, embedding_lr_multipliers,
            _input_partitioner(input_layer_min_slice_size, config), fix_global_step_increment_bug,
        )  # fmt: skip
        super().__init__(
            model_fn=_dnn_linear_combined_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )


class DNNLinearCombinedRegressor(_canned.Regressor):
    """Wide and deep regression: ``predict`` returns the scores."""

    def __init__(
        self,
        model_dir=None,
        weight_column_name=None,
        linear_feature_columns=None,
        linear_optimizer=None,
        _joint_linear_weights=False,
        dnn_feature_columns=None,
        dnn_optimizer=None,
        dnn_hidden_units=None,
        dnn_activation_fn=tf.nn.relu,
        dnn_dropout=None,
        gradient_clip_norm=None,
        enable_centered_bias=False,
        label_dimension=1,
        config=None,
        feature_engineering_fn=None,
        embedding_lr_multipliers=None,
        input_layer_min_slice_size=None,
        fix_global_step_increment_bug=False,
    ):
        linear_columns, dnn_columns = list(linear_feature_columns or []), list(dnn_feature_columns or [])
        self._feature_columns = linear_columns + dnn_columns
        head = head_lib.regression_head(
            weight_column_name=weight_column_name, label_dimension=label_dimension,
            enable_centered_bias=enable_centered_bias,
        )  # fmt: skip
        params = _params(
            head, linear_columns, linear_optimizer, _joint_linear_weights, dnn_columns, dnn_optimizer,
            dnn_hidden_units, dnn_activation_fn, dnn_dropout, gradient_clip_norm, embedding_lr_multipliers,
            _input_partitioner(input_layer_min_slice_size, config), fix_global_step_increment_bug,
        )  # fmt: skip
        super().__init__(
            model_fn=_dnn_linear_combined_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )
