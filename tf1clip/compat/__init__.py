"""TensorFlow access and the patch sets: the only package that reaches TensorFlow's, tensorflow-estimator's,
tf-slim's and TF-GAN's non-public names.

``_tf`` imports TensorFlow, checks its version and holds the named accessors of TF internals; ``_estimator``,
``_slim`` and ``_gan`` hold the patches that make tensorflow-estimator, tf-slim and TF-GAN run on TensorFlow 2.15+.
"""
