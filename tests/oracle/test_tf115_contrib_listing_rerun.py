"""scripts/tf115_contrib_listing.py re-run on TensorFlow 1.15 reproduces tf1clip/upgrade/_tf115_contrib.py byte for
byte (the committed file's date is kept while its data is unchanged)."""

import os
import shutil
import subprocess

import pytest

from oracle import tf115_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "tf115_contrib_listing.py")
LISTING = os.path.join(ROOT, "tf1clip", "upgrade", "_tf115_contrib.py")


def test_the_script_reproduces_the_committed_listing_on_tf115(tmp_path):
    try:
        python = tf115_env.ensure()
    except tf115_env.Unavailable as e:
        pytest.skip(str(e))
    out = str(tmp_path / "_tf115_contrib.py")
    shutil.copy(LISTING, out)
    proc = subprocess.run(
        [python, SCRIPT, out], env=tf115_env.clean_env(), capture_output=True, text=True, timeout=900, cwd=str(tmp_path)
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out, encoding="utf-8") as f, open(LISTING, encoding="utf-8") as g:
        assert f.read() == g.read()
