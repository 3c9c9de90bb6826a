#!/usr/bin/env bash
# Removes exactly what scripts/install.sh put in place, as its manifest lists it: the files,
# then the directories it created, deepest first, when they are empty. Same variables as
# install.sh (DESTDIR, PREFIX or DATADIR, MANIFEST); `make uninstall` runs it.
set -euo pipefail

DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
DATADIR=${DATADIR:-$PREFIX/share}
MANIFEST=${MANIFEST:-$DATADIR/nook/install-manifest}

if [ ! -f "$DESTDIR$MANIFEST" ]; then
  echo "uninstall: $DESTDIR$MANIFEST does not exist: nothing was installed there (check PREFIX and DESTDIR)" >&2
  exit 1
fi

mapfile -t entries < "$DESTDIR$MANIFEST"
for entry in "${entries[@]}"; do
  case "$entry" in
    */) ;;
    *) rm -f "$DESTDIR$entry" ;;
  esac
done
rm -f "$DESTDIR$MANIFEST"
# Directories: deepest first, and only when nothing else lives there.
printf '%s\n' "${entries[@]}" | awk '/\/$/ { print length($0) "\t" $0 }' | sort -rn | cut -f2- |
  while IFS= read -r entry; do
    if [ -d "$DESTDIR$entry" ]; then rmdir --ignore-fail-on-non-empty "$DESTDIR$entry"; fi
  done
echo "uninstall: removed ${#entries[@]} entries listed in $DESTDIR$MANIFEST"
