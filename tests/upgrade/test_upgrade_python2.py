"""tf1clip-upgrade on Python 2 sources: which files are Python 2, each 2to3 fixer (fissix's and tf1clip's), Python 2's
integer division, list contexts, notebooks with a Python 2 kernel, and log lines that stay the input's.

The expected texts are what Python 2 computed, written by hand: ``print 'a', x`` printed what ``print('a', x)`` prints,
``len(xs) / 2`` was floor division (``len(xs) // 2``), ``d.keys()`` was a list.
"""

import json
import textwrap

import pytest

from tf1clip import upgrade
from tf1clip.upgrade import _py2

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")


def convert(source, python2="always", **kwargs):
    return upgrade.upgrade_source(textwrap.dedent(source), target="modern", python2=python2, **kwargs)


def issues(result, severity):
    return [(e.line, e.message) for e in result.log if e.severity == severity and "Python 2 -> 3" in e.message]


# (Python 2, Python 3, a part of the fixer's INFO)
FIXERS = [
    ("print 'a', x\n", "print('a', x)\n", "the print statement is print()"),
    ("print >>sys.stderr, 'x'\n", "print('x', file=sys.stderr)\n", "print >>f, x is print(x, file=f)"),
    ("for i in xrange(3):\n    pass\n", "for i in range(3):\n    pass\n", "xrange is range"),
    ("r = range(3)\nr.append(4)\n", "r = list(range(3))\nr.append(4)\n", "range() is wrapped in list()"),
    ("for k, v in d.iteritems():\n    pass\n", "for k, v in d.items():\n    pass\n", "d.iteritems()"),
    ("ok = d.has_key(k)\n", "ok = k in d\n", "d.has_key(k) is k in d"),
    (
        "try:\n    f()\nexcept ValueError, e:\n    raise KeyError, 'x'\n",
        "try:\n    f()\nexcept ValueError as e:\n    raise KeyError('x')\n",
        "except E, e is except E as e",
    ),
    ("s = `x`\n", "s = repr(x)\n", "`x` is repr(x)"),
    ("if a <> b:\n    pass\n", "if a != b:\n    pass\n", "<> is !="),
    ("n = 10L\nm = 0777\n", "n = 10\nm = 0o777\n", "0777 is 0o777"),
    ("n = long(x)\n", "n = int(x)\n", "long is int"),
    ("u = unicode(x)\n", "u = str(x)\n", "unicode is str"),
    ("b = isinstance(x, basestring)\n", "b = isinstance(x, str)\n", "basestring is str"),
    ("s = raw_input()\n", "s = input()\n", "raw_input() is input()"),
    ("exec 'a = 1'\n", "exec('a = 1')\n", "the exec statement is exec()"),
    ("import cPickle\ns = cPickle.dumps(x)\n", "import pickle\ns = pickle.dumps(x)\n", "cPickle: pickle"),
    (
        "import urllib2\nr = urllib2.urlopen(u)\n",
        "import urllib.request, urllib.error, urllib.parse\nr = urllib.request.urlopen(u)\n",
        "urllib",
    ),
    ("from itertools import izip\nfor a, b in izip(x, y):\n    pass\n", "\nfor a, b in zip(x, y):\n    pass\n", "izip"),
    ("t = reduce(add, xs)\n", "from functools import reduce\nt = reduce(add, xs)\n", "functools.reduce"),
    (
        "ys = sorted(xs, cmp=compare)\n",
        "from functools import cmp_to_key\nys = sorted(xs, key=cmp_to_key(compare))\n",
        "cmp_to_key",
    ),
    (
        "xs.sort(compare)\na.b.sort(cmp=f, reverse=True)\n",
        "from functools import cmp_to_key\nxs.sort(key=cmp_to_key(compare))\na.b.sort(key=cmp_to_key(f), reverse=True)\n",
        "cmp_to_key",
    ),
    ("x = it.next()\n", "x = next(it)\n", "next(it)"),
    ("m = sys.maxint\n", "m = sys.maxsize\n", "sys.maxint is sys.maxsize"),
    ("import string\nc = string.letters\n", "import string\nc = string.ascii_letters\n", "string.ascii_*"),
    ("t = string.maketrans('ab', 'cd')\n", "t = str.maketrans('ab', 'cd')\n", "str.maketrans"),
    ("f = file('x.txt')\n", "f = open('x.txt')\n", "file() is open()"),
    (
        "import cPickle\nwith open(p) as f:\n    d = cPickle.load(f)\n",
        'import pickle\nwith open(p, "rb") as f:\n    d = pickle.load(f, encoding="latin1")\n',
        "encoding='latin1'",
    ),
    (
        "import cPickle\nf = open(p, 'r')\nd = cPickle.load(f)\n",
        "import pickle\nf = open(p, 'rb')\nd = pickle.load(f, encoding=\"latin1\")\n",
        "encoding='latin1'",
    ),
    ("import cPickle\ncPickle.dump(d, open(p, 'w'))\n", "import pickle\npickle.dump(d, open(p, 'wb'))\n", "binary"),
]


