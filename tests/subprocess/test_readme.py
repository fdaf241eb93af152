"""The code in README.rst and docs/quickstart.rst runs as written; its links and commands hold."""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCUMENTS = ["README.rst", os.path.join("docs", "quickstart.rst")]
NOT_RUN = "# TF 1.x"  # a Python block starting with this comment shows legacy code; it is not run


def _blocks(path):
    """``(directive, first line number, code)`` for every literal block of an RST file."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().splitlines()
    blocks = []
    for i, line in enumerate(lines):
        directive = re.match(r"^\s*\.\. code-block:: *(\S+)", line)
        if directive:
            kind = directive.group(1)
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            kind = "literal"
        else:
            continue
        indent = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or lines[j].lstrip().startswith(":")):
            j += 1
        start, body = j, []
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
            body.append(lines[j])
            j += 1
        width = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
        blocks.append((kind, start + 1, "\n".join(b[width:] for b in body).strip() + "\n"))
    return blocks


def _python_blocks(path):
    return [(n, code) for kind, n, code in _blocks(path) if kind == "python" and not code.startswith(NOT_RUN)]


@pytest.mark.parametrize("path", DOCUMENTS)
def test_python_blocks_parse(path):
    blocks = _python_blocks(path)
    assert blocks, "no `.. code-block:: python` in %s" % path
    for line, code in blocks:
        compile(code, "%s:%d" % (path, line), "exec")


@pytest.mark.parametrize("path", DOCUMENTS)
def test_python_looking_blocks_are_marked_python(path):
    for kind, line, code in _blocks(path):
        if kind in ("literal", "text", "none"):
            assert not re.search(r"^(import |from \S+ import |\S+ = tf)", code, re.M), (
                "%s:%d holds Python in a `%s` block: make it `.. code-block:: python` so it is tested"
                % (path, line, kind)
            )


@pytest.mark.parametrize("path", DOCUMENTS)
def test_python_blocks_run_in_order(path, tmp_path):
    """All Python blocks of a document, in order, in one fresh interpreter, as a reader pastes them."""
    program = "\n".join("# --- %s:%d\n%s" % (path, line, code) for line, code in _python_blocks(path))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, "-c", program], cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    for out in re.findall(r"loss (\S+) -> (\S+)", proc.stdout):
        before, after = map(float, out)
        assert after < 0.5 * before, proc.stdout  # every recipe shown learns


def _readme():
    with open(os.path.join(ROOT, "README.rst"), encoding="utf-8") as f:
        return f.read()


def test_readme_has_the_two_commands_in_the_shape_ci_reads():
    lines = _readme().splitlines()
    for intro in ("Run the main job", "Run the tests::"):
        (i,) = [n for n, line in enumerate(lines) if line.startswith(intro)]
        while not lines[i].endswith("::"):
            i += 1
        assert lines[i + 1] == "" and lines[i + 2].startswith("    ") and lines[i + 2].strip()
        assert lines[i + 3] == ""


def test_readme_links_point_to_existing_files():
    text = _readme()
    paths = set(re.findall(r"\b((?:docs|legacy_examples|tests|benchmarks)/[\w./-]+\.(?:rst|py|png|md))", text))
    assert "docs/index.rst" in paths
    missing = [p for p in sorted(paths) if not os.path.exists(os.path.join(ROOT, p))]
    assert not missing


def test_readme_has_no_internal_notes():
    for path in ["README.rst"] + [os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))]:
        if path.endswith(".rst"):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read().lower()
            for note in ("design card", "the issue's targets", "issue's target"):
                assert note not in text, (path, note)


def test_headline_plot_in_the_docs_is_a_png():
    with open(os.path.join(ROOT, "docs", "_static", "exploding_rnn.png"), "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000


def test_reference_page_covers_the_public_api():
    """docs/reference.rst documents every public name (explicitly, or by ``:members:``)."""
    import importlib

    with open(os.path.join(ROOT, "docs", "reference.rst"), encoding="utf-8") as f:
        text = f.read()
    modules = ["tf1clip"] + [
        "tf1clip.contrib." + name
        for name in (
            "estimator",
            "layers",
            "training",
            "slim",
            "slim.learning",
            "opt",
            "framework",
            "image",
            "quantize",
        )
    ]
    modules += [
        "tf1clip.contrib.staging",
        "tf1clip.contrib.predictor",
        "tf1clip.contrib.predictor.saved_model_predictor",
    ]
    missing = []
    for name in modules:
        assert ".. automodule:: %s\n" % name in text, name
        if re.search(r"\.\. automodule:: %s\n   :members:\n" % re.escape(name), text):
            continue
        for public in importlib.import_module(name).__all__:
            if public != "__version__" and not re.search(r"(::|\.|`) ?%s\b" % re.escape(public), text):
                missing.append("%s.%s" % (name, public))
    assert not missing
