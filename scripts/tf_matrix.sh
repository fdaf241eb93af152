#!/usr/bin/env bash
# Runs README.rst's test command over TensorFlow minors, one fresh virtual environment each (outside CI).
#
#   scripts/tf_matrix.sh              every minor from 2.15 to 2.21
#   scripts/tf_matrix.sh 2.18 2.19    only these
#
# Each environment: Python 3.11 (TF_MATRIX_PYTHON overrides), tensorflow-cpu 2.M.* and tf-keras 2.M.*
# pinned through PIP_CONSTRAINT (.ci/tf-2.15.txt, with tensorflow-estimator and
# TF1CLIP_REQUIRE_ESTIMATOR=1, for 2.15; protobuf<7 for 2.20). Venvs go to a temporary directory that is removed at the
# end, or to TF_MATRIX_VENVS=DIR, where they are kept and reused. The last lines are one result line
# per minor (date, Python, TensorFlow, pytest's summary); paste them into docs/install.rst.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
minors=("$@")
[ ${#minors[@]} -gt 0 ] || minors=(2.15 2.16 2.17 2.18 2.19 2.20 2.21)
python=${TF_MATRIX_PYTHON:-$(command -v python3.11 || command -v python3)}
cmd=$(awk '/^Run the tests::/ {getline; getline; print; exit}' README.rst | sed 's/^ *//')
[ -n "$cmd" ] || { echo "README.rst has no test command after 'Run the tests::'" >&2; exit 1; }

if [ -n "${TF_MATRIX_VENVS:-}" ]; then
    venvs=$TF_MATRIX_VENVS
    mkdir -p "$venvs"
else
    venvs=$(mktemp -d)
    trap 'rm -rf "$venvs"' EXIT
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
results=()
status=0

for minor in "${minors[@]}"; do
    venv=$venvs/tf$minor
    constraints=$venvs/tf$minor.txt
    extra=()
    if [ "$minor" = 2.15 ]; then
        cp "$root/.ci/tf-2.15.txt" "$constraints"
        extra=(TF1CLIP_REQUIRE_ESTIMATOR=1)
    else
        printf 'tensorflow-cpu==%s.*\ntf-keras==%s.*\n' "$minor" "$minor" >"$constraints"
    fi
    # TensorFlow 2.20 requires protobuf>=5.28 with no upper bound, but its graph_io.write_graph (the
    # Supervisor's, tf-slim's and Estimators' graph.pbtxt) passes float_format to
    # text_format.MessageToString, which protobuf 7 removed.
    [ "$minor" != 2.20 ] || echo 'protobuf<7' >>"$constraints"
    echo "==> TensorFlow $minor: $venv"
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv" || { results+=("TF $minor: venv failed"); status=1; continue; }
    log=$venvs/tf$minor.log
    env PATH="$venv/bin:$PATH" VIRTUAL_ENV="$venv" PIP_CONSTRAINT="$constraints" "${extra[@]}" \
        bash -c "$cmd" 2>&1 | tee "$log"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
    summary=$(grep -E '[0-9]+ (passed|failed|errors?)\b.* in [0-9.]+s' "$log" | tail -1)
    tf_version=$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('tensorflow-cpu'))" 2>/dev/null)
    results+=("$(date -u +%Y-%m-%d) Python $("$venv/bin/python" -c 'import platform; print(platform.python_version())') \
tensorflow-cpu ${tf_version:-?}: ${summary:-no pytest summary (see $log)}")
done

echo
echo "==> results"
printf '%s\n' "${results[@]}"
exit "$status"