@pytest.mark.parametrize("before, after, note", FIXERS, ids=[f[2][:30] for f in FIXERS])
def test_each_fixer_converts_and_names_its_line(before, after, note):
    result = convert(before)
    assert result.text == after
    infos = issues(result, "INFO")
    assert any(note in message for _, message in infos), infos
    assert all(line >= 1 for line, _ in infos if "This is Python 2 source" not in _)


# (Python 2, Python 3): where Python 2's list was used, it still is; where it was only iterated, no list().
LIST_CONTEXTS = [
    ("ks = d.keys()\nfirst = ks[0]\n", "ks = list(d.keys())\nfirst = ks[0]\n"),
    ("pairs = zip(a, b)\nn = len(pairs)\n", "pairs = list(zip(a, b))\nn = len(pairs)\n"),
    ("sq = map(f, xs)\n", "sq = list(map(f, xs))\n"),
    ("c = tf.constant(map(float, xs))\n", "c = tf.constant(list(map(float, xs)))\n"),
    ("both = d.keys() + e.keys()\n", "both = list(d.keys()) + list(e.keys())\n"),
    ("evens = filter(even, xs)\nprint evens[0]\n", "evens = list(filter(even, xs))\nprint(evens[0])\n"),
    ("for y in map(f, xs):\n    pass\n", "for y in map(f, xs):\n    pass\n"),
    ("for a, b in zip(x, y):\n    pass\n", "for a, b in zip(x, y):\n    pass\n"),
    ("n = sum(map(len, xs))\n", "n = sum(map(len, xs))\n"),
]


@pytest.mark.parametrize("before, after", LIST_CONTEXTS)
def test_lists_stay_lists_where_python_2_used_them(before, after):
    assert convert(before).text == after


INTEGERS = [
    "n = len(xs) / 2\n",
    "for i in xrange(10):\n    h = i / 3\n",
    "FLAGS = tf.app.flags.FLAGS\ntf.app.flags.DEFINE_integer('batch_size', 8, '')\nb = FLAGS.batch_size / 2\n",
    "d = x.get_shape()[1].value / 2\n",
    "batch, height, width, depth = x.get_shape().as_list()\nk = height / 2\n",
    "k = tf.shape(x)[0] / 2\n",
    "n = 0\nfor batch in batches:\n    n += len(batch)\nm = n / 3\n",
    "units = 128\ndef build(cell):\n    return units / 4\n",
    "parser.add_argument('--hidden', type=int, default=8)\nargs = parser.parse_args()\nh = args.hidden / 2\n",
    "n = int(s) / 2 + 7 / 2\n",
    "x = 7\nx /= 2\n",
    "half = 1 / 2\n",
    "shape = x.get_shape().as_list()\nk = shape[1] / 2\n",
    "batch_size = 100\ntotal_batch = int(mnist.train.num_examples / batch_size)\n",
    "w = x.shape[2] / 2 ** len(depths)\n",
]


@pytest.mark.parametrize("source", INTEGERS)
def test_division_of_two_integers_becomes_floor_division(source):
    result = convert(source)
    expected = textwrap.dedent(source).replace(" / ", " // ").replace(" /= ", " //= ").replace("xrange", "range")
    expected = expected.replace("tf.app.", "tf.compat.v1.app.")
    assert result.text == expected
    floored = [m for _, m in issues(result, "INFO") if "which Python 2 floored: now `//`" in m]
    assert len(floored) == textwrap.dedent(source).count(" /")
    assert issues(result, "WARNING") == []


