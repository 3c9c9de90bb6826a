#!/usr/bin/env bash
# Makes sure the system packages Nook builds and tests with are present.
# Installs the missing ones with apt-get when run as root; otherwise prints the exact command.
set -euo pipefail

# package -> a check that passes when it is installed
declare -A checks=(
  [pkgconf]="command -v pkg-config"
  [libsystemd-dev]="pkg-config --exists libsystemd"
  [libdbus-1-dev]="pkg-config --exists dbus-1"
  [dbus-daemon]="command -v dbus-daemon"
  [dbus-bin]="command -v dbus-send"
  [systemd]="command -v busctl"
  [libglib2.0-bin]="command -v gdbus"
  [python3-dbus]="/usr/bin/python3 -c 'import dbus'"
  [python3-gi]="/usr/bin/python3 -c 'from gi.repository import GLib'"
  [mpv]="command -v mpv"
  [mpv-mpris]="test -f /usr/lib/mpv-mpris/mpris.so"
  [chromium]="command -v chromium"
  # nook-renderer and its screenshot tests under Xvfb
  [libgtk-3-dev]="pkg-config --exists gtk+-3.0"
  [libgtk-layer-shell-dev]="pkg-config --exists gtk-layer-shell-0"
  [xvfb]="command -v Xvfb"
  [xauth]="command -v xauth"
  [x11-apps]="command -v xwd"
  [imagemagick]="command -v convert"
  [xdotool]="command -v xdotool"
  [x11-xserver-utils]="command -v xrandr"
  [adwaita-icon-theme]="test -d /usr/share/icons/Adwaita"
  [fonts-dejavu-core]="test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
)

missing=()
for pkg in "${!checks[@]}"; do
  if ! bash -c "${checks[$pkg]}" >/dev/null 2>&1; then missing+=("$pkg"); fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

IFS=$'\n' missing=($(sort <<<"${missing[*]}")); unset IFS
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "Nook needs these system packages: ${missing[*]}" >&2
  echo "Run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
