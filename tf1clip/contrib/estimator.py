"""``tf.contrib.estimator``'s gradient-clipping decorator, heads and head-taking Estimators.

``clip_gradients_by_norm(optimizer, clip_norm)`` clips by the GLOBAL norm, as
contrib's did despite its name; it is ``tf1clip.clip_gradients_by_norm`` with TF 1.15's
``clip_stage="per_replica"`` as its default (under a ``tf.distribute`` strategy each
replica's gradients are clipped before they are summed; ``clip_stage="aggregated"`` clips the sum).

The heads are TF 1.15's ``tf.contrib.estimator`` heads, v1 ``_Head`` objects for
``tf1clip.estimator``'s (``tf.compat.v1.estimator``'s) ``DNNEstimator``, ``LinearEstimator``,
``DNNLinearCombinedEstimator`` and for ``head.create_estimator_spec`` in a custom ``model_fn``, with
contrib's signatures and defaults (``loss_reduction=SUM_OVER_BATCH_SIZE``, where the canned
estimators' own heads sum): ``regression_head``, ``poisson_regression_head``,
``logistic_regression_head``, ``binary_classification_head`` and ``multi_class_head`` call
tensorflow-estimator 2.15's v1 head code, as contrib's did; ``multi_label_head`` and ``multi_head``,
which tensorflow-estimator 2.15 has only for its v2 API, are re-created (``_estimator_heads``). They differ
from TF 1.15's in two ways: they return a ``tf.compat.v1.estimator.EstimatorSpec`` and do not support
``TPUEstimator``, and ``multi_head``'s ``create_estimator_spec`` raises ``ValueError`` for
``regularization_losses`` (TF 1.15's had no such argument). ``DNNEstimator``, ``LinearEstimator`` and
``DNNLinearCombinedEstimator`` are ``tf1clip.estimator``'s, as attributes here outside ``__all__`` (contrib's
moved to ``tf.estimator`` in TF 1.13; TF 1.15 kept them there with the same head-first signatures).

Importing this module needs only TensorFlow; the heads and Estimators import ``tf1clip.estimator``
(tensorflow-estimator 2.15 and, on TF 2.16+, tf-keras) when first used.
"""

from typing import Any, List

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.core import optimizer as _optimizer

SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"  # tf.compat.v1.losses.Reduction.SUM_OVER_BATCH_SIZE

_ESTIMATORS = ("DNNEstimator", "DNNLinearCombinedEstimator", "LinearEstimator")

__all__ = _manifest.names_of(__name__)


def clip_gradients_by_norm(
    optimizer: Any,
    clip_norm: Any,
    *,
    on_nonfinite: str = "nan",
    clip_stage: str = "per_replica",
    report_norms: Any = False,
) -> Any:
    """``tf.contrib.estimator.clip_gradients_by_norm``: ``optimizer`` wrapped to clip gradients by their GLOBAL norm.

    ``tf1clip.clip_gradients_by_norm`` with TF 1.15's default: under a ``tf.distribute`` strategy each
    replica's gradients are clipped before the replicas are summed, as contrib did (2 replicas with
    gradients ``[3, 0]`` and ``[0, 4]``, ``clip_norm=2``: the sum applied is ``[2, 2]``).
    ``clip_stage="aggregated"`` clips the summed gradients instead (``[1.2, 1.6]``: one device on the
    whole batch). Without a strategy both are the same. ``on_nonfinite`` and ``report_norms`` as for
    ``tf1clip.transform_gradients``.
    """
    return _optimizer.clip_gradients_by_norm(
        optimizer, clip_norm, on_nonfinite=on_nonfinite, clip_stage=clip_stage, report_norms=report_norms
    )


def _estimator(name: str) -> Any:
    try:
        from tf1clip import estimator
    except ImportError as error:
        raise ImportError("tf1clip.contrib.estimator.%s needs tf1clip.estimator: %s" % (name, error)) from error
    return estimator


def _heads(name: str) -> Any:
    _estimator(name)
    from tf1clip.contrib import _estimator_heads

    return _estimator_heads


