#!/usr/bin/env bash
# Run the README's test command (command 2, verbatim) in N fresh clones of a repository, one after
# the other, and print one line per run: run number, commit, exit status, seconds. Used to check
# that the test command passes every time (issue 14); see docs/reliability.md.
#   scripts/fresh_clone_runs.sh N [REPO] [WORKDIR]
set -uo pipefail
runs="${1:?how many runs}"
repo="${2:-$(cd "$(dirname "$0")/.." && pwd)}"
work="${3:-$(mktemp -d)}"
passed=0
for ((i = 1; i <= runs; i++)); do
    clone="$work/clone-$i"
    rm -rf "$clone"
    git clone -q "$repo" "$clone"
    commit="$(git -C "$clone" rev-parse --short HEAD)"
    start=$SECONDS
    (cd "$clone" && env -u HYPOTHESIS_PROFILE -u CI bash -c \
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]' && .venv/bin/python -m pytest" \
        >"$work/run-$i.out" 2>&1)
    status=$?
    [[ $status -eq 0 ]] && passed=$((passed + 1))
    echo "run $i commit $commit exit $status seconds $((SECONDS - start)) $(tail -1 "$work/run-$i.out")"
    rm -rf "$clone"
done
echo "passed $passed of $runs"
[[ $passed -eq $runs ]]
