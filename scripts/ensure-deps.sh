#!/usr/bin/env bash
# Makes sure the system packages Nook needs are installed, checked by package with dpkg (never
# by a command name, which a stand-in could answer), and that the Swift toolchain is there.
#
#   scripts/ensure-deps.sh build run        # what `make build`, `make demo` and `make bench` need
#   scripts/ensure-deps.sh build run test   # what `make test` needs (the default)
#   scripts/ensure-deps.sh build run package  # what `make deb` needs
#
# As root with apt-get it installs what is missing; otherwise it prints the exact command.
set -euo pipefail
cd "$(dirname "$0")/.."

# build: the compiler's own needs beside the toolchain, and the -dev packages of the C libraries
# the package links (CSystemd: libsystemd; CGtk: GTK3, gtk-layer-shell, Cairo, Pango;
# CFontText: fontconfig, FreeType, HarfBuzz; CXdgOutput: wayland-client; CPulse: libpulse, for
# nook-system's volume; CPipeWire: libpipewire, for the camera and screen in use), and chrpath, with which
# `make install` points the programs at their private Swift runtime.
build_packages=(pkgconf libc6-dev libsystemd-dev libgtk-3-dev libgtk-layer-shell-dev
  libfontconfig-dev libfreetype-dev libharfbuzz-dev libwayland-dev libpulse-dev libpipewire-0.3-dev chrpath)

# run: what `make demo` and the installed programs need at run time: a bus daemon, the
# libraries nookd measures text with, and the icons and fonts nook-renderer draws with (the
# default `Sans` is DejaVu Sans; WenQuanYi Micro Hei covers Chinese, Japanese and Korean and
# Symbola emoji, so nookd and the renderer fall back to the same fonts for them).
run_packages=(dbus-daemon libsystemd0 libgtk-3-0 libgtk-layer-shell0 libfontconfig1 libfreetype6 libharfbuzz0b libpulse0 libpipewire-0.3-0
  adwaita-icon-theme fonts-dejavu-core fonts-wqy-microhei fonts-symbola)

# test: the outside peers and tools the integration tests drive: busctl, gdbus, dbus-send and
# python-dbus as foreign clients; mpv with its MPRIS plugin for the music bridge; Chromium to
# draw recorded SVGs; Xvfb, xwd, ImageMagick, xdotool and xrandr for the renderer's screenshots;
# at-spi2-core (the accessibility bus) and gi's Atspi for the renderer's accessibility test;
# for the install tests, systemd-analyze (systemd), desktop-file-validate, the shells whose
# completions are generated, and groff for the man pages; libnotify-bin's notify-send as a
# real Notifications client for nook-notifications. The Wayland suite runs headless sway (and waybar,
# swaybar) as an unprivileged user it creates (useradd: passwd; setpriv: util-linux), screenshots
# with grim, and builds its virtual-pointer client with wayland-scanner (libwayland-bin), gcc and
# libwayland-dev. The KDE placement test runs KWin (kwin-wayland), kactivitymanagerd and
# plasmashell (plasma-workspace, with plasma-desktop's shell and panel, and qtwayland5 for Qt's
# Wayland platform) and screenshots through KWin's D-Bus with python3-dbus. The volume test runs
# PipeWire with WirePlumber and its PulseAudio server on a null sink, changes it with pactl, and
# records with parecord and pw-record (pipewire-bin); the privacy test makes a camera and a
# screen cast with GStreamer's PipeWire elements and captures them with another
# (gstreamer1.0-tools, gstreamer1.0-pipewire, gstreamer1.0-plugins-base for videotestsrc). The
# KDE jobs test copies with kioclient5 (kde-cli-tools), a real KIO client. The power test serves
# UPower with python3-dbusmock's upower template.
test_packages=(
  systemd dbus-bin libglib2.0-bin python3 python3-dbus python3-gi
  mpv mpv-mpris chromium
  xvfb xauth x11-apps imagemagick xdotool x11-xserver-utils at-spi2-core gir1.2-atspi-2.0
  desktop-file-utils bash zsh fish groff-base libnotify-bin gir1.2-notify-0.7
  sway waybar grim libwayland-bin libwayland-dev gcc passwd util-linux
  kwin-wayland kactivitymanagerd plasma-workspace plasma-desktop qtwayland5
  pipewire pipewire-bin pipewire-pulse wireplumber pulseaudio-utils
  gstreamer1.0-tools gstreamer1.0-pipewire gstreamer1.0-plugins-base kde-cli-tools
  python3-dbusmock
)

# package: what `make deb` needs beside the build: dpkg-shlibdeps (dpkg-dev) for Depends, and
# strip (binutils).
package_packages=(dpkg-dev binutils)

groups=("$@")
[ ${#groups[@]} -eq 0 ] && groups=(build run test)

wanted=()
for group in "${groups[@]}"; do
  case "$group" in
    build) wanted+=("${build_packages[@]}") ;;
    run) wanted+=("${run_packages[@]}") ;;
    test) wanted+=("${test_packages[@]}") ;;
    package) wanted+=("${package_packages[@]}") ;;
    *) echo "ensure-deps: unknown group '$group' (build, run, test or package)" >&2; exit 2 ;;
  esac
done

installed() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing=()
for pkg in "${wanted[@]}"; do installed "$pkg" || missing+=("$pkg"); done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "ensure-deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # Another install on the machine (a second checkout's `make deps`) holds dpkg's lock for a
    # while: wait for it rather than fail.
    apt-get -o DPkg::Lock::Timeout=900 update -qq
    apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # Package.swift asks pkg-config for GTK's include directories as SwiftPM reads it, and
    # SwiftPM keeps what it read: a manifest read before GTK's headers came must be read again.
    touch "$(dirname "$0")/../Package.swift"
  else
    echo "Nook needs these system packages: ${missing[*]}" >&2
    echo "Run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# Where a command is what matters, check what it is, not that something by its name exists:
# the screenshot tests run `convert` from PATH, and a stand-in may come first there.
for group in "${groups[@]}"; do
  if [ "$group" = test ] && ! convert -version 2>/dev/null | grep -q ImageMagick; then
    echo "ensure-deps: 'convert' on PATH ($(command -v convert || echo none)) is not ImageMagick," >&2
    echo "  though the imagemagick package is installed: put /usr/bin before its directory on PATH" >&2
    exit 1
  fi
done

# The toolchain: Swift is not a Debian package here; say clearly what is missing.
swift=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
if ! "$swift" --version >/dev/null 2>&1; then
  echo "Nook needs Swift 6.3 on PATH (or at /opt/swift/usr/bin/swift, or in \$SWIFT);" \
       "none was found. Install a toolchain from swift.org's Linux release and put its usr/bin on PATH." >&2
  exit 1
fi
exit 0
