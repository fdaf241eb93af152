"""tf1clip-upgrade says where a ``ConfigProto``'s thread counts may be ignored on TensorFlow 2.

TF 2 gives a Session its intra-/inter-op counts only if TF's runtime has not started before the first
Session, and building a ``tf.data`` function starts it (even after ``disable_v2_behavior()``): the
upgraded program below shows that on the installed TensorFlow, so a release that changes it fails here.
"""

import pytest
from helpers import run_python

from tf1clip.upgrade import upgrade_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

DATA_PROGRAM = """import tensorflow as tf

ds = tf.data.Dataset.range(10).map(lambda x: x * 2)
value = ds.make_one_shot_iterator().get_next()
config = tf.ConfigProto(intra_op_parallelism_threads=3, inter_op_parallelism_threads=5)
with tf.Session(config=config) as sess:
    print(sess.run(value))
"""

GRAPH_PROGRAM = """import tensorflow as tf

x = tf.placeholder(tf.float32, [])
y = tf.cond(x > 0, lambda: x, lambda: -x)
config = tf.ConfigProto(inter_op_parallelism_threads=2)
with tf.Session(config=config) as sess:
    print(sess.run(y, {x: -2.0}))
"""

ESTIMATOR_PROGRAM = """import tensorflow as tf

config = tf.estimator.RunConfig(session_config=tf.ConfigProto(intra_op_parallelism_threads=1))
"""


def _notes(result):
    return [entry for entry in result.log if entry.message.startswith("ConfigProto thread counts")]


def test_a_tf_data_program_gets_a_warning_at_its_config():
    notes = _notes(upgrade_source(DATA_PROGRAM, target="modern"))
    assert [(n.severity, n.line) for n in notes] == [("WARNING", 5)]
    message = notes[0].message
    assert message.startswith("ConfigProto thread counts (line 5): TensorFlow 2 gives a Session its intra-/inter-op")
    assert "building a tf.data function (Dataset.map, filter, ...)" in message
    assert "call tf.config.threading.set_intra_op_parallelism_threads(n) and set_inter_op_parallelism_threads(n)" in (
        message
    )
    assert "Estimators" not in message


def test_the_runtime_has_started_before_the_upgraded_programs_session():
    """What the warning says, on this TensorFlow: the upgraded program's Session comes too late."""
    text = upgrade_source(DATA_PROGRAM, target="modern").text
    probe = (
        "from tensorflow.python.eager import context\n"
        "print('runtime started:', context.context()._initialized)\n"
        "print('threads:', tf.config.threading.get_intra_op_parallelism_threads())\n"
    )
    text = text.replace("config = tf.compat.v1.ConfigProto", probe + "config = tf.compat.v1.ConfigProto")
    assert probe in text and "tf.compat.v1.disable_v2_behavior()" in text
    out = run_python(text)
    assert "runtime started: True" in out and "threads: 0" in out and out.rstrip().endswith("0")


def test_a_graph_program_without_tf_data_gets_an_info():
    notes = _notes(upgrade_source(GRAPH_PROGRAM, target="modern"))
    assert [(n.severity, n.line) for n in notes] == [("INFO", 5)]


def test_estimator_programs_note_what_tf1clip_estimator_does():
    modern = _notes(upgrade_source(ESTIMATOR_PROGRAM, target="modern"))
    assert [(n.severity, n.line) for n in modern] == [("INFO", 3)]
    assert modern[0].message.endswith(
        "Estimators: tf1clip.estimator does this with RunConfig(session_config=...)'s counts."
    )
    native = _notes(upgrade_source(ESTIMATOR_PROGRAM, target="estimator"))
    assert [(n.severity, n.line) for n in native] == [("WARNING", 3)]
    assert "tf1clip.estimator" not in native[0].message


@pytest.mark.parametrize(
    "config",
    [
        "tf.ConfigProto(allow_soft_placement=True)",
        "tf.ConfigProto()",
        "tf.GPUOptions(per_process_gpu_memory_fraction=0.5)",
    ],
)
def test_configs_without_thread_counts_get_no_note(config):
    assert _notes(upgrade_source("import tensorflow as tf\n\nconfig = %s\n" % config, target="modern")) == []
