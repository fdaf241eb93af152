"""``tf.contrib.learn``'s ``LinearClassifier``, ``LinearRegressor`` and ``LinearEstimator`` (TF 1.15's
``python/learn/estimators/linear.py``).

TF 1.15's graph and checkpoint: under ``linear`` (partitioned as TF 1.15 did), contrib columns make
``linear/<column name>/weight`` and ``linear/bias_weight`` (``weighted_sum_from_feature_columns``), core columns
``tf.feature_column.linear_model``'s variables; the training op applies the gradients of the ``linear``
collection with FTRL at learning rate ``min(0.2, 1 / sqrt(number of columns))`` unless ``optimizer`` is given
(``gradient_clip_norm`` clips them by their global norm first). The SDCA optimizer and ``_joint_weight`` are not
re-created (ValueError).
"""

import math
from typing import Any

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.layers import feature_column_ops
from tf1clip.contrib.learn import _canned
from tf1clip.contrib.learn import estimator
from tf1clip.contrib.learn import head as head_lib

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1
_LEARNING_RATE = 0.2


def _get_optimizer(spec: Any) -> Any:
    from tf1clip.contrib import layers

    if isinstance(spec, str):
        return layers.OPTIMIZER_CLS_NAMES[spec](learning_rate=_LEARNING_RATE)
    return _canned.call_optimizer(spec)


def _get_default_optimizer(feature_columns: Any) -> Any:
    return _v1.train.FtrlOptimizer(learning_rate=min(_LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns))))


def linear_logits(features, feature_columns, logits_dimension, parent_scope, scope):
    """The linear model's logits: ``weighted_sum_from_feature_columns`` for contrib columns, else
    ``tf.feature_column.linear_model``."""
    if _canned.is_contrib(feature_columns):
        logits, _, _ = feature_column_ops.weighted_sum_from_feature_columns(
            columns_to_tensors=features,
            feature_columns=feature_columns,
            num_outputs=logits_dimension,
            weight_collections=[parent_scope],
            scope=scope,
        )
        return logits
    return _v1.feature_column.linear_model(
        features=features, feature_columns=feature_columns, units=logits_dimension, weight_collections=[parent_scope]
    )


def _linear_model_fn(features, labels, mode, params, config=None):
    """TF 1.15's ``_linear_model_fn``: the linear logits under ``linear``, then the head."""
    head = params["head"]
    feature_columns = params["feature_columns"]
    optimizer = params.get("optimizer") or _get_default_optimizer(feature_columns)
    gradient_clip_norm = params.get("gradient_clip_norm", None)
    num_ps_replicas = config.num_ps_replicas if config else 0
    features = _canned.feature_dict(features)
    parent_scope = "linear"
    partitioner = _v1.min_max_variable_partitioner(max_partitions=num_ps_replicas, min_slice_size=64 << 20)
    with _v1.variable_scope(parent_scope, values=tuple(features.values()), partitioner=partitioner) as scope:
        logits = linear_logits(features, feature_columns, head.logits_dimension, parent_scope, scope)

        def train_op_fn(loss: Any) -> Any:
            my_vars = _v1.get_collection(parent_scope)
            grads = tf.gradients(loss, my_vars)
            if gradient_clip_norm:
                grads, _ = tf.clip_by_global_norm(grads, gradient_clip_norm)
            return _get_optimizer(optimizer).apply_gradients(
                zip(grads, my_vars), global_step=_v1.train.get_global_step()
            )

        return head.create_model_fn_ops(
            features=features, mode=mode, labels=labels, train_op_fn=train_op_fn, logits=logits
        )


def _check_optimizer(optimizer: Any, joint: bool) -> None:
    if type(optimizer).__name__ == "SDCAOptimizer":
        raise ValueError("tf1clip.contrib.learn does not re-create the SDCA optimizer (tf.contrib.linear_optimizer)")
    if joint:
        raise ValueError(
            "tf1clip.contrib.learn does not re-create _joint_weight (joint_weighted_sum_from_feature_columns)"
        )


class LinearClassifier(_canned.Classifier):
    """A linear classifier on the ``feature_columns`` (contrib's or ``tf.feature_column``'s); FTRL by default.

    ``predict`` returns classes, ``predict_proba`` probabilities; ``evaluate`` TF 1.15's metrics.
    """

    def __init__(
        self,
        feature_columns,
        model_dir=None,
        n_classes=2,
        weight_column_name=None,
        optimizer=None,
        gradient_clip_norm=None,
        enable_centered_bias=False,
        _joint_weight=False,
        config=None,
        feature_engineering_fn=None,
        label_keys=None,
    ):
        _check_optimizer(optimizer, _joint_weight)
        self._feature_columns = tuple(feature_columns or [])
        if not self._feature_columns:
            raise ValueError("LinearClassifier: feature_columns must not be empty")
        head = head_lib.multi_class_head(
            n_classes, weight_column_name=weight_column_name, enable_centered_bias=enable_centered_bias,
            label_keys=label_keys,
        )  # fmt: skip
        params = {
            "head": head,
            "feature_columns": feature_columns,
            "optimizer": optimizer,
            "gradient_clip_norm": gradient_clip_norm,
            "joint_weights": _joint_weight,
        }
        super().__init__(
            model_fn=_linear_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )


class LinearRegressor(_canned.Regressor):
    """A linear regressor (``label_dimension`` targets; mean squared error); FTRL by default."""

    def __init__(
        self,
        feature_columns,
        model_dir=None,
        weight_column_name=None,
        optimizer=None,
        gradient_clip_norm=None,
        enable_centered_bias=False,
        label_dimension=1,
        _joint_weights=False,
        config=None,
        feature_engineering_fn=None,
    ):
        _check_optimizer(optimizer, _joint_weights)
        self._feature_columns = tuple(feature_columns or [])
        if not self._feature_columns:
            raise ValueError("LinearRegressor: feature_columns must not be empty")
        head = head_lib.regression_head(
            weight_column_name=weight_column_name, label_dimension=label_dimension,
            enable_centered_bias=enable_centered_bias,
        )  # fmt: skip
        params = {
            "head": head,
            "feature_columns": feature_columns,
            "optimizer": optimizer,
            "gradient_clip_norm": gradient_clip_norm,
            "joint_weights": _joint_weights,
        }
        super().__init__(
            model_fn=_linear_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )


class LinearEstimator(estimator.Estimator):
    """A linear model with a given ``head``."""

    def __init__(
        self,
        feature_columns,
        head,
        model_dir=None,
        weight_column_name=None,
        optimizer=None,
        gradient_clip_norm=None,
        _joint_weights=False,
        config=None,
        feature_engineering_fn=None,
    ):
        _check_optimizer(optimizer, _joint_weights)
        if not feature_columns:
            raise ValueError("LinearEstimator: feature_columns must not be empty")
        params = {
            "head": head,
            "feature_columns": feature_columns,
            "optimizer": optimizer,
            "gradient_clip_norm": gradient_clip_norm,
            "joint_weights": _joint_weights,
        }
        super().__init__(
            model_fn=_linear_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )
