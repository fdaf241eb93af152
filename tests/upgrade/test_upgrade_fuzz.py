"""tf1clip-upgrade on odd inputs: no traceback, inputs untouched, modes kept.

One command-line run per layout (a tree out of place, the same tree in place, single files),
in-process; each odd file must become one ERROR line (or convert cleanly), be copied unchanged,
and never stop the rest of the tree.
"""

import json
import os
import stat

import pytest

from tf1clip import upgrade

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

CONVERTIBLE = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
CONVERTED_LINE = "x = tf.compat.v1.placeholder(tf.float32)"
UNCHANGED = "import numpy as np\nprint(np.ones(2))\n"
DEEP = "x = " + " + ".join(["1"] * 3000) + "\n"


def _notebook(cells):
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 2})


def _code_cell(source):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


# name -> (bytes, expected: "converted" | "unchanged" | "failed", mode)
ODD = {
    "latin1.py": (
        "# -*- coding: latin-1 -*-\nimport tensorflow as tf\nname = 'caf\xe9'\nx = tf.placeholder(tf.float32)\n".encode(
            "latin-1"
        ),
        "converted",
        0o644,
    ),
    "bom.py": (b"\xef\xbb\xbf" + CONVERTIBLE.encode(), "converted", 0o644),
    "crlf.py": (CONVERTIBLE.replace("\n", "\r\n").encode(), "converted", 0o755),
    "readonly.py": (CONVERTIBLE.encode(), "converted", 0o444),
    "private.py": (CONVERTIBLE.encode(), "converted", 0o600),
    "same.py": (UNCHANGED.encode(), "unchanged", 0o755),
    "deep.py": (DEEP.encode(), "failed", 0o644),
    "python2.py": (b"import tensorflow as tf\nprint 'hello'\n" + CONVERTIBLE.encode()[24:], "converted", 0o644),
    "neither_2_nor_3.py": (b"import tensorflow as tf\nprint 'hello' +\n", "failed", 0o644),
    "not_utf8.py": (b"import tensorflow as tf\nname = '\xff\xfe'\n", "failed", 0o644),
    "bad_cookie.py": (b"# -*- coding: no-such-codec -*-\nx = 1\n", "failed", 0o644),
    "nul.py": (b"x = 1\x00\n", "failed", 0o644),
    "cells_string.ipynb": (json.dumps({"cells": "import tensorflow as tf"}).encode(), "failed", 0o644),
    "cells_dict.ipynb": (json.dumps({"cells": {"a": 1}}).encode(), "failed", 0o644),
    "cell_list_of_ints.ipynb": (_notebook([_code_cell([1, 2])]).encode(), "failed", 0o644),
    "not_json.ipynb": (b"{ this is not json", "failed", 0o644),
    "code_fails.ipynb": (_notebook([_code_cell("print 'py2' +\n")]).encode(), "failed", 0o644),
    "good.ipynb": (_notebook([_code_cell(CONVERTIBLE)]).encode(), "converted", 0o640),
    "same.ipynb": (
        json.dumps({"cells": [_code_cell(UNCHANGED)], "nbformat": 4}, indent=4).encode(),
        "unchanged",
        0o644,
    ),
    "zz_last.py": (CONVERTIBLE.encode(), "converted", 0o644),
}


def _make_tree(root):
    root.mkdir()
    (root / "sub").mkdir()
    for name, (data, _, mode) in ODD.items():
        path = root / "sub" / name if name == "zz_last.py" else root / name
        path.write_bytes(data)
        os.chmod(path, mode)
    (root / "data.bin").write_bytes(b"\x00\x01")
    os.chmod(root / "data.bin", 0o751)
    os.symlink("latin1.py", root / "link_in_tree.py")
    os.symlink("/nonexistent/elsewhere.py", root / "dangling.py")
    os.symlink("sub", root / "sub_link")
    return root


def _snapshot(root):
    found = {}
    for dir_name, dir_names, file_names in os.walk(root):
        for name in dir_names + file_names:
            path = os.path.join(dir_name, name)
            rel = os.path.relpath(path, root)
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                with open(path, "rb") as f:
                    found[rel] = (stat.S_IMODE(info.st_mode), f.read(), info.st_mtime_ns)
    return found


def _run(args, tmp_path, capsys):
    report = tmp_path / "report.txt"
    status = upgrade.main(list(args) + ["--reportfile", str(report)])
    out = capsys.readouterr()
    return status, out.out + out.err, report.read_text()


def _check_outputs(source_root, out_root, report):
    for name, (data, expected, mode) in ODD.items():
        rel = os.path.join("sub", name) if name == "zz_last.py" else name
        out = out_root / rel
        assert stat.S_IMODE(os.stat(out).st_mode) == mode, name
        new = out.read_bytes()
        errors = [line for line in report.splitlines() if ": ERROR: " in line and line.split(":")[0].endswith(rel)]
        if expected == "failed":
            assert new == data, name
            assert len(errors) == 1 and "left unchanged" in errors[0], (name, errors)
        else:
            assert not errors, (name, errors)
        if expected == "unchanged":
            assert new == data, name
        if expected == "converted" and name.endswith(".py"):
            assert CONVERTED_LINE.encode() in new, name
    latin = (out_root / "latin1.py").read_bytes()
    assert "caf\xe9".encode("latin-1") in latin and latin.startswith(b"# -*- coding: latin-1 -*-\n")
    assert (out_root / "bom.py").read_bytes().startswith(b"\xef\xbb\xbfimport tensorflow as tf\n")
    crlf = (out_root / "crlf.py").read_bytes()
    assert b"\r\n" in crlf and crlf.count(b"\n") == crlf.count(b"\r\n")
    notebook = json.loads((out_root / "good.ipynb").read_text())
    assert CONVERTED_LINE in "".join(notebook["cells"][0]["source"])
    assert not [n for n in os.listdir(out_root) if n.startswith(".tf1clip-upgrade-")]


