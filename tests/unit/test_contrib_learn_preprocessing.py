"""tf1clip.contrib.learn.preprocessing against TF 1.15.5 (tests/data/tf115_learn, recorded by make_refs.py); TF 1.15
restoring tf1clip's file: tests/oracle/test_contrib_learn_vocabulary_tf115.py."""

import json
import os
import pickle

import numpy as np
import pytest

from tf1clip.contrib.learn import preprocessing as pre

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_learn")

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)
DOCS = REFS["docs"]


def rows(it):
    return np.array(list(it)).tolist()


def test_fit_transform_reverse_match_tf115():
    vp = pre.VocabularyProcessor(max_document_length=6)
    out = list(vp.fit_transform(DOCS))
    assert all(row.dtype == np.int64 and row.shape == (6,) for row in out)
    assert np.array(out).tolist() == REFS["plain"]
    assert vp.vocabulary_._mapping == REFS["plain_mapping"]
    assert list(vp.reverse(np.array(REFS["plain"]))) == REFS["plain_reverse"]
    assert rows(vp.transform(["cats sleep like FISH", ""])) == REFS["plain_unseen"]
    assert len(vp.vocabulary_) == len(REFS["plain_mapping"])


def test_min_frequency_keeps_words_seen_more_often():
    vp = pre.VocabularyProcessor(max_document_length=4, min_frequency=1)
    assert rows(vp.fit_transform(DOCS)) == REFS["trimmed"]
    # TF 1.15's quirk: min_frequency=1 keeps the words seen at least twice.
    assert vp.vocabulary_._mapping == REFS["trimmed_mapping"] == {"<UNK>": 0, "cats": 1, "like": 2}


def test_vocabulary_trim_and_tokenizer():
    vocab = pre.CategoricalVocabulary()
    for word, count in [("b", 3), ("a", 3), ("c", 1), ("d", 5), ("e", 2)]:
        vocab.add(word, count)
    vocab.trim(1, max_frequency=5)
    assert vocab._mapping == REFS["vocab_trim"]["mapping"]
    assert vocab._reverse_mapping == REFS["vocab_trim"]["reverse"]
    assert vocab._freq == REFS["vocab_trim"]["freq"]
    assert [list(t) for t in pre.tokenizer(DOCS)] == REFS["tokens"]
    vocab.freeze()
    assert vocab.get("zzz") == 0 and "zzz" not in vocab._mapping


def test_byte_processor():
    byte = pre.ByteProcessor(8)
    assert rows(byte.transform(["héllo", "abcdefghijk", b"xy"])) == REFS["bytes"]
    assert list(byte.reverse(np.array(REFS["bytes"]))) == REFS["bytes_reverse"]


def test_reverse_needs_support_reverse():
    with pytest.raises(ValueError, match="support_reverse"):
        pre.CategoricalVocabulary(support_reverse=False).reverse(0)


def test_restores_tf115_pickle_and_saves_it_byte_for_byte(tmp_path):
    restored = pre.VocabularyProcessor.restore(os.path.join(DATA, "vocab_tf115.pkl"))
    assert type(restored) is pre.VocabularyProcessor
    assert restored._tokenizer is pre.tokenizer
    assert rows(restored.transform(DOCS)) == REFS["trimmed"]
    vp = pre.VocabularyProcessor(max_document_length=4, min_frequency=1)
    vp.fit(DOCS)
    path = str(tmp_path / "vocab.pkl")
    vp.save(path)
    with open(path, "rb") as mine, open(os.path.join(DATA, "vocab_tf115.pkl"), "rb") as theirs:
        assert mine.read() == theirs.read()


def test_plain_pickle_needs_the_unpickler_and_own_paths_round_trip(tmp_path):
    with open(os.path.join(DATA, "vocab_tf115.pkl"), "rb") as f:
        data = f.read()
    with pytest.raises((ImportError, AttributeError)):
        pickle.loads(data)
    vp = pre.VocabularyProcessor(3, tokenizer_fn=lambda docs: (d.split() for d in docs))
    vp.fit(["a b", "b c"])
    assert pickle.loads(pickle.dumps(vp.vocabulary_))._mapping == vp.vocabulary_._mapping
    with pytest.raises(TypeError, match="data must be bytes, got str"):
        pre.load("not bytes")
