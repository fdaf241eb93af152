"""docs/oracle.rst's table of op-count corrections and docs/layout.rst's list of every process-wide change are drawn
from tf1clip.fidelity (docs/_ext/fidelity_table.py)."""

import os

import pytest

from tf1clip import fidelity
from tf1clip.fidelity import _corrections

from helpers import load_cases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _table():
    return load_cases(os.path.join(ROOT, "docs", "_ext"), "fidelity_table")


def test_every_correction_is_a_row_with_its_cases():
    lines = _table().rst_lines("corrections")
    assert [line for line in lines if line.startswith("   * - ")][1:] == [
        "   * - " + e.construct for e in _corrections.CORRECTIONS
    ]
    text = "\n".join(lines)
    for entry in _corrections.CORRECTIONS:
        assert "     - %s" % entry.correction in text
        assert "``%s``" % entry.cases[0] in text


def test_every_change_is_a_row_with_what_it_touches():
    lines = _table().rst_lines("changes")
    assert [line for line in lines if line.startswith("   * - ")][1:] == [
        "   * - ``%s``" % c.name for c in fidelity.CHANGES
    ]
    assert "     - ``tensorflow.python.framework.tensor_shape.Dimension.__init__``" in lines


def test_the_docs_use_both_tables_and_an_unknown_one_is_refused():
    with open(os.path.join(ROOT, "docs", "oracle.rst")) as f:
        assert ".. tf1clip-fidelity:: corrections" in f.read()
    with open(os.path.join(ROOT, "docs", "layout.rst")) as f:
        assert ".. tf1clip-fidelity:: changes" in f.read()
    with pytest.raises(ValueError, match="the table is 'corrections' or 'changes', got 'seeds'"):
        _table().rst_lines("seeds")
