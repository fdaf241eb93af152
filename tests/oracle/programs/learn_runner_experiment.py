"""A 2017 Cloud ML Engine sample's shape: learn_runner.run + tf.contrib.learn.Experiment + tf.contrib.learn.Estimator
with a custom model_fn (params, ModeKeys, ModelFnOps with eval metrics), tf.contrib.learn.RunConfig and an export
strategy from saved_model_export_utils.make_export_strategy; the second half resumes from the model_dir.

Initial values are numpy constants; each step's batch is picked by the global step, so a resumed run reads the same
batches. A training hook records each step's loss; the evaluation's metrics are compared too.
"""

import shutil
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn import learn_runner
from tensorflow.contrib.learn.python.learn.utils import saved_model_export_utils

import oracle_io

STEPS = 6
BATCH = 4
HIDDEN = 3

out, ckpt_dir, mode = oracle_io.parse_args()
start, stop = oracle_io.step_range(mode, STEPS)
model_dir = ckpt_dir or tempfile.mkdtemp()
xs, ys = zip(*[oracle_io.batch(step, n=BATCH) for step in range(STEPS)])
X, Y = np.stack(xs), np.stack(ys)


def train_input_fn():
    step = tf.train.get_global_step()
    features = {"x": tf.gather(tf.constant(X), step % STEPS)}
    return features, tf.gather(tf.constant(Y), step % STEPS)


def eval_input_fn():
    return {"x": tf.constant(X[0])}, tf.constant(Y[0])


def serving_input_fn():
    inputs = {"x": tf.placeholder(tf.float32, [None, 4], name="x")}
    return tf.contrib.learn.InputFnOps(inputs, None, inputs)


class LossRecorder(tf.train.SessionRunHook):
    """The loss of each training step (tf.contrib.learn's Estimator writes no loss summary)."""

    def __init__(self):
        self.losses = {}

    def begin(self):
        self._fetches = (tf.get_collection(tf.GraphKeys.LOSSES)[0], tf.train.get_global_step())

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self._fetches)

    def after_run(self, run_context, run_values):
        loss, step = run_values.results
        self.losses[int(step) + 1] = float(loss)


recorder = LossRecorder()


def model_fn(features, labels, mode, params):
    hidden = tf.layers.dense(
        features["x"],
        HIDDEN,
        activation=tf.nn.relu,
        kernel_initializer=tf.constant_initializer(np.linspace(-1.0, 1.0, 4 * HIDDEN).reshape(4, HIDDEN)),
        bias_initializer=tf.constant_initializer([0.1, 0.2, -0.1]),
        name="hidden",
    )
    output = tf.layers.dense(
        hidden, 1, kernel_initializer=tf.constant_initializer([[1.0], [-0.5], [0.8]]), name="output"
    )
    predictions = {"scores": output}
    if mode == tf.contrib.learn.ModeKeys.INFER:
        return tf.contrib.learn.ModelFnOps(mode=mode, predictions=predictions)
    loss = tf.losses.mean_squared_error(labels, output)
    train_op = None
    if mode == tf.contrib.learn.ModeKeys.TRAIN:
        optimizer = tf.train.AdamOptimizer(params["learning_rate"])
        train_op = optimizer.minimize(loss, global_step=tf.contrib.framework.get_global_step())
    metrics = {"rmse": tf.metrics.root_mean_squared_error(labels, output)}
    return tf.contrib.learn.ModelFnOps(
        mode=mode, predictions=predictions, loss=loss, train_op=train_op, eval_metric_ops=metrics
    )


def experiment_fn(output_dir):
    config = tf.contrib.learn.RunConfig(save_checkpoints_secs=3600, tf_random_seed=7)
    estimator = tf.contrib.learn.Estimator(
        model_fn=model_fn, model_dir=output_dir, config=config, params={"learning_rate": 0.05}
    )
    return tf.contrib.learn.Experiment(
        estimator,
        train_input_fn=train_input_fn,
        eval_input_fn=eval_input_fn,
        train_steps=stop,
        eval_steps=1,
        min_eval_frequency=0,
        train_monitors=[recorder],
        export_strategies=[saved_model_export_utils.make_export_strategy(serving_input_fn, exports_to_keep=1)],
    )


eval_result, exports = learn_runner.run(experiment_fn, output_dir=model_dir, schedule="train_and_evaluate")

losses = recorder.losses
values = oracle_io.checkpoint_values(model_dir)
values.update(losses=[losses[step] for step in sorted(losses)], loss_steps=sorted(losses))
values.update(eval={key: float(value) for key, value in sorted(eval_result.items())}, exports=len(exports))
if ckpt_dir is None:
    shutil.rmtree(model_dir)
oracle_io.write(out, values)
