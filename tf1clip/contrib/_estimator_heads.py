"""``tf.contrib.estimator``'s multi-label and multi-objective heads, on tensorflow-estimator 2.15's v1 ``_Head``.

tensorflow-estimator 2.15 kept the v1 single-label heads (``canned.head``) but not these two, which only
``tf.contrib.estimator`` had; this module re-creates them with TF 1.15's losses, predictions, export outputs,
metric keys and summaries. Imported by ``tf1clip.contrib.estimator`` when first used (it imports
tensorflow-estimator); tensorflow-estimator's v1 head internals, which TF 1.15's contrib heads called, come
from ``tf1clip.compat._heads``.
"""

import tensorflow as tf

from tf1clip import estimator as _estimator
from tf1clip.compat import _heads
from tf1clip.compat import _tf

regression_head = _heads.regression_head
binary_classification_head = _heads.binary_classification_head
multi_class_head = _heads.multi_class_head
validate_loss_fn_args = _heads.validate_loss_fn_args
assert_range = _heads.assert_range

_V1 = tf.compat.v1
_KEYS = _heads.MetricKeys
_PRED = _heads.PredictionKeys
_SERVING = tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY
_NO_LABELS = (
    "You must provide a labels Tensor. Given: None. Suggested troubleshooting steps: Check that your data "
    "contain your label feature. Check that your input_fn properly parses and returns labels."
)


def _train_op(loss, optimizer, train_op_fn):
    if optimizer is not None:
        if train_op_fn is not None:
            raise ValueError("train_op_fn and optimizer cannot both be set.")
        return optimizer.minimize(loss, global_step=_V1.train.get_global_step())
    if train_op_fn is not None:
        return train_op_fn(loss)
    raise ValueError("train_op_fn and optimizer cannot both be None.")


def _with_regularization(training_loss, regularization_losses):
    if not regularization_losses:
        return training_loss, None
    regularization_loss = tf.add_n(regularization_losses)
    return tf.add_n([training_loss, regularization_loss]), regularization_loss


