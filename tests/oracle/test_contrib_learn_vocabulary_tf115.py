"""TF 1.15.5's tf.contrib.learn.preprocessing.VocabularyProcessor restores a file tf1clip saved (the other way and
the recorded numbers: tests/unit/test_contrib_learn_preprocessing.py)."""

import json
import os
import subprocess

import numpy as np
import pytest

from tf1clip.contrib.learn import preprocessing as pre

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_learn")
TF115_PYTHON = os.path.expanduser("~/.cache/tf1clip/tf115-venv/bin/python")
with open(os.path.join(DATA, "refs.json")) as _f:
    DOCS = json.load(_f)["docs"]


def rows(it):
    return np.array(list(it)).tolist()


@pytest.mark.skipif(not os.path.exists(TF115_PYTHON), reason="the oracle's TensorFlow 1.15 is not built")
def test_tf115_restores_tf1clip_file(tmp_path):
    vp = pre.VocabularyProcessor(max_document_length=5)
    vp.fit(DOCS + ["brand new words"])
    path = str(tmp_path / "vocab.pkl")
    vp.save(path)
    code = (
        "import json\nfrom tensorflow.contrib import learn\n"
        "vp = learn.preprocessing.VocabularyProcessor.restore(%r)\n"
        "print(json.dumps([r.tolist() for r in vp.transform(%r)]))\n" % (path, DOCS)
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TF2_BEHAVIOR")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    proc = subprocess.run([TF115_PYTHON, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == rows(vp.transform(DOCS))
