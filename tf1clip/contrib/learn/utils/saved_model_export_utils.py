"""``tf.contrib.learn``'s ``ExportStrategy`` and ``saved_model_export_utils.make_export_strategy`` (TF 1.15)."""

import collections
import inspect
import os
import time
from typing import Any, Callable, Optional

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

MAX_DIRECTORY_CREATION_ATTEMPTS = 10


class ExportStrategy(collections.namedtuple("ExportStrategy", ["name", "export_fn", "strip_default_attrs"])):
    """A named ``export_fn(estimator, export_path[, checkpoint_path][, eval_result][, strip_default_attrs])``."""

    def __new__(cls, name: str, export_fn: Callable[..., Any], strip_default_attrs: Optional[bool] = None):
        return super().__new__(cls, name, export_fn, strip_default_attrs)

    def export(self, estimator: Any, export_path: Any, checkpoint_path: Any = None, eval_result: Any = None) -> Any:
        """Calls ``export_fn`` with the arguments it names."""
        args = inspect.signature(self.export_fn).parameters
        kwargs = {}
        if "checkpoint_path" in args:
            kwargs["checkpoint_path"] = checkpoint_path
        if "eval_result" in args:
            if "checkpoint_path" not in args:
                raise ValueError("An export_fn accepting eval_result must also accept checkpoint_path.")
            kwargs["eval_result"] = eval_result
        if "strip_default_attrs" in args:
            kwargs["strip_default_attrs"] = self.strip_default_attrs
        return self.export_fn(estimator, export_path, **kwargs)


def make_export_strategy(
    serving_input_fn: Callable[[], Any],
    default_output_alternative_key: Optional[str] = None,
    assets_extra: Optional[dict] = None,
    as_text: bool = False,
    exports_to_keep: Optional[int] = 5,
    strip_default_attrs: Optional[bool] = None,
) -> ExportStrategy:
    """The ``'Servo'`` strategy: ``export_savedmodel`` under ``export_dir_base/<timestamp>``, then keeps the newest
    ``exports_to_keep`` exports (all with None). A ``tf1clip.estimator.Estimator`` takes a
    ``serving_input_receiver_fn`` and no ``default_output_alternative_key``."""
    if not callable(serving_input_fn):
        raise TypeError("make_export_strategy: serving_input_fn must be callable, got %r" % (serving_input_fn,))

    def export_fn(estimator: Any, export_dir_base: Any, checkpoint_path: Any = None, strip_default_attrs: Any = False):
        from tf1clip import estimator as core

        kwargs = {"assets_extra": assets_extra, "as_text": as_text, "checkpoint_path": checkpoint_path}
        kwargs["strip_default_attrs"] = strip_default_attrs
        if isinstance(estimator, core.Estimator):
            if default_output_alternative_key is not None:
                raise ValueError(
                    "default_output_alternative_key is not supported in core Estimator. Given: {}".format(
                        default_output_alternative_key
                    )
                )
        else:
            kwargs["default_output_alternative_key"] = default_output_alternative_key
        result = estimator.export_savedmodel(export_dir_base, serving_input_fn, **kwargs)
        garbage_collect_exports(export_dir_base, exports_to_keep)
        return result

    return ExportStrategy("Servo", export_fn, strip_default_attrs)


def garbage_collect_exports(export_dir_base: Any, exports_to_keep: Optional[int]) -> None:
    """Deletes all but the ``exports_to_keep`` exports with the largest integer (timestamp) names."""
    if exports_to_keep is None:
        return
    base = os.fsdecode(export_dir_base)
    if not tf.io.gfile.exists(base):
        return
    versions = sorted(int(name.rstrip("/")) for name in tf.io.gfile.listdir(base) if name.rstrip("/").isdigit())
    for version in versions[: max(0, len(versions) - exports_to_keep)]:
        tf.io.gfile.rmtree(os.path.join(base, str(version)))


def get_timestamped_export_dir(export_dir_base: Any) -> bytes:
    """``export_dir_base/<seconds since the epoch>`` (bytes) that does not exist yet (waits a second if it does)."""
    for _ in range(MAX_DIRECTORY_CREATION_ATTEMPTS):
        export_dir = os.path.join(os.fsencode(export_dir_base), str(int(time.time())).encode())
        if not tf.io.gfile.exists(export_dir):
            return export_dir
        time.sleep(1)
    raise RuntimeError(
        "Failed to obtain a unique export directory name after {} attempts.".format(MAX_DIRECTORY_CREATION_ATTEMPTS)
    )
