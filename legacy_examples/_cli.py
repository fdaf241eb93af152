"""What every example's command line shares; import this module before ``tensorflow``.

Importing it quiets TensorFlow's C++ start-up logging. Unless the user has set
``TF_CPP_MIN_LOG_LEVEL`` (then nothing changes), it sets it to 2 (errors only) and
imports TensorFlow with its start-up output filtered: TF 2.20+ prints INFO lines (the
oneDNN notice, the CPU-feature note) before its logging is initialised, where
``TF_CPP_MIN_LOG_LEVEL`` is not yet applied. Only INFO and WARNING lines in the C++
log format and absl's "before InitializeLog" notice are dropped; everything else
written during the import (Python warnings, errors) is passed on to stderr.
"""

import argparse
import os
import re
import sys
import tempfile

_NOISE = re.compile(
    r"^(?:[IW]\d{4} [\d:.]+ +\d+ [\w.]+:\d+\] "
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IW] "
    r"|WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR"
    r"|To enable the following instructions: .* rebuild TensorFlow with the appropriate compiler flags\.)"
)


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` keeps the description's layout and shows every option's default."""


def _import_tensorflow_quietly():
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as captured:
        os.dup2(captured.fileno(), 2)
        try:
            import tensorflow  # noqa: F401
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            sys.stderr.write(without_startup_noise(captured.read().decode(errors="replace")))
            sys.stderr.flush()


def without_startup_noise(text):
    """``text`` without TensorFlow's INFO/WARNING start-up lines."""
    return "".join(line for line in text.splitlines(keepends=True) if not _NOISE.match(line))


if "TF_CPP_MIN_LOG_LEVEL" not in os.environ and "tensorflow" not in sys.modules:
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
    _import_tensorflow_quietly()
