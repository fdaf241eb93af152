"""Each name of a module lives in one row of the manifest as written; its re-exports are derived (``Row.also``)."""

from tf1clip.contrib import _manifest


def _names_claimed_twice(table):
    return [
        "%s.%s is in rows %s" % (impl, name, ", ".join("%d (%s)" % (i, table[i].target) for i in indices))
        for (impl, name), indices in _manifest.claims(table).items()
    ]


def test_no_name_is_claimed_by_two_rows():
    assert _names_claimed_twice(_manifest.TABLE) == []


def test_a_name_in_two_rows_is_reported_with_both_rows():
    row = _manifest.Row("tf1clip.contrib.opt", "tf1clip.contrib.opt.powersign", ("PowerSignOptimizer",), ())
    table = _manifest.TABLE + (row._replace(target="tf1clip.contrib.slim"),)
    [message] = _names_claimed_twice(table)
    first = next(i for i, r in enumerate(table) if "PowerSignOptimizer" in r.names)
    assert (
        message == "tf1clip.contrib.opt.powersign.PowerSignOptimizer is in rows %d (tf1clip.contrib.opt), %d "
        "(tf1clip.contrib.slim)" % (first, len(table) - 1)
    )


def test_no_target_lists_a_name_twice():
    seen = {}
    for i, r in enumerate(_manifest.ROWS):
        for name in r.names:
            assert (r.target, name) not in seen, "%s.%s: rows %d and %d" % (r.target, name, seen[r.target, name], i)
            seen[r.target, name] = i


def test_a_re_export_is_a_row_of_its_own_target_with_the_home_row_s_impl_and_flags():
    home = _manifest.Row(
        "tf1clip.contrib.opt.fake",
        "tf1clip.contrib.opt.fake",
        ("FakeOptimizer", "fake_fn"),
        ("tf.contrib.opt.python.training.fake",),
        graph=True,
        differences="Fake.",
        drift=(("FakeOptimizer", "1 %"),),
        also=(
            _manifest.Also("tf1clip.contrib.opt", ("tf.contrib.opt",)),
            _manifest.Also("tf1clip.contrib.slim", (), ("fake_fn",), graph=False, differences=""),
        ),
    )
    own, on_opt, on_slim = _manifest.expanded([home])
    assert own == home._replace(also=())
    assert on_opt == home._replace(target="tf1clip.contrib.opt", tf_paths=("tf.contrib.opt",), also=())
    assert on_slim == _manifest.Row("tf1clip.contrib.slim", "tf1clip.contrib.opt.fake", ("fake_fn",), ())
    assert _manifest.claims([home]) == {}


def test_rows_are_the_written_table_expanded():
    assert _manifest.ROWS == _manifest.expanded(_manifest.TABLE)
    assert all(not r.also for r in _manifest.ROWS)
    written = {(r.target, n) for r in _manifest.TABLE for n in r.names}
    derived = {(a.target, n) for r in _manifest.TABLE for a in r.also for n in a.names or r.names}
    assert {(r.target, n) for r in _manifest.ROWS for n in r.names} == written | derived
    assert all(set(a.names) <= set(r.names) for r in _manifest.TABLE for a in r.also), (
        "also names a name not in its row"
    )
