# Nook: two commands for a new machine, `make demo` and `make test`. `make bench` measures.
SWIFT ?= $(shell command -v swift || echo /opt/swift/usr/bin/swift)
.PHONY: deps deps-run deps-package build contract-docs test sanitize bench demo fuzz soak clean install install-files uninstall deb

# System packages by group (scripts/ensure-deps.sh): build and run for programs, test on top.
deps:
	@SWIFT=$(SWIFT) scripts/ensure-deps.sh build run test

deps-run:
	@SWIFT=$(SWIFT) scripts/ensure-deps.sh build run

build: deps-run
	$(SWIFT) build

# docs/contract.md's key table, rewritten from data/contract.json (the build generates the
# code from it; a test fails until the page shows the same table).
contract-docs:
	$(SWIFT) build --product nook-contract-gen
	$$($(SWIFT) build --show-bin-path)/nook-contract-gen --docs data/contract.json docs/contract.md

# Unit tests (pure NookCore) and integration tests, each suite on its own private dbus-daemon.
# A run that stops making progress (a test awaiting what never comes) ends after 40 minutes,
# well inside CI's 90, with the stacks of its threads printed to say where it waited.
test: deps
	$(SWIFT) build --build-tests
	scripts/run-tests-bounded.sh 40m $(SWIFT) test --skip-build

# nookd, the bridges, the renderer and the tests built with AddressSanitizer, then with
# ThreadSanitizer (SANITIZERS=address for one), each in its own build path, running the suites
# that start real processes; any sanitizer report fails it. CI runs the AddressSanitizer pass.
SANITIZERS ?= address thread
SANITIZE_FILTER ?=
sanitize: deps
	@SWIFT=$(SWIFT) SANITIZERS="$(SANITIZERS)" SANITIZE_FILTER="$(SANITIZE_FILTER)" scripts/sanitize.sh

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

# Installing (docs/install.md). `make install` builds release binaries and installs them with
# a private copy of the Swift runtime they load (they run without the toolchain), the systemd user units, the
# D-Bus activation file, the XDG autostart entry, man pages and nookctl's completions, with
# these paths written into the units. `make uninstall` removes exactly what the manifest lists.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
LIBDIR ?= $(PREFIX)/lib
# XDG autostart is read from /etc/xdg only (XDG_CONFIG_DIRS), so the system prefixes use /etc.
ifneq ($(filter /usr /usr/local,$(PREFIX)),)
SYSCONFDIR ?= /etc
else
SYSCONFDIR ?= $(PREFIX)/etc
endif
MANIFEST ?= $(DATADIR)/nook/install-manifest
# release (static Swift runtime, checked with ldd) or debug (quick; needs the toolchain's libraries).
INSTALL_CONFIG ?= release
# nookd and the bridges are installed as links to nook-programs (scripts/install.sh says why).
INSTALL_PRODUCTS = nook-programs nookctl nook-renderer
# release links the Swift runtime as shared libraries, copied once into $(PREFIX)/lib/nook
# (RUNTIME=private): 36 MB in all where five static binaries took 168 (docs/PERFORMANCE.md,
# "Footprint"). The rpath set here only makes room for the one install.sh writes.
ifeq ($(INSTALL_CONFIG),release)
INSTALL_BUILD_FLAGS = -c release -Xlinker -rpath -Xlinker '$$ORIGIN/../lib/nook'
INSTALL_REQUIRE_STATIC = 0
INSTALL_RUNTIME = private
else
INSTALL_BUILD_FLAGS = -c $(INSTALL_CONFIG)
INSTALL_REQUIRE_STATIC = 0
INSTALL_RUNTIME =
endif
INSTALL_ENV = DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" BINDIR="$(BINDIR)" LIBDIR="$(LIBDIR)" DATADIR="$(DATADIR)" \
	MANDIR="$(MANDIR)" USERUNITDIR="$(USERUNITDIR)" SYSCONFDIR="$(SYSCONFDIR)" ZSHCOMPDIR="$(ZSHCOMPDIR)" \
	MANIFEST="$(MANIFEST)"

install: deps-run
	for product in $(INSTALL_PRODUCTS); do $(SWIFT) build $(INSTALL_BUILD_FLAGS) --product $$product || exit 1; done
	@$(MAKE) --no-print-directory install-files BIN="$$($(SWIFT) build $(INSTALL_BUILD_FLAGS) --show-bin-path)" \
		REQUIRE_STATIC=$(INSTALL_REQUIRE_STATIC) RUNTIME=$(INSTALL_RUNTIME)

# The installing half of `install`, from binaries already built in BIN.
REQUIRE_STATIC ?= 0
RUNTIME ?=
install-files:
	@test -n "$(BIN)" || { echo "install-files: set BIN to the directory of the built binaries" >&2; exit 2; }
	@$(INSTALL_ENV) BIN="$(BIN)" REQUIRE_STATIC=$(REQUIRE_STATIC) RUNTIME=$(RUNTIME) scripts/install.sh

uninstall:
	@$(INSTALL_ENV) scripts/uninstall.sh

# A Debian package (nook_VERSION-1_ARCH.deb in the checkout) from the release build `make
# install` uses (the Swift runtime once, in /usr/lib/nook), with Depends computed by
# dpkg-shlibdeps.
deps-package:
	@SWIFT=$(SWIFT) scripts/ensure-deps.sh build run package

DEB_BUILD_FLAGS = -c release -Xlinker -rpath -Xlinker '$$ORIGIN/../lib/nook'
deb: deps-package
	for product in $(INSTALL_PRODUCTS); do $(SWIFT) build $(DEB_BUILD_FLAGS) --product $$product || exit 1; done
	@BIN="$$($(SWIFT) build $(DEB_BUILD_FLAGS) --show-bin-path)" scripts/build-deb.sh

clean:
	rm -rf .build
