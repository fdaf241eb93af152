"""docs/manifest.rst's table of every row is drawn from the manifest (docs/_ext/manifest_table.py)."""

import importlib.util
import os

from tf1clip.contrib import _manifest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _table():
    spec = importlib.util.spec_from_file_location(
        "manifest_table", os.path.join(ROOT, "docs", "_ext", "manifest_table.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_row_and_name_is_in_the_table():
    table = _table()
    lines = table.rst_lines(_manifest.ROWS)
    rows = [line for line in lines if line.startswith("   * - ")]
    assert rows == ["   * - " + table.HEADER[0]] + ["   * - ``%s``" % row.target for row in _manifest.ROWS]
    text = "\n".join(lines)
    for row in _manifest.ROWS:
        for name in row.names:
            assert "``%s``" % name in text, (row.target, name)
        for name, measured in row.drift:
            assert "%s drifts with TF 2's kernels (%s)." % (name, measured) in text


def test_a_new_row_is_drawn_with_its_flags_and_escaped_differences():
    row = _manifest.Row(
        "tf1clip.contrib.opt",
        "tf1clip.contrib.opt.fake",
        ("FakeOptimizer", "fake_fn"),
        ("tf.contrib.opt",),
        extra="slim",
        keras2=True,
        differences="The *V2 forms and |bars| are not re-created; see `x` or name_.",
    )
    lines = _table().rst_lines([row])
    assert lines[-5:] == [
        "   * - ``tf1clip.contrib.opt``",
        "     - ``FakeOptimizer``, ``fake_fn``",
        "     - ``tf.contrib.opt``",
        "     - extra slim, keras2",
        "     - The \\*V2 forms and \\|bars\\| are not re-created; see \\`x\\` or name\\_.",
    ]
