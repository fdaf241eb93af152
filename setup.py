"""Packaging for tf1clip.

TensorFlow is not a hard install requirement so that users keep whichever
build they have (``tensorflow``, ``tensorflow-cpu``, a vendor build); pick one
with an extra: ``pip install 'tf1clip[cpu]'`` or ``pip install 'tf1clip[tf]'``.
``import tf1clip`` says clearly when TensorFlow is missing or older than 2.16.
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
    license="Apache-2.0",
    packages=find_packages(include=["tf1clip", "tf1clip.*"]),
    python_requires=">=3.9",
    install_requires=["numpy"],
    extras_require={
        "cpu": ["tensorflow-cpu>=2.16"],
        "tf": ["tensorflow>=2.16"],
        "legacy-keras": ["tf-keras>=2.16"],
        "test": ["pytest>=7"],
    },
    entry_points={"console_scripts": ["tf1clip-upgrade=tf1clip.upgrade:main"]},
    classifiers=[
        "Programming Language :: Python :: 3",
        "License :: OSI Approved :: Apache Software License",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
    ],
)
