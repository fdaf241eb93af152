"""contrib.opt's optimizers and wrappers under MirroredStrategy (2 logical CPUs) against one device.

Started by tests/subprocess/test_contrib_opt_matrix.py in a fresh process. One graph holds
every case (tests/subprocess/_contrib_opt_cases.py) on one device, trained on the summed
loss of both replicas; a second graph holds them under MirroredStrategy, each
replica on its own loss. A case whose mirrored build raises records the error
instead. Prints one JSON object ``{name: {"single": {...}, "mirrored": {...} or
None, "error": str or None, "consistent": bool}}``.
"""

import json
import os
import re
import sys

import numpy as np
import tensorflow as tf

_CPUS = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(_CPUS[0], [tf.config.LogicalDeviceConfiguration()] * 2)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _contrib_opt_cases as cases  # noqa: E402  (after the device configuration)

v1 = tf.compat.v1
STEPS = 3


def _case_variables(name):
    step = v1.train.get_or_create_global_step() if name == "DropStaleGradientOptimizer" else None
    with v1.variable_scope(name):
        return cases.variables(name, step)


def _replica_id():
    return int(tf.get_static_value(tf.distribute.get_replica_context().replica_id_in_sync_group))


def run(mirrored):
    out = {name: {"error": None} for name in cases.NAMES}
    with tf.Graph().as_default():
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]) if mirrored else tf.distribute.get_strategy()
        ops = []
        with strategy.scope():
            for name in cases.NAMES:
                var = _case_variables(name)
                optimizer = cases.OPTIMIZERS[name][0](var["step"], var)

                def step(var=var, optimizer=optimizer):
                    loss = cases.loss(var, _replica_id() if mirrored else None)
                    return optimizer.minimize(loss, global_step=var["step"], var_list=cases.trained(var))

                if not mirrored:
                    ops.append(step())
                    continue
                try:
                    ops.append(strategy.group(strategy.extended.call_for_each_replica(step)))
                except Exception as err:  # noqa: BLE001  (recorded for the test to check)
                    out[name]["error"] = "%s: %s" % (type(err).__name__, err)
        train = tf.group(*ops)
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            for _ in range(STEPS):
                sess.run(train)
            for name in cases.NAMES:
                found = cases.state(sess, name)
                out[name]["values"] = {k: np.asarray(v).tolist() for k, v in found.items()}
            every = [v for v in v1.global_variables() + v1.local_variables() if hasattr(v, "values")]
            fetched = sess.run([list(v.values) for v in every])
            for name in cases.NAMES:
                out[name]["consistent"] = all(
                    all(np.array_equal(p[0], q) for q in p[1:])
                    for v, p in zip(every, fetched)
                    if re.search("(^|/)%s/" % name, v.op.name)
                )
            out["global_step"] = int(sess.run(v1.train.get_global_step()))
    return out


def main():
    single, mirrored = run(False), run(True)
    result = {"global_step": [single.pop("global_step"), mirrored.pop("global_step")]}
    for name in cases.NAMES:
        result[name] = {
            "single": single[name]["values"],
            "mirrored": None if mirrored[name]["error"] else mirrored[name]["values"],
            "error": mirrored[name]["error"],
            "consistent": mirrored[name]["consistent"],
        }
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
