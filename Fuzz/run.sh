#!/bin/sh
# make fuzz: builds Fuzz/NookFuzz.swift with NookCore's sources under libFuzzer + ASan and runs
# each target for FUZZ_SECONDS (default 60) from the seed corpora in Fuzz/corpus/<target>.
# Crashes land in .build/fuzz/crash-*; reproduce with `.build/fuzz/nook-fuzz <file>` and the
# same NOOK_FUZZ_TARGET. Leak detection is off: LeakSanitizer reports the lazily built
# `Theme.builtIn` global (3240 bytes, once per process, whatever the input) as a leak.
set -eu
cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
SECONDS_EACH=${FUZZ_SECONDS:-60}
OUT=.build/fuzz
mkdir -p "$OUT"
if [ ! -x "$OUT/nook-fuzz" ] || [ -n "$(find Sources/NookCore Fuzz/NookFuzz.swift -name '*.swift' -newer "$OUT/nook-fuzz" | head -n 1)" ]; then
    echo "building $OUT/nook-fuzz (libFuzzer + ASan; ld.gold's 'Cannot export local symbol' warnings are harmless)"
    rm -f "$OUT/nook-fuzz"
    "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -module-name NookCore \
        $(find Sources/NookCore -name '*.swift' | sort) Fuzz/NookFuzz.swift -o "$OUT/nook-fuzz" 2>&1 | grep -v "Cannot export local symbol" || true
fi
test -x "$OUT/nook-fuzz"
for target in classes tokens view curves display; do
    corpus="$OUT/corpus-$target"
    mkdir -p "$corpus"
    cp Fuzz/corpus/$target/* "$corpus/" 2>/dev/null || true
    echo "== $target: ${SECONDS_EACH}s"
    ASAN_OPTIONS=detect_leaks=0 NOOK_FUZZ_TARGET=$target "$OUT/nook-fuzz" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=5 -detect_leaks=0 \
        -artifact_prefix="$OUT/crash-$target-" -print_final_stats=1 "$corpus" 2>&1 | grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|ERROR|SUMMARY|crash-" || true
done
if ls "$OUT"/crash-* >/dev/null 2>&1; then echo "fuzz: crashes found:"; ls "$OUT"/crash-*; exit 1; fi
echo "fuzz: no crashes"
