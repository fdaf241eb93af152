"""``tf.contrib.predictor.core_estimator_predictor`` (TF 1.15): a ``Predictor`` over a ``tf.estimator.Estimator``'s
PREDICT graph and its latest checkpoint."""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.predictor import predictor

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1
_PREDICT = "infer"


def _get_signature_def(serving_input_receiver, estimator, output_key=None):
    if output_key is None:
        output_key = _v1.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY
    estimator_spec = estimator.model_fn(serving_input_receiver.features, None, _PREDICT, estimator.config)
    export_outputs = estimator_spec.export_outputs
    export_output = export_outputs.get(output_key)
    if export_output is None:
        raise KeyError("output_key must be one of {}; got {}".format(export_outputs.keys(), output_key))
    return export_output.as_signature_def(serving_input_receiver.receiver_tensors)


class CoreEstimatorPredictor(predictor.Predictor):
    """``estimator``'s ``model_fn`` in PREDICT mode on the features of ``serving_input_receiver_fn()`` (a
    ``ServingInputReceiver``), built in ``graph`` (a new one by default) and run in a ``MonitoredSession`` that
    restores the latest checkpoint in ``estimator.model_dir``. Its inputs are the receiver tensors, its outputs
    those of the export output ``output_key`` (default ``"serving_default"``; ``KeyError`` for another)."""

    def __init__(self, estimator, serving_input_receiver_fn, output_key=None, graph=None, config=None):
        if not callable(serving_input_receiver_fn):
            raise TypeError(
                "CoreEstimatorPredictor: serving_input_receiver_fn must be callable, got %r"
                % (serving_input_receiver_fn,)
            )
        self._graph = graph or tf.Graph()
        with self._graph.as_default():
            serving_input_receiver = serving_input_receiver_fn()
            signature_def = _get_signature_def(serving_input_receiver, estimator, output_key)
            self._session = _v1.train.MonitoredSession(
                session_creator=_v1.train.ChiefSessionCreator(config=config, checkpoint_dir=estimator.model_dir)
            )
        self._feed_tensors = {k: self._graph.get_tensor_by_name(v.name) for k, v in signature_def.inputs.items()}
        self._fetch_tensors = {k: self._graph.get_tensor_by_name(v.name) for k, v in signature_def.outputs.items()}
