"""Cases for ``HParams``: each one's result or error on TF 1.15 is the reference for tf1clip's re-creation.

Run on TF 1.15 it prints the JSON committed next to it::

    env -u TF2_BEHAVIOR /work/venvs/tf115/bin/python tests/oracle/hparams_cases.py > tests/oracle/hparams_tf115.json

Each case is Python run with ``HParams`` and ``np`` defined; it leaves its outcome in ``out``. The record is
``repr(out)`` and ``hp.values()`` (when ``hp`` exists), or the exception's type and message.
"""

import json
import sys

import numpy as np

# HParams(a=[1, 2], b=3.5, c=True, d="hi", e=["x", "y"], f=[0.5], g=[True, False], i=7).to_proto() on TF 1.15.
TF115_HPARAM_DEF = (
    "0a0d0a016612082a060a040000003f0a070a0163120238010a0b0a0167120642040a0201000a0a0a0162120515000060400a"
    "090a016412041a0268690a0d0a0165120832060a01780a01790a0b0a0161120622040a0201020a070a016912020807"
)

BASE = "hp = HParams(lr=0.1, steps=100, name='adam', use_bn=True, layers=[64, 32], rates=[0.5, 0.25], tags=['a', 'b'], flags=[True, False], nothing=None)\n"

CASES = {
    # construction
    "init_values": BASE + "out = hp.values()",
    "init_reserved_name": "hp = HParams(values=1)\nout = 1",
    "init_reserved_get": "hp = HParams(get=1)\nout = 1",
    "init_empty_list": "hp = HParams(a=[])\nout = 1",
    "init_tuple_value": "hp = HParams(a=(1, 2))\nhp.parse('a=[3,4]')\nout = hp.a",
    "init_mixed_list_type_from_first": "hp = HParams(a=[1, 2.5])\nhp.parse('a=[3,4]')\nout = hp.a",
    "init_numpy_scalar": "h = HParams(a=np.float32(1.5))\nh.parse('a=2.5')\nout = (float(h.a), type(h.a).__name__)",
    "init_hparam_def_and_kwargs_none": "hp = HParams(hparam_def=None, a=1)\nout = hp.a",
    "model_structure": "hp = HParams(model_structure='ms', a=1)\nhp.set_model_structure('ms2')\nout = hp.get_model_structure()",
    # parse: scalars
    "parse_float": BASE + "out = hp.parse('lr=0.3').lr",
    "parse_float_from_int_text": BASE + "hp.parse('lr=3')\nout = (hp.lr, type(hp.lr).__name__)",
    "parse_float_exponent": BASE + "out = hp.parse('lr=-.54e-3').lr",
    "parse_float_bad": BASE + "hp.parse('lr=fast')\nout = 1",
    "parse_int": BASE + "out = hp.parse('steps=7').steps",
    "parse_int_negative": BASE + "out = hp.parse('steps=-12').steps",
    "parse_int_from_float_text": BASE + "hp.parse('steps=1.0')\nout = 1",
    "parse_str": BASE + "out = hp.parse('name=sgd_1').name",
    "parse_str_with_spaces": BASE + "out = hp.parse('name=a b').name",
    "parse_str_empty": BASE + "out = repr(hp.parse('name=').name)",
    "parse_bool_true": BASE + "out = hp.parse('use_bn=true').use_bn",
    "parse_bool_False": BASE + "out = hp.parse('use_bn=False').use_bn",
    "parse_bool_1": BASE + "out = hp.parse('use_bn=0').use_bn",
    "parse_bool_2": BASE + "out = hp.parse('use_bn=2').use_bn",
    "parse_bool_yes": BASE + "hp.parse('use_bn=yes')\nout = 1",
    "parse_bool_TRUE": BASE + "hp.parse('use_bn=TRUE')\nout = 1",
    "parse_none_typed": BASE + "hp.parse('nothing=1')\nout = 1",
    # parse: several, spacing, syntax
    "parse_several": BASE + "hp.parse('lr=0.2,steps=5,name=x')\nout = hp.values()",
    "parse_spaces_around": BASE + "hp.parse('lr = 0.2, steps=5')\nout = hp.values()",
    "parse_trailing_comma": BASE + "hp.parse('steps=5,')\nout = hp.steps",
    "parse_empty_string": BASE + "hp.parse('')\nout = hp.values()",
    "parse_malformed": BASE + "hp.parse('steps')\nout = 1",
    "parse_malformed_leading_comma": BASE + "hp.parse(',steps=1')\nout = 1",
    "parse_unknown": BASE + "hp.parse('momentum=0.9')\nout = 1",
    "parse_twice": BASE + "hp.parse('steps=1,steps=2')\nout = 1",
    "parse_returns_self": BASE + "out = hp.parse('steps=3') is hp",
    "parse_name_must_start_with_letter": BASE + "hp.parse('_x=1')\nout = 1",
    # parse: lists
    "parse_list_int": BASE + "out = hp.parse('layers=[1,2,3]').layers",
    "parse_list_spaces": BASE + "out = hp.parse('layers=[1 2, 3]').layers",
    "parse_list_empty": BASE + "out = hp.parse('layers=[]').layers",
    "parse_list_float": BASE + "out = hp.parse('rates=[1,1e-12]').rates",
    "parse_list_str": BASE + "out = hp.parse('tags=[high,low]').tags",
    "parse_list_bool": BASE + "out = hp.parse('flags=[true,0,False]').flags",
    "parse_list_bad_element": BASE + "hp.parse('layers=[1,x]')\nout = 1",
    "parse_list_for_scalar": BASE + "hp.parse('steps=[1,2]')\nout = 1",
    "parse_scalar_for_list": BASE + "hp.parse('layers=5')\nout = 1",
    "parse_list_twice": BASE + "hp.parse('layers=[1],layers=[2]')\nout = 1",
    "parse_list_then_more": BASE + "hp.parse('layers=[1,2],steps=3')\nout = hp.values()",
    # parse: index assignments
    "parse_index": BASE + "hp.parse('layers[1]=5')\nout = hp.layers",
    "parse_index_list_value": BASE + "hp.parse('layers[1]=[5]')\nout = 1",
    "parse_index_twice": BASE + "hp.parse('layers[1]=5,layers[1]=6')\nout = 1",
    "parse_index_and_scalar": BASE + "hp.parse('layers=[1],layers[0]=5')\nout = 1",
    # parse_values directly
    "parse_values_index": "out = parse_values('x=5,L=[1,2],arr[1]=3', {'x': int, 'L': int, 'arr': int})",
    "parse_values_ignore_unknown": "out = parse_values('x=5,y=6', {'x': int}, ignore_unknown=True)",
    "parse_values_dotted_name": "out = parse_values('a.b=5', {'a.b': int})",
    # set_hparam and type rules
    "set_float_from_int": BASE + "hp.set_hparam('lr', 2)\nout = (hp.lr, type(hp.lr).__name__)",
    "set_int_from_float": BASE + "hp.set_hparam('steps', 2.0)\nout = 1",
    "set_int_from_bool": BASE + "hp.set_hparam('steps', True)\nout = 1",
    "set_bool_from_int": BASE + "hp.set_hparam('use_bn', 1)\nout = 1",
    "set_float_from_bool": BASE + "hp.set_hparam('lr', False)\nout = 1",
    "set_str_from_int": BASE + "hp.set_hparam('name', 3)\nout = 1",
    "set_int_from_str": BASE + "hp.set_hparam('steps', '3')\nout = 1",
    "set_str_from_bytes": BASE + "hp.set_hparam('name', b'x')\nout = (hp.name, type(hp.name).__name__)",
    "set_float_from_numpy_int": BASE + "hp.set_hparam('lr', np.int64(3))\nout = (hp.lr, type(hp.lr).__name__)",
    "set_int_from_numpy_int": BASE + "hp.set_hparam('steps', np.int32(3))\nout = (hp.steps, type(hp.steps).__name__)",
    "set_float_from_numpy_float": BASE + "hp.set_hparam('lr', np.float32(0.5))\nout = (hp.lr, type(hp.lr).__name__)",
    "set_none_typed_anything": BASE + "hp.set_hparam('nothing', [1, 2])\nout = 1",
    "set_none_typed_scalar": BASE + "hp.set_hparam('nothing', 'x')\nout = hp.nothing",
    "set_unknown": BASE + "hp.set_hparam('momentum', 0.9)\nout = 1",
    "set_list_for_scalar": BASE + "hp.set_hparam('steps', [1])\nout = 1",
    "set_tuple_for_list": BASE + "hp.set_hparam('layers', (1, 2))\nout = 1",
    "set_list_casts_elements": BASE + "hp.set_hparam('rates', [1, 2])\nout = hp.rates",
    "set_list_bad_element": BASE + "hp.set_hparam('layers', [1, 'a'])\nout = 1",
    "override_from_dict": BASE + "out = hp.override_from_dict({'lr': 1, 'layers': [3]}).values()",
    "override_from_dict_unknown": BASE + "hp.override_from_dict({'zz': 1})\nout = 1",
    "set_from_map": BASE + "out = hp.set_from_map({'steps': 9}).steps",
    # json
    "to_json": BASE + "out = hp.to_json()",
    "to_json_sorted_indent": BASE + "out = hp.to_json(indent=1, sort_keys=True)",
    "to_json_separators": BASE + "out = hp.to_json(separators=(',', ':'), sort_keys=True)",
    "parse_json": BASE + 'out = hp.parse_json(\'{"lr": 0.3, "tags": ["x"], "steps": 4}\').values()',
    "parse_json_int_for_float": BASE + "hp.parse_json('{\"lr\": 1}')\nout = (hp.lr, type(hp.lr).__name__)",
    "parse_json_float_for_int": BASE + "hp.parse_json('{\"steps\": 1.5}')\nout = 1",
    "parse_json_unknown": BASE + "hp.parse_json('{\"zz\": 1}')\nout = 1",
    "parse_json_scalar_for_list": BASE + 'hp.parse_json(\'{"tags": "relu"}\')\nout = 1',
    "parse_json_roundtrip": BASE + "h2 = HParams(**hp.values())\nh2.parse_json(hp.to_json())\nout = h2.values()",
    # add / del / get / contains / str
    "add_hparam": BASE + "hp.add_hparam('momentum', 0.9)\nout = hp.values()",
    "add_existing": BASE + "hp.add_hparam('lr', 0.9)\nout = 1",
    "add_existing_none_valued": BASE + "hp.add_hparam('nothing', 0.9)\nout = hp.values()",
    "add_method_name": BASE + "hp.add_hparam('parse', 1)\nout = 1",
    "del_hparam": BASE + "hp.del_hparam('lr')\nout = (hp.values(), 'lr' in hp, hasattr(hp, 'lr'))",
    "del_missing": BASE + "hp.del_hparam('zz')\nout = hp.values()",
    "del_then_add": BASE + "hp.del_hparam('steps')\nhp.add_hparam('steps', 'x')\nhp.parse('steps=y')\nout = hp.steps",
    "get_present": BASE + "out = (hp.get('lr'), hp.get('lr', 0.5), hp.get('layers', [1]))",
    "get_missing": BASE + "out = (hp.get('zz'), hp.get('zz', 3))",
    "get_incompatible_default": BASE + "hp.get('steps', 0.5)\nout = 1",
    "get_list_default_for_scalar": BASE + "hp.get('steps', [1])\nout = 1",
    "get_incompatible_list_default": BASE + "hp.get('layers', ['a'])\nout = 1",
    "contains": BASE + "out = ('lr' in hp, 'zz' in hp, 'parse' in hp)",
    "str": BASE + "out = str(hp)",
    "repr": BASE + "out = repr(hp)",
    "attribute_set_directly": BASE + "hp.lr = 'fast'\nout = hp.values()['lr']",
    # the HParamDef proto
    "proto_none_unsupported": BASE + "hp.to_proto()\nout = 1",
    "proto_roundtrip": BASE + "hp.del_hparam('nothing')\nh2 = HParams(hparam_def=hp.to_proto())\n"
    "out = sorted(h2.values().items())",
    "proto_from_proto_types": "h = HParams(a=1, b=2.5, c='x', d=False, e=[True], f=[b'y'])\n"
    "h2 = HParams.from_proto(h.to_proto())\nout = sorted((k, v, type(v).__name__) for k, v in h2.values().items())",
    "proto_bool_parsed": "h = HParams(use_gpu=True)\nh.parse('use_gpu=0')\nh2 = HParams(hparam_def=h.to_proto())\n"
    "out = (h2.use_gpu, type(h2.use_gpu).__name__)",
    "proto_and_kwargs": "h = HParams(a=1)\nHParams(hparam_def=h.to_proto(), b=2)\nout = 1",
    "proto_fields": "h = HParams(a=1, b=[2.0], c='x')\np = h.to_proto()\n"
    "out = sorted((k, v.WhichOneof('kind')) for k, v in p.hparam.items())",
    "proto_serialized_tf115": "p = HParamDef.FromString(bytes.fromhex(TF115_HPARAM_DEF))\n"
    "out = sorted(HParams(hparam_def=p).values().items())",
}


def run_case(namespace, code):
    """Runs ``code`` with ``namespace`` (``HParams``, ``parse_values``); returns its JSON-able record."""
    scope = dict(namespace, np=np, TF115_HPARAM_DEF=TF115_HPARAM_DEF)
    try:
        exec(code, scope)  # noqa: S102 - the cases above
    except Exception as e:  # noqa: BLE001 - the error is the record
        return {"error": type(e).__name__, "message": str(e)}
    record = {"out": repr(scope["out"])}
    if "hp" in scope:
        record["values"] = repr(sorted(scope["hp"].values().items()))
    return record


if __name__ == "__main__":
    import tensorflow as tf
    from tensorflow.contrib.training.python.training import hparam

    from tensorflow.contrib.training.python.training import hparam_pb2

    namespace = {
        "HParams": tf.contrib.training.HParams,
        "parse_values": hparam.parse_values,
        "HParamDef": hparam_pb2.HParamDef,
    }
    results = {name: run_case(namespace, code) for name, code in sorted(CASES.items())}
    json.dump({"tensorflow": tf.__version__, "cases": results}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
