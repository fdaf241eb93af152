"""The ``sys.excepthook`` that prints tf1clip's install hint before the traceback of an uncaught ``ImportError``
that carries it (TensorFlow missing or too old: ``compat/_tf.py``). No TensorFlow import."""

import sys

_FLAG = "tf1clip_hook"


def unavailable(message):
    """The ImportError saying what to install; uncaught, its message is printed first (before the traceback)."""
    error = ImportError(message)
    error.tf1clip_install_hint = True  # type: ignore[attr-defined]
    install()
    return error


def install():
    """Puts the hook in front of the current ``sys.excepthook`` (once)."""
    previous = sys.excepthook
    if getattr(previous, _FLAG, False):
        return

    def hook(kind, value, tb):
        if getattr(value, "tf1clip_install_hint", False):
            sys.stderr.write("%s\n\n" % value)
        previous(kind, value, tb)

    hook.tf1clip_hook = True  # type: ignore[attr-defined]
    hook.previous = previous  # type: ignore[attr-defined]
    sys.excepthook = hook


def undo():
    """Restores the hook that was current before :func:`install`, if tf1clip's is still current."""
    if installed():
        sys.excepthook = sys.excepthook.previous  # type: ignore[attr-defined]


def installed():
    """Whether tf1clip's hook is ``sys.excepthook``."""
    return bool(getattr(sys.excepthook, _FLAG, False))
