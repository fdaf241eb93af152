"""``tf.contrib.learn``'s ``DNNClassifier``, ``DNNRegressor`` and ``DNNEstimator`` (TF 1.15's
``python/learn/estimators/dnn.py``).

TF 1.15's graph and checkpoint: the input layer under ``dnn/input_from_feature_columns``, tf-slim
``fully_connected`` layers ``dnn/hiddenlayer_<i>`` and ``dnn/logits`` (variables ``weights``/``biases``,
partitioned as TF 1.15 did, so each is ``.../part_0`` in the graph), the head's scope, and ``optimize_loss``
(``name='dnn'``) with Adagrad at learning rate 0.05 unless ``optimizer`` is given, so the optimizer's slots have
TF 1.15's checkpoint keys (``dnn/hiddenlayer_0/weights/enlayer_0/weights/part_0/Adagrad`` and the like: TF 1.15's
own naming of slots of partitioned variables).
"""

from typing import Any

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.learn import _canned
from tf1clip.contrib.learn import estimator
from tf1clip.contrib.learn import head as head_lib
from tf1clip.contrib.learn import model_fn as model_fn_lib

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1
_LEARNING_RATE = 0.05


def _add_hidden_layer_summary(value: Any, tag: str) -> None:
    _v1.summary.scalar("%s_fraction_of_zero_values" % tag, tf.nn.zero_fraction(value))
    _v1.summary.histogram("%s_activation" % tag, value)


def dnn_layers(net, hidden_units, activation, dropout, mode, parent_scope, logits_dimension, summary):
    """The hidden layers ``hiddenlayer_<i>`` (dropout in training) and ``logits`` of TF 1.15's DNN models."""
    from tf1clip.contrib import layers

    for layer_id, units in enumerate(hidden_units):
        with _v1.variable_scope("hiddenlayer_%d" % layer_id, values=(net,)) as scope:
            net = layers.fully_connected(
                net, units, activation_fn=activation, variables_collections=[parent_scope], scope=scope
            )
            if dropout is not None and mode == model_fn_lib.ModeKeys.TRAIN:
                net = layers.dropout(net, keep_prob=(1.0 - dropout))
        summary(net, scope.name)
    with _v1.variable_scope("logits", values=(net,)) as scope:
        logits = layers.fully_connected(
            net, logits_dimension, activation_fn=None, variables_collections=[parent_scope], scope=scope
        )
    summary(logits, scope.name)
    return logits


def _dnn_model_fn(features, labels, mode, params, config=None):
    """TF 1.15's ``_dnn_model_fn``: feature columns, hidden layers and logits under ``dnn``, then the head."""
    from tf1clip.contrib import layers

    head = params["head"]
    optimizer = params.get("optimizer") or "Adagrad"
    activation = _canned.activation_fn(params.get("activation_fn"))
    min_slice_size = params.get("input_layer_min_slice_size") or 64 << 20
    num_ps_replicas = config.num_ps_replicas if config else 0
    _canned.embedding_multipliers(params.get("embedding_lr_multipliers"))
    features = _canned.feature_dict(features)
    parent_scope = "dnn"
    values = tuple(features.values())
    partitioner = _v1.min_max_variable_partitioner(max_partitions=num_ps_replicas)
    with _v1.variable_scope(parent_scope, values=values, partitioner=partitioner):
        input_partitioner = _v1.min_max_variable_partitioner(
            max_partitions=num_ps_replicas, min_slice_size=min_slice_size
        )
        with _v1.variable_scope("input_from_feature_columns", values=values, partitioner=input_partitioner) as scope:
            net = _canned.input_layer(features, params["feature_columns"], parent_scope, scope)
        logits = dnn_layers(
            net, params["hidden_units"], activation, params.get("dropout"), mode, parent_scope, head.logits_dimension,
            _add_hidden_layer_summary,
        )  # fmt: skip

        def train_op_fn(loss: Any) -> Any:
            return layers.optimize_loss(
                loss=loss,
                global_step=_v1.train.get_global_step(),
                learning_rate=_LEARNING_RATE,
                optimizer=_canned.call_optimizer(optimizer),
                clip_gradients=params.get("gradient_clip_norm"),
                name=parent_scope,
                summaries=[],
            )

        return head.create_model_fn_ops(
            features=features, mode=mode, labels=labels, train_op_fn=train_op_fn, logits=logits
        )


