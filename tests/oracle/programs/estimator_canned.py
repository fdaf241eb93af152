"""A canned Estimator, DNNRegressor, whose optimizer is tf.contrib.estimator.clip_gradients_by_norm
around Adam, trained from numpy input_fns; the second half resumes from the model_dir. A numeric
column and an embedding column (sparse gradients) feed it.

The network starts from a checkpoint written from numpy (``warm_start_from``): the seeded
initializers of TF 1.15 and TF 2 draw other numbers. Resuming needs no code: the Estimator
restores the newest checkpoint in its model_dir (and then ignores ``warm_start_from``). The
losses are the ``loss`` summaries the Estimator writes at every step.
"""

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
BATCH = 4
HIDDEN = 3
VOCAB = 8

out, ckpt_dir, mode = oracle_io.parse_args()
start, stop = oracle_io.step_range(mode, STEPS)
model_dir = ckpt_dir or tempfile.mkdtemp()
warm_dir = tempfile.mkdtemp()

initial = {
    "dnn/input_from_feature_columns/input_layer/word_embedding/embedding_weights": np.linspace(
        -0.5, 0.5, VOCAB * 2
    ).reshape(VOCAB, 2),
    "dnn/hiddenlayer_0/kernel": np.linspace(-1.0, 1.0, 6 * HIDDEN).reshape(6, HIDDEN),
    "dnn/hiddenlayer_0/bias": np.array([0.1, 0.2, -0.1]),
    "dnn/logits/kernel": np.array([[1.0], [-0.5], [0.8]]),
    "dnn/logits/bias": np.array([0.3]),
}
with tf.Graph().as_default():
    warm_vars = [tf.Variable(value.astype(np.float32), name=name) for name, value in sorted(initial.items())]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.train.Saver(warm_vars).save(sess, os.path.join(warm_dir, "initial.ckpt"))

regressor = tf.estimator.DNNRegressor(
    hidden_units=[HIDDEN],
    feature_columns=[
        tf.feature_column.numeric_column("x", shape=[4]),
        tf.feature_column.embedding_column(
            tf.feature_column.categorical_column_with_identity("word", VOCAB), dimension=2
        ),
    ],
    model_dir=model_dir,
    optimizer=tf.contrib.estimator.clip_gradients_by_norm(tf.train.AdamOptimizer(0.05), clip_norm=1.0),
    warm_start_from=warm_dir,
    config=tf.estimator.RunConfig(save_summary_steps=1, save_checkpoints_steps=None, save_checkpoints_secs=3600),
)

for half in range(start // (STEPS // 2), stop // (STEPS // 2)):
    x, y = zip(*[oracle_io.batch(step, n=BATCH) for step in range(half * STEPS // 2, (half + 1) * STEPS // 2)])
    input_fn = tf.estimator.inputs.numpy_input_fn(
        {"x": np.concatenate(x), "word": np.arange(3 * BATCH).reshape(-1, 1) % VOCAB},
        np.concatenate(y) + np.arange(3 * BATCH).reshape(-1, 1) % 3,
        batch_size=BATCH,
        num_epochs=1,
        shuffle=False,
    )
    regressor.train(input_fn)

losses = {}
for path in tf.gfile.Glob(os.path.join(model_dir, "events.out.tfevents.*")):
    for event in tf.train.summary_iterator(path):
        for value in event.summary.value:
            if value.tag == "loss" and event.step > start:
                losses[event.step] = value.simple_value
values = dict(
    (name, np.asarray(regressor.get_variable_value(name)).tolist()) for name in regressor.get_variable_names()
)
values.update(losses=[losses[step] for step in sorted(losses)], loss_steps=sorted(losses))
shutil.rmtree(warm_dir)
if ckpt_dir is None:
    shutil.rmtree(model_dir)
oracle_io.write(out, values)
