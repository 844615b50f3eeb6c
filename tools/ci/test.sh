#!/usr/bin/env bash
# `npm test`: the checks and the whole suite, on the images' Node (.node-version), whatever Node the
# machine has. Three steps start side by side (independent and mostly single-threaded: tsc,
# prettier, eslint, a C compile, vite):
#   - typecheck (every workspace's tsc --noEmit);
#   - lint (prettier, eslint, the config and OpenAPI documents, the docs' links);
#   - what the cross-service tests copy (tests/src/prepare.ts): better-sqlite3's addon for this Node
#     (built once per ABI), the showcase clips and the SPA build meanwhile, then the seeded demo
#     template; the tests project's global setup then finds them made.
# The suite starts as soon as the third is done (it needs what it made) while the checks finish
# beside it: they are a minute of the suite's first minute, not a minute before it. A check that
# fails stops the suite at once, with the check's output; each step's output is printed whole.
#   tools/ci/test.sh            (what `npm test` runs)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# The images' Node first on PATH; its addon build is one of the steps below, not done here.
IMAGES_NODE_ADDON=later . tools/node/images-node.sh
if [ "$(node --version)" != "v$images_node_version" ]; then
  echo "the tests run on the images' Node $images_node_version (.node-version), which is not here and could not be fetched" >&2
  exit 1
fi

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
started=$(date +%s)
declare -A pids=()
step() { # step <name> <command...>
  local name=$1
  shift
  ("$@" >"$logs/$name" 2>&1) &
  pids[$name]=$!
}
step typecheck npm run --silent typecheck
step lint npm run --silent lint
step stack-sources node --import tsx tests/src/prepare.ts

report() { # report <name> <status>: the step's verdict and its whole output
  printf '\n== %s: %s (%d s into the checks)\n' "$1" "$([ "$2" -eq 0 ] && echo ok || echo "FAILED (exit $2)")" $(($(date +%s) - started))
  cat "$logs/$1"
}

wait "${pids[stack-sources]}"
status=$?
report stack-sources $status
if [ $status -ne 0 ]; then
  kill "${pids[typecheck]}" "${pids[lint]}" 2>/dev/null
  echo "failed before the suite: stack-sources" >&2
  exit 1
fi

printf '\n== the suite (typecheck and lint finish beside it)\n'
# Its own process group (setsid), so that stopping it reaches every process it started (workers,
# stacks, browsers); an interrupted npm test stops it too.
setsid npm run --silent test:all &
suite=$!
# TERM first (vitest stops its stacks), then whatever of the group outlived it (a busy worker).
stop_suite() {
  kill -TERM -- "-$suite" 2>/dev/null
  wait "$suite" 2>/dev/null
  sleep 2
  kill -KILL -- "-$suite" 2>/dev/null
}
trap 'stop_suite; exit 130' INT TERM
for name in typecheck lint; do
  wait "${pids[$name]}"
  status=$?
  report "$name" $status
  if [ $status -ne 0 ]; then
    stop_suite
    echo "failed: $name (the suite was stopped)" >&2
    exit 1
  fi
done
wait "$suite"
status=$?
trap - INT TERM
exit $status
