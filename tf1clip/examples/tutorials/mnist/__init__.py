"""``tensorflow.examples.tutorials.mnist``, re-created: ``input_data``."""
