"""The state of one file's rewrite, shared by the rewriting rules (imports TensorFlow's converter)."""

import ast

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import dotted
from tf1clip.upgrade._engine import ast_edits
from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._tables import INFO


class FileEdits:
    """What the rules know about one file and what they did to it.

    ``aliases``: names bound to TensorFlow paths; ``parents``: node -> parent;
    ``opaque``: aliases of contrib modules used in ways that hide which member;
    ``unconverted``: alias -> uses left unconverted; ``pending_imports`` and
    ``pending_bindings``: contrib imports and ``alias = tf.contrib.x`` bindings
    decided once every use is known; ``log``: ``(severity, line, col, message)``; ``added_imports``:
    the import lines a rule wrote (each once per file).
    """

    def __init__(self, spec, target="modern"):
        self.spec = spec
        self.target = target
        self.aliases = {}
        self.parents = {}
        self.opaque = set()
        self.unconverted = {}
        self.pending_imports = []
        self.pending_bindings = []
        self.log = []
        self.added_imports = set()
        self._noted = set()

    def add(self, severity, node, message):
        """Logs ``message`` at ``node``'s position."""
        self.log.append((severity, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), message))

    def replace(self, parent, node, new_name, why=""):
        """Replaces the chain ``node`` (a child of ``parent``) by the dotted ``new_name``, and logs it."""
        new_node = ast_edits.full_name_node(new_name, node.ctx)
        for part in ast.walk(new_node):
            ast.copy_location(part, node)
        pasta.ast_utils.replace_child(parent, node, new_node)
        self.parents[new_node] = parent
        self.add(INFO, node, ("Renamed %r to %r %s" % (dotted(node), new_name, why)).strip())

    def replace_prefix(self, parent, node, kept, new_name):
        """Replaces the chain ``node`` but its last ``kept`` attributes by ``new_name`` (``a.b.c`` with ``kept=1``
        and ``x.y`` gives ``x.y.c``), and logs it."""
        for _ in range(kept):
            parent, node = node, node.value
        self.replace(parent, node, new_name)

    def note_extra(self, node, extra):
        """Logs, once per file and extra, that names of tf-slim or TF-GAN were routed (the report lists such files)."""
        if extra in self._noted:
            return
        self._noted.add(extra)
        package = "TF-GAN (tensorflow-gan)" if extra == T.GAN_EXTRA else "tf-slim"
        self.add(
            INFO,
            node,
            "tf.contrib names that %s provides were routed to tf1clip.contrib, "
            "which takes them from the %s package: pip install '%s'." % (package.split(" ")[0], package, extra),
        )

    def count_unconverted(self, root):
        """Records a use of the alias ``root`` that stays as it is."""
        self.unconverted[root] = self.unconverted.get(root, 0) + 1

    def engine_converts(self, name):
        """Whether tf_upgrade_v2's own rules convert the dotted ``name``."""
        return name in self.spec.symbol_renames or name in self.spec.function_transformers


__all__ = ["FileEdits"]
