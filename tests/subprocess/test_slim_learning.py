"""Training loops: ``slim.learning.train`` and ``contrib.training.train`` against hand-written TF1 loops."""

import glob
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
import tf1clip.contrib

pytest.importorskip("tf_slim")

v1 = tf.compat.v1
slim = tf1clip.contrib.slim

BATCH, SIZE, CHANNELS, FILTERS, CLASSES = 6, 6, 2, 3, 4
DECAY, EPSILON, WEIGHT_DECAY, LR, MOMENTUM, CLIP = 0.9, 1e-3, 1e-2, 0.1, 0.9, 1.0


def _data():
    rng = np.random.RandomState(0)
    images = rng.randn(BATCH, SIZE, SIZE, CHANNELS).astype(np.float32)
    labels = rng.randint(0, CLASSES, size=BATCH)
    conv_w = (0.5 * rng.randn(3, 3, CHANNELS, FILTERS)).astype(np.float32)
    fc_w = (0.5 * rng.randn((SIZE // 2) ** 2 * FILTERS, CLASSES)).astype(np.float32)
    return images, labels, conv_w, fc_w


def _slim_cnn():
    """The model as a slim script writes it; returns the total loss."""
    images, labels, conv_w, fc_w = _data()
    with slim.arg_scope(
        [slim.conv2d, slim.fully_connected],
        weights_regularizer=slim.l2_regularizer(WEIGHT_DECAY),
        normalizer_fn=slim.batch_norm,
        normalizer_params={"decay": DECAY, "epsilon": EPSILON, "is_training": True},
    ):
        net = slim.conv2d(
            tf.constant(images), FILTERS, [3, 3], scope="conv1", weights_initializer=v1.constant_initializer(conv_w)
        )
        net = slim.max_pool2d(net, [2, 2], scope="pool1")
        net = slim.flatten(net)
        logits = slim.fully_connected(
            net,
            CLASSES,
            activation_fn=None,
            normalizer_fn=None,
            scope="fc",
            weights_initializer=v1.constant_initializer(fc_w),
        )
    slim.losses.softmax_cross_entropy(logits, slim.one_hot_encoding(tf.constant(labels), CLASSES))
    total_loss = slim.losses.get_total_loss()
    v1.summary.scalar("losses/total_loss", total_loss)
    return total_loss


def _reference(steps):
    """The same math in plain tf.compat.v1: moments, moving averages, L2, per-tensor clip, momentum.

    slim.batch_norm on a 4-D input is fused: it normalises with the batch
    variance and moves ``moving_variance`` towards the unbiased one (n / (n-1)).
    """
    images, labels, conv_w, fc_w = _data()
    with tf.Graph().as_default():
        w1 = v1.Variable(conv_w, name="w1")
        beta = v1.Variable(np.zeros(FILTERS, np.float32), name="beta")
        moving_mean = v1.Variable(np.zeros(FILTERS, np.float32), trainable=False)
        moving_var = v1.Variable(np.ones(FILTERS, np.float32), trainable=False)
        w2 = v1.Variable(fc_w, name="w2")
        b2 = v1.Variable(np.zeros(CLASSES, np.float32), name="b2")
        conv = tf.nn.conv2d(tf.constant(images), w1, strides=1, padding="SAME")
        mean, var = tf.nn.moments(conv, [0, 1, 2])
        n = BATCH * SIZE * SIZE
        net = tf.nn.relu((conv - mean) / tf.sqrt(var + EPSILON) + beta)
        net = tf.nn.max_pool2d(net, 2, 2, "VALID")
        logits = tf.matmul(tf.reshape(net, [BATCH, -1]), w2) + b2
        xent = tf.reduce_mean(
            tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(labels, CLASSES), logits=logits)
        )
        total = xent + WEIGHT_DECAY * (tf.reduce_sum(w1**2) + tf.reduce_sum(w2**2)) / 2
        params = [w1, beta, w2, b2]
        grads = [tf.clip_by_norm(g, CLIP) for g in tf.gradients(total, params)]
        opt = v1.train.MomentumOptimizer(LR, MOMENTUM)
        step = tf.group(
            opt.apply_gradients(list(zip(grads, params))),
            moving_mean.assign(moving_mean * DECAY + mean * (1 - DECAY)),
            moving_var.assign(moving_var * DECAY + var * (n / (n - 1)) * (1 - DECAY)),
        )
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(steps):
                loss, _ = sess.run([total, step])
            values = sess.run(
                {
                    "conv1/weights": w1,
                    "conv1/BatchNorm/beta": beta,
                    "conv1/BatchNorm/moving_mean": moving_mean,
                    "conv1/BatchNorm/moving_variance": moving_var,
                    "fc/weights": w2,
                    "fc/biases": b2,
                    "conv1/weights/Momentum": opt.get_slot(w1, "momentum"),
                    "fc/weights/Momentum": opt.get_slot(w2, "momentum"),
                }
            )
    return loss, values


def _read_checkpoint(logdir):
    path = tf.train.latest_checkpoint(logdir)
    assert path is not None, os.listdir(logdir)
    reader = tf.train.load_checkpoint(path)
    return path, {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


def test_slim_cnn_learning_train_matches_handwritten_loop(tmp_path):
    steps = 4
    logdir = str(tmp_path / "train")
    with tf.Graph().as_default():
        total_loss = _slim_cnn()
        train_op = slim.learning.create_train_op(
            total_loss, v1.train.MomentumOptimizer(LR, MOMENTUM), clip_gradient_norm=CLIP
        )
        final_loss = slim.learning.train(
            train_op, logdir, number_of_steps=steps, log_every_n_steps=0, save_summaries_secs=3600, save_interval_secs=0
        )
    ref_loss, ref = _reference(steps)
    path, saved = _read_checkpoint(logdir)
    assert path.endswith("model.ckpt-%d" % steps)
    assert saved["global_step"] == steps
    for name, value in ref.items():
        np.testing.assert_allclose(saved[name], value, rtol=1e-5, atol=1e-5, err_msg=name)
    np.testing.assert_allclose(final_loss, ref_loss, rtol=1e-5)
    # the moving averages moved and the clip was active (else the test proves less)
    assert not np.allclose(saved["conv1/BatchNorm/moving_mean"], 0)
    assert glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    assert os.path.exists(os.path.join(logdir, "graph.pbtxt"))


def test_clip_is_active_in_the_reference():
    """Guards the comparison above: CLIP really cuts some gradient of the first step."""
    images, labels, conv_w, fc_w = _data()
    with tf.Graph().as_default():
        total_loss = _slim_cnn()
        grads = v1.gradients(total_loss, v1.trainable_variables())
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            norms = [np.linalg.norm(g) for g in sess.run(grads)]
    assert max(norms) > CLIP > min(norms)


def test_learning_train_resumes_from_checkpoint_and_init_fn(tmp_path):
    """A second run continues from the train dir; init_fn loads weights into a fresh dir."""
    logdir = str(tmp_path / "a")
    for steps in (2, 4):
        with tf.Graph().as_default():
            train_op = slim.learning.create_train_op(
                _slim_cnn(), v1.train.MomentumOptimizer(LR, MOMENTUM), clip_gradient_norm=CLIP
            )
            slim.learning.train(
                train_op,
                logdir,
                number_of_steps=steps,
                log_every_n_steps=0,
                save_summaries_secs=3600,
                save_interval_secs=0,
            )
    _, saved = _read_checkpoint(logdir)
    _, ref = _reference(4)
    np.testing.assert_allclose(saved["fc/weights"], ref["fc/weights"], rtol=1e-5, atol=1e-5)

    calls = []
    with tf.Graph().as_default():
        train_op = slim.learning.create_train_op(
            _slim_cnn(), v1.train.MomentumOptimizer(LR, MOMENTUM), clip_gradient_norm=CLIP
        )
        restore = slim.assign_from_checkpoint_fn(
            tf.train.latest_checkpoint(logdir), slim.get_variables_to_restore(include=["conv1", "fc"])
        )

        def init_fn(sess):
            calls.append(sess)
            restore(sess)

        slim.learning.train(
            train_op,
            str(tmp_path / "b"),
            number_of_steps=1,
            init_fn=init_fn,
            log_every_n_steps=0,
            save_summaries_secs=3600,
            save_interval_secs=0,
        )
    assert len(calls) == 1
    _, fresh = _read_checkpoint(str(tmp_path / "b"))
    assert fresh["global_step"] == 1
    assert not np.allclose(fresh["fc/weights"], _data()[3])  # started from the restored weights


def _global_norm_reference(steps, clip, lr, decay_steps, decay_rate):
    """optimize_loss(clip_gradients=clip) with a staircase exponential decay, by hand."""
    with tf.Graph().as_default():
        w = v1.Variable([3.0, -4.0])
        b = v1.Variable([0.5])
        step = v1.Variable(0, dtype=tf.int64)
        loss = tf.reduce_sum(w**2) * 10.0 + tf.reduce_sum(b) * 2.0
        rate = lr * decay_rate ** tf.floor(tf.cast(step, tf.float32) / decay_steps)
        grads = tf.gradients(loss, [w, b])
        norm = tf.sqrt(sum(tf.reduce_sum(g**2) for g in grads))
        scale = clip / tf.maximum(norm, clip)
        update = tf.group(*[v.assign_sub(rate * g * scale) for v, g in zip([w, b], grads)])
        with tf.control_dependencies([update]):
            train = step.assign_add(1)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(steps):
                sess.run(train)
            return sess.run([w, b])


def test_im2txt_style_optimize_loss_then_learning_train(tmp_path):
    """optimize_loss(tensor lr, staircase decay, clip_gradients=5.0), learning.train(saver=..., init_fn=None)."""
    steps, clip, lr, decay_steps, decay_rate = 5, 5.0, 0.1, 2, 0.5
    logdir = str(tmp_path / "im2txt")
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([3.0, -4.0]))
        b = v1.get_variable("b", initializer=tf.constant([0.5]))
        loss = tf.reduce_sum(w**2) * 10.0 + tf.reduce_sum(b) * 2.0
        global_step = v1.Variable(
            initial_value=0,
            name="global_step",
            trainable=False,
            collections=[v1.GraphKeys.GLOBAL_STEP, v1.GraphKeys.GLOBAL_VARIABLES],
        )

        def decay_fn(learning_rate, global_step):
            return v1.train.exponential_decay(
                learning_rate, global_step, decay_steps=decay_steps, decay_rate=decay_rate, staircase=True
            )

        train_op = tf1clip.contrib.layers.optimize_loss(
            loss=loss,
            global_step=global_step,
            learning_rate=tf.constant(lr),
            optimizer="SGD",
            clip_gradients=clip,
            learning_rate_decay_fn=decay_fn,
        )
        saver = v1.train.Saver(max_to_keep=2)
        slim.learning.train(
            train_op,
            logdir,
            log_every_n_steps=0,
            global_step=global_step,
            number_of_steps=steps,
            init_fn=None,
            saver=saver,
            save_summaries_secs=3600,
            save_interval_secs=0,
        )
    _, saved = _read_checkpoint(logdir)
    ref_w, ref_b = _global_norm_reference(steps, clip, lr, decay_steps, decay_rate)
    assert saved["global_step"] == steps
    np.testing.assert_allclose(saved["w"], ref_w, rtol=1e-5)
    np.testing.assert_allclose(saved["b"], ref_b, rtol=1e-5)


def test_learning_train_finds_a_legacy_get_variable_global_step(tmp_path):
    with tf.Graph().as_default():
        step = v1.get_variable("global_step", [], tf.int64, v1.zeros_initializer(), trainable=False)
        w = v1.get_variable("w", initializer=tf.constant([1.0]))
        train_op = slim.learning.create_train_op(
            tf.reduce_sum(w * 2.0), v1.train.GradientDescentOptimizer(0.5), global_step=step
        )
        slim.learning.train(
            train_op,
            str(tmp_path),
            number_of_steps=3,
            log_every_n_steps=0,
            save_summaries_secs=3600,
            save_interval_secs=0,
        )
    _, saved = _read_checkpoint(str(tmp_path))
    assert saved["global_step"] == 3
    np.testing.assert_allclose(saved["w"], [1.0 - 3 * 0.5 * 2.0])


def test_learning_train_unwraps_sync_replicas_optimizer(monkeypatch, tmp_path):
    """tf-slim's loop gets the SyncReplicasOptimizer inside a tf1clip wrapper (it checks the type)."""
    import tf_slim

    seen = {}
    monkeypatch.setattr(tf_slim.learning, "train", lambda *a, **k: seen.update(k))
    with tf.Graph().as_default():
        sync = v1.train.SyncReplicasOptimizer(v1.train.GradientDescentOptimizer(1.0), replicas_to_aggregate=1)
        wrapped = tf1clip.clip_gradients_by_norm(tf1clip.clip_gradients_by_norm(sync, 1.0), 2.0)
        train_op = _tiny_train_op()
        slim.learning.train(train_op, str(tmp_path), sync_optimizer=wrapped)
        assert seen["sync_optimizer"] is sync
        slim.learning.train(train_op, str(tmp_path), sync_optimizer=[wrapped, sync])
        assert seen["sync_optimizer"] == [sync, sync]


def test_contrib_training_train_with_stop_hook_and_checkpoint_dir(tmp_path):
    logdir = str(tmp_path / "t")
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([30.0, 40.0]))
        loss = tf.reduce_sum(w * [30.0, 40.0])
        train_op = tf1clip.contrib.training.create_train_op(
            loss,
            v1.train.GradientDescentOptimizer(0.1),
            transform_grads_fn=tf1clip.contrib.training.clip_gradient_norms_fn(5.0),
        )
        final = tf1clip.contrib.training.train(
            train_op, logdir, hooks=[v1.train.StopAtStepHook(last_step=3)], save_summaries_steps=None
        )
    np.testing.assert_allclose(final, 30 * (30 - 2 * 0.3) + 40 * (40 - 2 * 0.4), rtol=1e-6)  # loss of step 3
    _, saved = _read_checkpoint(logdir)
    assert saved["global_step"] == 3
    np.testing.assert_allclose(saved["w"], [30 - 3 * 0.3, 40 - 3 * 0.4], rtol=1e-6)
    # a second call resumes from the checkpoint and stops at once
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([30.0, 40.0]))
        train_op = tf1clip.contrib.training.create_train_op(
            tf.reduce_sum(w * [30.0, 40.0]), v1.train.GradientDescentOptimizer(0.1)
        )
        tf1clip.contrib.training.train(
            train_op, logdir, hooks=[v1.train.StopAtStepHook(last_step=5)], save_summaries_steps=None
        )
    _, saved = _read_checkpoint(logdir)
    assert saved["global_step"] == 5
    np.testing.assert_allclose(saved["w"], [30 - 0.9 - 2 * 3.0, 40 - 1.2 - 2 * 4.0], rtol=1e-6)  # unclipped now


