"""``tf.contrib``'s gradient clipping, and its slim family routed to tf-slim.

Replace ``tf.contrib.X.Y`` by ``tf1clip.contrib.X.Y``. tf1clip's own names
keep TensorFlow 1.15's signatures, defaults, variable names, summary tags and
numbers on ``tf.compat.v1`` graphs and Sessions, with contrib's outright bugs
fixed (docs/contrib.rst):

* ``estimator.clip_gradients_by_norm`` (GLOBAL norm); ``estimator``'s heads (``regression_head``,
  ``multi_class_head``, ``multi_label_head``, ``multi_head``, ...) for ``tf1clip.estimator``'s
  ``DNNEstimator``, ``LinearEstimator`` and ``DNNLinearCombinedEstimator`` (docs/estimator.rst)
* ``layers.optimize_loss``, ``layers.adaptive_clipping_fn``,
  ``layers.OPTIMIZER_CLS_NAMES``, ``layers.OPTIMIZER_SUMMARIES``
* ``training.clip_gradient_norms`` (per tensor), ``clip_gradient_norms_fn``,
  ``multiply_gradients``, ``add_gradients_summaries``, ``create_train_op``,
  ``train``
* ``slim.learning`` (the same helpers, slim's summary tags,
  ``create_train_op(clip_gradient_norm=..., gradient_multipliers=...)``,
  ``train``)
* ``opt.clip_gradients_by_global_norm``
* ``framework.get_global_step``, ``framework.get_or_create_global_step``
* ``rnn`` (the cells and functions TF 2 dropped), ``legacy_seq2seq``, ``cudnn_rnn`` (the cuDNN layers,
  saveables and compatible cells), re-created on ``tf.compat.v1.nn.rnn_cell`` (docs/rnn.rst; they need Keras 2)
* ``crf``: TF 1.15's linear-chain CRF, re-created (docs/rnn.rst)
* ``image``: TF 1.15's image transforms, warps and matching, re-created (docs/contrib.rst)
* ``quantize``: TF 1.15's fake-quant graph rewrite with batch-norm folding, re-created (docs/quantize.rst)
* ``staging`` (``StagingArea``) and ``predictor`` (``from_saved_model``, ``from_estimator``, ...), re-created
  (docs/contrib.rst)
* ``distributions.MultivariateNormalDiag``, re-created (docs/upgrade.rst; the other ``tf.contrib.distributions``
  names TF 1.15 also had are ``tf.compat.v1.distributions``')
* ``learn``: TF 1.15's ``tf.contrib.learn`` ``Estimator``, ``RunConfig``, ``Experiment``, ``learn_runner``,
  ``preprocessing.VocabularyProcessor`` ... on ``tf1clip.estimator`` (docs/learn.rst)

Every other public name of ``slim``, ``layers``, ``framework``, ``losses``,
``metrics`` and ``training`` is tf-slim's (``tf1clip.compat._slim.DELEGATES``),
imported and patched for TF 2 on first use (docs/slim.rst); ``gan`` is
TF-GAN's (docs/gan.rst). Importing ``tf1clip.contrib`` imports none of its modules (nor TensorFlow):
each is imported on first use. The names and where they come from are ``tf1clip.contrib._manifest``'s.
"""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib", globals())
