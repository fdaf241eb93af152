"""Records TF 1.15.5's tf.contrib.learn.preprocessing results for tests/unit/test_contrib_learn_preprocessing.py.

Run with the oracle's TensorFlow 1.15 (tests/oracle/tf115_env.py) from this directory:
    env -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python make_refs.py
Writes refs.json and vocab_tf115.pkl (VocabularyProcessor.save of the min_frequency=1 processor).
"""

import json

import numpy as np
from tensorflow.contrib import learn

DOCS = [
    "I like Cats and dogs",
    "cats like FISH",
    "Dogs chase cats",
    "the fish sleeps",
    "HTTPServer runs camelCase code-words don't stop",
]


def rows(it):
    return np.array(list(it)).tolist()


def main():
    refs = {"docs": DOCS}
    pre = learn.preprocessing
    plain = pre.VocabularyProcessor(max_document_length=6)
    refs["plain"] = rows(plain.fit_transform(DOCS))
    refs["plain_mapping"] = plain.vocabulary_._mapping
    refs["plain_reverse"] = list(plain.reverse(np.array(refs["plain"])))
    refs["plain_unseen"] = rows(plain.transform(["cats sleep like FISH", ""]))
    trimmed = pre.VocabularyProcessor(max_document_length=4, min_frequency=1)
    refs["trimmed"] = rows(trimmed.fit_transform(DOCS))
    refs["trimmed_mapping"] = trimmed.vocabulary_._mapping
    trimmed.save("vocab_tf115.pkl")
    vocab = pre.CategoricalVocabulary()
    for word, count in [("b", 3), ("a", 3), ("c", 1), ("d", 5), ("e", 2)]:
        vocab.add(word, count)
    vocab.trim(1, max_frequency=5)
    refs["vocab_trim"] = {"mapping": vocab._mapping, "reverse": vocab._reverse_mapping, "freq": vocab._freq}
    refs["tokens"] = list(pre.tokenizer(DOCS))
    byte = pre.ByteProcessor(8)
    refs["bytes"] = rows(byte.transform(["héllo", "abcdefghijk", b"xy"]))
    refs["bytes_reverse"] = list(byte.reverse(np.array(refs["bytes"])))
    with open("refs.json", "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))


if __name__ == "__main__":
    main()
