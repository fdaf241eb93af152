"""``tf.contrib.training.HParams`` with TF 1.15's parsing rules, type rules and errors.

TF 2 dropped ``HParams`` with ``tf.contrib``; this module re-creates TF 1.15's
class (``tensorflow/contrib/training/python/training/hparam.py``) in pure
Python. Behaviour, error types and messages are TF 1.15's, checked against
TF 1.15 itself (tests/oracle/hparams_tf115.json). ``HParamDef`` is TF 1.15's
``tensorflow.HParamDef`` message (same fields and numbers, so serialized
protos move both ways), built at run time in a private descriptor pool. Not
re-created: the ``hparams`` MetaGraph collection.
"""

import functools
import json
import numbers
import re
from typing import Any, Callable, Dict, Optional

from tf1clip.contrib import _manifest

__all__ = [*_manifest.names_of(__name__), "HParamDef", "parse_values"]


@functools.lru_cache(maxsize=None)
def _hparam_def_class() -> Any:
    from google.protobuf import descriptor_pb2
    from google.protobuf import descriptor_pool
    from google.protobuf import message_factory

    f = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(
        name="tf1clip/contrib/hparam.proto", package="tensorflow", syntax="proto3"
    )
    message = proto.message_type.add(name="HParamDef")
    for name, type_ in (
        ("BytesList", f.TYPE_BYTES),
        ("FloatList", f.TYPE_FLOAT),
        ("Int64List", f.TYPE_INT64),
        ("BoolList", f.TYPE_BOOL),
    ):
        nested = message.nested_type.add(name=name)
        nested.field.add(name="value", number=1, label=f.LABEL_REPEATED, type=type_)
    kind = message.nested_type.add(name="HParamType")
    kind.oneof_decl.add(name="kind")
    for name, number, type_, type_name in (
        ("int64_value", 1, f.TYPE_INT64, None),
        ("float_value", 2, f.TYPE_FLOAT, None),
        ("bytes_value", 3, f.TYPE_BYTES, None),
        ("bool_value", 7, f.TYPE_BOOL, None),
        ("int64_list", 4, f.TYPE_MESSAGE, ".tensorflow.HParamDef.Int64List"),
        ("float_list", 5, f.TYPE_MESSAGE, ".tensorflow.HParamDef.FloatList"),
        ("bytes_list", 6, f.TYPE_MESSAGE, ".tensorflow.HParamDef.BytesList"),
        ("bool_list", 8, f.TYPE_MESSAGE, ".tensorflow.HParamDef.BoolList"),
    ):
        field = kind.field.add(name=name, number=number, label=f.LABEL_OPTIONAL, type=type_, oneof_index=0)
        if type_name:
            field.type_name = type_name
    entry = message.nested_type.add(name="HparamEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, label=f.LABEL_OPTIONAL, type=f.TYPE_STRING)
    entry.field.add(
        name="value",
        number=2,
        label=f.LABEL_OPTIONAL,
        type=f.TYPE_MESSAGE,
        type_name=".tensorflow.HParamDef.HParamType",
    )
    message.field.add(
        name="hparam",
        number=1,
        label=f.LABEL_REPEATED,
        type=f.TYPE_MESSAGE,
        type_name=".tensorflow.HParamDef.HparamEntry",
    )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("tensorflow.HParamDef"))


#: TF 1.15's ``tensorflow.HParamDef`` message class (what ``HParams.to_proto`` returns).
HParamDef = _hparam_def_class()


_PARAM_RE = re.compile(
    r"""
  (?P<name>[a-zA-Z][\w\.]*)      # "lr" or "a.b"
  (\[\s*(?P<index>\d+)\s*\])?    # optional index: "arr[1]"
  \s*=\s*
  ((?P<val>[^,\[]*)              # a scalar
   |
   \[(?P<vals>[^\]]*)\])         # a list: "[1,2,3]"
  ($|,\s*)""",
    re.VERBOSE,
)


def _parse_fail(name: str, var_type: type, value: Any, values: str):
    raise ValueError(
        "Could not parse hparam '%s' of type '%s' with value '%s' in %s" % (name, var_type.__name__, value, values)
    )


def _reuse_fail(name: str, values: str):
    raise ValueError("Multiple assignments to variable '%s' in %s" % (name, values))


