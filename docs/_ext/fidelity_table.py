"""The ``tf1clip-fidelity`` directive: tf1clip.fidelity's records as tables, so that the docs list every op-count
correction of ``use_tf1_random_seeds`` (``corrections``) and every process-wide change tf1clip makes
(``changes``) from the one registry (``tf1clip/fidelity/``), not from a copy."""

from tf1clip import fidelity
from tf1clip.fidelity import _corrections

HEADERS = {
    "corrections": ("TensorFlow 2 builds differently", "correction", "recorded TF 1.15 cases"),
    "changes": ("record", "what it changes", "touches", "proved by"),
}
WIDTHS = {"corrections": "40 45 15", "changes": "18 42 22 18"}


def _literal_list(items):
    return ", ".join("``%s``" % item for item in items) or "-"


def rows(part):
    """The cells of each row of the table ``part`` (``"corrections"`` or ``"changes"``)."""
    if part == "corrections":
        return [(e.construct, e.correction, _literal_list(e.cases)) for e in _corrections.CORRECTIONS]
    if part == "changes":
        return [
            ("``%s``" % c.name, c.summary, _literal_list(c.touches), _literal_list(c.proof)) for c in fidelity.CHANGES
        ]
    raise ValueError("tf1clip-fidelity: the table is 'corrections' or 'changes', got %r" % (part,))


def rst_lines(part):
    """reStructuredText lines of a list-table of ``part``."""
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: " + WIDTHS.get(part, ""), ""]
    for cells in [HEADERS.get(part, ())] + rows(part):
        lines += ["   * - " + cells[0]] + ["     - " + cell for cell in cells[1:]]
    return lines


def setup(app):
    from docutils import nodes
    from docutils.parsers.rst import Directive
    from docutils.statemachine import StringList
    from sphinx.util.nodes import nested_parse_with_titles

    class FidelityTable(Directive):
        required_arguments = 1

        def run(self):
            content = StringList(rst_lines(self.arguments[0]), source="tf1clip/fidelity/_registry.py")
            container = nodes.container()
            nested_parse_with_titles(self.state, content, container)
            return container.children

    app.add_directive("tf1clip-fidelity", FidelityTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
