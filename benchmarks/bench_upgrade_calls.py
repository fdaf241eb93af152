"""Function calls (cProfile) of tf1clip-upgrade converting a 6-line file, file after file in one process (issue 37
item 4: the change spec is built once per process, so the second and later files cost less than the first).

    PYTHONPATH=$PWD python3 benchmarks/bench_upgrade_calls.py [--files 3]

One warm-up conversion of ``import tensorflow as tf`` imports TensorFlow and its converter first; then each of
``--files`` conversions of the same 6-line file is profiled on its own and its function calls printed; then those of
one more ``_rules.make_spec()``, which builds the spec where it is not built once per process.
"""

import argparse
import cProfile
import pstats

SOURCE = (
    "import tensorflow as tf\n"
    "x = tf.placeholder(tf.float32, [None, 3])\n"
    "y = tf.contrib.layers.fully_connected(x, 4)\n"
    "opt = tf.contrib.opt.LazyAdamOptimizer(0.1)\n"
    "loss = tf.reduce_mean(y)\n"
    "train = opt.minimize(loss)\n"
)


def _calls(function, *args, **kwargs):
    """The function calls cProfile counts in one call of ``function``."""
    profile = cProfile.Profile()
    profile.runcall(function, *args, **kwargs)
    return pstats.Stats(profile).total_calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3)
    args = parser.parse_args()
    from tf1clip.upgrade import upgrade_source

    from tf1clip.upgrade._rules import make_spec

    upgrade_source("import tensorflow as tf\n", target="modern")
    for number in range(1, args.files + 1):
        print("file %d: %d function calls" % (number, _calls(upgrade_source, SOURCE, target="modern")))
    print("make_spec() once more: %d function calls" % _calls(make_spec, "DEFAULT", "modern"))


if __name__ == "__main__":
    main()