class MultiLabelHead(_heads.Head):
    """``tf.contrib.estimator.multi_label_head``'s head: sigmoid cross-entropy averaged over the classes."""

    def __init__(
        self, n_classes, weight_column, thresholds, label_vocabulary, loss_reduction, loss_fn, class_ids, name
    ):
        self._n_classes = n_classes
        self._weight_column = weight_column
        self._thresholds = tuple(thresholds)
        self._label_vocabulary = label_vocabulary
        self._loss_reduction = loss_reduction
        self._loss_fn = loss_fn
        self._class_ids = tuple(class_ids)
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def logits_dimension(self):
        return self._n_classes

    def _indicator_labels(self, labels):
        if labels is None:
            raise ValueError(_NO_LABELS)
        if not isinstance(labels, tf.SparseTensor):
            return _heads.assert_range(
                labels, 2, message="labels must be an integer indicator Tensor with values in [0, 1]"
            )
        if labels.dtype == tf.string:
            table = _tf.lookup_ops().index_table_from_tensor(tuple(self._label_vocabulary), name="class_id_lookup")
            labels = tf.SparseTensor(labels.indices, table.lookup(labels.values), labels.dense_shape)
            return tf.cast(tf.sparse.to_indicator(labels, self._n_classes), tf.int64)
        message = "labels must be an integer SparseTensor with values in [0, %d)" % self._n_classes
        checks = [
            _V1.assert_integer(labels.values, message=message),
            _V1.assert_less(labels.values, tf.cast(self._n_classes, labels.dtype), message=message),
            _V1.assert_non_negative(labels.values, message=message),
        ]
        with tf.control_dependencies(checks):
            return tf.cast(tf.sparse.to_indicator(labels, self._n_classes), tf.int64)

    def create_loss(self, features, mode, logits, labels):
        """See ``_Head``."""
        del mode
        logits = tf.convert_to_tensor(logits)
        labels = _heads.check_dense_labels_match_logits_and_reshape(
            labels=self._indicator_labels(labels), logits=logits, expected_labels_dimension=self._n_classes
        )
        if self._loss_fn:
            unreduced = _heads.call_loss_fn(
                loss_fn=self._loss_fn, labels=labels, logits=logits, features=features, expected_loss_dim=1
            )
        else:
            per_class = _V1.losses.sigmoid_cross_entropy(
                multi_class_labels=labels, logits=logits, reduction=_V1.losses.Reduction.NONE
            )
            unreduced = tf.reduce_mean(per_class, axis=-1, keepdims=True)
        weights = _heads.get_weights_and_check_match_logits(
            features=features, weight_column=self._weight_column, logits=logits
        )
        loss = _V1.losses.compute_weighted_loss(unreduced, weights=weights, reduction=self._loss_reduction)
        return _heads.LossSpec(training_loss=loss, unreduced_loss=unreduced, weights=weights, processed_labels=labels)

    def create_estimator_spec(
        self, features, mode, logits, labels=None, optimizer=None, train_op_fn=None, regularization_losses=None
    ):
        """See ``_Head``: a ``tf.compat.v1.estimator.EstimatorSpec``."""
        modes = _estimator.ModeKeys
        with tf.name_scope(self._name or "head"):
            logits = _heads.check_logits_final_dim(logits, self._n_classes)
            with tf.name_scope("predictions"):
                probabilities = tf.sigmoid(logits, name=_PRED.PROBABILITIES)
                predictions = {_PRED.LOGITS: logits, _PRED.PROBABILITIES: probabilities}
            if mode == modes.PREDICT:
                classification = _heads.classification_output(
                    scores=probabilities, n_classes=self._n_classes, label_vocabulary=self._label_vocabulary
                )
                outputs = {
                    _SERVING: classification,
                    _heads.CLASSIFY_SERVING_KEY: classification,
                    _heads.PREDICT_SERVING_KEY: _heads.PredictOutput(predictions),
                }
                return _estimator.EstimatorSpec(mode, predictions=predictions, export_outputs=outputs)
            loss, unreduced, weights, labels = self.create_loss(features, mode, logits, labels)
            total, regularization = _with_regularization(loss, regularization_losses)
            if mode == modes.EVAL:
                metrics = self._metrics(labels, probabilities, weights, unreduced, regularization)
                return _estimator.EstimatorSpec(mode, predictions=predictions, loss=total, eval_metric_ops=metrics)
            train_op = _heads.append_update_ops(_train_op(total, optimizer, train_op_fn))
            mean_loss = None
            if self._loss_reduction == _V1.losses.Reduction.SUM:
                mean_loss = loss / tf.reduce_sum(weights * tf.ones_like(unreduced))
        with tf.name_scope(""):
            _V1.summary.scalar(_heads.summary_key(self._name, _KEYS.LOSS), total)
            if mean_loss is not None:
                _V1.summary.scalar(_heads.summary_key(self._name, _KEYS.LOSS_MEAN), mean_loss)
            if regularization is not None:
                _V1.summary.scalar(_heads.summary_key(self._name, _KEYS.LOSS_REGULARIZATION), regularization)
        return _estimator.EstimatorSpec(mode, predictions=predictions, loss=total, train_op=train_op)

    def _class_key(self, by_id, by_name, class_id):
        return by_id % class_id if self._label_vocabulary is None else by_name % self._label_vocabulary[class_id]

    def _metrics(self, labels, probabilities, weights, unreduced, regularization):
        key = lambda k: _heads.summary_key(self._name, k)  # noqa: E731
        with tf.name_scope("metrics"):
            ops = {
                key(_KEYS.LOSS_MEAN): _V1.metrics.mean(unreduced, weights=weights, name=_KEYS.LOSS_MEAN),
                key(_KEYS.AUC): _V1.metrics.auc(labels, probabilities, weights=weights, name=_KEYS.AUC),
                key(_KEYS.AUC_PR): _V1.metrics.auc(
                    labels, probabilities, weights=weights, curve="PR", name=_KEYS.AUC_PR
                ),
            }
            if regularization is not None:
                ops[key(_KEYS.LOSS_REGULARIZATION)] = _V1.metrics.mean(regularization, name=_KEYS.LOSS_REGULARIZATION)
            for threshold in self._thresholds:
                for template, fn in (
                    (_KEYS.ACCURACY_AT_THRESHOLD, _heads.accuracy_at_threshold),
                    (_KEYS.PRECISION_AT_THRESHOLD, _heads.precision_at_threshold),
                    (_KEYS.RECALL_AT_THRESHOLD, _heads.recall_at_threshold),
                ):
                    name = template % threshold
                    ops[key(name)] = fn(labels, probabilities, weights, threshold, name=name)
            for class_id in self._class_ids:
                class_probabilities = probabilities[..., class_id : class_id + 1]
                class_labels = labels[..., class_id : class_id + 1]
                name = self._class_key(_KEYS.PROBABILITY_MEAN_AT_CLASS, _KEYS.PROBABILITY_MEAN_AT_NAME, class_id)
                ops[key(name)] = _heads.predictions_mean(class_probabilities, weights=weights, name=name)
                name = self._class_key(_KEYS.AUC_AT_CLASS, _KEYS.AUC_AT_NAME, class_id)
                ops[key(name)] = _heads.auc(class_labels, class_probabilities, weights=weights, name=name)
                name = self._class_key(_KEYS.AUC_PR_AT_CLASS, _KEYS.AUC_PR_AT_NAME, class_id)
                ops[key(name)] = _heads.auc(class_labels, class_probabilities, weights=weights, curve="PR", name=name)
        return ops


def _no_op_train(loss):
    del loss
    return tf.no_op()


def _weighted_sum(values, head_weights):
    with tf.name_scope("merge_losses"):
        if head_weights:
            values = [value * weight for value, weight in zip(values, head_weights)]
        return tf.add_n(list(values))