def test_contrib_training_train_legacy_step_reaches_the_hooks(tmp_path):
    with tf.Graph().as_default():
        step = v1.get_variable("global_step", [], tf.int64, v1.zeros_initializer(), trainable=False)
        w = v1.get_variable("w", initializer=tf.constant([1.0]))
        train_op = tf1clip.contrib.training.create_train_op(
            tf.reduce_sum(w), v1.train.GradientDescentOptimizer(1.0), global_step=step
        )
        tf1clip.contrib.training.train(
            train_op, str(tmp_path), hooks=[v1.train.StopAtStepHook(num_steps=2)], save_summaries_steps=None
        )
    _, saved = _read_checkpoint(str(tmp_path))
    assert saved["global_step"] == 2
    np.testing.assert_allclose(saved["w"], [-1.0])


def _tiny_train_op():
    w = v1.get_variable("w", initializer=tf.constant([1.0]))
    return slim.learning.create_train_op(tf.reduce_sum(w), v1.train.GradientDescentOptimizer(1.0))


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"number_of_steps": 0}, ValueError, "number_of_steps.*received 0"),
        ({"number_of_steps": 2.5}, TypeError, "number_of_steps.*float"),
        ({"number_of_steps": True}, TypeError, "number_of_steps.*bool"),
        ({"log_every_n_steps": -1}, ValueError, "log_every_n_steps.*-1"),
        ({"save_interval_secs": -5}, ValueError, "save_interval_secs.*-5"),
        ({"init_fn": "restore"}, TypeError, "init_fn.*callable.*str"),
        ({"train_step_fn": 3}, TypeError, "train_step_fn.*callable"),
        ({"sync_optimizer": "sync"}, TypeError, "sync_optimizer.*SyncReplicasOptimizer.*str"),
    ],
)
def test_learning_train_rejects_bad_arguments(tmp_path, kwargs, error, match):
    with tf.Graph().as_default():
        train_op = _tiny_train_op()
        with pytest.raises(error, match=match):
            slim.learning.train(train_op, str(tmp_path), **kwargs)
    assert not os.listdir(tmp_path)


