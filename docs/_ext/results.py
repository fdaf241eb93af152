"""The ``tf1clip-result`` role: a measured record of ``benchmarks/results.json`` in words, so that the docs quote the
file ``benchmarks/measure_suite.py`` writes, not a copy (``:tf1clip-result:`quick_loop```)."""

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _measure_suite():
    spec = importlib.util.spec_from_file_location("measure_suite", os.path.join(ROOT, "benchmarks", "measure_suite.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def setup(app):
    from docutils import nodes

    measure_suite = _measure_suite()
    results = measure_suite.load()

    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        if text not in results:
            message = inliner.reporter.error("benchmarks/results.json has no record %r" % text, line=lineno)
            return [inliner.problematic(rawtext, rawtext, message)], [message]
        return [nodes.Text(measure_suite.describe(results[text]))], []

    app.add_role("tf1clip-result", role)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
