"""``tf.contrib.learn.preprocessing``: TF 1.15's text preprocessing (``VocabularyProcessor``), pure Python.

``VocabularyProcessor``, ``CategoricalVocabulary``, ``ByteProcessor`` and ``tokenizer`` compute what TF 1.15's
``tensorflow.contrib.learn.python.learn.preprocessing.text`` and ``categorical_vocabulary`` computed, quirks included
(``min_frequency`` keeps words seen *more* than ``min_frequency`` times; ``trim`` renumbers by frequency, then
alphabet).

Pickles: ``VocabularyProcessor.save`` writes TF 1.15's pickle (protocol 3, its classes named by TF 1.15's module
paths, ``tensorflow.contrib.learn.python.learn.preprocessing.text.VocabularyProcessor`` ...), so TF 1.15 restores
it. ``VocabularyProcessor.restore`` (and ``load``) read such files with ``Unpickler``, which maps TF 1.x's module
paths (``MODULE_ALIASES``) to this module; a plain ``pickle.load`` of a TF 1.x file fails without TensorFlow 1.x.
This module uses TensorFlow only for ``gfile`` paths (``gs://...``).
"""

import collections
import io
import pickle
import re
import types
from typing import Any, Callable, Iterable, Iterator, List, Optional

import numpy as np
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)

_TF_PACKAGE = "tensorflow.contrib.learn.python.learn.preprocessing"
# TF 1.15's module of each class/function this module re-creates (what its pickles name).
_TF_MODULES = {
    "VocabularyProcessor": _TF_PACKAGE + ".text",
    "ByteProcessor": _TF_PACKAGE + ".text",
    "tokenizer": _TF_PACKAGE + ".text",
    "CategoricalVocabulary": _TF_PACKAGE + ".categorical_vocabulary",
}
# Module paths in TF 1.x pickles -> this module (``tensorflow_core.`` is TF 1.15's real package name).
MODULE_ALIASES = {
    root + _TF_PACKAGE[len("tensorflow") :] + suffix: __name__
    for root in ("tensorflow", "tensorflow_core")
    for suffix in ("", ".text", ".categorical_vocabulary")
}


def tokenizer(iterator: Iterable[str]) -> Iterator[List[str]]:
    """Yields the tokens (``TOKENIZER_RE.findall``) of each string of ``iterator``."""
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class CategoricalVocabulary:
    """Maps categories (words) to ids, 0 being ``unknown_token``; TF 1.15's class, same attributes (pickles)."""

    def __init__(self, unknown_token: str = "<UNK>", support_reverse: bool = True):
        self._unknown_token = unknown_token
        self._mapping = {unknown_token: 0}
        self._support_reverse = support_reverse
        if support_reverse:
            self._reverse_mapping = [unknown_token]
        self._freq: Any = collections.defaultdict(int)
        self._freeze = False

    def __len__(self) -> int:
        """The number of ids, the unknown token's included."""
        return len(self._mapping)

    def freeze(self, freeze: bool = True) -> None:
        """After ``freeze()``, ``get`` returns 0 for a new category instead of adding it."""
        self._freeze = freeze

    def get(self, category: Any) -> int:
        """The id of ``category``, added with the next id if new (0 when frozen)."""
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
        return self._mapping[category]

    def add(self, category: Any, count: int = 1) -> None:
        """Adds ``count`` to the frequency of ``category`` (adding it if new and not frozen)."""
        if self.get(category) <= 0:
            return
        self._freq[category] += count

    def trim(self, min_frequency: int, max_frequency: int = -1) -> None:
        """Keeps the categories seen more than ``min_frequency`` times (and fewer than ``max_frequency`` times when
        it is positive), renumbered 1..n by decreasing frequency, ties in sorted order."""
        by_name = sorted(self._freq.items(), key=lambda item: (isinstance(item[0], str), item[0]))
        ordered = sorted(by_name, key=lambda item: item[1], reverse=True)
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        idx = 1
        for category, count in ordered:
            if max_frequency > 0 and count >= max_frequency:
                continue
            if count <= min_frequency:
                break
            self._mapping[category] = idx
            idx += 1
            if self._support_reverse:
                self._reverse_mapping.append(category)
        self._freq = dict(ordered[: idx - 1])

    def reverse(self, class_id: int) -> Any:
        """The category of ``class_id``; ValueError without ``support_reverse``."""
        if not self._support_reverse:
            raise ValueError("This vocabulary wasn't initialized with support_reverse to support reverse() function.")
        return self._reverse_mapping[class_id]


