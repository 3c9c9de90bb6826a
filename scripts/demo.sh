#!/usr/bin/env bash
# make demo: build Nook, start it on a private bus with the two example modules, take a tour of
# the nook's presentations while printing each plan, and record the tour into demo.svg. With a
# display ($DISPLAY or $WAYLAND_DISPLAY), nook-renderer shows the tour on it as it happens.
# Every process this script starts is ended by its pid when it exits.
#
#   NOOK_DEMO_IMAGE=docs/images/tour.svg make demo   # also copy the recording there (the README's picture)
#   NOOK_DEMO_TRACE=1 make demo                      # show every command
#   NOOK_DEMO_SLOW_MOTION=4 make demo                # the renderer plays curves 4x slower
#   NOOK_DEMO_RENDERER=0 make demo                   # no renderer even with a display
set -euo pipefail
[ -n "${NOOK_DEMO_TRACE:-}" ] && set -x
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "building (debug)"
"$SWIFT" build 2>&1 | tail -n 1
BIN=$("$SWIFT" build --show-bin-path)

work=$(mktemp -d /tmp/nook-demo.XXXXXX)
pids=()
cleanup() {
  # Newest first: the watcher and the modules leave before the broker they talk to.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "${bus_pid:-}" ] && kill -9 "$bus_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# A private bus, so the demo never disturbs a nookd on the user's own session bus.
. scripts/private-bus.sh
start_private_bus
ctl() { "$BIN/nookctl" --address "$address" "$@"; }

say "starting nookd on a private bus"
"$BIN/nookd" --address "$address" --state-dir "$work/state" 2> "$work/nookd.log" &
pids+=($!)
for _ in $(seq 100); do ctl status >/dev/null 2>&1 && break; sleep 0.1; done
ctl status >/dev/null

# A renderer of our own contract: one line per plan, and an animated SVG of the whole tour.
# Background jobs call the binary, not the ctl function, so that $! is nookctl itself (a
# function would run in a subshell, and its pid would be the one signalled); the process
# substitution keeps the sed out of $! too.
"$BIN/nookctl" --address "$address" watch > >(sed -u 's/^/   plan │ /') &
pids+=($!)
# The recorder runs until the tour is over and is then stopped with SIGTERM, on which it
# writes the SVG; it says on stderr once it has subscribed.
"$BIN/nookctl" --address "$address" record --svg "$work/demo.svg" --seconds 600 > "$work/record.out" 2> "$work/record.err" &
record_pid=$!
pids+=($record_pid)
for _ in $(seq 100); do grep -q "recording into" "$work/record.err" 2>/dev/null && break; sleep 0.1; done

# On a desktop, the nook itself: nook-renderer draws every plan of the tour on this display.
renderer=0
if [ "${NOOK_DEMO_RENDERER:-1}" != 0 ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  renderer=1
  slow=${NOOK_DEMO_SLOW_MOTION:-1}
  say "nook-renderer draws the nook at the top of your screen (slow motion x$slow)"
  "$BIN/nook-renderer" --address "$address" --slow-motion "$slow" 2> >(sed -u 's/^/   renderer │ /' >&2) &
  pids+=($!)
  for _ in $(seq 50); do ctl status >/dev/null 2>&1 && break; sleep 0.1; done
else
  slow=1
  say "no display (\$DISPLAY, \$WAYLAND_DISPLAY): the tour goes into demo.svg only"
fi
pause=$(awk "BEGIN { print 1.2 * $slow }")

step() { say "$1"; shift; "$@" || true; sleep "$pause"; }
wait_for_activities() { for _ in $(seq 100); do [ "$(ctl activities 2>/dev/null | wc -l)" -ge "$1" ] && break; sleep 0.1; done; }

say "the music module (a simulated player) publishes its song"
"$BIN/nook-mpris" --address "$address" --simulate --track-seconds 120 2> "$work/music.log" &
pids+=($!)
wait_for_activities 1
song=$(ctl activities | grep '^music/' | head -n 1)
step "show the nook: the song's cover and equalizer sit either side of the notch" ctl show

say "two countdown timers start: each marks \"timer\", so the broker suffixes the ids (rule 8)"
"$BIN/TimerModule" --address "$address" --timers 2 --duration 300 2> "$work/timer.log" &
pids+=($!)
wait_for_activities 3
sleep 1.2
ctl status

step "peek the song: its cover moves from the pill into the peek (rule 10)" ctl peek "$song"
step "end the peek: the cover moves back" ctl unpeek
step "open by claim onto the song: a shared cover on screen, so the chrome converts directly (rule 13)" ctl open --activity "$song"
step "close" ctl close
step "open by hover (what a renderer's pointer does): always direct" ctl open --via hover
step "close" ctl close
step "open onto the music home: the cover grows from the pill into the home (rule 7)" ctl open --home music
step "close" ctl close
step "open onto the board of widgets" ctl open --board
step "close" ctl close
step "Reduce Motion on: nothing moves, slots only fade (rule 18)" ctl set reduce-motion on
step "open onto the music home with Reduce Motion" ctl open --home music
step "close" ctl close
step "Reduce Motion off" ctl set reduce-motion off
step "what opening the home would do now, as a dry run that changes nothing" ctl preview open --home music

say "finishing the recording"
sleep "$(awk "BEGIN { print 1.5 * $slow }")"  # let the last transition play out before the recorder stops
[ "$renderer" = 1 ] && echo "the renderer stops with the demo"
kill -TERM "$record_pid" 2>/dev/null || true
wait "$record_pid" 2>/dev/null || true
cat "$work/record.out"
if [ -s "$work/demo.svg" ]; then
  cp "$work/demo.svg" ./demo.svg
  echo "wrote $(pwd)/demo.svg: open it in a browser (for example: xdg-open demo.svg) to watch the tour"
  if [ -n "${NOOK_DEMO_IMAGE:-}" ]; then cp "$work/demo.svg" "$NOOK_DEMO_IMAGE" && echo "copied it to $NOOK_DEMO_IMAGE"; fi
else
  echo "the recorder wrote no SVG:" >&2
  cat "$work/record.err" >&2
  exit 1
fi
