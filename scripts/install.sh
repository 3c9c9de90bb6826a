#!/usr/bin/env bash
# Installs Nook's programs and their desktop integration from built binaries, with the
# real installed paths written into the units, the D-Bus activation file and the autostart
# entry. `make install` builds and then runs this; `make deb` runs it into a package tree;
# InstallTests runs it on a debug build. Everything is read from the environment:
#
#   BIN            the directory of the built binaries (required)
#   DESTDIR        a staging root prepended to every path (default: none)
#   PREFIX         /usr/local; BINDIR, DATADIR, MANDIR, USERUNITDIR, SYSCONFDIR, ZSHCOMPDIR
#                  default from it (the Makefile spells the defaults out)
#   MANIFEST       where the list of installed files goes (below DESTDIR), or empty for none
#                  (a .deb has dpkg's own list); `make uninstall` reads it
#   REQUIRE_STATIC 1: refuse binaries that load the Swift runtime as shared libraries
#   RUNTIME        private: copy the Swift runtime libraries the binaries load into
#                  LIBDIR/nook (default PREFIX/lib) and point the binaries there alone
#                  (RUNPATH, with chrpath), so they run without the toolchain; `make install`
#                  does this (docs/PERFORMANCE.md, "Footprint"). Empty: leave them as built.
#   STRIP          1: strip the installed binaries (the .deb, and a private runtime's files)
set -euo pipefail
cd "$(dirname "$0")/.."

: "${BIN:?BIN must name the directory of the built binaries}"
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
BINDIR=${BINDIR:-$PREFIX/bin}
DATADIR=${DATADIR:-$PREFIX/share}
MANDIR=${MANDIR:-$DATADIR/man}
USERUNITDIR=${USERUNITDIR:-$PREFIX/lib/systemd/user}
SYSCONFDIR=${SYSCONFDIR:-$PREFIX/etc}
ZSHCOMPDIR=${ZSHCOMPDIR:-$DATADIR/zsh/site-functions}
MANIFEST=${MANIFEST-$DATADIR/nook/install-manifest}
REQUIRE_STATIC=${REQUIRE_STATIC:-0}
RUNTIME=${RUNTIME:-}
LIBDIR=${LIBDIR:-$PREFIX/lib}
STRIP=${STRIP:-0}
[ "$RUNTIME" = private ] && STRIP=1

# nookd and the three bridges are one multi-call binary, nook-programs, run by links of their
# names: they share most of their code, which is then in memory once for all of them
# (docs/PERFORMANCE.md, "Footprint"). The renderer (GTK) and nookctl (run by scripts, started
# often) stay binaries of their own.
linked=(nookd nook-mpris nook-notifications nook-system)
binaries=(nook-programs nookctl nook-renderer)

