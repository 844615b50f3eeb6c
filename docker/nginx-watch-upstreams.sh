#!/bin/sh
# /docker-entrypoint.d/40-watch-upstreams.sh: nginx resolves the upstream names (BFF_UPSTREAM,
# MEDIA_UPSTREAM) once, when it loads its config. Docker gives a recreated, restarted-after-stop or
# scaled container a new address, and nginx would keep sending to the old one (503). This watches
# the names' addresses and reloads nginx when they change: a reload re-resolves, keeps the thumbnail
# cache and lets the old workers finish their requests. (The alternative, `resolver` plus a
# variable in proxy_pass, re-resolves per request but loses the upstream keep-alive pools.)
#   UPSTREAM_WATCH_INTERVAL  seconds between checks (default 2); 0 turns the watcher off
set -eu

interval=${UPSTREAM_WATCH_INTERVAL:-2}
[ "$interval" = 0 ] && exit 0

hosts=
for upstream in ${BFF_UPSTREAM:-} ${MEDIA_UPSTREAM:-}; do
  hosts="$hosts ${upstream%:*}"
done
[ -n "$hosts" ] || exit 0

say() { echo "watch-upstreams: $*" >&2; }

# "name=addr,addr name=addr" with each name's addresses sorted (Docker's DNS rotates their order);
# fails while a name does not resolve (its service is stopped), so the running config stays.
addresses() {
  for host in $hosts; do
    found=$(getent hosts "$host" | awk '{ print $1 }' | sort -u | tr '\n' ',')
    [ -n "$found" ] || return 1
    printf '%s=%s ' "$host" "${found%,}"
  done
}

watch() {
  last=$(addresses || true)
  while sleep "$interval"; do
    now=$(addresses) || continue
    [ "$now" = "$last" ] && continue
    # A config that does not load (a name vanished between the two looks) is tried again next time.
    if nginx -t -q 2>/dev/null && nginx -s reload; then
      say "upstream addresses changed (${now% }): reloaded nginx"
      last=$now
    fi
  done
}

# In the background: the entrypoint goes on to exec nginx, which inherits this process.
watch </dev/null >/dev/null &
