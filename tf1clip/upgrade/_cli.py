"""The ``tf1clip-upgrade`` command line: parses, converts, prints (TensorFlow is imported only to convert)."""

import argparse
import os
import sys

from tf1clip.upgrade import _results

DESCRIPTION = """Convert TensorFlow 1.x Python files and notebooks to run on TensorFlow 2.

tf_upgrade_v2's conversions, plus: tf.contrib clipping APIs -> tf1clip.contrib,
the tf-slim family (slim, layers, framework, losses, metrics, training) ->
tf1clip.contrib (needs pip install 'tf1clip[slim]'), tf.flags/tf.app ->
tf.compat.v1, contrib rnn cells and mixed precision -> TF 2, graph mode for
placeholders/Sessions, legacy Keras for tf.layers/rnn_cell, Estimator code to
tf1clip.estimator (or for TF 2.15 natively: --target), Python 2 sources to Python 3 first
(--python2), and an ERROR naming the successor for every tf.contrib symbol that cannot be converted.
A statement that does not parse (an IPython line in a .py file, a merge-conflict marker) is kept as it
is and is an ERROR at its line; the rest of the file is converted.

  tf1clip-upgrade --infile foo.py --outfile bar.py
  tf1clip-upgrade --infile foo.ipynb --outfile bar.ipynb
  tf1clip-upgrade --intree ~/code/old --outtree ~/code/new

Exit status: 0 no ERROR; 1 ERRORs reported (every file is still written); 2 usage
error; 3 TensorFlow is missing or the tool failed on a file (a bug: please report)."""


def _bool(text):
    value = str(text).strip().lower()
    if value in ("1", "true", "yes", "y", "on"):
        return True
    if value in ("0", "false", "no", "n", "off"):
        return False
    raise argparse.ArgumentTypeError("expected True or False, got %r" % text)


def _version():
    from tf1clip import __version__

    return "tf1clip-upgrade (tf1clip) %s" % __version__


def parser() -> argparse.ArgumentParser:
    """The argument parser (``--help`` needs no TensorFlow)."""
    p = argparse.ArgumentParser(
        prog="tf1clip-upgrade", formatter_class=argparse.RawDescriptionHelpFormatter, description=DESCRIPTION
    )
    p.add_argument("--version", action="version", version=_version())
    _add_input_arguments(p)
    _add_conversion_arguments(p)
    return p


def _add_input_arguments(p):
    p.add_argument("--infile", dest="input_file", help="If converting a single file, the name of the file to convert.")
    p.add_argument("--outfile", dest="output_file", help="If converting a single file, the output filename.")
    p.add_argument(
        "--intree", dest="input_tree", help="If converting a whole tree of files, the directory to read from."
    )
    p.add_argument(
        "--outtree",
        dest="output_tree",
        help="If converting a whole tree of files, the output directory (must not exist).",
    )
    p.add_argument(
        "--copyotherfiles",
        dest="copy_other_files",
        type=_bool,
        default=True,
        help="If converting a whole tree, whether to copy the files that are not .py or .ipynb (default: True).",
    )
    p.add_argument(
        "--inplace",
        dest="in_place",
        action="store_true",
        help="Convert the input file or tree in place (unchanged files are not touched).",
    )


