"""What every example's command line shares; import this module before ``tensorflow``.

Importing it quiets TensorFlow's C++ logging. Unless the user has set
``TF_CPP_MIN_LOG_LEVEL`` (then nothing changes), it sets it to 2 (errors only) and
filters the process's stderr until it exits: TensorFlow prints some INFO lines
whatever the level, before its logging is initialised (TF 2.20+: the oneDNN notice and
the CPU-feature note at import; TF 2.18: "MLIR V1 optimization pass is not enabled" at
the first ``Session.run``). Only INFO and WARNING lines in the C++ log format and absl's
"before InitializeLog" notice are dropped; everything else (Python warnings,
tracebacks, errors) is passed on to stderr.
"""

import argparse
import atexit
import os
import re
import sys
import threading

_NOISE = re.compile(
    r"^(?:[IW]\d{4} [\d:.]+ +\d+ [\w.]+:\d+\] "
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IW] "
    r"|WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR"
    r"|To enable the following instructions: .* rebuild TensorFlow with the appropriate compiler flags\.)"
)


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` keeps the description's layout and shows every option's default."""


def _filter_stderr():
    """Sends file descriptor 2 through a thread that drops the noise, until the interpreter exits."""
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    sink, saved = os.dup(2), os.dup(2)
    os.dup2(write_end, 2)
    os.close(write_end)

    def pump():
        with os.fdopen(read_end, "rb") as source, os.fdopen(sink, "wb", buffering=0) as out:
            for line in source:
                if not _NOISE.match(line.decode(errors="replace")):
                    out.write(line)

    thread = threading.Thread(target=pump, name="stderr-filter", daemon=True)
    thread.start()

    def stop():
        sys.stderr.flush()
        os.dup2(saved, 2)  # the pipe's last writer goes: the pump reads to the end and stops
        os.close(saved)
        thread.join(timeout=5)

    atexit.register(stop)


def without_startup_noise(text):
    """``text`` without TensorFlow's INFO/WARNING start-up lines."""
    return "".join(line for line in text.splitlines(keepends=True) if not _NOISE.match(line))


if "TF_CPP_MIN_LOG_LEVEL" not in os.environ and "tensorflow" not in sys.modules:
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
    _filter_stderr()
