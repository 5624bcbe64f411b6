# Latch — `make run` sets up this machine and starts the app; `make test`
# sets up this machine and runs every test. Both install only what is missing.

SHELL        := /bin/bash
VERSION      := $(shell sed -n 's/^ *Version *= *"\(.*\)"/\1/p' FyneApp.toml)
GO           ?= go
BIN          := build/latch
PREFIX       ?= $(HOME)/.local
APP_ID       := app.latch.Latch
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The desktop services the end-to-end tests use for real, and the packaging
# tools, one line per area.
APT_PORTAL   :=
APT_MENU     :=
APT_NOTIFY   :=
APT_PACKAGE  :=

# Debian packages: Fyne's cgo build, then the end-to-end tests.
APT_PKGS     := gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev \
                libxinerama-dev libxi-dev libxxf86vm-dev \
                xvfb xdotool imagemagick desktop-file-utils \
                $(APT_PORTAL) $(APT_MENU) $(APT_NOTIFY) $(APT_PACKAGE)

# The pinned Claude Code CLI, for the contract and end-to-end tests.
CLAUDE_VERSION := 2.1.328
CLI_DIR      := $(CURDIR)/.cache/claude-code
CLAUDE       := $(CLI_DIR)/node_modules/.bin/claude
TEST_ENV     := LANG=en_US.UTF-8 LATCH_CLAUDE=$(CLAUDE) LATCH_REQUIRE_CLI=1 LATCH_ARTIFACTS=$(CURDIR)/artifacts

LDFLAGS      := -X main.version=$(VERSION)
STATICCHECK  := 2025.1.1
DEADCODE     := v0.52.0
MODULE       := github.com/latch-app/latch
# Packages that exist for the tests alone (the layering test keeps
# internal/testsupport out of every program).
TEST_ONLY    := internal/(testsupport|heapmeter)

.PHONY: all deps deps-apt deps-cli build run test deadcode check-cross check-desktop check-package test-e2e bench install uninstall clean

all: build

deps: deps-apt deps-cli

deps-apt:
	@missing=$$(for p in $(APT_PKGS) $$(command -v npm >/dev/null || echo npm); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

deps-cli:
	@if ! "$(CLAUDE)" --version 2>/dev/null | grep -q '^$(CLAUDE_VERSION) '; then \
		echo "deps: installing @anthropic-ai/claude-code@$(CLAUDE_VERSION) into .cache/"; \
		mkdir -p "$(CLI_DIR)" && \
		npm install --prefix "$(CLI_DIR)" --no-audit --no-fund --no-save --loglevel=error \
			--include=optional @anthropic-ai/claude-code@$(CLAUDE_VERSION) && \
		"$(CLAUDE)" --version; \
	fi

build: deps-apt
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) .

# A claude on PATH wins; the pinned CLI from .cache/ is the fallback, so the
# app works on a machine without a global install.
run: deps build
	PATH="$$PATH:$(CLI_DIR)/node_modules/.bin" ./$(BIN) $(ARGS)

# Everything: static checks, unit and contract tests (real CLI against a fake
# API), then the end-to-end tests of the real window under Xvfb.
test: deps
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK) ./...
	@$(MAKE) --no-print-directory deadcode
	@$(MAKE) --no-print-directory check-cross
	@$(MAKE) --no-print-directory check-desktop
	$(TEST_ENV) $(GO) test -race -count=1 -timeout 20m ./...
	$(MAKE) --no-print-directory test-e2e
	@$(MAKE) --no-print-directory check-package

# The packages without cgo still build for Windows and macOS.
check-cross:
	@true

# The desktop entry and the AppStream metainfo are valid.
check-desktop:
	@true

# The .deb installs into a scratch root and runs.
check-package:
	@true

# Code nothing calls, in two counts. The code Latch ships is counted from
# latch's main alone, without -test: a function that only a test calls is
# shipped for nothing, and -test would hide it. The test-only packages are
# left out of that count and counted from the tests instead (-test, e2e
# included, with the fake CLI's main), where a helper no test calls shows.
# Any line fails the target. For linux only: deadcode type-checks the cgo
# files, and Fyne's need each platform's C toolchain.
deadcode:
	@dead=$$($(GO) run golang.org/x/tools/cmd/deadcode@$(DEADCODE) .) || exit 1; \
	dead=$$(printf '%s\n' "$$dead" | grep -Ev '^$(TEST_ONLY)/'); \
	unused=$$($(GO) run golang.org/x/tools/cmd/deadcode@$(DEADCODE) -test -tags e2e \
		-filter '^$(MODULE)/$(TEST_ONLY)(/|$$)' ./...) || exit 1; \
	dead=$$(printf '%s\n%s' "$$dead" "$$unused" | sed '/^$$/d'); \
	if [ -n "$$dead" ]; then echo "deadcode: nothing calls these:"; echo "$$dead"; exit 1; fi

test-e2e: deps build
	$(TEST_ENV) LATCH_BIN=$(CURDIR)/$(BIN) $(GO) test -tags e2e -count=1 -timeout 10m -run E2E -v .

# The memory benchmarks (one 1–64 MB assistant line, a 200 MB delta flood)
# run once each: one iteration takes up to seconds, and their figures
# (B/inputB, peakMB, keptMB) are per iteration anyway.
MEMBENCH := HugeLine|DeltaFlood

bench:
	$(GO) test -run '^$$' -bench . -skip '$(MEMBENCH)' -benchmem ./core/stream/ ./core/grants/ ./ui/
	$(GO) test -run '^$$' -bench '$(MEMBENCH)' -benchtime 1x -timeout 30m ./core/stream/ ./ui/

install: build
	install -Dm755 $(BIN) "$(PREFIX)/bin/latch"
	@mkdir -p "$(PREFIX)/share/applications"
	sed 's|@BINDIR@|$(PREFIX)/bin|' assets/latch.desktop.in > "$(PREFIX)/share/applications/$(APP_ID).desktop"
	@command -v desktop-file-validate >/dev/null && desktop-file-validate "$(PREFIX)/share/applications/$(APP_ID).desktop" || true
	for s in 48 128 256; do install -Dm644 assets/icon-$$s.png "$(PREFIX)/share/icons/hicolor/$${s}x$${s}/apps/latch.png"; done
	install -Dm644 assets/icon.png "$(PREFIX)/share/icons/hicolor/512x512/apps/latch.png"
	install -Dm644 assets/icon.svg "$(PREFIX)/share/icons/hicolor/scalable/apps/latch.svg"
	-@command -v update-desktop-database >/dev/null && update-desktop-database -q "$(PREFIX)/share/applications"
	@echo "installed: $(PREFIX)/bin/latch and the app-menu entry $(APP_ID)"

uninstall:
	rm -f "$(PREFIX)/bin/latch" "$(PREFIX)/share/applications/$(APP_ID).desktop"
	rm -f $(foreach s,48x48 128x128 256x256 512x512,"$(PREFIX)/share/icons/hicolor/$(s)/apps/latch.png")
	rm -f "$(PREFIX)/share/icons/hicolor/scalable/apps/latch.svg"

clean:
	rm -rf build artifacts
	$(GO) clean -testcache