def _add_conversion_arguments(p):
    p.add_argument(
        "--no_import_rename",
        dest="no_import_rename",
        action="store_true",
        help="Accepted for tf_upgrade_v2 compatibility (imports are never renamed to compat.v2).",
    )
    p.add_argument(
        "--no_upgrade_compat_v1_import",
        dest="no_upgrade_compat_v1_import",
        action="store_true",
        help="Don't upgrade explicit imports of `tensorflow.compat.v1 as tf`.",
    )
    p.add_argument(
        "--reportfile",
        dest="report_filename",
        default="report.txt",
        help="The file where the report is written (default: %(default)s).",
    )
    p.add_argument(
        "--mode",
        dest="mode",
        choices=["DEFAULT", "SAFETY"],
        default="DEFAULT",
        help="DEFAULT: tf_upgrade_v2's conversions. SAFETY: keep 1.x code and import "
        "tensorflow.compat.v1 as tf (default: %(default)s).",
    )
    p.add_argument(
        "--target",
        dest="target",
        choices=["auto", "modern", "estimator"],
        default="auto",
        help="Where the converted code will run. modern: TensorFlow 2.16+ (tf.estimator becomes "
        "tf1clip.estimator, which runs on every supported TensorFlow); estimator: TensorFlow 2.15 + "
        "tensorflow-estimator natively (Estimator code is converted as TF 2.15's tf_upgrade_v2 does); "
        "auto: the one installed here (default: %(default)s).",
    )
    p.add_argument(
        "--python2",
        dest="python2",
        choices=["auto", "always", "never"],
        default="auto",
        help="Python 2 sources. auto: a file that does not parse as Python 3, names what only Python 2 has "
        "(xrange, dict.iteritems, cPickle, ...) or is a notebook with a Python 2 kernel is converted to Python 3 "
        "first (2to3's fixers, from fissix, and Python 2's integer division); always: every file is taken as "
        "Python 2; never: no file is (default: %(default)s).",
    )
    p.add_argument(
        "--print_all",
        dest="print_all",
        action="store_true",
        help="Print the full log to stdout instead of just the issues.",
    )


def _check(p, args):
    if args.input_file:
        if args.input_tree:
            p.error("give either --infile or --intree, not both")
        if args.in_place == bool(args.output_file):
            p.error("--infile needs exactly one of --outfile and --inplace")
        if not os.path.isfile(args.input_file):
            p.error("--infile %r is not a file" % args.input_file)
        if not args.input_file.endswith((".py", ".ipynb")):
            p.error("--infile must be a .py or .ipynb file, got %r" % args.input_file)
    elif args.input_tree:
        if args.in_place == bool(args.output_tree):
            p.error("--intree needs exactly one of --outtree and --inplace")
        if not os.path.isdir(args.input_tree):
            p.error("--intree %r is not a directory" % args.input_tree)
        if not args.in_place and os.path.exists(args.output_tree):
            p.error("--outtree %r must not exist" % args.output_tree)
        if not args.in_place:
            inside = os.path.relpath(os.path.abspath(args.output_tree), os.path.abspath(args.input_tree))
            if not inside.startswith(os.pardir):
                p.error("--outtree %r must not be inside --intree" % args.output_tree)


def main(argv=None) -> int:
    """Runs the command; returns the exit status (see ``--help``)."""
    p = parser()
    args = p.parse_args(argv)
    if not (args.input_file or args.input_tree):
        p.print_help()
        return 2
    _check(p, args)
    options = dict(
        mode=args.mode,
        target=args.target,
        upgrade_compat_v1_import=not args.no_upgrade_compat_v1_import,
        python2=args.python2,
    )
    if "TF_CPP_MIN_LOG_LEVEL" not in os.environ:
        # Quiet TensorFlow unless the user chose a level. This process only converts source, so
        # oneDNN's startup notice (printed whatever the level on TF 2.20+) is turned off too.
        os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
        os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    try:
        from tf1clip.upgrade import _convert
        from tf1clip.upgrade import _engine  # noqa: F401 - fails early, with what to install

        if args.input_file:
            results = [_convert.upgrade_file(args.input_file, None if args.in_place else args.output_file, **options)]
        else:
            results = _convert.upgrade_tree(
                args.input_tree, None if args.in_place else args.output_tree, args.copy_other_files, **options
            )
    except _results.TensorFlowMissing as err:
        print("tf1clip-upgrade: %s" % err, file=sys.stderr)
        return 3
    report = _results.summary(results)
    detailed = "=" * 80 + "\nDetailed log follows:\n" + "=" * 80 + "\n" + _results.detailed_log(results)
    with open(args.report_filename, "w", encoding="utf-8") as report_file:
        report_file.write(report)
        report_file.write(detailed)
    print(report, end="")
    if args.print_all:
        print(detailed, end="")
    print("Make sure to read the detailed log %r" % args.report_filename)
    return _results.exit_status(results)
