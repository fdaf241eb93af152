"""``tf.contrib.predictor.predictor`` (TF 1.15): the ``Predictor`` base class."""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


class Predictor:
    """Runs ``fetch_tensors`` in ``session``, feeding ``feed_tensors`` from the dict it is called with.
    Subclasses set ``_graph``, ``_session``, ``_feed_tensors`` and ``_fetch_tensors`` (TF 1.15's ``ABCMeta`` class,
    which had no abstract method)."""

    @property
    def graph(self):
        """The ``tf.Graph`` the model is in."""
        return self._graph

    @property
    def session(self):
        """The session that runs it."""
        return self._session

    @property
    def feed_tensors(self):
        """``{input key: tensor}``."""
        return self._feed_tensors

    @property
    def fetch_tensors(self):
        """``{output key: tensor}``."""
        return self._fetch_tensors

    def __repr__(self):
        return "{} with feed tensors {} and fetch_tensors {}".format(
            type(self).__name__, self._feed_tensors, self._fetch_tensors
        )

    def __call__(self, input_dict):
        """``{output key: NumPy value}`` for the inputs ``input_dict`` (``{input key: value}``; a key may be left
        out, or given None, for a tensor that need not be fed). ``ValueError`` for a key not in ``feed_tensors``."""
        if not isinstance(input_dict, dict):
            raise TypeError("Predictor: input_dict must be a dict of inputs, got %r" % (input_dict,))
        unexpected_keys = set(input_dict.keys()) - set(self.feed_tensors.keys())
        if unexpected_keys:
            raise ValueError(
                "Got unexpected keys in input_dict: {}\nexpected: {}".format(
                    unexpected_keys, set(self.feed_tensors.keys())
                )
            )
        feed_dict = {}
        for key, tensor in self.feed_tensors.items():
            value = input_dict.get(key)
            if value is not None:
                feed_dict[tensor] = value
        return self._session.run(fetches=self.fetch_tensors, feed_dict=feed_dict)
