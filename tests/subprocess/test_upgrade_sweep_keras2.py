"""The sweep of every TF 1.15 contrib name (tests/upgrade/test_upgrade_sweep.py) under Keras 2: with
``TF_USE_LEGACY_KERAS=1``, which tf1clip-upgrade adds to a file naming ``tf.compat.v1.nn.rnn_cell`` or
``tf.compat.v1.layers``, every name a contrib name was rewritten to resolves, those included."""

from helpers import run_python


def test_every_rewrite_resolves_under_keras_2():
    out = run_python(
        """
        import os, sys
        os.environ["TF_USE_LEGACY_KERAS"] = "1"
        sys.path.insert(0, os.path.join("tests", "upgrade"))
        import test_upgrade_sweep as sweep

        entries, outcome = sweep._sweep()
        bad = [e.path for i, e in enumerate(entries) if sweep._classify(e, *outcome[i], keras2_only_resolves=False)]
        keras2 = sum(1 for i, e in enumerate(entries) if (outcome[i][0] or "").startswith("tf.compat.v1.nn.rnn_cell."))
        print("bad", len(bad), bad[:20])
        print("keras2", keras2)
        """,
        timeout=1200,
    )
    assert "bad 0 []" in out, out
    assert int(out.split("keras2 ")[1]) > 5