def regression_head(
    weight_column=None,
    label_dimension=1,
    loss_reduction=SUM_OVER_BATCH_SIZE,
    loss_fn=None,
    inverse_link_fn=None,
    name=None,
):
    """A v1 ``_Head`` for regression with the ``mean_squared_error`` loss (``loss_fn`` replaces it).

    ``inverse_link_fn`` maps logits to ``predictions`` in PREDICT mode. ``ValueError`` for an invalid
    ``label_dimension`` or ``loss_reduction`` (any ``tf.compat.v1.losses.Reduction`` but ``NONE``).
    """
    return _heads("regression_head").regression_head(
        weight_column=weight_column,
        label_dimension=label_dimension,
        loss_reduction=loss_reduction,
        loss_fn=loss_fn,
        inverse_link_fn=inverse_link_fn,
        name=name,
    )


def poisson_regression_head(
    weight_column=None, label_dimension=1, loss_reduction=SUM_OVER_BATCH_SIZE, compute_full_loss=True, name=None
):
    """A v1 ``_Head`` for Poisson regression: ``tf.nn.log_poisson_loss`` on log-rate logits, predictions ``exp``.

    ``compute_full_loss`` adds the Stirling approximation of ``log(labels!)``.
    """

    def poisson_loss(labels, logits):
        return tf.nn.log_poisson_loss(targets=labels, log_input=logits, compute_full_loss=compute_full_loss)

    return _heads("poisson_regression_head").regression_head(
        weight_column=weight_column,
        label_dimension=label_dimension,
        loss_reduction=loss_reduction,
        loss_fn=poisson_loss,
        inverse_link_fn=tf.exp,
        name=name,
    )


def logistic_regression_head(weight_column=None, loss_reduction=SUM_OVER_BATCH_SIZE, name=None):
    """A v1 ``_Head`` for logistic regression: sigmoid cross-entropy against float labels in ``[0, 1]``.

    Unlike ``binary_classification_head``: no ``label_vocabulary``, regression metrics, predictions
    ``logits`` and ``predictions`` (the sigmoid) only, and a ``RegressionOutput`` export by default.
    """
    heads = _heads("logistic_regression_head")

    def logistic_loss(labels, logits):
        labels = heads.assert_range(labels, n_classes=2, message="Labels must be in range [0, 1]")
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)

    return heads.regression_head(
        weight_column=weight_column,
        label_dimension=1,
        loss_reduction=loss_reduction,
        loss_fn=logistic_loss,
        inverse_link_fn=tf.sigmoid,
        name=name,
    )


def binary_classification_head(
    weight_column=None,
    thresholds=None,
    label_vocabulary=None,
    loss_reduction=SUM_OVER_BATCH_SIZE,
    loss_fn=None,
    name=None,
):
    """A v1 ``_Head`` for binary classification with the sigmoid cross-entropy loss.

    ``ValueError`` for a threshold outside ``(0, 1)`` or an invalid ``loss_reduction``.
    """
    return _heads("binary_classification_head").binary_classification_head(
        weight_column=weight_column,
        thresholds=thresholds,
        label_vocabulary=label_vocabulary,
        loss_reduction=loss_reduction,
        loss_fn=loss_fn,
        name=name,
    )


def multi_class_head(
    n_classes, weight_column=None, label_vocabulary=None, loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, name=None
):
    """A v1 ``_Head`` for single-label classification into ``n_classes`` (> 2) with the softmax cross-entropy loss.

    ``ValueError`` for an invalid ``n_classes``, ``label_vocabulary`` or ``loss_reduction``.
    """
    return _heads("multi_class_head").multi_class_head(
        n_classes=n_classes,
        weight_column=weight_column,
        label_vocabulary=label_vocabulary,
        loss_reduction=loss_reduction,
        loss_fn=loss_fn,
        name=name,
    )


