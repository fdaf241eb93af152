"""Sphinx configuration for the tf1clip reference (built with ``sphinx-build -W``)."""

import os
import sys

sys.path.insert(0, os.path.abspath(".."))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

project = "tf1clip"
author = "tf1clip developers"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
