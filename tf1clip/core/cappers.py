"""Cappers: callables from a list of ``(gradient, variable)`` pairs to a new list.

A capper is what contrib called a ``transform_grads_fn``. Any plain function
with that contract is one, and so is an object with
``transform_with_state(pairs) -> (pairs, update)`` (a stateful capper). The
factories here build cappers from the clipping functions; ``chain`` and the
state protocol (``run_capper``, ``attach_state_updates``,
``defer_state_update``, ``STATE_UPDATES``) live in ``tf1clip.core._state`` and are
re-exported here.
"""

from typing import Any, Callable, Optional

from tf1clip.core import _state, _validate, clipping
from tf1clip.core._state import STATE_UPDATES, attach_state_updates, chain, defer_state_update, run_capper

__all__ = [
    "STATE_UPDATES",
    "attach_state_updates",
    "run_capper",
    "defer_state_update",
    "clip_by_value_fn",
    "clip_by_norm_fn",
    "clip_by_average_norm_fn",
    "clip_by_global_norm_fn",
    "chain",
]

keeps_finite = _state.keeps_finite


def _capper(clip, label, keeps):
    """``clip`` (``pairs -> pairs``) as a capper named ``label`` for messages. Its arguments were checked when
    it was made (``_validate.Checked``); the optimizer wrapper hands it ``CheckedPairs`` and takes its
    output without validating it (``_state.run_checked``): tf1clip built it, with the same variables."""
    clip.__qualname__ = label
    _state.mark_trusted(clip)
    return _state.mark_keeps_finite(clip, keeps)


def clip_by_value_fn(clip_value_min: Any, clip_value_max: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_value``; bounds are checked now."""
    low = _validate.checked_bound(clip_value_min, "clip_value_min")
    high = _validate.checked_bound(clip_value_max, "clip_value_max")
    clipping.clip_by_value([], low, high)

    def capper(grads_and_vars):
        return clipping.clip_by_value(grads_and_vars, low, high, name=name)

    label = "clip_by_value_fn(%r, %r)" % (clip_value_min, clip_value_max)
    return _capper(capper, label, low.static is not None and high.static is not None)


def clip_by_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_norm`` (each tensor on its own)."""
    checked = _validate.check_clip_norm(clip_norm)

    def capper(grads_and_vars):
        return clipping.clip_by_norm(grads_and_vars, checked, name=name)

    return _capper(capper, "clip_by_norm_fn(%r)" % (clip_norm,), False)


def clip_by_average_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_average_norm``."""
    checked = _validate.check_clip_norm(clip_norm)

    def capper(grads_and_vars):
        return clipping.clip_by_average_norm(grads_and_vars, checked, name=name)

    return _capper(capper, "clip_by_average_norm_fn(%r)" % (clip_norm,), False)


def clip_by_global_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_global_norm`` (the norm is dropped)."""
    checked = _validate.check_clip_norm(clip_norm)

    def capper(grads_and_vars):
        return clipping.clip_by_global_norm(grads_and_vars, checked, name=name)[0]

    return _capper(capper, "clip_by_global_norm_fn(%r)" % (clip_norm,), checked.static is not None)
