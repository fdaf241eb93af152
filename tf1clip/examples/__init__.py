"""TF 1.x's ``tensorflow.examples`` modules that tutorials import, re-created (``tutorials.mnist.input_data``)."""
