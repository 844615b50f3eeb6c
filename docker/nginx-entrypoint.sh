#!/bin/sh
# Front-door entrypoint: turns the comma-separated address lists into the nginx directives the
# template expects, then hands over to the image's own entrypoint (which renders the templates with
# envsubst). nginx reads addresses and CIDRs only, so anything else stops the container here with
# a message. scripts/lib/nginx.ts renders the same placeholders for npm start and the tests; a test
# (tests/integration/front-door-trust.test.ts) keeps the two identical.
set -ef

# directives NAME LIST PREFIX SUFFIX -> "PREFIX a SUFFIX PREFIX b SUFFIX"
directives() {
  out=''
  for entry in $(printf '%s' "$2" | tr ',' ' '); do
    case "$entry" in
      *[!0-9A-Fa-f.:/]*)
        echo "$1: \"$entry\" is not an address or CIDR (nginx takes no ranges: write 64.38.212.1-64.38.212.254 as 64.38.212.0/24)" >&2
        return 1 ;;
    esac
    out="${out:+$out }$3$entry$4"
  done
  printf '%s' "$out"
}

FRONT_REALIP_FROM=$(directives FRONT_TRUSTED_PROXIES "${FRONT_TRUSTED_PROXIES:-}" 'set_real_ip_from ' ';')
FRONT_TRUSTED_GEO=$(directives FRONT_TRUSTED_PROXIES "${FRONT_TRUSTED_PROXIES:-}" '' ' 1;')
WEBHOOK_ALLOWED_GEO=$(directives WEBHOOK_ALLOWED_IPS "${WEBHOOK_ALLOWED_IPS:-}" '' ' 1;')
export FRONT_REALIP_FROM FRONT_TRUSTED_GEO WEBHOOK_ALLOWED_GEO

if [ "${1:-}" = --print ]; then
  printf '%s\n%s\n%s\n' "$FRONT_REALIP_FROM" "$FRONT_TRUSTED_GEO" "$WEBHOOK_ALLOWED_GEO"
  exit 0
fi
exec /docker-entrypoint.sh "$@"
