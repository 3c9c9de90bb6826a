#!/usr/bin/env bash
# Records the README's animated picture from nook-renderer's own frames: a private Xvfb
# display, a private bus, nookd and the example modules, the renderer in slow motion, xwd
# screenshots of the nook's corner of the screen while a short tour plays, assembled with
# ImageMagick's convert into docs/images/renderer-tour.gif, played back at real speed.
# Every process this script starts is ended by its pid when it exits.
#
#   scripts/record-renderer-gif.sh [output.gif]
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
out=${1:-docs/images/renderer-tour.gif}
slow=${NOOK_GIF_SLOW_MOTION:-4}   # curves run this much slower while frames are captured
for tool in Xvfb xwd convert; do command -v "$tool" >/dev/null || { echo "$tool is missing: run scripts/ensure-deps.sh" >&2; exit 1; }; done

"$SWIFT" build 2>&1 | tail -n 1
BIN=$("$SWIFT" build --show-bin-path)
work=$(mktemp -d /tmp/nook-gif.XXXXXX)
pids=()
cleanup() {
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "${bus_pid:-}" ] && kill -9 "$bus_pid" 2>/dev/null || true
  [ -n "${xvfb_pid:-}" ] && kill -9 "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# Xvfb picks a free display and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3> "$work/display" 2> "$work/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
display=":$(tr -d '\n' < "$work/display")"

. scripts/private-bus.sh
start_private_bus
ctl() { "$BIN/nookctl" --address "$address" "$@"; }
"$BIN/nookd" --address "$address" --state-dir "$work/state" 2> "$work/nookd.log" &
pids+=($!)
for _ in $(seq 100); do ctl status >/dev/null 2>&1 && break; sleep 0.1; done
"$BIN/nook-mpris" --address "$address" --simulate --track-seconds 600 2> "$work/music.log" &
pids+=($!)
for _ in $(seq 100); do [ "$(ctl activities 2>/dev/null | wc -l)" -ge 1 ] && break; sleep 0.1; done
song=$(ctl activities | grep '^music/' | head -n 1)
DISPLAY=$display GDK_BACKEND=x11 "$BIN/nook-renderer" --address "$address" --slow-motion "$slow" 2> "$work/renderer.log" &
pids+=($!)
for _ in $(seq 100); do grep -q "subscribed" "$work/renderer.log" 2>/dev/null && break; sleep 0.1; done
ctl show >/dev/null
sleep 1

# Frames: one screenshot after another, cropped to the nook's corner of the screen and
# named by its capture time in milliseconds.
mkdir "$work/frames"
crop=560x250+360+0
(
  while [ ! -e "$work/stop" ]; do
    stamp=$(date +%s%3N)
    xwd -root -silent -display "$display" | convert xwd:- -crop "$crop" +repage "$work/frames/$stamp.png"
  done
) &
capture_pid=$!
pids+=($capture_pid)

pause() { sleep "$(awk "BEGIN { print $1 * $slow }")"; }
pause 0.6
ctl open --activity "$song" >/dev/null; pause 1.4
ctl close >/dev/null; pause 1.2
ctl open --home music >/dev/null; pause 1.6
ctl close >/dev/null; pause 1.2
ctl peek "$song" >/dev/null; pause 1.2
ctl unpeek >/dev/null; pause 1.2
touch "$work/stop"
wait "$capture_pid" 2>/dev/null || true

# Each frame stays up for its real interval divided by the slow motion (GIF delays are in
# hundredths of a second), cropped to the nook's corner of the screen.
frames=("$work"/frames/*.png)
args=()
for ((i = 0; i < ${#frames[@]} - 1; i++)); do
  this=$(basename "${frames[i]}" .png); next=$(basename "${frames[i + 1]}" .png)
  delay=$(( (next - this) / (10 * slow) )); [ "$delay" -lt 2 ] && delay=2
  args+=(-delay "$delay" "${frames[i]}")
done
args+=(-delay 150 "${frames[-1]}")
mkdir -p "$(dirname "$out")"
convert "${args[@]}" +dither -colors 48 -layers Optimize "$out"
echo "wrote $out: ${#frames[@]} frames, $(du -k "$out" | cut -f1) KiB"
