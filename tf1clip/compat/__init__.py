"""TensorFlow access and the patch sets: the only package that reaches TensorFlow's, tensorflow-estimator's,
tf-slim's and TF-GAN's non-public names (docs/layout.rst).

``_tf`` imports TensorFlow, checks its version and holds the named accessors of TF internals; ``_excepthook``
the hook that prints the install hint when it is missing; ``_patchset`` is ``PatchSet`` and its ``Journal``;
``_estimator``, ``_slim`` and ``_gan`` hold the patch sets that make tensorflow-estimator, tf-slim and TF-GAN
run on TensorFlow 2.15+; ``_heads`` the tensorflow-estimator head internals that ``tf1clip.contrib.estimator``'s
heads build on. ``tf1clip.fidelity`` lists every process-wide change these make.
"""
