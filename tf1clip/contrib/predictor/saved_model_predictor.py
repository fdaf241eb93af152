"""``tf.contrib.predictor.saved_model_predictor`` (TF 1.15): a ``Predictor`` over a SavedModel's signature.

Difference from TF 1.15: a ``signature_def_key`` the MetaGraphDef lacks falls back to the signature
``default_input_alternative:KEY`` (with a warning) and, without that either, raises the ``ValueError`` TF 1.15 meant
to raise (``Got signature_def_key "KEY". Available signatures are [...]``), as TF 1.15's code reads; TF 1.15's
protobuf map lookup instead added an empty signature ``KEY``, giving a predictor with no inputs and no outputs.
``tags`` that is not a string raises ``TypeError`` (TF 1.15: ``AttributeError``).
"""

import logging

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.predictor import predictor

__all__ = _manifest.names_of(__name__)

DEFAULT_TAGS = "serve"

_DEFAULT_INPUT_ALTERNATIVE_FORMAT = "default_input_alternative:{}"
_v1 = tf.compat.v1


def get_meta_graph_def(saved_model_dir, tags):
    """The ``MetaGraphDef`` of the SavedModel in ``saved_model_dir`` whose tag set is ``tags`` (comma-separated);
    ``ValueError`` when there is none."""
    saved_model = _tf.parse_saved_model(saved_model_dir)
    set_of_tags = {tag.strip() for tag in tags.split(",")}
    for meta_graph_def in saved_model.meta_graphs:
        if set(meta_graph_def.meta_info_def.tags) == set_of_tags:
            return meta_graph_def
    raise ValueError("Could not find MetaGraphDef with tags {}".format(tags))


def _get_signature_def(signature_def_key, export_dir, tags):
    signature_def_key = signature_def_key or _v1.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY
    signatures = get_meta_graph_def(export_dir, tags).signature_def
    if signature_def_key in signatures:
        return signatures[signature_def_key]
    formatted_key = _DEFAULT_INPUT_ALTERNATIVE_FORMAT.format(signature_def_key)
    if formatted_key not in signatures:
        raise ValueError(
            'Got signature_def_key "{}". Available signatures are {}. Original error:\n{}'.format(
                signature_def_key, list(signatures), KeyError(signature_def_key)
            )
        )
    logging.warning('Could not find signature def "%s". Using "%s" instead', signature_def_key, formatted_key)
    return signatures[formatted_key]


def _check_signature_arguments(signature_def_key, signature_def, input_names, output_names):
    if (input_names is not None) != (output_names is not None):
        raise ValueError("input_names and output_names must both be specified or both be unspecified.")
    if (signature_def_key is not None) + (signature_def is not None) + (input_names is not None) > 1:
        raise ValueError(
            "You must specify at most one of signature_def_key OR signature_def OR(input_names AND output_names)."
        )


class SavedModelPredictor(predictor.Predictor):
    """The SavedModel in ``export_dir`` (its MetaGraphDef of ``tags``, comma-separated, default ``"serve"``) loaded
    into ``graph`` (a new one by default) and a ``Session(config=config)``. Its inputs and outputs are those of one
    of: the signature ``signature_def_key`` (default ``"serving_default"``), the ``SignatureDef`` proto
    ``signature_def``, or ``input_names`` and ``output_names`` (``{key: tensor name}``)."""

    def __init__(
        self,
        export_dir,
        signature_def_key=None,
        signature_def=None,
        input_names=None,
        output_names=None,
        tags=None,
        graph=None,
        config=None,
    ):
        _check_signature_arguments(signature_def_key, signature_def, input_names, output_names)
        tags = tags or DEFAULT_TAGS
        if not isinstance(tags, str):
            raise TypeError("SavedModelPredictor: tags must be a comma-separated string, got %r" % (tags,))
        self._graph = graph or tf.Graph()
        with self._graph.as_default():
            self._session = _v1.Session(config=config)
            _v1.saved_model.loader.load(self._session, tags.split(","), export_dir)
        if input_names is None:
            if signature_def is None:
                signature_def = _get_signature_def(signature_def_key, export_dir, tags)
            input_names = {k: v.name for k, v in signature_def.inputs.items()}
            output_names = {k: v.name for k, v in signature_def.outputs.items()}
        self._feed_tensors = {k: self._graph.get_tensor_by_name(v) for k, v in input_names.items()}
        self._fetch_tensors = {k: self._graph.get_tensor_by_name(v) for k, v in output_names.items()}
