"""tensorflow-estimator's v1 head internals that TF 1.15's ``tf.contrib.estimator`` heads called, as named accessors.

``tf1clip.contrib._estimator_heads`` builds ``multi_label_head`` and ``multi_head`` on these and returns the
v1 single-label heads from them; it reaches tensorflow-estimator only through this module. Importing it
imports ``tf1clip.estimator`` first, which applies ``compat._estimator``'s patches (on TensorFlow 2.16+
tensorflow-estimator does not import without them). Every name in ``PRIVATE_NAMES`` was checked on
tensorflow-estimator 2.15.0 with TensorFlow 2.15.1 and 2.21.0 (``CHECKED_ON``;
tests/subprocess/_contrib_estimator_heads_cases.py resolves them all).
Public replacement: none for v1 heads (tensorflow-estimator 2.15 exports only the v2 ``tf.estimator.*Head``
classes).
"""

import tf1clip.estimator as _estimator_patches  # noqa: F401  (applies them before tensorflow-estimator is imported)
from tensorflow_estimator.python.estimator.canned import head as _head_lib
from tensorflow_estimator.python.estimator.canned import metric_keys as _metric_keys
from tensorflow_estimator.python.estimator.canned import prediction_keys as _prediction_keys
from tensorflow_estimator.python.estimator.export import export_output as _export_output

CHECKED_ON = "tensorflow-estimator 2.15.0 with TensorFlow 2.15.1 and 2.21.0"

_HEAD = "tensorflow_estimator.python.estimator.canned.head"

# The v1 head base class and the loss triple its ``create_loss`` returns.
Head = _head_lib._Head
LossSpec = _head_lib.LossSpec
# Metric and prediction key names, and the export output classes (not exported by tensorflow-estimator).
MetricKeys = _metric_keys.MetricKeys
PredictionKeys = _prediction_keys.PredictionKeys
PredictOutput = _export_output.PredictOutput
# Signature keys of the export outputs a v1 head builds.
CLASSIFY_SERVING_KEY = _head_lib._CLASSIFY_SERVING_KEY
PREDICT_SERVING_KEY = _head_lib._PREDICT_SERVING_KEY

# The v1 single-label heads.
regression_head = _head_lib._regression_head
binary_classification_head = _head_lib._binary_logistic_head_with_sigmoid_cross_entropy_loss
multi_class_head = _head_lib._multi_class_head_with_softmax_cross_entropy_loss

# Their checks and helpers, which the v1 heads share.
validate_loss_fn_args = _head_lib._validate_loss_fn_args
assert_range = _head_lib._assert_range
check_dense_labels_match_logits_and_reshape = _head_lib._check_dense_labels_match_logits_and_reshape
check_logits_final_dim = _head_lib._check_logits_final_dim
call_loss_fn = _head_lib._call_loss_fn
get_weights_and_check_match_logits = _head_lib._get_weights_and_check_match_logits
classification_output = _head_lib._classification_output
append_update_ops = _head_lib._append_update_ops
summary_key = _head_lib._summary_key

# Their metrics.
accuracy_at_threshold = _head_lib._accuracy_at_threshold
precision_at_threshold = _head_lib._precision_at_threshold
recall_at_threshold = _head_lib._recall_at_threshold
predictions_mean = _head_lib._predictions_mean
auc = _head_lib._auc

# (module path, attribute) for every non-public name above.
PRIVATE_NAMES = [
    (_HEAD, "_Head"),
    (_HEAD, "LossSpec"),
    ("tensorflow_estimator.python.estimator.canned.metric_keys", "MetricKeys"),
    ("tensorflow_estimator.python.estimator.canned.prediction_keys", "PredictionKeys"),
    ("tensorflow_estimator.python.estimator.export.export_output", "PredictOutput"),
    (_HEAD, "_CLASSIFY_SERVING_KEY"),
    (_HEAD, "_PREDICT_SERVING_KEY"),
    (_HEAD, "_regression_head"),
    (_HEAD, "_binary_logistic_head_with_sigmoid_cross_entropy_loss"),
    (_HEAD, "_multi_class_head_with_softmax_cross_entropy_loss"),
    (_HEAD, "_validate_loss_fn_args"),
    (_HEAD, "_assert_range"),
    (_HEAD, "_check_dense_labels_match_logits_and_reshape"),
    (_HEAD, "_check_logits_final_dim"),
    (_HEAD, "_call_loss_fn"),
    (_HEAD, "_get_weights_and_check_match_logits"),
    (_HEAD, "_classification_output"),
    (_HEAD, "_append_update_ops"),
    (_HEAD, "_summary_key"),
    (_HEAD, "_accuracy_at_threshold"),
    (_HEAD, "_precision_at_threshold"),
    (_HEAD, "_recall_at_threshold"),
    (_HEAD, "_predictions_mean"),
    (_HEAD, "_auc"),
]
