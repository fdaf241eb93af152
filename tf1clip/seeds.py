"""The old path of :func:`tf1clip.use_tf1_random_seeds` and :func:`tf1_random_seeds_enabled` (they live in
``tf1clip/fidelity/seeds.py``, with the other TF 1.15 fidelity switches; programs and tests import them from here)."""

from tf1clip.fidelity.seeds import tf1_random_seeds_enabled, use_tf1_random_seeds

__all__ = ["use_tf1_random_seeds", "tf1_random_seeds_enabled"]
