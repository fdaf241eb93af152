"""TF 1.x code in the style of the Machine Learning Crash Course's "First Steps with TensorFlow".

This file is written for TensorFlow 1.x and does NOT run on TensorFlow 2 as it is: it shows what
tf1clip-upgrade converts. A canned ``tf.estimator.LinearRegressor`` trains with its optimizer wrapped
in ``tf.contrib.estimator.clip_gradients_by_norm``, on synthetic data (house value against rooms)
instead of the California housing CSV. On any TensorFlow from 2.15 to the newest (the converted file
uses tf1clip.estimator there, or TF 2.15's own Estimator when that is installed)::

    python3 -m pip install '.[cpu,estimator]' && python3 -m tf1clip.install_extras legacy-keras
    tf1clip-upgrade --infile legacy_examples/tf1_inputs/crash_course_estimator.py --outfile /tmp/crash_course_tf2.py
    python3 /tmp/crash_course_tf2.py

TensorFlow 1.15 runs this file as it is, and prints the same numbers.

It prints the learned weight and bias, the RMSE, and a ``RESULT {...}`` JSON line.
"""

import json
import math

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.ERROR)

LEARNING_RATE = 0.01
CLIP_NORM = 5.0
BATCH_SIZE = 10
STEPS = 100

# Synthetic "California housing": median house value (100k USD) against total rooms (thousands).
rng = np.random.RandomState(0)
total_rooms = np.linspace(0.5, 5.0, 100).astype(np.float32)
median_house_value = (2.0 * total_rooms + 1.0 + 0.3 * rng.randn(100)).astype(np.float32)


def my_input_fn(features, targets, batch_size=1, shuffle=True, num_epochs=None):
    """Feeds ``features`` (a dict of arrays) and ``targets`` in batches, as the Crash Course does."""
    ds = tf.data.Dataset.from_tensor_slices((features, targets))
    ds = ds.batch(batch_size).repeat(num_epochs)
    if shuffle:
        ds = ds.shuffle(buffer_size=10000)
    features, labels = ds.make_one_shot_iterator().get_next()
    return features, labels


feature_columns = [tf.feature_column.numeric_column("total_rooms")]
my_feature = {"total_rooms": total_rooms}
targets = median_house_value[:, None]

my_optimizer = tf.train.GradientDescentOptimizer(learning_rate=LEARNING_RATE)
my_optimizer = tf.contrib.estimator.clip_gradients_by_norm(my_optimizer, CLIP_NORM)

linear_regressor = tf.estimator.LinearRegressor(feature_columns=feature_columns, optimizer=my_optimizer)
# shuffle=False keeps the batches in order, so the run can be checked step by step.
_ = linear_regressor.train(
    input_fn=lambda: my_input_fn(my_feature, targets, batch_size=BATCH_SIZE, shuffle=False), steps=STEPS
)

prediction_input_fn = lambda: my_input_fn(my_feature, targets, num_epochs=1, shuffle=False)  # noqa: E731
predictions = linear_regressor.predict(input_fn=prediction_input_fn)
predictions = np.array([item["predictions"][0] for item in predictions])
root_mean_squared_error = math.sqrt(float(np.mean(np.square(predictions - median_house_value))))

weight = float(linear_regressor.get_variable_value("linear/linear_model/total_rooms/weights")[0][0])
bias = float(linear_regressor.get_variable_value("linear/linear_model/bias_weights")[0])
print("learned: value = %.4f * rooms + %.4f (data: 2 * rooms + 1, noise 0.3)" % (weight, bias))
print("RMSE on the training data: %.4f" % root_mean_squared_error)
print("RESULT " + json.dumps({"weight": weight, "bias": bias, "rmse": root_mean_squared_error}))
