# Nook: two commands for a new machine, `make demo` and `make test`. `make bench` measures.
SWIFT ?= $(shell command -v swift || echo /opt/swift/usr/bin/swift)
.PHONY: deps deps-run build test bench demo fuzz soak clean

# System packages by group (scripts/ensure-deps.sh): build and run for programs, test on top.
deps:
	@SWIFT=$(SWIFT) scripts/ensure-deps.sh build run test

deps-run:
	@SWIFT=$(SWIFT) scripts/ensure-deps.sh build run

build: deps-run
	$(SWIFT) build

# Unit tests (pure NookCore) and integration tests, each suite on its own private dbus-daemon.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Release-build benchmarks; every figure is a ratio against a baseline measured in the same run.
bench: deps-run
	$(SWIFT) build -c release
	$$($(SWIFT) build -c release --show-bin-path)/nook-bench

demo: deps-run
	@scripts/demo.sh

# libFuzzer (swiftc -sanitize=fuzzer,address) over the class-string, token and view parsers,
# FUZZ_SECONDS (default 60) per target; `make test` runs a bounded seeded version.
fuzz: deps
	@Fuzz/run.sh

# Not in CI: nookd, the demo modules and a renderer for SOAK_SECONDS (default 600); memory
# stays flat and no plan is lost.
SOAK_SECONDS ?= 600
soak: deps
	@scripts/soak.sh $(SOAK_SECONDS)

clean:
	rm -rf .build
