"""contrib.opt's optimizers and wrappers inside an Estimator (``tf1clip.estimator``), one per case.

Started by tests/subprocess/test_contrib_opt_matrix.py in a fresh process, on TensorFlow 2.16+ with
``TF_USE_LEGACY_KERAS=1`` (tf1clip.estimator needs Keras 2; the pytest process may already hold Keras 3). For
each case of tests/subprocess/_contrib_opt_cases.py a custom ``model_fn`` minimizes the summed loss with
``tf1clip.clip_gradients_by_norm(optimizer, CLIP)`` for ``STEPS`` global steps, in a model dir under
``argv[1]``. Prints one JSON object: ``{"missing": reason}`` without tf1clip.estimator, else
``{name: {checkpoint variable: value}}``.
"""

import json
import os
import sys

import numpy as np
import tensorflow as tf

import tf1clip

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _contrib_opt_cases as cases  # noqa: E402

v1 = tf.compat.v1
STEPS = 3


def train(est, name, model_dir):
    def model_fn(features, labels, mode):
        step = v1.train.get_global_step()
        var = cases.variables(name, step)
        optimizer = tf1clip.clip_gradients_by_norm(cases.OPTIMIZERS[name][0](step, var), cases.CLIP)
        loss = cases.loss(var, None)
        train_op = optimizer.minimize(loss, global_step=step, var_list=cases.trained(var))
        return est.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn():
        return {"x": tf.zeros([1])}, tf.zeros([1])

    config = est.RunConfig(tf_random_seed=1, log_step_count_steps=None, save_summary_steps=None)
    est.Estimator(model_fn, model_dir=model_dir, config=config).train(input_fn, max_steps=STEPS)
    reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(model_dir))
    return {k: np.asarray(reader.get_tensor(k)).tolist() for k in reader.get_variable_to_shape_map()}


def main():
    try:
        from tf1clip import estimator
    except ImportError as err:
        result = {"missing": "tf1clip.estimator is not available with TensorFlow %s: %s" % (tf.__version__, err)}
    else:
        result = {name: train(estimator, name, os.path.join(sys.argv[1], name)) for name in cases.NAMES}
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
