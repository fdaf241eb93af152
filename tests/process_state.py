"""A snapshot of process-wide state, for the tests that install and undo tf1clip's changes (tf1clip.fidelity).

``snapshot(prefixes)``: every global of every loaded module named with one of ``prefixes`` (and every attribute
of the classes those modules define), the ``sys.modules`` entries under them, ``os.environ`` and
``sys.excepthook``; ``changed(before, after)``: the places (``"module.name"``, ``"module.Class.name"``,
``"sys.modules['x']"``, ``"os.environ['X']"``, ``"sys.excepthook"``) whose value is another object (equal
strings and numbers count as the same), leaving out what importing modules adds (the places of modules that
``before`` did not have, and globals or ``sys.modules`` entries holding such modules). ``matches(place,
patterns)``: whether a place matches one of a record's ``touches`` (``*`` matches any text).
"""

import os
import re
import sys
import types

_MISSING = object()
_PLAIN = (str, bytes, int, float, bool, type(None))


def snapshot(prefixes):
    """The state of the modules named ``prefix`` or ``prefix.*`` for each of ``prefixes``, and the process's:
    ``{key: value}`` with keys ``(module, name)``, ``(module, class, name)`` or ``(place,)``."""
    state = {}
    starts = tuple(p + "." for p in prefixes)
    for name, module in list(sys.modules.items()):
        if not isinstance(module, types.ModuleType) or not (name in prefixes or name.startswith(starts)):
            continue
        state[("sys.modules[%r]" % name,)] = module
        for attr, value in list(vars(module).items()):
            state[(name, attr)] = value
            if isinstance(value, type) and value.__module__ == name and value.__qualname__ == attr:
                for key, member in list(vars(value).items()):
                    state[(name, attr, key)] = member
    for key, value in os.environ.items():
        state[("os.environ[%r]" % key,)] = value
    state[("sys.excepthook",)] = sys.excepthook
    return state


def _same(a, b):
    return a is b or (isinstance(a, _PLAIN) and type(a) is type(b) and a == b)


def changed(before, after):
    """The places of ``before`` or ``after`` whose value differs, without what imports added; sorted."""
    loaded = {key for key in before if len(key) == 1 and key[0].startswith("sys.modules[")}
    known_ids = {id(before[key]) for key in loaded}
    differ = [key for key, old in before.items() if after.get(key, _MISSING) is not old]
    found = []
    for key in differ + [key for key in after.keys() - before.keys()]:
        old, new = before.get(key, _MISSING), after.get(key, _MISSING)
        if _same(old, new) or (len(key) > 1 and ("sys.modules[%r]" % key[0],) not in loaded):
            continue
        if old is _MISSING and isinstance(new, types.ModuleType) and id(new) not in known_ids:
            continue  # a module imported meanwhile (or a package's new submodule attribute)
        found.append(".".join(key))
    return sorted(found)


def matches(place, patterns):
    """Whether ``place`` matches one of ``patterns`` (``*`` matches any text)."""
    return any(re.fullmatch(re.escape(p).replace(r"\*", ".*"), place) for p in patterns)
