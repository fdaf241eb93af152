"""``slim.learning.train`` with a ``SyncReplicasOptimizer`` (one worker, the chief) against the same run without it.

The model is ``loss = sum(w * w)`` with plain SGD, so after ``k`` updates
``w = W0 * (1 - 2 * LR) ** k`` and the loss of update ``k + 1`` is
``sum(W0 ** 2) * (1 - 2 * LR) ** (2 * k)``.
"""

import logging
import re
import threading

import numpy as np
import pytest
import tensorflow as tf

import tf1clip.contrib

pytest.importorskip("tf_slim")

v1 = tf.compat.v1
slim = tf1clip.contrib.slim

STEPS, LR = 4, 0.1
W0 = np.array([1.0, 2.0], np.float32)
# A blocked thread keeps the Supervisor's join waiting this long (its default, 120 s, shortened).
GRACE_SECS = 10
_LOGGED = re.compile(r"global step (\d+): loss = ([0-9.]+)")


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def _train(logdir, sync, log_every_n_steps=1):
    """Trains STEPS steps; returns what the run logged, joined, returned and saved."""
    joins = []
    join = v1.train.Coordinator.join
    before = set(threading.enumerate())

    def recording_join(coord, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        try:
            join(coord, threads, min(stop_grace_period_secs, GRACE_SECS), ignore_live_threads=True)
        finally:
            alive = [t.name for t in threading.enumerate() if t not in before and t.name.startswith("QueueRunner")]
            joins.append((stop_grace_period_secs, alive))

    handler = _Lines()
    logger = tf.get_logger()
    verbosity = v1.logging.get_verbosity()
    logger.addHandler(handler)
    v1.logging.set_verbosity(v1.logging.INFO)
    v1.train.Coordinator.join = recording_join
    try:
        with tf.Graph().as_default():
            w = v1.Variable(W0, name="w")
            opt = v1.train.GradientDescentOptimizer(LR)
            if sync:
                opt = v1.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=1, total_num_replicas=1)
            train_op = slim.learning.create_train_op(tf.reduce_sum(w * w), opt)
            final_loss = slim.learning.train(
                train_op,
                logdir,
                number_of_steps=STEPS,
                log_every_n_steps=log_every_n_steps,
                sync_optimizer=opt if sync else None,
                save_summaries_secs=3600,
                save_interval_secs=0,
            )
    finally:
        v1.train.Coordinator.join = join
        logger.removeHandler(handler)
        v1.logging.set_verbosity(verbosity)
    reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(logdir))
    logged = [(int(m.group(1)), float(m.group(2))) for m in map(_LOGGED.search, handler.lines) if m]
    left = [t.name for t in threading.enumerate() if t not in before and t.is_alive()]
    return {
        "joins": joins,
        "left": left,
        "logged": logged,
        "final_loss": final_loss,
        "global_step": reader.get_tensor("global_step"),
        "w": reader.get_tensor("w"),
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return {sync: _train(str(tmp_path_factory.mktemp("sync" if sync else "plain")), sync) for sync in (False, True)}


def test_sync_chief_stops_without_waiting_for_its_queue_runner(runs):
    """At stop the token queue runner's thread (blocked on the next gradient) ends instead of outliving the join."""
    joins = runs[True]["joins"]
    assert joins, "the Supervisor never joined its threads"
    assert [alive for _, alive in joins] == [[]] * len(joins), "threads outlived a %d s join: %r" % (GRACE_SECS, joins)
    assert runs[True]["left"] == [], "threads still running after train returned"
    assert [grace for grace, _ in joins] == [120] * len(joins)  # the grace period is the Supervisor's own


def test_each_step_is_logged_once_with_the_unsynced_loss(runs):
    """Each update is logged once, by the global step it reached, with the loss it started from."""
    plain, synced = runs[False]["logged"], runs[True]["logged"]
    assert [step for step, _ in plain] == list(range(1, STEPS + 1)), plain
    losses = np.sum(W0**2) * (1 - 2 * LR) ** (2 * np.arange(STEPS))
    np.testing.assert_allclose([loss for _, loss in plain], losses, atol=1e-4)
    assert synced == plain


def test_final_step_weights_and_loss_match_the_unsynced_run(runs):
    """Both runs apply STEPS updates: global step, ``w`` (NumPy) and the returned last loss agree."""
    for sync in (False, True):
        run = runs[sync]
        assert run["global_step"] == STEPS, sync
        np.testing.assert_allclose(run["w"], W0 * (1 - 2 * LR) ** STEPS, rtol=1e-6, err_msg=str(sync))
        np.testing.assert_allclose(run["final_loss"], np.sum(W0**2) * (1 - 2 * LR) ** (2 * (STEPS - 1)), rtol=1e-6)


def test_log_every_n_steps_counts_updates_with_a_sync_optimizer(tmp_path):
    """``log_every_n_steps=2`` logs the updates that reach steps 2, 4, ..., as tf-slim does without one."""
    logged = _train(str(tmp_path), True, log_every_n_steps=2)["logged"]
    assert [step for step, _ in logged] == list(range(2, STEPS + 1, 2)), logged
