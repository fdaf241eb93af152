"""What every oracle program shares: its command line, the step range, and writing its values.

A program is called ``program.py OUT.json [CKPT_DIR save|resume]``: without a checkpoint
directory it trains STEPS steps; ``save`` trains the first half and saves into CKPT_DIR;
``resume`` restores the newest checkpoint in CKPT_DIR and trains the second half. It writes
its values (losses, every global variable, summaries) as JSON to OUT.json.
Plain TF 1.15 code: tf1clip-upgrade converts it like the programs.
"""

import json
import os
import sys

import numpy as np
import tensorflow as tf


def parse_args():
    """(out path, checkpoint dir or None, 'full' | 'save' | 'resume')."""
    if len(sys.argv) == 2:
        return sys.argv[1], None, "full"
    if len(sys.argv) == 4 and sys.argv[3] in ("save", "resume"):
        return sys.argv[1], sys.argv[2], sys.argv[3]
    raise SystemExit("usage: %s OUT.json [CKPT_DIR save|resume]" % sys.argv[0])


def step_range(mode, steps):
    half = steps // 2
    return {"full": (0, steps), "save": (0, half), "resume": (half, steps)}[mode]


def batch(step, n=8, dim=4, seed=0):
    """The batch of a step: the same in a full run and in a resumed one."""
    rng = np.random.RandomState(1000 * seed + step)
    x = rng.randn(n, dim).astype(np.float32)
    y = (x.dot(np.linspace(-2.0, 2.0, dim).reshape(dim, 1)) + 0.5).astype(np.float32)
    return x, y


def variables(sess, var_list=None):
    """{name: value} of every global variable (or of var_list)."""
    var_list = tf.global_variables() if var_list is None else var_list
    values = sess.run(var_list)
    return dict((v.op.name, np.asarray(x).tolist()) for v, x in zip(var_list, values))


def checkpoint_values(checkpoint_dir):
    """{name: value} of every tensor in the newest checkpoint in checkpoint_dir."""
    reader = tf.train.NewCheckpointReader(newest_checkpoint(checkpoint_dir))
    return dict((name, np.asarray(reader.get_tensor(name)).tolist()) for name in reader.get_variable_to_shape_map())


def newest_checkpoint(checkpoint_dir):
    """The newest checkpoint by step (a Supervisor's timer thread may record an older one last)."""
    state = tf.train.get_checkpoint_state(checkpoint_dir)
    paths = list(state.all_model_checkpoint_paths) or [state.model_checkpoint_path]
    return max(paths, key=lambda p: int(p.rsplit("-", 1)[1]))


def summary_values(serialized):
    """{tag: value} of a serialized Summary: scalars, histogram (min, max, num, sum)."""
    summary = tf.Summary()
    summary.ParseFromString(serialized)
    values = {}
    for value in summary.value:
        if value.HasField("simple_value"):
            values[value.tag] = value.simple_value
        elif value.HasField("histo"):
            h = value.histo
            values[value.tag] = [h.min, h.max, h.num, h.sum]
    return values


def event_tags(logdir):
    """Sorted summary tags written to the event files in logdir."""
    tags = set()
    for path in tf.gfile.Glob(os.path.join(logdir, "events.out.tfevents.*")):
        for event in tf.train.summary_iterator(path):
            tags.update(value.tag for value in event.summary.value)
    return sorted(tags)


def save(saver, sess, directory, global_step):
    tf.gfile.MakeDirs(directory)
    return saver.save(sess, os.path.join(directory, "model.ckpt"), global_step=global_step)


def write(out, values):
    with open(out, "w") as f:
        json.dump(values, f, sort_keys=True)
