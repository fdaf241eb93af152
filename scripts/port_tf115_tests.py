"""Ports TF 1.15's ``tensorflow/contrib/opt/python/training/*_test.py`` to ``tf1clip.contrib.opt``.

Usage::

    python scripts/port_tf115_tests.py SRC_DIR OUT_DIR [NAME_test.py ...]

Reads the TF 1.15 test files from SRC_DIR (all ``*_test.py`` there, or the
names given), writes each, edited, to OUT_DIR under the same name, and prints
the edits made to each file. The sources are public TensorFlow code: keep them
and their ported copies outside the repository.

Only the mechanical edits in ``EDITS`` are made (each a regular expression and
its replacement), plus a header inserted before the first import:

* header: ``import tensorflow as _tf1clip_tf`` and
  ``_tf1clip_tf.compat.v1.disable_v2_behavior()`` (graph mode and reference
  variables, as on TF 1.15);
* ``from tensorflow.contrib.opt.python.training import M [as N]`` →
  ``from tf1clip.contrib import opt as M`` (or ``N``): every contrib.opt module
  becomes the ``tf1clip.contrib.opt`` package;
* ``from tensorflow.contrib.opt.python.training.M import X`` →
  ``from tf1clip.contrib.opt import X``, or from ``MODULES[M]`` where a test
  imports a module-level name that is not part of ``tf.contrib.opt``'s API;
* ``from tensorflow.contrib.opt import X`` → ``from tf1clip.contrib.opt import X``;
* ``import tensorflow as tf`` → ``import tensorflow.compat.v1 as tf``;
* ``ops.IndexedSlices`` → ``_tf1clip_tf.IndexedSlices`` (TF 2 moved the class
  out of ``framework/ops.py``);
* ``variables.VariableV1(`` → ``_tf1clip_tf.compat.v1.Variable(`` (moved module; a
  reference variable under ``disable_v2_behavior``, as on TF 1.15).
  ``variables.Variable(`` is kept: on TF 1.15 as on TF 2 it is the V2 class,
  which makes resource variables;
* ``variables.RefVariable(`` → ``_tf1clip_tf.compat.v1.Variable(`` with
  ``use_resource=False`` semantics by default (``disable_v2_behavior``);
* ``run_in_graph_and_eager_modes(reset_test=True)`` →
  ``run_in_graph_and_eager_modes()`` (TF 2 removed the argument; it always resets);
* ``tf.contrib.opt.`` → ``_tf1clip_contrib_opt.``, with the header line
  ``from tf1clip.contrib import opt as _tf1clip_contrib_opt`` after the first
  (``HEADER_IMPORTS``; variable_clipping_optimizer_test.py reaches the
  optimizer as ``tf.contrib.opt.VariableClippingOptimizer``);
* ``np.infty`` → ``np.inf`` (NumPy 2 removed the alias; external_optimizer_test.py uses it).

Run both versions with ``scripts/run_tf115_tests.py``.
"""

import argparse
import os
import re
import sys

# contrib.opt module -> tf1clip module, for tests importing module-level names (not exported by contrib.opt).
MODULES = {"agn_optimizer": "tf1clip.contrib.opt.agn_optimizer"}

HEADER = "import tensorflow as _tf1clip_tf\n_tf1clip_tf.compat.v1.disable_v2_behavior()\n"

# (description, pattern, replacement); applied in order, each to the whole file.
EDITS = [
    (
        "contrib.opt module import -> tf1clip.contrib.opt package",
        r"^from tensorflow\.contrib\.opt\.python\.training import (\w+) as (\w+)$",
        r"from tf1clip.contrib import opt as \2",
    ),
    (
        "contrib.opt module import -> tf1clip.contrib.opt package",
        r"^from tensorflow\.contrib\.opt\.python\.training import (\w+)$",
        r"from tf1clip.contrib import opt as \1",
    ),
    (
        "name import from a contrib.opt module -> from tf1clip.contrib.opt (or MODULES)",
        r"^from tensorflow\.contrib\.opt\.python\.training\.(\w+) import ",
        lambda m: "from %s import " % MODULES.get(m.group(1), "tf1clip.contrib.opt"),
    ),
    (
        "name import from tensorflow.contrib.opt -> from tf1clip.contrib.opt",
        r"^from tensorflow\.contrib\.opt import ",
        r"from tf1clip.contrib.opt import ",
    ),
    ("tf -> tf.compat.v1", r"^import tensorflow as tf$", r"import tensorflow.compat.v1 as tf"),
    ("ops.IndexedSlices -> tf.IndexedSlices", r"\bops\.IndexedSlices\b", r"_tf1clip_tf.IndexedSlices"),
    (
        "variables.VariableV1( -> tf.compat.v1.Variable(",
        r"\bvariables\.VariableV1\(",
        r"_tf1clip_tf.compat.v1.Variable(",
    ),
    (
        "variables.RefVariable( -> tf.compat.v1.Variable(",
        r"\bvariables\.RefVariable\(",
        r"_tf1clip_tf.compat.v1.Variable(",
    ),
    (
        "run_in_graph_and_eager_modes(reset_test=True) -> run_in_graph_and_eager_modes()",
        r"\brun_in_graph_and_eager_modes\(reset_test=True\)",
        r"run_in_graph_and_eager_modes()",
    ),
    ("tf.contrib.opt. -> tf1clip.contrib.opt", r"\btf\.contrib\.opt\.", r"_tf1clip_contrib_opt."),
    ("np.infty -> np.inf (removed in NumPy 2)", r"\bnp\.infty\b", r"np.inf"),
]

# (description, line, marker): the line goes after HEADER when the edited text contains marker.
HEADER_IMPORTS = [
    (
        "header: import tf1clip.contrib.opt as _tf1clip_contrib_opt",
        "from tf1clip.contrib import opt as _tf1clip_contrib_opt\n",
        "_tf1clip_contrib_opt.",
    ),
]


def insert_header(text):
    """Inserts HEADER before the first import that is not a ``__future__`` import."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if re.match(r"(import |from )", line) and not line.startswith("from __future__"):
            return "".join(lines[:i]) + HEADER + "".join(lines[i:])
    raise ValueError("no import statement found")


def port(text):
    """Returns ``(ported_text, [(description, count), ...])``."""
    report = [("header: disable_v2_behavior before the first import", 1)]
    text = insert_header(text)
    for description, pattern, replacement in EDITS:
        text, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
        if count:
            report.append((description, count))
    for description, line, marker in HEADER_IMPORTS:
        if marker in text:
            text = text.replace(HEADER, HEADER + line, 1)
            report.append((description, 1))
    return text, report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("src_dir", help="directory holding TF 1.15's *_test.py files")
    parser.add_argument("out_dir", help="where the ported files are written (created if missing)")
    parser.add_argument("names", nargs="*", help="file names to port (default: every *_test.py in src_dir)")
    args = parser.parse_args(argv)
    names = args.names or sorted(n for n in os.listdir(args.src_dir) if n.endswith("_test.py"))
    os.makedirs(args.out_dir, exist_ok=True)
    for name in names:
        with open(os.path.join(args.src_dir, name)) as f:
            text, report = port(f.read())
        with open(os.path.join(args.out_dir, name), "w") as f:
            f.write(text)
        print(name)
        for description, count in report:
            print("  %3d x %s" % (count, description))
    return 0


if __name__ == "__main__":
    sys.exit(main())
