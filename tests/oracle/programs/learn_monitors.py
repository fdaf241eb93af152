"""tf.contrib.learn.monitors as 2016-2017 programs passed them to fit(monitors=...): a ValidationMonitor with early
stopping on held-out data (every_n_steps with checkpoints every 2 steps: which checkpoint it evaluates is TF 1.15's
order of monitors and checkpoint saver), a CaptureVariable of the bias, PrintTensor and StopAtStep, on a
LinearRegressor; the validation data disagree with the training data, so the validation loss rises and training stops
early.
"""

import shutil
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 16

out, ckpt_dir, mode = oracle_io.parse_args()
start, stop = oracle_io.step_range(mode, STEPS)
model_dir = ckpt_dir or tempfile.mkdtemp()

rng = np.random.RandomState(5)
X = rng.randn(24, 3).astype(np.float32)
R = (X.dot(np.array([1.5, -1.0, 0.5])) + 2.0).astype(np.float32)
X_valid = rng.randn(10, 3).astype(np.float32)
R_valid = (X_valid.dot(np.array([-1.0, 1.0, 0.0])) - 3.0).astype(np.float32)

regressor = tf.contrib.learn.LinearRegressor(
    feature_columns=tf.contrib.learn.infer_real_valued_columns_from_input(X),
    optimizer=tf.train.GradientDescentOptimizer(0.1),
    model_dir=model_dir,
    config=tf.contrib.learn.RunConfig(save_checkpoints_steps=2, tf_random_seed=1),
)
validation = tf.contrib.learn.monitors.ValidationMonitor(
    X_valid, R_valid, every_n_steps=2, early_stopping_rounds=4, check_interval_secs=None
)
capture = tf.contrib.learn.monitors.CaptureVariable("linear/bias_weight/part_0:0", every_n=3)
monitors = [
    validation,
    capture,
    tf.contrib.learn.monitors.PrintTensor(["linear/bias_weight/part_0:0"], every_n=5),
    tf.contrib.learn.monitors.StopAtStep(num_steps=stop - start),
]
regressor.fit(x=X, y=R, batch_size=8, steps=STEPS, monitors=monitors)

values = oracle_io.checkpoint_values(model_dir)
values.update(
    best_step=int(validation.best_step),
    best_value=float(validation.best_value),
    best_metrics=dict((k, float(v)) for k, v in sorted(validation.best_metrics.items())),
    early_stopped=validation.early_stopped,
    captured=dict((str(step), value.tolist()) for step, value in sorted(capture.values.items())),
    validation_loss=float(regressor.evaluate(x=X_valid, y=R_valid)["loss"]),
)
if ckpt_dir is None:
    shutil.rmtree(model_dir)
oracle_io.write(out, values)
