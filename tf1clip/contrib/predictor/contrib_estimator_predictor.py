"""``tf.contrib.predictor.contrib_estimator_predictor`` (TF 1.15): a ``Predictor`` over a
``tf.contrib.learn.Estimator`` (``tf1clip.contrib.learn``) and its latest checkpoint.

Differences from TF 1.15: as in tf1clip's ``Estimator.export_savedmodel``, the ``model_fn`` gets ``labels=None``
(TF 1.15: placeholders shaped like the labels the same Python object was fitted on, if it was); ``InputFnOps``
features that are one tensor work (TF 1.15's ``if not features`` raised ``OperatorNotAllowedInGraphError`` for
them: only a dict of features worked).
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.predictor import predictor

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1
_INFER = "infer"
_DEFAULT_INPUT_ALTERNATIVE_KEY = "default_input_alternative"
_FALLBACK_DEFAULT_OUTPUT_ALTERNATIVE_KEY = "default_output_alternative"
_GENERIC = "output"


def _input_alternatives(input_fn_ops):
    """``({"default_input_alternative": default_inputs}, features)`` of an ``InputFnOps`` (``(features, labels)``
    gives no alternative)."""
    alternatives = {}
    if hasattr(input_fn_ops, "default_inputs"):
        features, _, default_inputs = input_fn_ops
        alternatives[_DEFAULT_INPUT_ALTERNATIVE_KEY] = default_inputs
    else:
        features, _ = input_fn_ops
    if features is None or (isinstance(features, dict) and not features):
        raise ValueError("Features must be defined.")
    return alternatives, features


def _output_alternatives(model_fn_ops, key=None):
    """TF 1.15's ``saved_model_export_utils.get_output_alternatives``: ``(alternatives, the key served)``."""
    alternatives = model_fn_ops.output_alternatives
    if not alternatives:
        if key:
            raise ValueError(
                "Requested default_output_alternative: {}, but available output_alternatives are: []".format(key)
            )
        outputs = model_fn_ops.predictions
        if not isinstance(outputs, dict):
            outputs = {_GENERIC: outputs}
        return {_FALLBACK_DEFAULT_OUTPUT_ALTERNATIVE_KEY: (None, outputs)}, _FALLBACK_DEFAULT_OUTPUT_ALTERNATIVE_KEY
    if key:
        if key in alternatives:
            return alternatives, key
        raise ValueError(
            "Requested default_output_alternative: {}, but available output_alternatives are: {}".format(
                key, sorted(alternatives.keys())
            )
        )
    if len(alternatives) == 1:
        return alternatives, next(iter(alternatives))
    raise ValueError(
        "Please specify a default_output_alternative.  Available output_alternatives are: {}".format(
            sorted(alternatives.keys())
        )
    )


class ContribEstimatorPredictor(predictor.Predictor):
    """``estimator``'s ``model_fn`` in INFER mode on the features of ``prediction_input_fn()`` (an ``InputFnOps``),
    built in ``graph`` (a new one by default) and run in a ``MonitoredSession`` restoring the latest checkpoint in
    ``estimator.model_dir``. Its inputs are the input alternative ``input_alternative_key`` (default: the
    ``InputFnOps``' ``default_inputs``), its outputs the output alternative ``output_alternative_key`` (needed
    for a model with several; without any, the predictions)."""

    def __init__(
        self,
        estimator,
        prediction_input_fn,
        input_alternative_key=None,
        output_alternative_key=None,
        graph=None,
        config=None,
    ):
        if not callable(prediction_input_fn):
            raise TypeError(
                "ContribEstimatorPredictor: prediction_input_fn must be callable, got %r" % (prediction_input_fn,)
            )
        self._graph = graph or tf.Graph()
        with self._graph.as_default():
            input_fn_ops = prediction_input_fn()
            model_fn_ops = estimator.model_fn(input_fn_ops.features, None, _INFER, estimator.config)
            checkpoint_path = _v1.train.latest_checkpoint(estimator.model_dir)
            self._session = _v1.train.MonitoredSession(
                session_creator=_v1.train.ChiefSessionCreator(
                    config=config, checkpoint_filename_with_path=checkpoint_path
                )
            )
        input_alternatives, _ = _input_alternatives(input_fn_ops)
        self._feed_tensors = input_alternatives[input_alternative_key or _DEFAULT_INPUT_ALTERNATIVE_KEY]
        alternatives, key = _output_alternatives(model_fn_ops, output_alternative_key)
        self._fetch_tensors = alternatives[key][1]
