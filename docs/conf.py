"""Sphinx configuration for the tf1clip reference (built with ``sphinx-build -W``)."""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "docs", "_ext"))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tf1clip  # noqa: E402

project = "tf1clip"
author = "tf1clip developers"
release = version = tf1clip.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "manifest_table", "fidelity_table", "results"]
exclude_patterns = ["_build"]
autodoc_member_order = "bysource"
html_theme = "alabaster"
