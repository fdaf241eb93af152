"""``tf.contrib.predictor.predictor_factories`` (TF 1.15): ``from_saved_model``, ``from_estimator``,
``from_contrib_estimator``."""

import sys

from tf1clip.contrib import _manifest
from tf1clip.contrib.predictor import contrib_estimator_predictor, core_estimator_predictor, saved_model_predictor

__all__ = _manifest.names_of(__name__)


def _instance_of(obj, module, name):
    """Whether ``obj`` is a ``module.name`` (False while ``module`` is not imported: nothing is one yet)."""
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(obj, getattr(loaded, name))


def from_contrib_estimator(
    estimator, prediction_input_fn, input_alternative_key=None, output_alternative_key=None, graph=None, config=None
):
    """A ``ContribEstimatorPredictor`` of the ``tf.contrib.learn.Estimator`` ``estimator``; ``TypeError`` for a
    ``tf.estimator.Estimator``."""
    if _instance_of(estimator, "tf1clip.estimator", "Estimator"):
        raise TypeError(
            "Expected estimator to be of type tf.contrib.learn.Estimator, but got type "
            "tf.python.estimator.Estimator. You likely want to call from_estimator."
        )
    return contrib_estimator_predictor.ContribEstimatorPredictor(
        estimator,
        prediction_input_fn,
        input_alternative_key=input_alternative_key,
        output_alternative_key=output_alternative_key,
        graph=graph,
        config=config,
    )


def from_estimator(estimator, serving_input_receiver_fn, output_key=None, graph=None, config=None):
    """A ``CoreEstimatorPredictor`` of the ``tf.estimator.Estimator`` ``estimator``; ``TypeError`` for a
    ``tf.contrib.learn.Estimator``."""
    if _instance_of(estimator, "tf1clip.contrib.learn.estimator", "BaseEstimator"):
        raise TypeError(
            "Expected estimator to be of type tf.python.estimator.Estimator, but got type "
            "tf.contrib.learn.Estimator. You likely want to call from_contrib_estimator."
        )
    return core_estimator_predictor.CoreEstimatorPredictor(
        estimator, serving_input_receiver_fn, output_key=output_key, graph=graph, config=config
    )


def from_saved_model(
    export_dir,
    signature_def_key=None,
    signature_def=None,
    input_names=None,
    output_names=None,
    tags=None,
    graph=None,
    config=None,
):
    """A ``SavedModelPredictor`` of the SavedModel in ``export_dir``: at most one of ``signature_def_key``,
    ``signature_def`` or ``input_names`` with ``output_names`` (``ValueError`` otherwise)."""
    return saved_model_predictor.SavedModelPredictor(
        export_dir,
        signature_def_key=signature_def_key,
        signature_def=signature_def,
        input_names=input_names,
        output_names=output_names,
        tags=tags,
        graph=graph,
        config=config,
    )