def multi_label_head(
    n_classes,
    weight_column=None,
    thresholds=None,
    label_vocabulary=None,
    loss_reduction=SUM_OVER_BATCH_SIZE,
    loss_fn=None,
    classes_for_class_based_metrics=None,
    name=None,
):
    """A v1 ``_Head`` for multi-label classification: sigmoid cross-entropy per class, averaged over the classes.

    Labels are a multi-hot ``[..., n_classes]`` Tensor, or a ``SparseTensor`` of class ids (of strings
    from ``label_vocabulary`` if given). ``thresholds`` adds accuracy, precision and recall metrics at
    each; ``classes_for_class_based_metrics`` (ids, or strings of ``label_vocabulary``) adds per-class
    probability mean, AUC and PR-AUC. ``ValueError``, with TF 1.15's messages, for an invalid
    ``n_classes``, threshold, ``label_vocabulary``, ``loss_fn``, ``loss_reduction`` or class.
    """
    if n_classes is None or n_classes < 2:
        raise ValueError("n_classes must be > 1 for multi-class classification. Given: {}".format(n_classes))
    thresholds = tuple(thresholds) if thresholds else ()
    for threshold in thresholds:
        if threshold <= 0.0 or threshold >= 1.0:
            raise ValueError("thresholds must be in (0, 1) range. Given: {}".format(threshold))
    if label_vocabulary is not None:
        if not isinstance(label_vocabulary, (list, tuple)):
            raise ValueError("label_vocabulary must be a list or tuple. Given type: {}".format(type(label_vocabulary)))
        if len(label_vocabulary) != n_classes:
            raise ValueError(
                "Length of label_vocabulary must be n_classes ({}). Given: {}".format(n_classes, len(label_vocabulary))
            )
    heads = _heads("multi_label_head")
    if loss_fn:
        heads.validate_loss_fn_args(loss_fn)
    if (
        loss_reduction not in tf.compat.v1.losses.Reduction.all()
        or loss_reduction == tf.compat.v1.losses.Reduction.NONE
    ):
        raise ValueError("Invalid loss_reduction: {}".format(loss_reduction))
    class_ids = list(classes_for_class_based_metrics or ())
    if class_ids and isinstance(class_ids[0], str):
        if not label_vocabulary:
            raise ValueError("label_vocabulary must be provided when classes_for_class_based_metrics are sting.")
        class_ids = [list(label_vocabulary).index(name_) for name_ in class_ids]
    else:
        for class_id in class_ids:
            if class_id < 0 or class_id >= n_classes:
                raise ValueError(
                    "All classes_for_class_based_metrics must be in range [0, {}]. Given: {}".format(
                        n_classes - 1, class_id
                    )
                )
    return heads.MultiLabelHead(
        n_classes, weight_column, thresholds, label_vocabulary, loss_reduction, loss_fn, class_ids, name
    )


def multi_head(heads, head_weights=None):
    """A v1 ``_Head`` for multi-objective learning over named ``heads``: their losses' (weighted) sum.

    ``logits`` and ``labels`` are dicts by head name (``logits`` may also be one Tensor, split in
    ``heads``' order); predictions are keyed ``(head name, key)``; eval metrics are the heads' plus
    ``loss/<head name>``; the first head serves the default signature. ``ValueError`` when ``heads`` is
    empty, a head has no name, or ``head_weights`` differs from ``heads`` in length.
    """
    if head_weights and len(head_weights) != len(heads):
        raise ValueError(
            "heads and head_weights must have the same size. Given len(heads): {}. Given len(head_weights): {}.".format(
                len(heads), len(head_weights)
            )
        )
    if not heads:
        raise ValueError("Must specify heads. Given: {}".format(heads))
    for head in heads:
        if not head.name:
            raise ValueError("All given heads must have name specified. Given: {}".format(head))
    return _heads("multi_head").MultiHead(tuple(heads), tuple(head_weights) if head_weights else ())


def __getattr__(name: str) -> Any:
    if name in _ESTIMATORS:
        return getattr(_estimator(name), name)
    raise AttributeError("module 'tf1clip.contrib.estimator' has no attribute %r" % name)


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