def test_train_loops_reject_bad_train_op_logdir_and_hooks(tmp_path):
    with pytest.raises(ValueError, match="train_op cannot be None"):
        slim.learning.train(None, str(tmp_path))
    with pytest.raises(TypeError, match="train_op.*received 'loss'"):
        tf1clip.contrib.training.train("loss", str(tmp_path))
    with tf.Graph().as_default():
        train_op = _tiny_train_op()
        with pytest.raises(TypeError, match="logdir.*int"):
            slim.learning.train(train_op, 7)
        with pytest.raises(TypeError, match="hooks.*SessionRunHook.*int"):
            tf1clip.contrib.training.train(train_op, str(tmp_path), hooks=[3])
        with pytest.raises(ValueError, match="logdir cannot be None"):
            tf1clip.contrib.training.train(train_op, None, hooks=[v1.train.StopAtStepHook(num_steps=1)])


def test_learning_train_traces_and_session_config(tmp_path):
    """trace_every_n_steps writes tf_trace-<step>.json to the train dir; session_config reaches the Session."""
    seen = []

    def session_wrapper(sess):
        seen.append(sess._config.intra_op_parallelism_threads)
        return sess

    config = v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    with tf.Graph().as_default():
        slim.learning.train(
            _tiny_train_op(),
            str(tmp_path),
            number_of_steps=2,
            trace_every_n_steps=1,
            session_wrapper=session_wrapper,
            session_config=config,
            log_every_n_steps=1,
            save_summaries_secs=3600,
            save_interval_secs=0,
        )
    assert seen == [1]
    # named by the step each update reached (tf-slim read the step unordered: 0, 1 or 2, sometimes twice)
    traces = sorted(glob.glob(os.path.join(str(tmp_path), "tf_trace-*.json")))
    assert [os.path.basename(p) for p in traces] == ["tf_trace-1.json", "tf_trace-2.json"]
    for path in traces:
        with open(path) as f:
            assert "traceEvents" in json.load(f)


