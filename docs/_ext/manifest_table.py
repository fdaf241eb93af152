"""The ``tf1clip-manifest`` directive: the contrib manifest's rows as a table, so that the docs list every name
tf1clip re-creates from the one table (``tf1clip/contrib/_manifest.py``), not from a copy."""

import re

from tf1clip.contrib import _manifest

HEADER = ("tf1clip module", "names", "TF 1.15 paths", "flags", "differences from TF 1.15")


def _escaped(text):
    """``text`` as plain reStructuredText: its markup characters escaped."""
    return re.sub(r"([\\*`|])|(_)(?!\w)", lambda m: "\\" + m.group(0), text)


def _flags(row):
    flags = ["extra " + row.extra] if row.extra else []
    flags += [name for name in ("keras2", "graph", "separate_import") if getattr(row, name)]
    if row.tf2_home:
        flags.append("converted to " + row.tf2_home)
    return ", ".join(flags)


def _differences(row):
    parts = [row.differences] if row.differences else []
    parts += ["%s drifts with TF 2's kernels (%s)." % (name, measured) for name, measured in row.drift]
    return _escaped(" ".join(parts))


def rst_lines(rows):
    """reStructuredText lines of a list-table with one line per row of ``rows`` (manifest rows)."""
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 18 30 22 12 18", ""]
    for cells in [HEADER] + [_cells(row) for row in rows]:
        lines += ["   * - " + cells[0]] + ["     - " + cell for cell in cells[1:]]
    return lines


def _cells(row):
    return (
        "``%s``" % row.target,
        ", ".join("``%s``" % name for name in row.names),
        ", ".join("``%s``" % path for path in row.tf_paths) or "(not converted to)",
        _flags(row) or "-",
        _differences(row) or "-",
    )


def setup(app):
    from docutils import nodes
    from docutils.parsers.rst import Directive
    from docutils.statemachine import StringList
    from sphinx.util.nodes import nested_parse_with_titles

    class ManifestTable(Directive):
        def run(self):
            content = StringList(rst_lines(_manifest.ROWS), source="tf1clip/contrib/_manifest.py")
            container = nodes.container()
            nested_parse_with_titles(self.state, content, container)
            return container.children

    app.add_directive("tf1clip-manifest", ManifestTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
