#!/usr/bin/env bash
# make soak (not in CI): scripts/soak.sh DURATION_SECONDS (default 600)
#
# Runs nookd on a private bus with the demo modules (TimerModule, nook-mpris --simulate), a
# renderer (`nookctl watch --json`) and a user poking the nook (peek/unpeek/open/close every
# second), for DURATION seconds, sampling nookd's RSS every SOAK_SAMPLE seconds (default 5).
#
# Asserts:
#  - memory stays flat: after a warm-up (the first quarter of the run), the median RSS of the
#    last quarter exceeds the median of the second quarter by at most
#    max(SOAK_RSS_TOLERANCE_KIB (default 2048 KiB), 10%);
#  - no plan is lost: the serials the renderer saw strictly increase, and the serial of the
#    last plan the user caused (a final `close`) is delivered;
#  - nookd is still alive at the end and stops cleanly (status 0).
# Every process this script starts is ended by its pid when it exits.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-600}
SAMPLE=${SOAK_SAMPLE:-5}
TOLERANCE_KIB=${SOAK_RSS_TOLERANCE_KIB:-2048}
SWIFT=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
if [ -z "${SOAK_BIN:-}" ]; then
  "$SWIFT" build 2>&1 | tail -n 1
  SOAK_BIN=$("$SWIFT" build --show-bin-path)
fi
BIN=$SOAK_BIN

work=$(mktemp -d /tmp/nook-soak.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "${bus_pid:-}" ] && kill -9 "$bus_pid" 2>/dev/null || true
  [ -n "${SOAK_KEEP:-}" ] && echo "soak: kept $work" || rm -rf "$work"
}
trap cleanup EXIT INT TERM

. scripts/private-bus.sh
start_private_bus
ctl() { "$BIN/nookctl" --address "$address" "$@"; }

"$BIN/nookd" --address "$address" --state-dir "$work/state" 2> "$work/nookd.log" &
nookd_pid=$!
pids+=($nookd_pid)
for _ in $(seq 200); do ctl status >/dev/null 2>&1 && break; sleep 0.1; done
ctl status >/dev/null

ctl watch --json > "$work/plans.jsonl" 2> "$work/watch.log" &
pids+=($!)
"$BIN/nook-mpris" --address "$address" --simulate 2> "$work/music.log" &
pids+=($!)
"$BIN/TimerModule" --address "$address" --timers 3 --duration $((DURATION + 120)) 2> "$work/timer.log" &
pids+=($!)
for _ in $(seq 200); do [ "$(ctl activities 2>/dev/null | wc -l)" -ge 4 ] && break; sleep 0.1; done
echo "soak: ${DURATION}s, activities: $(ctl activities | tr '\n' ' ')"

rss() { awk '/^VmRSS/ {print $2}' "/proc/$nookd_pid/status"; }
start=$(date +%s)
next_sample=$start
actions=(show "peek $(ctl activities | head -n 1)" unpeek "open" close)
i=0
while [ $(( $(date +%s) - start )) -lt "$DURATION" ]; do
  now=$(date +%s)
  if [ "$now" -ge "$next_sample" ]; then
    echo "$((now - start)) $(rss)" >> "$work/rss.log"
    next_sample=$((next_sample + SAMPLE))
  fi
  # shellcheck disable=SC2086
  ctl ${actions[$((i % ${#actions[@]}))]} >/dev/null 2>&1 || true
  i=$((i + 1))
  sleep 1
done
final=$(ctl close)
echo "soak: last user plan serial $final; waiting for the renderer to see it"
for _ in $(seq 200); do grep -q "\"serial\" *: *$final[,}]" "$work/plans.jsonl" && break; sleep 0.1; done
kill -0 "$nookd_pid" || { echo "soak: FAIL nookd died"; tail -n 20 "$work/nookd.log"; exit 1; }
kill -TERM "$nookd_pid"; status=0; wait "$nookd_pid" || status=$?

python3 - "$work/plans.jsonl" "$work/rss.log" "$final" "$TOLERANCE_KIB" "$status" <<'PY'
import json, statistics, sys
plans_file, rss_file, final, tolerance, status = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
serials = []
for line in open(plans_file):
    line = line.strip()
    if not line: continue
    plan = json.loads(line)
    serials.append(int(plan.get("serial", plan.get("plan", {}).get("serial", -1))))
ok = True
increasing = all(b > a for a, b in zip(serials, serials[1:]))
print(f"soak: {len(serials)} plans seen, serials {serials[0] if serials else '-'}..{serials[-1] if serials else '-'}, strictly increasing: {increasing}")
ok &= increasing and len(serials) > 0
delivered = final in serials
print(f"soak: final plan {final} delivered: {delivered}")
ok &= delivered
samples = [tuple(map(int, l.split())) for l in open(rss_file) if l.strip()]
kib = [s[1] for s in samples]
q = max(1, len(kib) // 4)
base, end = statistics.median(kib[q:2 * q] or kib), statistics.median(kib[-q:])
allowed = max(tolerance, base * 0.10)
print(f"soak: RSS KiB first {kib[0]}, max {max(kib)}, median 2nd quarter {base:.0f}, last quarter {end:.0f}, growth {end - base:.0f} (allowed {allowed:.0f})")
flat = end - base <= allowed
ok &= flat
print(f"soak: nookd exit status {status}")
ok &= status == 0
print("soak: PASS" if ok else "soak: FAIL")
sys.exit(0 if ok else 1)
PY
