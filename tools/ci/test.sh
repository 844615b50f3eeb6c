#!/usr/bin/env bash
# `npm test`: the checks, then the whole suite, on the images' Node (.node-version), whatever Node
# the machine has. The steps before the suite are independent and mostly single-threaded (tsc,
# prettier, eslint, a C compile, vite), so they run side by side:
#   - typecheck (every workspace's tsc --noEmit);
#   - lint (prettier, eslint, the config and OpenAPI documents, the docs' links);
#   - what the cross-service tests copy (tests/src/prepare.ts): better-sqlite3's addon for this Node
#     (built once per ABI), the showcase clips and the SPA build meanwhile, then the seeded demo
#     template; the tests project's global setup then finds them made.
# Each step's output is printed whole, in that order; any failure stops before the suite.
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

failed=()
for name in typecheck lint stack-sources; do
  wait "${pids[$name]}"
  status=$?
  printf '\n== %s: %s (%d s into the checks)\n' "$name" "$([ $status -eq 0 ] && echo ok || echo "FAILED (exit $status)")" $(($(date +%s) - started))
  cat "$logs/$name"
  [ $status -eq 0 ] || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed before the suite: ${failed[*]}" >&2
  exit 1
fi

printf '\n== the suite\n'
exec npm run --silent test:all
