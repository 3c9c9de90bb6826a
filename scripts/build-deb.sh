#!/usr/bin/env bash
# `make deb`: a Debian package of the programs from the release build in $BIN, laid out by
# scripts/install.sh with PREFIX=/usr as `make install` lays them out (binaries stripped, the
# Swift runtime once in /usr/lib/nook), with Depends computed by dpkg-shlibdeps, md5sums,
# conffiles, the copyright file and changelog.Debian.gz. Writes
# nook_VERSION-REVISION_ARCH.deb into the checkout and prints its name.
#
#   DEB_REVISION    the Debian revision (default 1)
#   DEB_MAINTAINER  the Maintainer field (default: the last commit's author)
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BIN:?BIN must name the directory of the built binaries}"

version=$("$BIN/nookctl" --version | awk '{print $2}')
debversion="$version-${DEB_REVISION:-1}"
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>')}
work=.build/deb
# dpkg-shlibdeps expects the tree where debhelper would have it: debian/PACKAGE.
root=$work/debian/nook
rm -rf "$work"
mkdir -p "$root/DEBIAN"

DESTDIR=$root PREFIX=/usr SYSCONFDIR=/etc ZSHCOMPDIR=/usr/share/zsh/vendor-completions \
  MANIFEST= RUNTIME=private STRIP=1 BIN=$BIN scripts/install.sh

doc=$root/usr/share/doc/nook
install -d -m 755 "$doc"
install -m 644 packaging/debian/copyright "$doc/copyright"
sed -e "s|@DEBVERSION@|$debversion|g" -e "s|@MAINTAINER@|$maintainer|g" \
    -e "s|@DATE@|$(date -R -d "@$(git log -1 --format=%ct)")|g" packaging/debian/changelog.in |
  gzip -9n > "$doc/changelog.Debian.gz"
chmod 644 "$doc/changelog.Debian.gz"

# Depends of the shared libraries the binaries and the private runtime load (libc6,
# libsystemd0, libgtk-3-0, libgtk-layer-shell0, libstdc++6, ...), as the shlibs files of the
# installed packages name them; the runtime itself is in the package (-l). Its libraries have
# no version in their names, which dpkg-shlibdeps warns about for each: expected for a private
# directory, so those lines are left out.
printf 'Source: nook\n\nPackage: nook\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O --warnings=1 -ldebian/nook/usr/lib/nook \
  $(printf -- '-e debian/nook/usr/bin/%s ' nook-programs nookctl nook-renderer) \
  $(printf -- '-e %s ' debian/nook/usr/lib/nook/*.so*) 2> >(grep -v "can't extract name and version from library name" >&2) |
  sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@DEBVERSION@|$debversion|g" -e "s|@ARCH@|$arch|g" -e "s|@SIZE@|$size|g" \
    -e "s|@DEPENDS@|$depends|g" -e "s|@MAINTAINER@|$maintainer|g" packaging/debian/control.in > "$root/DEBIAN/control"
# Files under /etc are the administrator's once installed: dpkg keeps their changes.
(cd "$root" && find etc -type f | sed 's|^|/|') > "$root/DEBIAN/conffiles"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

package="nook_${debversion}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >/dev/null
echo "deb: wrote $package"
dpkg-deb --field "$package" Package Version Architecture Depends
