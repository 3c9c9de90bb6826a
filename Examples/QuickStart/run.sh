#!/usr/bin/env bash
# Runs the quick-start module against a nookd of its own on a private bus, and prints every
# plan a renderer would receive. Ctrl-C (or the end of the timer) stops it all.
#
#   Examples/QuickStart/run.sh [--minutes M]
set -euo pipefail
cd "$(dirname "$0")/../.."
# NOOK_BIN: where the programs are, already built (the test that runs this script sets it).
if [ -z "${NOOK_BIN:-}" ]; then
  for product in QuickStart nookd nookctl; do swift build --product "$product" >&2; done
fi
BIN=${NOOK_BIN:-$(swift build --show-bin-path)}

scratch=$(mktemp -d)
pids=()
cleanup() {
  # Newest first, the bus daemon last, each by its pid.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  # SIGKILL: dbus-daemon may have SIGTERM blocked, as a parent's mask survives exec.
  [ -n "${bus_pid:-}" ] && kill -9 "$bus_pid" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# A private bus, so this never touches a nookd on your session bus.
address="unix:path=$scratch/bus"
dbus-daemon --session --address="$address" --nofork --nopidfile --syslog-only &
bus_pid=$!
until [ -S "$scratch/bus" ]; do sleep 0.05; done

"$BIN/nookd" --address "$address" --state-dir "$scratch/state" 2>"$scratch/nookd.log" &
pids+=($!)
until "$BIN/nookctl" --address "$address" status >/dev/null 2>&1; do sleep 0.05; done

"$BIN/nookctl" --address "$address" watch &
pids+=($!)

"$BIN/QuickStart" --address "$address" "$@"