_PARAMS = (
    "head",
    "hidden_units",
    "feature_columns",
    "optimizer",
    "activation_fn",
    "dropout",
    "gradient_clip_norm",
    "embedding_lr_multipliers",
    "input_layer_min_slice_size",
)


def _params(*values: Any) -> dict:
    """The ``params`` of ``_dnn_model_fn``: ``values`` in the order of ``_PARAMS``."""
    return dict(zip(_PARAMS, values))


class DNNClassifier(_canned.Classifier):
    """A feed-forward classifier: ``hidden_units`` ReLU layers on the ``feature_columns`` (contrib's or
    ``tf.feature_column``'s), ``n_classes`` logits, Adagrad (learning rate 0.05) unless ``optimizer``.

    ``fit``/``evaluate``/``predict`` take ``x``/``y`` or an ``input_fn``; ``predict`` returns classes,
    ``predict_proba`` probabilities. ``evaluate`` reports TF 1.15's metrics (``loss``, ``accuracy``; for 2 classes
    also ``auc``, ``labels/prediction_mean`` and the threshold metrics).
    """

    def __init__(
        self,
        hidden_units,
        feature_columns,
        model_dir=None,
        n_classes=2,
        weight_column_name=None,
        optimizer=None,
        activation_fn=tf.nn.relu,
        dropout=None,
        gradient_clip_norm=None,
        enable_centered_bias=False,
        config=None,
        feature_engineering_fn=None,
        embedding_lr_multipliers=None,
        input_layer_min_slice_size=None,
        label_keys=None,
    ):
        self._feature_columns = tuple(feature_columns or [])
        head = head_lib.multi_class_head(
            n_classes,
            weight_column_name=weight_column_name,
            enable_centered_bias=enable_centered_bias,
            label_keys=label_keys,
        )
        params = _params(
            head, hidden_units, self._feature_columns, optimizer, activation_fn, dropout, gradient_clip_norm,
            embedding_lr_multipliers, input_layer_min_slice_size,
        )  # fmt: skip
        super().__init__(
            model_fn=_dnn_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )


class DNNRegressor(_canned.Regressor):
    """A feed-forward regressor (``label_dimension`` targets; mean squared error): see ``DNNClassifier``.

    ``predict`` returns the scores.
    """

    def __init__(
        self,
        hidden_units,
        feature_columns,
        model_dir=None,
        weight_column_name=None,
        optimizer=None,
        activation_fn=tf.nn.relu,
        dropout=None,
        gradient_clip_norm=None,
        enable_centered_bias=False,
        config=None,
        feature_engineering_fn=None,
        label_dimension=1,
        embedding_lr_multipliers=None,
        input_layer_min_slice_size=None,
    ):
        self._feature_columns = tuple(feature_columns or [])
        head = head_lib.regression_head(
            label_dimension=label_dimension,
            weight_column_name=weight_column_name,
            enable_centered_bias=enable_centered_bias,
        )
        params = _params(
            head, hidden_units, self._feature_columns, optimizer, activation_fn, dropout, gradient_clip_norm,
            embedding_lr_multipliers, input_layer_min_slice_size,
        )  # fmt: skip
        super().__init__(
            model_fn=_dnn_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )


class DNNEstimator(estimator.Estimator):
    """A feed-forward network with a given ``head`` (``tf.contrib.learn.multi_class_head`` ...)."""

    def __init__(
        self,
        head,
        hidden_units,
        feature_columns,
        model_dir=None,
        optimizer=None,
        activation_fn=tf.nn.relu,
        dropout=None,
        gradient_clip_norm=None,
        config=None,
        feature_engineering_fn=None,
        embedding_lr_multipliers=None,
        input_layer_min_slice_size=None,
    ):
        params = _params(
            head, hidden_units, feature_columns, optimizer, activation_fn, dropout, gradient_clip_norm,
            embedding_lr_multipliers, input_layer_min_slice_size,
        )  # fmt: skip
        super().__init__(
            model_fn=_dnn_model_fn,
            model_dir=model_dir,
            config=config,
            params=params,
            feature_engineering_fn=feature_engineering_fn,
        )
