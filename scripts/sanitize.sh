#!/usr/bin/env bash
# `make sanitize`: builds every product and the tests with a sanitizer (its own build path, so
# the plain build is untouched) and runs the integration and hostile suites with it. nookd, the
# bridges and the renderer the tests start are the sanitized binaries built beside the test
# bundle. A report from any process fails the run, whether or not a test noticed.
#
#   scripts/sanitize.sh                 # address, then thread
#   SANITIZERS=address scripts/sanitize.sh
#   SANITIZE_FILTER='Hostile' scripts/sanitize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
sanitizers=${SANITIZERS:-address thread}
# The suites that start real processes: nookd, the bridges, the renderer, the example modules.
# Passed to `swift test --filter` (a regular expression over Target.Suite/test).
filter=${SANITIZE_FILTER:-'^(NookBrokerTests|NookModuleAPIIntegrationTests|NookRendererTests)\.'}
limit=${SANITIZE_TIME_LIMIT:-60m}
suppressions=$PWD/scripts/sanitizers

status=0
for kind in $sanitizers; do
  build=".build/sanitize-$kind"
  reports="$PWD/$build/reports"
  rm -rf "$reports"
  mkdir -p "$reports"
  echo "sanitize: building with -sanitize=$kind into $build"
  "$SWIFT" build --build-tests --sanitize="$kind" --build-path "$build"
  # Leak checking is off: GTK, fontconfig and the Swift runtime keep caches for the life of a
  # process that LeakSanitizer would list at every exit. Memory errors and data races are on.
  export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1:log_path=$reports/asan:strip_path_prefix=$PWD/:suppressions=$suppressions/asan.supp"
  export TSAN_OPTIONS="halt_on_error=0:report_signal_unsafe=0:log_path=$reports/tsan:suppressions=$suppressions/tsan.supp"
  # Every process runs several times slower under a sanitizer (ThreadSanitizer most): the
  # tests wait longer before calling something missing, and fewer run side by side, so that
  # the machine is not flooded by a hundred instrumented processes at once.
  # Under AddressSanitizer, all suites at once held ~1,340 descriptors in the test process and
  # starved tests of CPU past even the longer deadlines; eight at a time keeps 2 cores busy.
  case $kind in
    thread) scale=8 width=3 ;;
    *) scale=3 width=8 ;;
  esac
  export NOOK_TEST_DEADLINE_SCALE=$scale
  if [ "$width" != 0 ]; then export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$width; else unset SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH; fi
  echo "sanitize: running '$filter' with $kind (deadlines x$NOOK_TEST_DEADLINE_SCALE, ${width/#0/unbounded} side by side)"
  if ! scripts/run-tests-bounded.sh "$limit" "$SWIFT" test --skip-build --sanitize="$kind" --build-path "$build" --filter "$filter"; then
    echo "sanitize: tests failed under $kind" >&2
    status=1
  fi
  found=$(find "$reports" -type f | sort)
  if [ -n "$found" ]; then
    echo "sanitize: $kind reports:" >&2
    for file in $found; do echo "== $file" >&2; head -n 80 "$file" >&2; done
    status=1
  else
    echo "sanitize: no $kind reports"
  fi
done
exit $status
