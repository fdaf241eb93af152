"""One task of an Estimator cluster: ``tf1clip.estimator.train_and_evaluate`` with ``TF_CONFIG``.

Started by tests/subprocess/test_estimator_cluster.py, one process per task (chief, 2 workers, 1 ps, evaluator), all
on 127.0.0.1. ``python _estimator_cluster_worker.py MODEL_DIR MODE MAX_STEPS`` with MODE ``async`` (each
worker applies its own clipped Adam step) or ``sync`` (``SyncReplicasOptimizer`` around the clipped Adam,
run through the hook it makes, given to the Estimator in ``EstimatorSpec.training_hooks``; not tested yet,
see tests/subprocess/test_estimator_cluster.py). Workers start training once the chief's first checkpoint exists. Every task
trains on the same constant batch, so that in ``sync`` mode each step applies the clipped Adam update of
that batch whoever computed the gradients. The ps serves until MODEL_DIR/done appears, then exits 0
(``train_and_evaluate`` itself never returns on a ps). A task prints ``RESULT {json}`` when done.
"""

import json
import os
import sys
import threading
import time

import numpy as np
import tensorflow as tf

import tf1clip
from tf1clip import estimator as est

v1 = tf.compat.v1
X = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0], [-2.0, 1.0]], np.float32)
Y = np.array([[3.0], [-2.0], [10.0], [1.0]], np.float32)
W0 = np.array([[0.5], [-0.5]], np.float32)
B0 = np.array([0.25], np.float32)
REPLICAS = 3  # chief + 2 workers


def make_model_fn(mode_name):
    def model_fn(features, labels, mode, config):
        w = v1.get_variable("w", initializer=tf.constant(W0))
        b = v1.get_variable("b", initializer=tf.constant(B0))
        loss = v1.losses.mean_squared_error(labels, tf.matmul(features["x"], w) + b)
        if mode != est.ModeKeys.TRAIN:
            return est.EstimatorSpec(mode, loss=loss)
        optimizer = tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.1), 1.0)
        hooks = []
        if mode_name == "sync":
            optimizer = v1.train.SyncReplicasOptimizer(
                optimizer, replicas_to_aggregate=REPLICAS, total_num_replicas=REPLICAS
            )
            hooks.append(optimizer.make_session_run_hook(config.is_chief, num_tokens=0))
        train_op = optimizer.minimize(loss, global_step=v1.train.get_global_step())
        return est.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=hooks)

    return model_fn


def main(model_dir, mode_name, max_steps):
    task = json.loads(os.environ["TF_CONFIG"])["task"]
    config = est.RunConfig(
        model_dir=model_dir,
        tf_random_seed=1,
        save_checkpoints_steps=4,
        keep_checkpoint_max=20,
        log_step_count_steps=None,
        experimental_max_worker_delay_secs=0,
    )
    estimator = est.Estimator(make_model_fn(mode_name), config=config)
    input_fn = lambda: tf.data.Dataset.from_tensors(({"x": X}, Y)).repeat()
    train_spec = est.TrainSpec(input_fn, max_steps=max_steps)
    eval_spec = est.EvalSpec(
        lambda: tf.data.Dataset.from_tensors(({"x": X}, Y)), steps=1, start_delay_secs=0, throttle_secs=1
    )
    if task["type"] == "ps":
        threading.Thread(target=est.train_and_evaluate, args=(estimator, train_spec, eval_spec), daemon=True).start()
        while not os.path.exists(os.path.join(model_dir, "done")):
            time.sleep(0.2)
        print("RESULT " + json.dumps({"task": task}), flush=True)
        os._exit(0)  # the server thread blocks in join() for ever
    if task["type"] == "worker":
        # A worker whose session starts before the chief has initialised the variables sleeps 30 s
        # (SessionManager's recovery_wait_secs, which Estimator does not expose): wait for the chief's
        # step-0 checkpoint instead.
        deadline = time.time() + 120
        while not os.path.exists(os.path.join(model_dir, "checkpoint")) and time.time() < deadline:
            time.sleep(0.1)
    est.train_and_evaluate(estimator, train_spec, eval_spec)
    print("RESULT " + json.dumps({"task": task}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
