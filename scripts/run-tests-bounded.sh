#!/bin/sh
# Runs a test command with a time limit: on expiry, prints every thread's stack of the test
# processes it started (gdb, when installed) and ends them, so a stalled run fails with a
# trail instead of sitting until CI's own limit. Usage: run-tests-bounded.sh LIMIT COMMAND...
limit=$1
shift
# Every test's dbus-daemon, nookd (its theme-file watch) and renderer holds an inotify instance,
# and a hundred tests run side by side: the kernel's default of 128 per user runs out, and a
# watch that cannot start is a test that fails. Raised for this boot where we may (root).
instances=$(cat /proc/sys/fs/inotify/max_user_instances 2>/dev/null || echo 1024)
if [ "$instances" -lt 1024 ] && [ -w /proc/sys/fs/inotify/max_user_instances ]; then
    echo 1024 > /proc/sys/fs/inotify/max_user_instances &&
        echo "run-tests-bounded: inotify instances per user raised from $instances to 1024 for this boot" >&2
fi
"$@" &
runner=$!
sleep "$limit" &
timer=$!
# Whichever ends first: the run, or the time limit.
while kill -0 "$runner" 2>/dev/null && kill -0 "$timer" 2>/dev/null; do sleep 5; done
if kill -0 "$runner" 2>/dev/null; then
    echo "run-tests-bounded: no end after $limit; stacks of the test processes follow" >&2
    for pid in $(pgrep -P "$runner"); do
        if command -v gdb >/dev/null 2>&1; then timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt 12" >&2 2>/dev/null; fi
        kill "$pid" 2>/dev/null
    done
    kill "$runner" 2>/dev/null
fi
kill "$timer" 2>/dev/null
wait "$runner"
