"""tf1clip.contrib.predictor.from_saved_model: the SavedModel TF 1.15.5 wrote (tests/data/tf115_predictor, with
what TF 1.15's tf.contrib.predictor predicted from it), SavedModels exported here, and the bad-input messages.
from_estimator and from_contrib_estimator: tests/keras2/test_contrib_predictor_estimators.py; TF 1.15 loading a
SavedModel tf1clip wrote and a whole program: tests/oracle/test_contrib_predictor_tf115.py."""

import json
import logging
import os

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import predictor
from tf1clip.contrib.predictor import saved_model_predictor

v1 = tf.compat.v1
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_predictor")
TF115_EXPORT = os.path.join(DATA, "saved_model")
with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)


def _close(got, want):
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-6)


def test_tf115_saved_model_predicts_what_tf115_predicted():
    default = predictor.from_saved_model(TF115_EXPORT)
    got = default({"x": REFS["x"]})
    assert sorted(got) == ["classes", "probs"]
    _close(got["probs"], REFS["default"]["probs"])
    assert got["classes"].tolist() == REFS["default"]["classes"]
    assert {k: t.name for k, t in default.feed_tensors.items()} == REFS["feed"]
    assert {k: t.name for k, t in default.fetch_tensors.items()} == REFS["fetch"]
    logits = predictor.from_saved_model(TF115_EXPORT, signature_def_key="logits")
    _close(logits({"inputs": REFS["x"]})["logits"], REFS["logits"])
    assert repr(logits) == REFS["repr_logits"]
    named = predictor.from_saved_model(TF115_EXPORT, input_names={"in": "x:0"}, output_names={"out": "probs:0"})
    _close(named({"in": REFS["x"]})["out"], REFS["named"])


def test_graph_session_and_signature_def_arguments():
    graph = tf.Graph()
    meta = saved_model_predictor.get_meta_graph_def(TF115_EXPORT, "serve")
    pred = predictor.from_saved_model(TF115_EXPORT, signature_def=meta.signature_def["logits"], graph=graph)
    assert pred.graph is graph and pred.session.graph is graph
    assert isinstance(pred.session, v1.Session)
    assert pred.fetch_tensors["logits"].graph is graph
    _close(pred({"inputs": REFS["x"]})["logits"], REFS["logits"])
    assert saved_model_predictor.DEFAULT_TAGS == "serve"


def test_default_input_alternative_key_is_used_with_a_warning(caplog):
    """TF 1.15 meant this fallback (its protobuf map lookup gave an empty signature instead: refs' alt_tensors)."""
    assert REFS["alt_tensors"] == [[], []]
    with caplog.at_level(logging.WARNING):
        alt = predictor.from_saved_model(TF115_EXPORT, signature_def_key="alt")
    assert 'Using "default_input_alternative:alt" instead' in caplog.text
    _close(alt({"inputs": REFS["x"]})["logits"], REFS["logits"])


def _export(path, tags=("serve",)):
    """A 2017-style SavedModelBuilder export from a TF 1 graph built here (TF 2 behaviour, tf.compat.v1)."""
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        scale = v1.placeholder_with_default(tf.constant(1.0), [], name="scale")
        w = v1.get_variable("w", initializer=tf.constant([[1.0], [2.0]]))
        y = tf.identity(tf.matmul(x, w) * scale, name="y")
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            builder = v1.saved_model.builder.SavedModelBuilder(path)
            sig = v1.saved_model.signature_def_utils.predict_signature_def({"x": x, "scale": scale}, {"y": y})
            builder.add_meta_graph_and_variables(sess, list(tags), signature_def_map={"serving_default": sig})
            builder.save()
    return path


def test_an_export_made_here_predicts_and_optional_inputs_may_be_left_out(tmp_path):
    export = _export(str(tmp_path / "m"))
    pred = predictor.from_saved_model(export)
    _close(pred({"x": [[1.0, 1.0]]})["y"], [[3.0]])
    _close(pred({"x": [[1.0, 1.0]], "scale": None})["y"], [[3.0]])
    _close(pred({"x": [[1.0, 1.0]], "scale": 2.0})["y"], [[6.0]])


def test_tags_pick_the_meta_graph(tmp_path):
    export = _export(str(tmp_path / "m"), tags=("serve", "gpu"))
    _close(predictor.from_saved_model(export, tags="serve,gpu")({"x": [[1.0, 0.0]]})["y"], [[1.0]])
    assert saved_model_predictor.get_meta_graph_def(export, "gpu, serve").meta_info_def.tags == ["serve", "gpu"]
    with pytest.raises(ValueError, match=r"^Could not find MetaGraphDef with tags serve$"):
        saved_model_predictor.get_meta_graph_def(export, "serve")
    with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags 'serve' could not be found"):
        predictor.from_saved_model(export)


@pytest.mark.parametrize(
    "kwargs,error,message",
    [
        (
            {"signature_def_key": "nope"},
            ValueError,
            r"^Got signature_def_key \"nope\". Available signatures are \[.*'logits'.*\]. Original error:\n'nope'$",
        ),
        (
            {"signature_def_key": "logits", "input_names": {"a": "x:0"}, "output_names": {}},
            ValueError,
            r"^You must specify at most one of signature_def_key OR signature_def OR\(input_names AND output_names\).$",
        ),
        (
            {"input_names": {"a": "x:0"}},
            ValueError,
            "^input_names and output_names must both be specified or both be unspecified.$",
        ),
        ({"input_names": {"a": "zz:0"}, "output_names": {}}, KeyError, "The name 'zz:0' refers to a Tensor"),
        (
            {"tags": ["serve"]},
            TypeError,
            r"^SavedModelPredictor: tags must be a comma-separated string, got \['serve'\]$",
        ),
        ({"tags": "train"}, RuntimeError, "MetaGraphDef associated with tags 'train' could not be found"),
    ],
)
def test_bad_arguments_raise_tf115s_messages(kwargs, error, message):
    with pytest.raises(error, match=message):
        predictor.from_saved_model(TF115_EXPORT, **kwargs)


def test_missing_export_dir_raises_oserror(tmp_path):
    with pytest.raises(OSError, match="SavedModel file does not exist at"):
        predictor.from_saved_model(str(tmp_path / "nope"))


def test_bad_inputs_to_a_predictor():
    pred = predictor.from_saved_model(TF115_EXPORT)
    with pytest.raises(ValueError, match=r"^Got unexpected keys in input_dict: \{'z'\}\nexpected: \{'x'\}$"):
        pred({"z": 1})
    with pytest.raises(TypeError, match=r"^Predictor: input_dict must be a dict of inputs, got \[1\]$"):
        pred([1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for placeholder tensor 'x'"):
        pred({})