def test_learning_train_chief_then_worker_through_master(tmp_path):
    """master= a (local) tf.distribute.Server: the chief initialises and checkpoints, a non-chief worker
    (is_chief=False, logdir=None) waits for the variables the server holds and trains on from there."""
    code = textwrap.dedent("""
        import sys
        import tensorflow as tf
        import tf1clip.contrib
        slim, v1 = tf1clip.contrib.slim, tf.compat.v1
        server = v1.train.Server.create_local_server()

        def build():
            w = v1.get_variable("w", initializer=tf.constant([1.0]))
            loss = tf.reduce_sum(w * 2.0)
            return slim.learning.create_train_op(loss, v1.train.GradientDescentOptimizer(0.5)), w

        with tf.Graph().as_default():
            train_op, _ = build()
            slim.learning.train(train_op, sys.argv[1], master=server.target, number_of_steps=2,
                                log_every_n_steps=0, save_summaries_secs=3600, save_interval_secs=0)
        with tf.Graph().as_default():
            train_op, w = build()
            last_loss = slim.learning.train(train_op, None, master=server.target, is_chief=False,
                                            number_of_steps=4, log_every_n_steps=0)
            with v1.Session(server.target) as sess:
                print(last_loss, sess.run(w)[0], sess.run(v1.train.get_global_step()))
    """)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=240, env=env
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    last_loss, w, step = proc.stdout.split()
    assert (float(last_loss), float(w), int(step)) == (-4.0, -3.0, 4)  # w: 1 - 4 steps * 0.5 * 2
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-2")  # only the chief saved
