"""TF 1.15's ``tensorflow.contrib.cudnn_rnn.python.layers`` path (``cudnn_rnn``)."""
