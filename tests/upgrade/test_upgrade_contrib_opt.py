"""tf1clip-upgrade rewrites tf.contrib.opt's update-rule optimizers (LazyAdam, Nadam, AdamW, ...) in every spelling."""

import pytest

from tf1clip.upgrade import upgrade_file


def _upgrade(tmp_path, source):
    src, out = tmp_path / "a.py", tmp_path / "b.py"
    src.write_text(source)
    result = upgrade_file(str(src), str(out))
    return out.read_text(), [(e.severity, e.message) for e in result.log]


@pytest.mark.parametrize(
    "before, after",
    [
        (
            "import tensorflow as tf\nopt = tf.contrib.opt.LazyAdamOptimizer(0.1)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nopt = tf1clip.contrib.opt.LazyAdamOptimizer(0.1)\n",
        ),
        (
            "from tensorflow.contrib.opt import AdamWOptimizer, ShampooOptimizer\n",
            "from tf1clip.contrib.opt import AdamWOptimizer, ShampooOptimizer\n",
        ),
        (
            "from tensorflow.contrib.opt.python.training.weight_decay_optimizers import MomentumWOptimizer\n",
            "from tf1clip.contrib.opt import MomentumWOptimizer\n",
        ),
        (
            "from tensorflow.contrib.opt.python.training import sign_decay\nf = sign_decay.get_cosine_decay_fn(5)\n",
            "from tf1clip.contrib.opt import sign_decay\nf = sign_decay.get_cosine_decay_fn(5)\n",
        ),
        (
            "from tensorflow.contrib.opt.python.training import lazy_adam_optimizer\n"
            "o = lazy_adam_optimizer.LazyAdamOptimizer()\n",
            "from tf1clip.contrib import opt as lazy_adam_optimizer\no = lazy_adam_optimizer.LazyAdamOptimizer()\n",
        ),
        (
            "import tensorflow as tf\nf = tf.contrib.opt.python.training.sign_decay.get_linear_decay_fn(10)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nf = tf1clip.contrib.opt.sign_decay.get_linear_decay_fn(10)\n",
        ),
    ],
)
def test_contrib_opt_spellings(tmp_path, before, after):
    text, log = _upgrade(tmp_path, before)
    assert text == after
    assert not [m for s, m in log if s == "ERROR"]


def test_the_rewritten_names_run():
    import tf1clip.contrib

    assert tf1clip.contrib.opt.sign_decay.get_linear_decay_fn(10)
    from tf1clip.contrib import opt as lazy_adam_optimizer

    assert lazy_adam_optimizer.LazyAdamOptimizer().get_name() == "Adam"


def test_a_missing_member_names_the_successor(tmp_path):
    text, log = _upgrade(tmp_path, "import tensorflow as tf\no = tf.contrib.opt.NoSuchOptimizer(0.1)\n")
    errors = [m for s, m in log if s == "ERROR"]
    assert errors and "use a tf.compat.v1.train optimizer instead" in errors[0]