def _scalar(name, parse_fn, var_type, match, values, results):
    try:
        parsed = parse_fn(match["val"])
    except ValueError:
        _parse_fail(name, var_type, match["val"], values)
    if not match["index"]:
        if name in results:
            _reuse_fail(name, values)
        results[name] = parsed
        return
    if name in results:
        if not isinstance(results[name], dict):
            _reuse_fail(name, values)
    else:
        results[name] = {}
    index = int(match["index"])
    if index in results[name]:
        _reuse_fail("{}[{}]".format(name, index), values)
    results[name][index] = parsed


def _list(name, parse_fn, var_type, match, values, results):
    if match["index"] is not None:
        raise ValueError("Assignment of a list to a list index.")
    elements = [e for e in re.split("[ ,]", match["vals"]) if e]
    if name in results:
        _reuse_fail(name, values)
    try:
        results[name] = [parse_fn(e) for e in elements]
    except ValueError:
        _parse_fail(name, var_type, match["vals"], values)


def _bool_parser(name: str, values: str) -> Callable[[str], bool]:
    def parse_bool(value: str) -> bool:
        if value in ("true", "True"):
            return True
        if value in ("false", "False"):
            return False
        try:
            return bool(int(value))
        except ValueError:
            _parse_fail(name, bool, value, values)
        raise AssertionError("unreachable")

    return parse_bool


def parse_values(values: str, type_map: Dict[str, type], ignore_unknown: bool = False) -> Dict[str, Any]:
    """Parses ``"name=value,..."`` into ``{name: value}``, as TF 1.15's ``hparam.parse_values``.

    Syntax per type of ``type_map[name]``: ``int`` / ``float`` by Python's
    parser (``int("1.0")`` fails); ``bool`` as ``true``/``True``/``false``/``False``
    or an integer (``bool(int(v))``); ``str`` anything without ``,`` or ``[``;
    a list ``[v1,v2]`` (commas or spaces); ``arr[i]=v`` gives ``{i: v}``.

    Returns:
      ``{name: scalar | list | {index: scalar}}``.

    Raises:
      ValueError: malformed text ("Malformed hyperparameter value: ..."), a
        name missing from ``type_map`` (unless ``ignore_unknown``), a value that
        does not parse ("Could not parse hparam ..."), a name given twice
        ("Multiple assignments ..."), a list assigned to an index.
    """
    results: Dict[str, Any] = {}
    pos = 0
    while pos < len(values):
        m = _PARAM_RE.match(values, pos)
        if not m:
            raise ValueError("Malformed hyperparameter value: %s" % values[pos:])
        pos = m.end()
        match = m.groupdict()
        name = match["name"]
        if name not in type_map:
            if ignore_unknown:
                continue
            raise ValueError("Unknown hyperparameter type for %s" % name)
        type_ = type_map[name]
        parse = _bool_parser(name, values) if type_ is bool else type_
        if match["val"] is not None:
            _scalar(name, parse, type_, match, values, results)
        elif match["vals"] is not None:
            _list(name, parse, type_, match, values, results)
        else:
            _parse_fail(name, type_, "", values)
    return results


def _cast_to_type_if_compatible(name: str, param_type: Any, value: Any) -> Any:
    fail_msg = "Could not cast hparam '%s' of type '%s' from value %r" % (name, param_type, value)
    if type(value) == param_type:  # noqa: E721  (TF 1.15 compares types exactly)
        return value
    if issubclass(param_type, type(None)):
        return value
    if issubclass(param_type, (str, bytes)) and not isinstance(value, (str, bytes)):
        raise ValueError(fail_msg)
    if issubclass(param_type, bool) != isinstance(value, bool):
        raise ValueError(fail_msg)
    if issubclass(param_type, numbers.Integral) and not isinstance(value, numbers.Integral):
        raise ValueError(fail_msg)
    if issubclass(param_type, numbers.Number) and not isinstance(value, numbers.Number):
        raise ValueError(fail_msg)
    return param_type(value)


