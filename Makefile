# Nook: two commands for a new machine, `make demo` and `make test`. `make bench` measures.
SWIFT ?= $(shell command -v swift || echo /opt/swift/usr/bin/swift)
.PHONY: deps build test bench demo clean

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

# Unit tests (pure NookCore) and integration tests, each suite on its own private dbus-daemon.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Release-build benchmarks; every figure is a ratio against a baseline measured in the same run.
bench: deps
	$(SWIFT) build -c release --product nook-bench
	$$($(SWIFT) build -c release --show-bin-path)/nook-bench

demo: deps
	@scripts/demo.sh

clean:
	rm -rf .build