def test_odd_tree_out_of_place(tmp_path, capsys):
    tree = _make_tree(tmp_path / "tree")
    before = _snapshot(tree)
    out = tmp_path / "out"
    status, printed, report = _run(["--intree", str(tree), "--outtree", str(out)], tmp_path, capsys)
    assert status == 1
    assert "Traceback" not in printed + report
    assert _snapshot(tree) == before  # the input is untouched
    _check_outputs(tree, out, report)
    assert stat.S_IMODE(os.stat(out / "data.bin").st_mode) == 0o751
    assert os.readlink(out / "link_in_tree.py") == "latin1.py"  # points at the converted copy
    assert os.readlink(out / "dangling.py") == "/nonexistent/elsewhere.py"
    assert os.readlink(out / "sub_link") == "sub"
    failed = sum(1 for _, expected, _ in ODD.values() if expected == "failed")
    assert "(%d errors)" % failed in report


def test_odd_tree_in_place_touches_only_converted_files(tmp_path, capsys):
    tree = _make_tree(tmp_path / "tree")
    reference = tmp_path / "reference"
    _run(["--intree", str(tree), "--outtree", str(reference)], tmp_path, capsys)
    before = _snapshot(tree)
    status, printed, report = _run(["--intree", str(tree), "--inplace"], tmp_path, capsys)
    assert status == 1 and "Traceback" not in printed + report
    after = _snapshot(tree)
    for rel, value in before.items():
        name = os.path.basename(rel)
        if value[0] == "link" or ODD.get(name, (None, "other"))[1] in ("failed", "unchanged", "other"):
            assert after[rel] == value, rel  # bytes, mode and modification time
        else:
            assert after[rel][0] == value[0], rel  # the mode is kept
            assert after[rel][1] == (reference / rel).read_bytes(), rel
    _check_outputs(tree, tree, report)
    status, printed, report = _run(["--intree", str(tree), "--inplace"], tmp_path, capsys)
    assert {rel: v[:2] for rel, v in _snapshot(tree).items() if v[0] != "link"} == {
        rel: v[:2] for rel, v in after.items() if v[0] != "link"
    }  # a second run changes nothing


def test_single_odd_files_and_exit_status(tmp_path, capsys):
    tree = _make_tree(tmp_path / "tree")
    readonly = tree / "readonly.py"
    status, printed, _ = _run(["--infile", str(readonly), "--inplace"], tmp_path, capsys)
    assert status == 0 and "Traceback" not in printed
    assert stat.S_IMODE(os.stat(readonly).st_mode) == 0o444
    assert CONVERTED_LINE in readonly.read_text()
    status, printed, report = _run(
        ["--infile", str(tree / "deep.py"), "--outfile", str(tmp_path / "d.py")], tmp_path, capsys
    )
    assert status == 1 and "Traceback" not in printed
    assert "nested too deeply" in report
    link = tree / "link_in_tree.py"  # --inplace through a symbolic link converts its target
    status, _, _ = _run(["--infile", str(link), "--inplace"], tmp_path, capsys)
    assert status == 0 and os.path.islink(link)
    assert CONVERTED_LINE in (tree / "latin1.py").read_bytes().decode("latin-1")


def test_an_internal_error_is_exit_status_3_and_the_tree_goes_on(tmp_path, capsys, monkeypatch):
    from tf1clip.upgrade import _convert

    real = _convert.upgrade_source

    def explode(text, **kwargs):
        if "BOOM" in text:
            raise KeyError("simulated bug")
        return real(text, **kwargs)

    monkeypatch.setattr(_convert, "upgrade_source", explode)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a_boom.py").write_text("BOOM = 1\n")
    (tree / "b_ok.py").write_text(CONVERTIBLE)
    status, printed, report = _run(["--intree", str(tree), "--outtree", str(tmp_path / "out")], tmp_path, capsys)
    assert status == 3
    assert "Traceback" not in printed  # on stdout only the ERROR line; the traceback is in the report
    assert "internal error KeyError: 'simulated bug'" in printed and "Traceback" in report
    assert (tmp_path / "out" / "a_boom.py").read_text() == "BOOM = 1\n"
    assert CONVERTED_LINE in (tmp_path / "out" / "b_ok.py").read_text()


def test_upgrade_tree_refuses_an_output_inside_its_input(tmp_path):
    (tmp_path / "a.py").write_text(CONVERTIBLE)
    with pytest.raises(ValueError, match="output_tree must not be inside input_tree"):
        upgrade.upgrade_tree(str(tmp_path), str(tmp_path / "out"))
    with pytest.raises(ValueError, match="input_tree must be a directory, got"):
        upgrade.upgrade_tree(str(tmp_path / "a.py"), str(tmp_path.parent / "elsewhere"))