class ByteProcessor:
    """Maps documents to ``max_document_length`` UTF-8 byte ids (zero padded)."""

    def __init__(self, max_document_length: int):
        self.max_document_length = max_document_length

    def fit(self, x: Any) -> None:
        """Does nothing (no fitting needed)."""

    def fit_transform(self, x: Iterable[Any]) -> Iterator[np.ndarray]:
        return self.transform(x)

    def reverse(self, x: Iterable[np.ndarray]) -> Iterator[str]:
        """Yields the text of each row of byte ids (``''`` where it is not valid UTF-8)."""
        for data in x:
            document = np.trim_zeros(np.asarray(data).astype(np.int8), trim="b").tobytes()
            try:
                yield document.decode("utf-8")
            except UnicodeDecodeError:
                yield ""

    def transform(self, x: Iterable[Any]) -> Iterator[np.ndarray]:
        """Yields each document's first ``max_document_length`` bytes as uint8, zero padded."""
        for document in x:
            if isinstance(document, str):
                document = document.encode("utf-8")
            buff = np.frombuffer(memoryview(document)[: self.max_document_length], dtype=np.uint8)
            yield np.pad(buff, (0, self.max_document_length - len(buff)), "constant")


class VocabularyProcessor:
    """Maps documents to ``max_document_length`` word ids (TF 1.15's ``tf.contrib.learn.preprocessing``).

    ``fit`` adds every token of the documents (``tokenizer_fn``, default ``tokenizer``) to ``vocabulary_`` (a
    ``CategoricalVocabulary``), trims it to the words seen more than ``min_frequency`` times if that is positive,
    and freezes it; ``transform`` yields one int64 row per document, truncated or zero padded (0 is unknown).
    """

    def __init__(
        self,
        max_document_length: int,
        min_frequency: int = 0,
        vocabulary: Optional[CategoricalVocabulary] = None,
        tokenizer_fn: Optional[Callable[[Iterable[str]], Iterable[List[str]]]] = None,
    ):
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer

    def fit(self, raw_documents: Iterable[str], unused_y: Any = None) -> "VocabularyProcessor":
        """Learns the vocabulary of ``raw_documents``; returns self."""
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents: Iterable[str], unused_y: Any = None) -> Iterator[np.ndarray]:
        """``fit``, then ``transform`` (``raw_documents`` is read twice: pass a list, not an iterator)."""
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents: Iterable[str]) -> Iterator[np.ndarray]:
        """Yields each document's word ids, an int64 array of ``max_document_length``."""
        for tokens in self._tokenizer(raw_documents):
            word_ids = np.zeros(self.max_document_length, np.int64)
            for idx, token in enumerate(tokens):
                if idx >= self.max_document_length:
                    break
                word_ids[idx] = self.vocabulary_.get(token)
            yield word_ids

    def reverse(self, documents: Iterable[Iterable[int]]) -> Iterator[str]:
        """Yields each row of ids as its words joined by spaces (padding reads as the unknown token)."""
        for item in documents:
            yield " ".join(self.vocabulary_.reverse(class_id) for class_id in item)

    def save(self, filename: str) -> None:
        """Writes this processor to ``filename`` as TF 1.15's pickle (``tf.io.gfile`` paths work)."""
        buffer = io.BytesIO()
        _TF115Pickler(buffer, protocol=3).dump(self)
        _write(filename, buffer.getvalue())

    @classmethod
    def restore(cls, filename: str) -> "VocabularyProcessor":
        """Reads a processor saved by ``save`` or by TF 1.x's ``VocabularyProcessor.save``."""
        return load(_read(filename))


_PythonPickler: Any = getattr(pickle, "_Pickler")  # noqa: B009 (the Python pickler: its save_global is overridable)


class _TF115Pickler(_PythonPickler):
    """Names this module's classes and ``tokenizer`` by TF 1.15's module paths."""

    def save_global(self, obj: Any, name: Optional[str] = None) -> None:
        qualname = getattr(obj, "__qualname__", None)
        if getattr(obj, "__module__", None) != __name__ or qualname not in _TF_MODULES:
            super().save_global(obj, name)
            return
        self.write(b"c" + _TF_MODULES[qualname].encode() + b"\n" + qualname.encode() + b"\n")
        self.memoize(obj)

    dispatch = dict(_PythonPickler.dispatch)
    dispatch[types.FunctionType] = save_global


class Unpickler(pickle.Unpickler):
    """A ``pickle.Unpickler`` that reads TF 1.x's preprocessing classes (``MODULE_ALIASES``) as this module's."""

    def find_class(self, module: str, name: str) -> Any:
        if MODULE_ALIASES.get(module) == __name__ and name in _TF_MODULES:
            return globals()[name]
        return super().find_class(module, name)


def load(data: bytes) -> Any:
    """Unpickles ``data`` (bytes) with ``Unpickler``."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("load: data must be bytes, got %s" % type(data).__name__)
    return Unpickler(io.BytesIO(data)).load()


def _gfile() -> Any:
    from tf1clip.compat._tf import tf

    return tf.io.gfile


def _write(filename: str, data: bytes) -> None:
    if "://" in str(filename):
        with _gfile().GFile(filename, "wb") as f:
            f.write(data)
        return
    with open(filename, "wb") as f:
        f.write(data)


def _read(filename: str) -> bytes:
    if "://" in str(filename):
        with _gfile().GFile(filename, "rb") as f:
            return f.read()
    with open(filename, "rb") as f:
        return f.read()