FLOATS = [
    "y = len(xs) / 2.0\n",
    "y = float(n) / k\n",
    "tf.app.flags.DEFINE_float('learning_rate', 0.1, '')\nlr = FLAGS.learning_rate / 10\n",
    "import math\nz = math.ceil(n) / 2\n",
    "t = (time.time() - start) / steps\n",
    "r = tf.to_float(correct) / n\n",
    "x = 0.5\nfor i in xrange(3):\n    x = x * 2\ny = x / 4\n",
]


@pytest.mark.parametrize("source", FLOATS)
def test_division_with_a_float_operand_is_kept_without_a_warning(source):
    result = convert(source)
    assert " / " in result.text and " // " not in result.text.replace("xrange", "")
    assert issues(result, "WARNING") == []


UNKNOWN = [
    ("def f(units):\n    return units / 2\n", 2, "units / 2"),
    ("avg = total / count\n", 1, "total / count"),
    ("n = sess.run(correct)\npct = 100 * n / len(xs)\n", 2, "100 * n / len(xs)"),
    ("x = 0\nx = x + 0.5\ny = x / 2\n", 3, "x / 2"),
    ("self.half = self.units / 2\n", 1, "self.units / 2"),
]


@pytest.mark.parametrize("source, line, expression", UNKNOWN)
def test_division_of_unknown_operands_is_kept_with_a_warning_naming_the_line(source, line, expression):
    result = convert(source)
    assert result.text == textwrap.dedent(source)
    [(at, message)] = issues(result, "WARNING")
    assert at == line
    assert message.startswith("Python 2 -> 3: `%s`: Python 2 floored `/` when both operands were integers" % expression)
    assert message.endswith("Write `//` if both are integers (docs/upgrade.rst, 'Python 2 sources').")


def test_from_future_division_keeps_every_division():
    source = "from __future__ import division\nn = len(xs) / 2\nprint 'n', n\nm = units / 2\n"
    result = convert(source, python2="auto")
    assert result.text == "from __future__ import division\nn = len(xs) / 2\nprint('n', n)\nm = units / 2\n"
    assert issues(result, "WARNING") == []


def test_an_unknown_quotient_in_a_size_still_gets_use_tf1_shapes():
    result = convert(
        """\
        import tensorflow as tf
        def build(units):
            print 'building', units
            return tf.nn.rnn_cell.GRUCell(units / 2)
        """,
        python2="auto",
    )
    assert "tf1clip.use_tf1_shapes()" in result.text
    assert "GRUCell(units / 2)" in result.text
    assert [line for line, _ in issues(result, "WARNING")] == [4]


def test_a_python_3_file_is_not_touched_by_the_pass():
    source = "import numpy as np\nn = len(xs) / 2\nprint(n, np.ones(2))\nkeys = d.keys()\n"
    result = convert(source, python2="auto")
    assert result.text == source
    assert not [e for e in result.log if "Python 2" in e.message]


@pytest.mark.parametrize(
    "source",
    [
        "try:\n    xrange\nexcept NameError:\n    xrange = range\nfor i in xrange(3):\n    n = len(x) / 2\n",
        "import sys\nif sys.version_info[0] == 2:\n    import cPickle as pickle\nelse:\n    import pickle\nn = len(x) / 2\n",
        "try:\n    import cPickle as pickle\nexcept ImportError:\n    import pickle\nn = len(x) / 2\n",
        "import six\nif six.PY2:\n    text = unicode(x)\nn = len(x) / 2\n",
        "from six.moves import xrange\nfor i in xrange(3):\n    n = len(x) / 2\n",
        "s = 'print xrange(3), d.iteritems()'  # names in strings and comments: xrange\n",
    ],
)
def test_python_2_names_behind_a_shim_do_not_make_a_file_python_2(source):
    assert _py2.why(source) == (None, True)
    assert convert(source, python2="auto").text == source