for path in "$PREFIX" "$BINDIR" "$LIBDIR" "$DATADIR" "$MANDIR" "$USERUNITDIR" "$SYSCONFDIR" "$ZSHCOMPDIR"; do
  case "$path" in
    /*) ;;
    *) echo "install: '$path' is not an absolute path (PREFIX and the directories must be)" >&2; exit 2 ;;
  esac
done

for program in "${binaries[@]}"; do
  if [ ! -x "$BIN/$program" ]; then
    echo "install: $BIN/$program is not built" >&2
    exit 1
  fi
  # A binary that loads libswiftCore.so would need the toolchain on every machine it runs on.
  if [ "$REQUIRE_STATIC" = 1 ] && ldd "$BIN/$program" | grep -q 'libswift\|libFoundation\|libdispatch'; then
    echo "install: $BIN/$program loads the Swift runtime as shared libraries (build with --static-swift-stdlib):" >&2
    ldd "$BIN/$program" | grep 'libswift\|libFoundation\|libdispatch' >&2
    exit 1
  fi
done

version=$("$BIN/nookctl" --version | awk '{print $2}')
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT

# What this run puts in place, without DESTDIR: directories it creates end with '/'.
entries=()

make_directory() {
  local directory=$1
  [ -d "$DESTDIR$directory" ] && return 0
  if [ "$directory" = / ]; then mkdir -p "$DESTDIR"; return 0; fi
  make_directory "$(dirname "$directory")"
  mkdir -m 755 "$DESTDIR$directory"
  entries+=("$directory/")
}

# put MODE SOURCE DESTINATION: one file, recorded.
put() {
  make_directory "$(dirname "$3")"
  install -m "$1" "$2" "$DESTDIR$3"
  entries+=("$3")
}

# The real paths, substituted into a template.
fill() {
  sed -e "s|@BINDIR@|$BINDIR|g" -e "s|@VERSION@|$version|g" "$1" > "$2"
}

strip_file() { strip --remove-section=.comment --remove-section=.note --strip-unneeded "$1"; }

for program in "${binaries[@]}"; do
  put 755 "$BIN/$program" "$BINDIR/$program"
  if [ "$STRIP" = 1 ]; then strip_file "$DESTDIR$BINDIR/$program"; fi
done
for program in "${linked[@]}"; do
  ln -sfn nook-programs "$DESTDIR$BINDIR/$program"
  entries+=("$BINDIR/$program")
done

# A private Swift runtime: the toolchain's libraries the programs load, once, in LIBDIR/nook;
# each program's RUNPATH names that directory alone, relative to the program ($ORIGIN), so
# the installed tree runs without the toolchain and never picks up another one.
is_runtime_library() { case "$(basename "$1")" in libswift*|libFoundation*|lib_Foundation*|libdispatch*|libBlocksRuntime*) return 0 ;; *) return 1 ;; esac; }
if [ "$RUNTIME" = private ]; then
  command -v chrpath > /dev/null || { echo "install: a private runtime needs chrpath (apt install chrpath; make install installs it)" >&2; exit 1; }
  runtime_dir="$LIBDIR/nook"
  relative=$(realpath -m --relative-to="$BINDIR" "$runtime_dir")
  libraries=$(for program in "${binaries[@]}"; do ldd "$BIN/$program" | awk '$3 ~ /^\// {print $3}'; done | sort -u)
  for library in $libraries; do
    is_runtime_library "$library" || continue
    put 644 "$library" "$runtime_dir/$(basename "$library")"
    strip_file "$DESTDIR$runtime_dir/$(basename "$library")"
  done
  for program in "${binaries[@]}"; do
    if ! chrpath -r "\$ORIGIN/$relative" "$DESTDIR$BINDIR/$program" > /dev/null; then
      echo "install: cannot point $BINDIR/$program at $runtime_dir (its RUNPATH is too short for chrpath; build with make install)" >&2
      exit 1
    fi
    # Every runtime library must now come from the private directory.
    stray=$(ldd "$DESTDIR$BINDIR/$program" | awk '{print $1, $3}' | while read -r name path; do
      is_runtime_library "$name" && [ "$(realpath -m "$(dirname "$path")")" != "$(realpath -m "$DESTDIR$runtime_dir")" ] && echo "$name => $path"; done || true)
    if [ -n "$stray" ]; then
      echo "install: $BINDIR/$program still loads runtime libraries from elsewhere:" >&2
      echo "$stray" >&2
      exit 1
    fi
  done
fi

for unit in nookd nook-renderer nook-mpris nook-notifications nook-system; do
  fill "packaging/systemd/$unit.service.in" "$staging/$unit.service"
  put 644 "$staging/$unit.service" "$USERUNITDIR/$unit.service"
done

fill packaging/dbus/org.nook.Nook1.service.in "$staging/org.nook.Nook1.service"
put 644 "$staging/org.nook.Nook1.service" "$DATADIR/dbus-1/services/org.nook.Nook1.service"
put 644 data/org.nook.Nook1.xml "$DATADIR/dbus-1/interfaces/org.nook.Nook1.xml"
put 644 data/org.nook.Notifications1.xml "$DATADIR/dbus-1/interfaces/org.nook.Notifications1.xml"

fill packaging/xdg/nook-renderer.desktop.in "$staging/nook-renderer.desktop"
put 644 "$staging/nook-renderer.desktop" "$SYSCONFDIR/xdg/autostart/nook-renderer.desktop"

# Man pages: nookctl's is generated from its verb table, the others are written by hand.
"$BIN/nookctl" manpage > "$staging/nookctl.1"
for page in nookd nook-renderer nook-mpris nook-notifications nook-system; do fill "packaging/man/$page.1.in" "$staging/$page.1"; done
for page in nookd nookctl nook-renderer nook-mpris nook-notifications nook-system; do
  gzip -9n < "$staging/$page.1" > "$staging/$page.1.gz"
  put 644 "$staging/$page.1.gz" "$MANDIR/man1/$page.1.gz"
done
# The notification rules file's format, section 5.
for page in nook-notifications-rules; do
  fill "packaging/man/$page.5.in" "$staging/$page.5"
  gzip -9n < "$staging/$page.5" > "$staging/$page.5.gz"
  put 644 "$staging/$page.5.gz" "$MANDIR/man5/$page.5.gz"
done

# Completions, generated from the verb table.
"$BIN/nookctl" completions bash > "$staging/nookctl.bash"
"$BIN/nookctl" completions zsh > "$staging/_nookctl"
"$BIN/nookctl" completions fish > "$staging/nookctl.fish"
put 644 "$staging/nookctl.bash" "$DATADIR/bash-completion/completions/nookctl"
put 644 "$staging/_nookctl" "$ZSHCOMPDIR/_nookctl"
put 644 "$staging/nookctl.fish" "$DATADIR/fish/vendor_completions.d/nookctl.fish"

if [ -n "$MANIFEST" ]; then
  # Directories an earlier install created stay recorded, so uninstall still removes them.
  if [ -f "$DESTDIR$MANIFEST" ]; then
    while IFS= read -r line; do
      case "$line" in */) entries=("$line" "${entries[@]}") ;; esac
    done < "$DESTDIR$MANIFEST"
  fi
  make_directory "$(dirname "$MANIFEST")"
  printf '%s\n' "${entries[@]}" | awk '!seen[$0]++' > "$DESTDIR$MANIFEST"
  chmod 644 "$DESTDIR$MANIFEST"
  echo "install: Nook $version installed under $DESTDIR$PREFIX; the list is in $DESTDIR$MANIFEST"
fi
