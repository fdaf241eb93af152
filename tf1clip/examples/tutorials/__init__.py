"""``tensorflow.examples.tutorials``, re-created: ``mnist.input_data``."""
