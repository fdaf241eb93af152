"""Ports TF 1.15's wrapper / distributed / external-optimizer contrib.opt tests to ``tf1clip.contrib.opt``.

Usage::

    python scripts/port_tf115_tests_opt2.py SRC_DIR OUT_DIR [NAME_test.py ...]

The edits of ``scripts/port_tf115_tests.py`` (imported from this directory;
see its docstring), then the mechanical edits in ``EXTRA_EDITS``:

* ``tf.contrib.opt.`` -> ``_tf1clip_contrib_opt.``, with the header line
  ``from tf1clip.contrib import opt as _tf1clip_contrib_opt`` (TF 1.15's
  variable_clipping_optimizer_test.py reaches the optimizer as
  ``tf.contrib.opt.VariableClippingOptimizer``);
* ``np.infty`` -> ``np.inf`` (NumPy 2 removed the alias; external_optimizer_test.py uses it).

Prints the edits made to each file. The sources are public TensorFlow code:
keep them and their ported copies outside the repository.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import port_tf115_tests  # noqa: E402  (scripts/port_tf115_tests.py)

EXTRA_HEADER = "from tf1clip.contrib import opt as _tf1clip_contrib_opt\n"

EXTRA_EDITS = [
    ("tf.contrib.opt. -> tf1clip.contrib.opt", r"\btf\.contrib\.opt\.", r"_tf1clip_contrib_opt."),
    ("np.infty -> np.inf (removed in NumPy 2)", r"\bnp\.infty\b", r"np.inf"),
]


def port(text):
    """Returns ``(ported_text, [(description, count), ...])``."""
    text, report = port_tf115_tests.port(text)
    for description, pattern, replacement in EXTRA_EDITS:
        text, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
        if count:
            report.append((description, count))
    if "_tf1clip_contrib_opt." in text:
        text = text.replace(port_tf115_tests.HEADER, port_tf115_tests.HEADER + EXTRA_HEADER, 1)
        report.append(("header: import tf1clip.contrib.opt as _tf1clip_contrib_opt", 1))
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
