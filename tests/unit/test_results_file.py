"""The measured numbers README.rst and benchmarks/RESULTS.md quote are benchmarks/results.json's (written by
benchmarks/measure_suite.py; docs/install.rst quotes it when the docs are built, docs/_ext/results.py, and holds
no copy of a record's numbers)."""

import importlib.util
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location("measure_suite", os.path.join(ROOT, "benchmarks", "measure_suite.py"))
measure_suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(measure_suite)
RESULTS = measure_suite.load()


def _text(*path):
    with open(os.path.join(ROOT, *path)) as f:
        return " ".join(f.read().split())


def test_every_record_says_when_where_and_what():
    assert sorted(RESULTS) == ["ci", "full_suite", "main_job", "quick_loop"]
    for kind, record in RESULTS.items():
        for key in ("date", "cores", "command", "seconds", "load_before", "load_after", "status"):
            assert key in record, (kind, key)
        assert record.get("passed", 1) > 0, kind


def test_readme_quotes_the_records():
    readme = _text("README.rst")
    quick, full, ci = RESULTS["quick_loop"], RESULTS["full_suite"], RESULTS["ci"]
    assert measure_suite.describe(quick) in readme
    assert "%d of them in the companion" % quick["companion_tests"] in readme
    assert (
        "{:,} passed and {} skipped in {}".format(
            full["passed"], full["skipped"], measure_suite.minutes(full["seconds"])
        )
        in readme
    )
    assert "{:,} passed and {} skipped".format(ci["passed"], ci["skipped"]) in readme
    assert "%d minutes in all" % round(ci["seconds"] / 60.0) in readme
    assert "about %d s on an idle 2-core machine" % RESULTS["main_job"]["seconds"] in readme


def _ci_table():
    """The rows of RESULTS.md's "CI wall time" table, as lists of cells."""
    with open(os.path.join(ROOT, "benchmarks", "RESULTS.md")) as f:
        section = f.read().split("## CI wall time", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[1:]]


def test_results_md_ends_its_ci_table_with_the_record():
    ci = RESULTS["ci"]
    tests = "{} passed, {} skipped".format(ci["passed"], ci["skipped"])
    tests += " (%s)" % ci["counted"] if ci["counted"] != "all four environments" else ""
    assert _ci_table()[-1] == [ci["date"], ci["commit"], "2 (the default)", tests, "%d s" % ci["seconds"]]


def test_results_md_ci_rows_are_dated_in_order_and_say_their_counts():
    rows = _ci_table()
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    for _date, commit, _lanes, tests, total in rows:
        assert re.fullmatch(
            r"\d+ passed(, \d+ failed)?, \d+ skipped( \((per environment|two whole suites and two quick loops)\))?",
            tests,
        ), commit
        assert re.fullmatch(r"\d+ s", total), commit


def test_results_md_states_no_ci_number_beside_its_table():
    ci = RESULTS["ci"]
    with open(os.path.join(ROOT, "benchmarks", "RESULTS.md")) as f:
        section = f.read().split("## CI wall time", 1)[1].split("\n## ", 1)[0]
    prose = " ".join(line for line in section.splitlines() if not line.startswith("|"))
    for copy in (measure_suite.minutes(ci["seconds"]), "%d minutes" % round(ci["seconds"] / 60.0), str(ci["passed"])):
        assert copy not in prose, copy


def test_install_page_quotes_the_file_not_a_copy():
    install = _text("docs", "install.rst")
    for kind, record in RESULTS.items():
        assert ":tf1clip-result:`%s`" % kind in install
        assert measure_suite.describe(record) not in install, kind
        assert "%s (" % measure_suite.minutes(record["seconds"]) not in install, kind
        for count in ("passed", "failed", "skipped"):
            if record.get(count):
                for spelled in ("{:,} {}".format(record[count], count), "{} {}".format(record[count], count)):
                    assert spelled not in install, (kind, spelled)


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(15, "15 s"), (59.6, "1 min 0 s"), (191, "3 min 11 s"), (1215, "20 min 15 s"), (3060, "51 min")],
)
def test_minutes(seconds, words):
    assert measure_suite.minutes(seconds) == words


def test_counts_read_pytest_and_ci_summaries():
    assert measure_suite.counts("x\n== 3 failed, 5 passed, 2 skipped, 7 deselected in 9.1s ==\n") == {
        "passed": 5,
        "failed": 3,
        "skipped": 2,
        "deselected": 7,
    }
    assert measure_suite.counts("total: 2706 passed, 0 failed, 3 skipped") == {
        "passed": 2706,
        "failed": 0,
        "skipped": 3,
    }
    assert measure_suite.counts("1 error in 2s") == {}