class MultiHead(_heads.Head):
    """``tf.contrib.estimator.multi_head``'s head: the (weighted) sum of its heads' losses."""

    def __init__(self, heads, head_weights):
        self._heads = tuple(heads)
        self._head_weights = tuple(head_weights or ())

    @property
    def name(self):
        return "_".join(head.name for head in self._heads)

    @property
    def logits_dimension(self):
        return sum(head.logits_dimension for head in self._heads)

    def _logits_by_head(self, logits):
        if isinstance(logits, dict):
            return logits
        with tf.name_scope("split_logits"):
            logits = tf.convert_to_tensor(logits)
            dims = [head.logits_dimension for head in self._heads]
            shape = logits.shape.as_list()
            if shape[-1] is not None and shape[-1] != sum(dims):
                raise ValueError(
                    "Could not split logits of shape %r among the heads with individual logits dimensions: %r. "
                    "The last dimension of the logits tensor should equal %d but is %d."
                    % (shape, dims, sum(dims), shape[-1])
                )
            parts = tf.split(logits, dims, axis=-1)
        return {head.name: part for head, part in zip(self._heads, parts)}

    def create_loss(self, features, mode, logits, labels):
        """See ``_Head``: ``unreduced_loss``, ``weights`` and ``processed_labels`` are dicts by head name."""
        logits = self._logits_by_head(logits)
        losses, unreduced, weights, processed = [], {}, {}, {}
        for i, head in enumerate(self._heads):
            spec = head.create_loss(features, mode, logits[head.name], labels[head.name])
            losses.append(spec.training_loss)
            factor = self._head_weights[i] if self._head_weights else None
            unreduced[head.name] = spec.unreduced_loss if factor is None else spec.unreduced_loss * factor
            weights[head.name] = spec.weights if factor is None else tf.multiply(spec.weights, factor)
            processed[head.name] = spec.processed_labels
        return _heads.LossSpec(
            training_loss=_weighted_sum(losses, self._head_weights),
            unreduced_loss=unreduced,
            weights=weights,
            processed_labels=processed,
        )

    def create_estimator_spec(
        self, features, mode, logits, labels=None, optimizer=None, train_op_fn=None, regularization_losses=None
    ):
        """See ``_Head``; ``labels`` is a dict by head name, ``logits`` a dict or a Tensor to split."""
        if regularization_losses:
            raise ValueError(
                "multi_head does not take regularization_losses (tf.contrib.estimator's did not). "
                "Given: %r" % (regularization_losses,)
            )
        logits = self._logits_by_head(logits)
        if labels and not isinstance(labels, dict):
            raise ValueError("labels must be a dict. Given: {}".format(labels))
        specs = [
            head.create_estimator_spec(
                features=features,
                mode=mode,
                logits=logits[head.name],
                labels=labels[head.name] if labels else None,
                train_op_fn=_no_op_train,
            )
            for head in self._heads
        ]
        predictions = {(head.name, k): v for head, spec in zip(self._heads, specs) for k, v in spec.predictions.items()}
        modes = _estimator.ModeKeys
        if mode == modes.TRAIN:
            loss = _weighted_sum([spec.loss for spec in specs], self._head_weights)
            train_op = _train_op(loss, optimizer, train_op_fn)
            with tf.name_scope(""):
                _V1.summary.scalar(_KEYS.LOSS, loss)
            metrics = {}
            for spec in specs:
                metrics.update(spec.eval_metric_ops or {})
            return _estimator.EstimatorSpec(
                mode, loss=loss, train_op=train_op, predictions=predictions, eval_metric_ops=metrics
            )
        if mode == modes.PREDICT:
            return _estimator.EstimatorSpec(mode, predictions=predictions, export_outputs=self._export_outputs(specs))
        if mode == modes.EVAL:
            metrics = {}
            with tf.name_scope("merge_eval"):
                for head, spec in zip(self._heads, specs):
                    name = _heads.summary_key(head.name, _KEYS.LOSS)
                    metrics[name] = _V1.metrics.mean(spec.loss, name=name)
                    metrics.update(spec.eval_metric_ops or {})
                loss = _weighted_sum([spec.loss for spec in specs], self._head_weights)
            return _estimator.EstimatorSpec(mode, predictions=predictions, loss=loss, eval_metric_ops=metrics)
        raise ValueError("mode={} unrecognized".format(mode))

    def _export_outputs(self, specs):
        first = specs[0].export_outputs
        if len(first) != 1 and _SERVING not in first:
            raise ValueError(
                "{} did not specify default export_outputs. Given: {} Suggested fix: Use one of the heads in "
                "tf.contrib.estimator, or include key {} in export_outputs.".format(
                    self._heads[0].name, first, _SERVING
                )
            )
        outputs = {_SERVING: first[_SERVING] if _SERVING in first else next(iter(first.values()))}
        merged = {}
        for head, spec in zip(self._heads, specs):
            for key, output in spec.export_outputs.items():
                outputs[head.name if key == _SERVING else "%s/%s" % (head.name, key)] = output
                if key == _heads.PREDICT_SERVING_KEY and isinstance(output, _heads.PredictOutput):
                    merged.update({"%s/%s" % (head.name, k): v for k, v in output.outputs.items()})
        outputs[_heads.PREDICT_SERVING_KEY] = _heads.PredictOutput(merged)
        return outputs
