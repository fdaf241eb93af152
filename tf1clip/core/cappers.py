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


def _capper(clip, label, keeps, name):
    """The capper ``pairs -> clip(pairs, name)``, named ``label`` for messages.

    ``clip`` takes pairs ``_validate.check_pairs`` returned: a plain call
    validates them first; the optimizer wrapper, which validated them already,
    runs ``clip`` directly (``_state.run_checked``).
    """

    def capper(grads_and_vars):
        return clip(_validate.check_pairs(grads_and_vars), name)

    capper.__qualname__ = label
    _state.mark_on_checked(capper, lambda pairs: clip(pairs, name))
    return _state.mark_keeps_finite(capper, keeps)


def clip_by_value_fn(clip_value_min: Any, clip_value_max: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_value``; bounds are checked now."""
    low = _validate.check_bound(clip_value_min, "clip_value_min")
    high = _validate.check_bound(clip_value_max, "clip_value_max")
    clipping.clip_by_value([], clip_value_min, clip_value_max)
    bounds = (clip_value_min, low), (clip_value_max, high)
    return _capper(
        lambda pairs, name: clipping.checked_clip_by_value(pairs, *bounds, name=name),
        "clip_by_value_fn(%r, %r)" % (clip_value_min, clip_value_max),
        low is not None and high is not None,
        name,
    )


def clip_by_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_norm`` (each tensor on its own)."""
    static, clip_norm = _validate.check_clip_norm(clip_norm)
    return _capper(
        lambda pairs, name: clipping.checked_clip_by_norm(pairs, static, clip_norm, name=name),
        "clip_by_norm_fn(%r)" % (clip_norm,),
        False,
        name,
    )


def clip_by_average_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_average_norm``."""
    static, clip_norm = _validate.check_clip_norm(clip_norm)
    return _capper(
        lambda pairs, name: clipping.checked_clip_by_average_norm(pairs, static, clip_norm, name=name),
        "clip_by_average_norm_fn(%r)" % (clip_norm,),
        False,
        name,
    )


def clip_by_global_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_global_norm`` (the norm is dropped)."""
    static, clip_norm = _validate.check_clip_norm(clip_norm)
    return _capper(
        lambda pairs, name: clipping.checked_clip_by_global_norm(pairs, static, clip_norm, name=name)[0],
        "clip_by_global_norm_fn(%r)" % (clip_norm,),
        static is not None,
        name,
    )