class HParams:
    """A set of hyperparameters as name-value pairs, ``tf.contrib.training.HParams`` of TF 1.15.

    Each hyperparameter is an attribute; its type is fixed by its first value
    (``int``, ``float``, ``bool``, ``str``, ``None`` or a non-empty list of
    one of these). ``parse("lr=0.3,layers=[64,32],use_bn=false")``,
    ``parse_json``, ``override_from_dict`` and ``set_hparam`` change existing
    values, converting where TF 1.15 did (an ``int`` into a ``float``
    hyperparameter) and refusing the rest (``ValueError``)::

        hparams = tf1clip.contrib.training.HParams(learning_rate=0.1, num_hidden_units=100,
                                                   activations=["relu", "tanh"])
        hparams.parse("learning_rate=0.3")
        hparams.learning_rate  # 0.3

    Args:
      hparam_def: an ``HParamDef`` (``to_proto()``'s result, or TF 1.15's
        serialized one parsed with ``HParamDef.FromString``) to build from.
      model_structure: stored, returned by ``get_model_structure``.
      **kwargs: the hyperparameters.

    Raises:
      ValueError: a reserved name (an existing attribute such as ``values``),
        an empty list; ``hparam_def`` and keyword arguments together.
      TypeError: ``hparam_def`` is not an ``HParamDef`` (TF 1.15: ``AssertionError``).
    """

    _HAS_DYNAMIC_ATTRIBUTES = True

    def __init__(self, hparam_def: Any = None, model_structure: Any = None, **kwargs: Any):
        self._hparam_types: Dict[str, Any] = {}
        self._model_structure = model_structure
        if hparam_def:
            self._init_from_proto(hparam_def)
            if kwargs:
                raise ValueError("hparam_def and initialization values are mutually exclusive")
            return
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def _init_from_proto(self, hparam_def: Any) -> None:
        proto_class = _hparam_def_class()
        if not (isinstance(hparam_def, proto_class) or type(hparam_def).__name__ == "HParamDef"):
            raise TypeError(
                "`hparam_def` must be an HParamDef protocol buffer (HParams.to_proto() or "
                "tf1clip.contrib.training.hparam.HParamDef.FromString(serialized)); received %r of type %s."
                % (hparam_def, type(hparam_def).__name__)
            )
        for name, value in hparam_def.hparam.items():
            kind = value.WhichOneof("kind")
            if kind.endswith("_value"):
                item = getattr(value, kind)
                values: Any = int(item) if kind.startswith("int64") else item
                if kind.startswith("bytes"):
                    values = item.decode("utf-8")
            else:
                items = getattr(value, kind).value
                if kind.startswith("int64"):
                    values = [int(v) for v in items]
                elif kind.startswith("bytes"):
                    values = [v.decode("utf-8") for v in items]
                else:
                    values = list(items)
            self.add_hparam(name, values)

    def add_hparam(self, name: str, value: Any) -> None:
        """Adds hyperparameter ``name`` with ``value``; its type is ``type(value)`` (of the first element for a list).

        Raises:
          ValueError: ``name`` is an existing attribute ("Hyperparameter name is
            reserved: ..."), or ``value`` is an empty list or tuple.
        """
        if getattr(self, name, None) is not None:
            raise ValueError("Hyperparameter name is reserved: %s" % name)
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError("Multi-valued hyperparameters cannot be empty: %s" % name)
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name: str, value: Any) -> None:
        """Sets an existing hyperparameter, converting ``value`` to its type where TF 1.15 did.

        Conversions: the same type is kept; to ``float`` from any number but
        ``bool``; to ``int`` from integers but ``bool``; to ``str`` from
        ``bytes``/``str``; a ``None`` hyperparameter takes anything.

        Raises:
          KeyError: no hyperparameter ``name``.
          ValueError: a list for a scalar, a scalar for a list, an incompatible type.
        """
        param_type, is_list = self._hparam_types[name]
        if isinstance(value, list):
            if not is_list:
                raise ValueError("Must not pass a list for single-valued parameter: %s" % name)
            setattr(self, name, [_cast_to_type_if_compatible(name, param_type, v) for v in value])
        else:
            if is_list:
                raise ValueError("Must pass a list for multi-valued parameter: %s." % name)
            setattr(self, name, _cast_to_type_if_compatible(name, param_type, value))

    def del_hparam(self, name: str) -> None:
        """Removes hyperparameter ``name``; does nothing if there is no attribute ``name``."""
        if hasattr(self, name):
            delattr(self, name)
            del self._hparam_types[name]

    def parse(self, values: str) -> "HParams":
        """Overrides values from ``"name=value,..."`` (see ``parse_values``); returns ``self``.

        Raises:
          ValueError: text that does not parse, or an unknown name.
        """
        type_map = {name: param_type for name, (param_type, _) in self._hparam_types.items()}
        return self.override_from_dict(parse_values(values, type_map))

    def override_from_dict(self, values_dict: Dict[str, Any]) -> "HParams":
        """``set_hparam`` for each item; returns ``self``.

        Raises:
          KeyError: an unknown name.
          ValueError: a value ``set_hparam`` refuses.
        """
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def set_from_map(self, values_map: Dict[str, Any]) -> "HParams":
        """Deprecated in TF 1.15: ``override_from_dict``."""
        return self.override_from_dict(values_dict=values_map)

    def set_model_structure(self, model_structure: Any) -> None:
        self._model_structure = model_structure

    def get_model_structure(self) -> Any:
        return self._model_structure

    def to_json(self, indent: Optional[int] = None, separators: Any = None, sort_keys: bool = False) -> str:
        """``json.dumps(self.values(), indent=..., separators=..., sort_keys=...)``."""
        return json.dumps(self.values(), indent=indent, separators=separators, sort_keys=sort_keys)

    def parse_json(self, values_json: str) -> "HParams":
        """``override_from_dict(json.loads(values_json))``; returns ``self``."""
        return self.override_from_dict(json.loads(values_json))

    def values(self) -> Dict[str, Any]:
        """``{name: value}`` of every hyperparameter, in the order they were added."""
        return {n: getattr(self, n) for n in self._hparam_types}

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, or ``default`` if there is no such hyperparameter.

        Raises:
          ValueError: ``key`` exists and a non-``None`` ``default`` could not
            be set on it (list vs scalar, incompatible type).
        """
        if key not in self._hparam_types:
            return default
        if default is not None:
            param_type, is_param_list = self._hparam_types[key]
            type_str = "list<%s>" % param_type if is_param_list else str(param_type)
            fail_msg = "Hparam '%s' of type '%s' is incompatible with default=%s" % (key, type_str, default)
            is_default_list = isinstance(default, list)
            if is_param_list != is_default_list:
                raise ValueError(fail_msg)
            try:
                for value in default if is_default_list else [default]:
                    _cast_to_type_if_compatible(key, param_type, value)
            except ValueError as e:
                raise ValueError("%s. %s" % (fail_msg, e)) from None
        return getattr(self, key)

    @staticmethod
    def _get_kind_name(param_type: Any, is_list: bool) -> str:
        if issubclass(param_type, bool):
            typename = "bool"
        elif issubclass(param_type, int):
            typename = "int64"
        elif issubclass(param_type, (str, bytes)):
            typename = "bytes"
        elif issubclass(param_type, float):
            typename = "float"
        else:
            raise ValueError("Unsupported parameter type: %s" % str(param_type))
        return typename + ("_list" if is_list else "_value")

    def to_proto(self, export_scope: Any = None) -> Any:
        """The hyperparameters as an ``HParamDef`` (TF 1.15's proto; ``str`` is stored as UTF-8 ``bytes``).

        Raises:
          ValueError: a hyperparameter whose type is not ``bool``, ``int``,
            ``float``, ``str`` or ``bytes`` (a ``None`` value, for example).
        """
        hparam_proto = _hparam_def_class()()
        for name, (param_type, is_list) in self._hparam_types.items():
            kind = HParams._get_kind_name(param_type, is_list)
            value = getattr(self, name)
            if is_list:
                items = [_as_bytes(v) for v in value] if kind.startswith("bytes") else list(value)
                getattr(hparam_proto.hparam[name], kind).value.extend(items)
            else:
                setattr(hparam_proto.hparam[name], kind, _as_bytes(value) if kind.startswith("bytes") else value)
        return hparam_proto

    @staticmethod
    def from_proto(hparam_def: Any, import_scope: Any = None) -> "HParams":
        """``HParams(hparam_def=hparam_def)``."""
        return HParams(hparam_def=hparam_def)

    def __contains__(self, key: str) -> bool:
        return key in self._hparam_types

    def __str__(self) -> str:
        return ",".join("{}={}".format(key, value) for key, value in self.values().items())

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, str(sorted(self.values().items())))


def _as_bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8")
