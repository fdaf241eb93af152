"""A TF 1.15 script using contrib modules that no maintained package replaces symbol for symbol."""
import tensorflow as tf
import tensorflow.contrib.gan as tfgan
from tensorflow.contrib import cudnn_rnn
from tensorflow.contrib.opt import DelayCompensatedGradientDescentOptimizer

x = tf.placeholder(tf.float32, [None, 8])
lstm = cudnn_rnn.CudnnLSTM(1, 16)
gan_model = tfgan.gan_model(None, None, real_data=x, generator_inputs=x)
tf.contrib.model_pruning.apply_mask(x)
estimator = tf.contrib.timeseries.ARRegressor(periodicities=[], input_window_size=2, output_window_size=1, num_features=1)
optimizer = getattr(tf.contrib.opt, "DelayCompensatedGradientDescentOptimizer")(0.1)
lazy = DelayCompensatedGradientDescentOptimizer(0.1)
cell = tf.contrib.rnn.python.ops.rnn_cell.NTMCell(4, 4, 4, 1, 1)
