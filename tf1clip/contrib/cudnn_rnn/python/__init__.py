"""TF 1.15's ``tensorflow.contrib.cudnn_rnn.python`` path: ``ops.cudnn_rnn_ops`` and ``layers.cudnn_rnn``."""
