#!/bin/sh
# The official image's 20-envsubst-on-templates.sh, in short: render /etc/nginx/templates/*.template
# into conf.d/ with only the variables that are set, keeping subfolders.
set -e
tdir=/etc/nginx/templates; odir=/etc/nginx/conf.d
[ -d "$tdir" ] || exit 0
defined=$(printf '${%s} ' $(awk 'END { for (name in ENVIRON) { print name } }' < /dev/null))
find "$tdir" -follow -type f -name '*.template' | while read -r t; do
  rel=${t#"$tdir/"}; out="$odir/${rel%.template}"; mkdir -p "$(dirname "$out")"
  envsubst "$defined" < "$t" > "$out"
done
