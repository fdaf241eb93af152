"""TF 1.15's ``tensorflow.contrib.cudnn_rnn.python.ops`` path (``cudnn_rnn_ops``)."""
