#!/usr/bin/env bash
# The e2e project N times in a row (default 5) with one core kept busy by stress-ng, as npm test
# runs it (two files at a time): a test that depends on timing shows up here. Needs MariaDB, Redis,
# nginx, chromium and stress-ng (apt-get install stress-ng). Prints one line per run.
#   tools/ci/e2e-stress.sh [runs]
set -uo pipefail
cd "$(dirname "$0")/../.."
. tools/node/images-node.sh
export TZ=UTC CI=true REQUIRE_SERVICES=1
export DATABASE_URL=${DATABASE_URL:-mysql://root@127.0.0.1:3306/test} REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
runs=${1:-5}
stress-ng --cpu 1 --timeout 3600s --quiet &
stress=$!
trap 'kill $stress 2>/dev/null' EXIT
failed=0
for i in $(seq 1 "$runs"); do
  started=$(date +%s)
  log=$(mktemp)
  npx vitest run --project tests tests/e2e --reporter=dot >"$log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && failed=$((failed + 1))
  echo "run $i: exit $rc in $(($(date +%s) - started)) s;$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +Tests ' | tr -s ' ')"
  [ $rc -ne 0 ] && echo "  log: $log"
done
echo "$runs runs, $failed failed"
[ $failed -eq 0 ]
