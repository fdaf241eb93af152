"""Lazy routing of ``tf1clip.contrib`` namespaces to a maintained successor (tf-slim, TF-GAN).

A namespace's PEP 562 ``__getattr__`` (``module_getattr``) looks a name up
among the successor's modules on first use, which imports (and patches) the
successor then, and caches what it finds in the namespace's globals; its
``__dir__`` (``module_dir``) adds the successor's public names.
``tf1clip.compat._slim`` and ``tf1clip.compat._gan`` say which modules and how to load them,
and patch them.
"""

import types
from typing import AbstractSet, Any, Callable, Dict, Iterable, List, Optional, Sequence


def not_installed(what: str, successor: str, install_hint: str, about: str) -> ImportError:
    """The error for ``what`` when the ``successor`` distribution is missing; says ``install_hint``."""
    return ImportError("%s comes from %s, which is not installed: %s (%s)." % (what, successor, install_hint, about))


def is_public(
    module: types.ModuleType, name: str, hidden: AbstractSet[str] = frozenset(), package: Optional[str] = None
) -> bool:
    """Whether ``name`` is a public name of ``module``.

    Never a name starting with ``_`` or in ``hidden``; else membership of the
    module's ``__all__`` where it has one; else whether the module has it,
    except that with ``package`` a module counts only if it is ``package``'s.
    """
    if name.startswith("_") or name in hidden:
        return False
    exported = getattr(module, "__all__", None)
    if exported is not None:
        return name in exported
    if package is not None:
        value = getattr(module, name, None)
        if isinstance(value, types.ModuleType):
            return value.__name__.startswith(package + ".")
    return hasattr(module, name)


def resolve(
    qualname: str,
    name: str,
    load: Callable[[str], Sequence[types.ModuleType]],
    is_public: Callable[[types.ModuleType, str], bool],
    undefined: str,
    fallback: Optional[Callable[[str], Optional[types.ModuleType]]] = None,
) -> Any:
    """``<qualname>.<name>``: the value in the first module of ``load(<qualname>.<name>)`` where it is public.

    ``fallback(name)``, when given, is asked last (``None``: not found).
    ``load`` imports only for a name that does not start with ``_``.

    Raises:
      AttributeError: ``name`` starts with ``_``, or no module has it; the
        message then ends with ``undefined`` (which modules were searched).
    """
    if name.startswith("_"):
        raise AttributeError("module %r has no attribute %r" % (qualname, name))
    for module in load("%s.%s" % (qualname, name)):
        if is_public(module, name):
            return getattr(module, name)
    found = fallback(name) if fallback is not None else None
    if found is not None:
        return found
    raise AttributeError("module %r has no attribute %r: %s" % (qualname, name, undefined))


def public_names(modules: Iterable[types.ModuleType], is_public: Callable[[types.ModuleType, str], bool]) -> List[str]:
    """The sorted public names of ``modules`` together."""
    names: set = set()
    for module in modules:
        names.update(n for n in dir(module) if is_public(module, n))
    return sorted(names)


def module_getattr(resolve: Callable[[str, str], Any], module_globals: Dict[str, Any]) -> Callable[[str], Any]:
    """A PEP 562 ``__getattr__``: ``resolve(name, module name)``, cached in ``module_globals``."""
    qualname = module_globals["__name__"]

    def __getattr__(name: str) -> Any:
        value = resolve(name, qualname)
        module_globals[name] = value
        return value

    return __getattr__


def module_dir(public_names: Callable[[], Iterable[str]], module_globals: Dict[str, Any]) -> Callable[[], List[str]]:
    """A PEP 562 ``__dir__``: the module's own names plus ``public_names()``."""

    def __dir__() -> List[str]:
        return sorted(set(module_globals) | set(public_names()))

    return __dir__
