"""tf1clip.contrib.training.HParams against TF 1.15's own results and errors (tests/oracle/hparams_cases.py)."""

import json
import os
import sys

import pytest

import tf1clip.contrib.training
from tf1clip.contrib.training import hparam as _hparams

ORACLE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ORACLE)
import hparams_cases  # noqa: E402

with open(os.path.join(ORACLE, "hparams_tf115.json")) as f:
    REFERENCE = json.load(f)["cases"]

NAMESPACE = {
    "HParams": tf1clip.contrib.training.HParams,
    "parse_values": _hparams.parse_values,
    "HParamDef": _hparams.HParamDef,
}


def test_reference_covers_every_case_and_has_both_outcomes():
    assert sorted(REFERENCE) == sorted(hparams_cases.CASES)
    errors = [r["error"] for r in REFERENCE.values() if "error" in r]
    assert 30 < len(errors) < len(REFERENCE) - 30
    assert set(errors) == {"ValueError", "KeyError", "TypeError"}


@pytest.mark.parametrize("case", sorted(hparams_cases.CASES))
def test_same_result_or_error_as_tf115(case):
    assert hparams_cases.run_case(NAMESPACE, hparams_cases.CASES[case]) == REFERENCE[case]


def test_exported_from_contrib_training():
    assert "HParams" in tf1clip.contrib.training.__all__
    assert tf1clip.contrib.training.HParams is _hparams.HParams


def test_hparam_def_must_be_the_proto_and_serializes_like_tf115():
    with pytest.raises(TypeError, match=r"`hparam_def` must be an HParamDef protocol buffer.*received 1 of type int"):
        _hparams.HParams(hparam_def=1)
    proto = _hparams.HParamDef.FromString(bytes.fromhex(hparams_cases.TF115_HPARAM_DEF))
    assert _hparams.HParams(hparam_def=proto).to_proto() == proto
