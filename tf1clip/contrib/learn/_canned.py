"""What TF 1.15's canned ``tf.contrib.learn`` estimators share: the classifier and regressor ``predict`` methods,
the regressors' ``evaluate``, the feature dict and the input layer of contrib or core feature columns."""

from typing import Any, Dict, Iterable, Iterator

from tf1clip.compat._tf import tf
from tf1clip.contrib.layers import feature_column_ops
from tf1clip.contrib.layers._column_base import FeatureColumn
from tf1clip.contrib.learn import estimator
from tf1clip.contrib.learn import model_fn as model_fn_lib

_v1 = tf.compat.v1
_PK = model_fn_lib.PredictionKey

_ACTIVATION_FUNCTIONS = {"relu": tf.nn.relu, "tanh": tf.nn.tanh, "sigmoid": tf.nn.sigmoid}


def feature_dict(features: Any) -> Dict[str, Any]:
    """``features``, or ``{"": features}`` for a lone tensor (``fit(x=...)``)."""
    return features if isinstance(features, dict) else {"": features}


def is_contrib(feature_columns: Iterable[Any]) -> bool:
    """Whether every column is a ``tf.contrib.layers`` column (else they are ``tf.feature_column``'s)."""
    return all(isinstance(column, FeatureColumn) for column in feature_columns)


def input_layer(features: Dict[str, Any], feature_columns: Any, parent_scope: str, scope: Any) -> Any:
    """The DNN input: ``input_from_feature_columns`` for contrib columns, ``tf.feature_column.input_layer`` else."""
    if is_contrib(feature_columns):
        return feature_column_ops.input_from_feature_columns(
            columns_to_tensors=features, feature_columns=feature_columns, weight_collections=[parent_scope], scope=scope
        )
    return _v1.feature_column.input_layer(
        features=features, feature_columns=feature_columns, weight_collections=[parent_scope]
    )


def activation_fn(activation: Any) -> Any:
    if not isinstance(activation, str):
        return activation
    if activation not in _ACTIVATION_FUNCTIONS:
        raise ValueError(
            "Activation name should be one of [%s], you provided %s." % (", ".join(_ACTIVATION_FUNCTIONS), activation)
        )
    return _ACTIVATION_FUNCTIONS[activation]


def call_optimizer(optimizer: Any) -> Any:
    """``optimizer()`` for a callable (a class or a factory), else ``optimizer`` (an instance or a name)."""
    return optimizer() if callable(optimizer) else optimizer


def embedding_multipliers(multipliers: Any) -> Any:
    """TF 1.15's ``embedding_lr_multipliers`` applied to contrib embedding columns only, which tf1clip does not
    re-create: any entry is the ValueError TF 1.15 raised for a column that is not one."""
    for column in multipliers or {}:
        raise ValueError(
            "learning rate multipler can only be defined for embedding columns. It is defined for {}".format(column)
        )
    return None


def _items(predictions: Iterator[Dict[str, Any]], key: str) -> Iterator[Any]:
    for prediction in predictions:
        yield prediction[key]


class Classifier(estimator.Estimator):
    """``predict`` (classes unless ``outputs``), ``predict_classes`` and ``predict_proba``."""

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
        """The predicted classes (or the ``outputs`` predictions, a dict per row)."""
        if not outputs:
            return self.predict_classes(x=x, input_fn=input_fn, batch_size=batch_size, as_iterable=as_iterable)
        return super().predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=outputs, as_iterable=as_iterable)

    def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The predicted class of each row (its index, or its label key)."""
        return self._predict_key(_PK.CLASSES, x, input_fn, batch_size, as_iterable, flatten=True)

    def predict_proba(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The class probabilities of each row."""
        return self._predict_key(_PK.PROBABILITIES, x, input_fn, batch_size, as_iterable)

    def _predict_key(self, key, x, input_fn, batch_size, as_iterable, flatten=False):
        predictions = estimator.Estimator.predict(
            self, x=x, input_fn=input_fn, batch_size=batch_size, outputs=[key], as_iterable=as_iterable
        )
        if as_iterable:
            return _items(predictions, key)
        return predictions[key].reshape(-1) if flatten else predictions[key]


class Regressor(estimator.Estimator):
    """``predict`` (scores unless ``outputs``), ``predict_scores``; ``evaluate`` metrics on the scores."""

    def evaluate(
        self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None, metrics=None, name=None,
        checkpoint_path=None, hooks=None, log_progress=True,
    ):  # fmt: skip
        """As ``Estimator.evaluate``; a bare metric function gets the ``scores`` prediction."""
        custom = {}
        for key, metric in (metrics or {}).items():
            if isinstance(metric, estimator.MetricSpec) or isinstance(key, tuple):
                custom[key] = metric
            else:
                custom[(key, _PK.SCORES)] = metric
        return super().evaluate(
            x=x, y=y, input_fn=input_fn, feed_fn=feed_fn, batch_size=batch_size, steps=steps, metrics=custom,
            name=name, checkpoint_path=checkpoint_path, hooks=hooks, log_progress=log_progress,
        )  # fmt: skip

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
        """The predicted scores (or the ``outputs`` predictions, a dict per row)."""
        if not outputs:
            return self.predict_scores(x=x, input_fn=input_fn, batch_size=batch_size, as_iterable=as_iterable)
        return super().predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=outputs, as_iterable=as_iterable)

    def predict_scores(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The predicted scores of each row."""
        predictions = estimator.Estimator.predict(
            self, x=x, input_fn=input_fn, batch_size=batch_size, outputs=[_PK.SCORES], as_iterable=as_iterable
        )
        if as_iterable:
            return _items(predictions, _PK.SCORES)
        return predictions[_PK.SCORES]
