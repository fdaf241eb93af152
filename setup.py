"""Packaging for tf1clip (not on PyPI: install from a checkout or a git URL, see docs/install.rst).

TensorFlow is not a hard install requirement so that users keep whichever
build they have (``tensorflow``, ``tensorflow-cpu``, a vendor build); pick one
with an extra: ``cpu`` or ``tf`` (the CUDA-enabled build, for GPU machines).
``estimator`` adds tensorflow-estimator 2.15.0 (pure Python, no TensorFlow pin)
for ``tf1clip.estimator`` on TensorFlow 2.15 to newest: ``'.[cpu,estimator]'``.
``import tf1clip`` says clearly when TensorFlow is missing or older than 2.15.

There is no ``tf-keras`` extra: tf-keras requires the ``tensorflow`` distribution,
so pip would install a second TensorFlow build next to ``tensorflow-cpu``. Run
``python3 -m tf1clip.install_extras legacy-keras`` instead (tf-keras at TensorFlow's
minor version, without dependencies).
"""

import os
import re

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "tf1clip", "__init__.py")) as f:
    VERSION = re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)

with open(os.path.join(HERE, "README.rst")) as f:
    LONG_DESCRIPTION = f.read()

setup(
    name="tf1clip",
    version=VERSION,
    description="TF1-style gradient clipping (tf.contrib drop-ins) for TensorFlow 2.x tf.compat.v1 code",
    long_description=LONG_DESCRIPTION,
    long_description_content_type="text/x-rst",
    license_expression="Apache-2.0",
    packages=find_packages(include=["tf1clip", "tf1clip.*"]),
    # tf.contrib.learn.datasets' bundled CSV files (load_iris, load_boston, load_dbpedia's fake data), as TF 1.15.
    package_data={"tf1clip.contrib.learn.datasets": ["data/*.csv"]},
    python_requires=">=3.9",
    # fissix (the maintained fork of lib2to3, pure Python): tf1clip-upgrade converts Python 2 sources with it.
    install_requires=["numpy", "fissix>=24.4"],
    extras_require={
        "cpu": ["tensorflow-cpu>=2.15"],
        "tf": ["tensorflow>=2.15"],
        "estimator": ["tensorflow-estimator==2.15.0"],
        "slim": ["tf-slim>=1.1"],
        # tensorflow-hub 0.16 requires tf-keras, which requires the `tensorflow` build: a second TensorFlow.
        "gan": ["tensorflow-gan==2.1.0", "tensorflow-hub>=0.12,<0.16"],
        "plot": ["matplotlib>=3.5"],
        "scipy": ["scipy>=1.7"],
        "test": [
            "pytest>=7",
            "hypothesis>=6",
            "matplotlib>=3.5",
            "scipy>=1.7",
            "tensorflow-gan==2.1.0",
            "tensorflow-hub>=0.12,<0.16",
        ],
        "docs": ["sphinx>=7"],
    },
    entry_points={"console_scripts": ["tf1clip-upgrade=tf1clip.upgrade:main"]},
    classifiers=[
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3 :: Only",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
    ],
)