@pytest.mark.parametrize(
    "source, name, line",
    [
        ("import numpy as np\nfor i in xrange(3):\n    pass\n", "xrange", 2),
        ("x = 1\nfor k, v in feed.iteritems():\n    pass\n", ".iteritems()", 2),
        ("import cPickle\n", "import cPickle", 1),
        ("from itertools import izip\n", "import itertools.izip", 1),
        ("n = sys.maxint\n", "sys.maxint", 1),
    ],
)
def test_a_file_that_parses_as_python_3_but_names_python_2_is_python_2(source, name, line):
    assert _py2.why(source) == ("it uses Python 2's %s (line %d)" % (name, line), True)
    result = convert(source, python2="auto")
    assert result.log[0].line == 0
    assert result.log[0].message.startswith("This is Python 2 source (it uses Python 2's %s (line %d))" % (name, line))


def test_prints_of_a_file_that_parses_as_python_3_stay_calls():
    result = convert("print('a', 'b')\nfor i in xrange(2):\n    pass\n", python2="auto")
    assert result.text == "print('a', 'b')\nfor i in range(2):\n    pass\n"


def test_print_function_keeps_the_prints():
    source = "from __future__ import print_function\nprint('a', 'b', file=f)\nexcept_ = d.has_key(1)\nprint 'x'\n"
    result = convert(source, python2="auto")  # print 'x' is not Python 2 with print_function either: kept
    assert result.text.split("\n")[2:4] == ["except_ = 1 in d", "print 'x'"]
    assert [(e.line, e.message.split(" (")[0]) for e in result.log if e.severity == "ERROR"] == [
        (4, "Could not parse this line, left unchanged")
    ]
    result = convert(source.replace("print 'x'\n", "for i in xrange(2):\n    pass\n"), python2="auto")
    assert "print('a', 'b', file=f)" in result.text and "range(2)" in result.text


def test_a_print_statement_of_a_tuple_prints_the_tuple_as_python_2_did():
    assert convert("print('a', 'b')\nprint 'c'\n", python2="auto").text == "print(('a', 'b'))\nprint('c')\n"


def test_a_mixed_file_with_print_calls_python_2_cannot_read_as_statements_converts():
    source = "import sys\ntry:\n    f()\nexcept ValueError, e:\n    print('bad', e, file=sys.stderr)\n"
    result = convert(source, python2="auto")
    assert result.text == "import sys\ntry:\n    f()\nexcept ValueError as e:\n    print('bad', e, file=sys.stderr)\n"


def test_never_leaves_python_2_to_the_python_3_parser():
    with pytest.raises(SyntaxError):
        convert("print 'x'\n", python2="never")
    assert convert("for i in xrange(2):\n    pass\n", python2="never").text == "for i in xrange(2):\n    pass\n"


def test_a_bad_choice_is_a_value_error():
    with pytest.raises(ValueError, match=r"python2 must be one of auto, always, never, got 'yes'"):
        convert("x = 1\n", python2="yes")
    with pytest.raises(ValueError, match=r"python2 must be one of auto, always, never, got 'sometimes'"):
        upgrade.upgrade_tree("/nonexistent", "/nonexistent2", python2="sometimes")


def test_tensorflow_log_lines_stay_the_input_lines_when_the_pass_adds_lines():
    result = convert(
        """\
        import tensorflow as tf
        total = reduce(add, xs)
        ys = sorted(xs, cmp=compare)
        x = tf.placeholder(tf.float32)
        print x
        """,
        python2="auto",
    )
    assert "from functools import reduce" in result.text and "from functools import cmp_to_key" in result.text
    [line] = [e.line for e in result.log if e.message == "Renamed 'tf.placeholder' to 'tf.compat.v1.placeholder'"]
    assert line == 4
    assert [e.line for e in result.log if "the print statement" in e.message] == [5]


def test_fissix_warnings_and_round_are_warnings_at_their_lines():
    result = convert("x = round(2.5)\ny = 1\nz = map(None, a, b)\nw = round(y, 1)\n")
    warnings = issues(result, "WARNING")
    assert [line for line, _ in warnings] == [1, 3]
    assert warnings[0][1].startswith("Python 2 -> 3: round(x) in Python 2 returned a float and rounded halves away")
    assert warnings[0][1].endswith("Lines: 1, 4.")
    assert "map(None, ...)" in warnings[1][1] or "map(None" in warnings[1][1]


def test_mixed_tabs_and_spaces_are_indented_as_python_2_read_them():
    source = "def f():\n        a = 1\n\tb = 2\n\treturn a + b\ns = '''\n\tkept in a string\n'''\n"
    result = convert(source, python2="auto")
    assert (
        result.text
        == "def f():\n        a = 1\n        b = 2\n        return a + b\ns = '''\n\tkept in a string\n'''\n"
    )
    [(line, message)] = [i for i in issues(result, "INFO") if "tabs" in i[1]]
    assert line == 3 and "on 2 lines from here" in message


