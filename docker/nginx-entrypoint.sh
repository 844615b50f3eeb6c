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
# The operator console's clients (/admin and /api/admin/); unset or empty: everyone.
ADMIN_ALLOWED_GEO=$(directives ADMIN_ALLOWED_IPS "${ADMIN_ALLOWED_IPS:-0.0.0.0/0,::/0}" '' ' 1;')
export FRONT_REALIP_FROM FRONT_TRUSTED_GEO WEBHOOK_ALLOWED_GEO ADMIN_ALLOWED_GEO

# The brand (scripts/lib/nginx.ts brandVars does the same): SITE_NAME checked and HTML-escaped for
# index.html; the logo's type from its first bytes and a URL that changes with its bytes.
SITE_NAME=${SITE_NAME:-Media Site}
case "$SITE_NAME" in
  *[!A-Za-z0-9\ .,\'\&!-]*)
    echo "SITE_NAME: \"$SITE_NAME\" must be 1-60 letters, digits, spaces or . , ' & ! -" >&2
    exit 1 ;;
esac
if [ "${#SITE_NAME}" -gt 60 ]; then
  echo "SITE_NAME: \"$SITE_NAME\" must be 1-60 letters, digits, spaces or . , ' & ! -" >&2
  exit 1
fi
SITE_NAME_HTML=$(printf '%s' "$SITE_NAME" | sed -e 's/&/\&amp;/g' -e "s/'/\&#39;/g")
SITE_LOGO_FILE=${SITE_LOGO:-/usr/share/nginx/html/logo.svg}
if [ ! -r "$SITE_LOGO_FILE" ]; then
  echo "SITE_LOGO: $SITE_LOGO_FILE cannot be read" >&2
  exit 1
fi
size=$(wc -c < "$SITE_LOGO_FILE" | tr -d ' ')
if [ "$size" -gt 262144 ]; then
  echo "SITE_LOGO: $SITE_LOGO_FILE is $size bytes; a logo may be 262144 bytes at most" >&2
  exit 1
fi
magic=$(head -c 12 "$SITE_LOGO_FILE" | od -An -tx1 | tr -d ' \n')
case "$magic" in
  3c737667* | 3c3f786d6c*) SITE_LOGO_TYPE=image/svg+xml ;;
  89504e470d0a1a0a*) SITE_LOGO_TYPE=image/png ;;
  52494646????????57454250) SITE_LOGO_TYPE=image/webp ;;
  *)
    echo "SITE_LOGO: $SITE_LOGO_FILE is not an SVG, PNG or WebP image" >&2
    exit 1 ;;
esac
SITE_LOGO_URL="/brand/logo?v=$(sha256sum "$SITE_LOGO_FILE" | cut -c1-12)"
export SITE_NAME_HTML SITE_LOGO_FILE SITE_LOGO_TYPE SITE_LOGO_URL

if [ "${1:-}" = --print ]; then
  printf '%s\n%s\n%s\n' "$FRONT_REALIP_FROM" "$FRONT_TRUSTED_GEO" "$WEBHOOK_ALLOWED_GEO"
  printf '%s\n%s\n%s\n%s\n' "$SITE_NAME_HTML" "$SITE_LOGO_FILE" "$SITE_LOGO_TYPE" "$SITE_LOGO_URL"
  printf '%s\n' "$ADMIN_ALLOWED_GEO"
  exit 0
fi
exec /docker-entrypoint.sh "$@"