def _notebook(cells, kernel):
    metadata = {"kernelspec": {"display_name": "Python %s" % kernel[-1], "language": "python", "name": kernel}}
    metadata["language_info"] = {"name": "python", "version": "%s.7.12" % kernel[-1], "pygments_lexer": "ipython2"}
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 2}


def _cell(source):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


def test_a_python_2_notebook_is_converted_as_python_2_and_gets_a_python_3_kernel(tmp_path):
    cells = [_cell(["import numpy as np\n", "n = 10\n"]), _cell(["%matplotlib inline\n", "half = n / 3\n"])]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(_notebook(cells, "python2")))
    result = upgrade.upgrade_file(str(path), str(tmp_path / "out.ipynb"))
    after = json.loads((tmp_path / "out.ipynb").read_text())
    assert after["cells"][1]["source"] == ["%matplotlib inline\n", "half = n // 3\n"]
    assert after["metadata"]["kernelspec"]["name"] == "python3"
    assert after["metadata"]["language_info"]["pygments_lexer"] == "ipython3"
    assert "version" not in after["metadata"]["language_info"]
    assert result.log[0].message.startswith("The notebook's kernel was Python 2")
    assert any("its notebook kernel is Python 2" in e.message for e in result.log)
    assert [e.line for e in result.log if "now `//`" in e.message] == [4]


def test_a_python_3_notebook_that_parses_is_not_taken_as_python_2(tmp_path):
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(_notebook([_cell("half = 10 / 3\n")], "python3")))
    result = upgrade.upgrade_file(str(path), str(tmp_path / "out.ipynb"))
    assert result.status == "unchanged"
    assert (tmp_path / "out.ipynb").read_text() == path.read_text()


def test_implicit_relative_imports_in_a_package_are_warnings(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "model.py").write_text("x = 1\n")
    (package / "train.py").write_text("import os\nimport model\nfrom model import x\nprint x\n")
    result = upgrade.upgrade_file(str(package / "train.py"), str(tmp_path / "train.py"))
    warnings = [(e.line, e.message) for e in result.log if "implicit relative import" in e.message]
    assert [line for line, _ in warnings] == [2, 3]
    assert "it needs `from . import model`. Left as it was." in warnings[0][1]
    assert (tmp_path / "train.py").read_text() == "import os\nimport model\nfrom model import x\nprint(x)\n"
    (package / "__init__.py").unlink()
    result = upgrade.upgrade_file(str(package / "train.py"), str(tmp_path / "train.py"))
    assert not [e for e in result.log if "implicit relative import" in e.message]


def test_the_command_line_option(tmp_path, capsys):
    path = tmp_path / "old.py"
    path.write_text("import tensorflow as tf\nprint 'x'\n")
    report = str(tmp_path / "report.txt")
    assert upgrade.main(["--infile", str(path), "--outfile", str(tmp_path / "a.py"), "--reportfile", report]) == 0
    assert (tmp_path / "a.py").read_text().endswith("print('x')\n")
    args = ["--infile", str(path), "--outfile", str(tmp_path / "b.py"), "--python2", "never", "--reportfile", report]
    assert upgrade.main(args) == 1
    assert "old.py:2:0: ERROR: Could not parse this line, left unchanged" in capsys.readouterr().out


def test_without_fissix_a_python_2_file_is_an_error_naming_the_install(tmp_path, monkeypatch):
    def missing():
        raise _py2.FissixMissing("converting Python 2 sources needs fissix (fissix>=24.4), which cannot be imported")

    monkeypatch.setattr(_py2, "_TOOLS", {})
    monkeypatch.setattr(_py2, "_fissix", missing)
    path = tmp_path / "old.py"
    path.write_text("print 'x'\n")
    result = upgrade.upgrade_file(str(path), str(tmp_path / "new.py"))
    assert result.status == "failed"
    assert result.errors[0].message.startswith("converting Python 2 sources needs fissix (fissix>=24.4)")
    assert convert("x = 1\n", python2="auto").text == "x = 1\n"  # a Python 3 file needs no fissix
