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
APT_PORTAL   := xdg-desktop-portal xdg-desktop-portal-gtk dbus-x11
APT_MENU     := appstream libgtk-3-bin dbus-daemon x11-utils tesseract-ocr
APT_NOTIFY   := dbus-daemon dbus-bin dunst x11-utils
APT_PACKAGE  := lintian dpkg-dev binutils xz-utils

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

.PHONY: all deps deps-apt deps-cli build run test test-unit deadcode check-cross check-desktop check-package package deb test-e2e bench install uninstall clean

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

# Position-independent, as Debian's hardening asks: the one build that
# runs, installs and goes into the .deb.
build: deps-apt
	$(GO) build -buildmode=pie -ldflags '$(LDFLAGS)' -o $(BIN) .

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
	@# deadcode works mostly on one core; the others build beside it.
	@$(MAKE) --no-print-directory -j2 --output-sync=target deadcode check-cross check-desktop
	@$(MAKE) --no-print-directory test-unit
	$(MAKE) --no-print-directory test-e2e
	@$(MAKE) --no-print-directory check-package

# Unit and contract tests, with the race detector. The ui package's tests
# take minutes on one core while the rest are done in one, so they run in
# two processes of the one test binary, each with every other test, beside
# the other packages' run. Each test process has its own config folder
# (ui's TestMain).
UI_PKG := ./ui/
test-unit: deps
	@set -euo pipefail; \
	$(TEST_ENV) $(GO) test -race -count=1 -timeout 20m $$($(GO) list ./... | grep -v '/ui$$') & rest=$$!; \
	tests=$$($(GO) test -race -list '^(Test|Fuzz|Example)' $(UI_PKG) | grep -E '^(Test|Fuzz|Example)'); \
	one=$$(printf '%s\n' $$tests | awk 'NR % 2 == 1' | paste -sd'|'); \
	two=$$(printf '%s\n' $$tests | awk 'NR % 2 == 0' | paste -sd'|'); \
	$(TEST_ENV) $(GO) test -race -count=1 -timeout 20m -run "^($$one)$$" $(UI_PKG) & ui1=$$!; \
	$(TEST_ENV) $(GO) test -race -count=1 -timeout 20m -run "^($$two)$$" $(UI_PKG) & ui2=$$!; \
	fail=0; for p in $$rest $$ui1 $$ui2; do wait $$p || fail=1; done; \
	[ $$fail = 0 ] || { echo "test-unit: tests failed" >&2; exit 1; }

# The packages without cgo still build and vet for Windows and macOS, so
# their portability does not rot (main and ui need Fyne's cgo, and a C
# toolchain for each system: they are left out).
CROSS        := windows/amd64 darwin/arm64
CROSS_PKGS   := ./core/... ./app/...

check-cross:
	@set -e; for p in $(CROSS); do \
		echo "check-cross: $$p: go vet, go build $(CROSS_PKGS)"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) vet $(CROSS_PKGS); \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) build $(CROSS_PKGS); \
	done

# The desktop entry and the AppStream metainfo are valid, as `make install`
# puts them into a scratch PREFIX: desktop-file-validate has nothing to say;
# appstreamcli validate and validate-tree (which also finds the launchable's
# .desktop file) pass with no error, no warning and no info but one:
# `unknown-tag developer`, because Debian 12's AppStream (0.16) predates the
# <developer> element that AppStream 1.0 asks for (the file keeps
# <developer_name> for 0.16). The newest release is FyneApp.toml's Version,
# Exec runs the installed latch, Icon names the installed icons, and
# uninstall leaves nothing behind.
check-desktop: build
	@set -euo pipefail; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	fail() { echo "check-desktop: $$*" >&2; exit 1; }; \
	$(MAKE) --no-print-directory install PREFIX="$$tmp" DATADIR="$$tmp/share" INSTALL_BIN=$(BIN) >/dev/null; \
	entry="$$tmp/share/applications/$(APP_ID).desktop"; meta="$$tmp/share/metainfo/$(APP_ID).metainfo.xml"; \
	out=$$(desktop-file-validate "$$entry" 2>&1) || fail "desktop-file-validate: $$out"; \
	[ -z "$$out" ] || fail "desktop-file-validate: $$out"; \
	for v in "validate --no-net $$meta" "validate-tree --no-net $$tmp"; do \
		out=$$(appstreamcli $$v 2>&1) || fail "appstreamcli $$v: $$out"; \
		extra=$$(printf '%s\n' "$$out" | grep -E '^ *[EWI]: ' | grep -v 'I: $(APP_ID):[0-9]*: unknown-tag developer$$' || true); \
		[ -z "$$extra" ] || fail "appstreamcli $$v: $$extra"; \
	done; \
	rel=$$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$$meta" | head -n1); \
	[ "$$rel" = "$(VERSION)" ] || fail "the newest release in the metainfo is $$rel; FyneApp.toml says $(VERSION)"; \
	grep -qx "Exec=$$tmp/bin/latch %f" "$$entry" || fail "Exec is not the installed latch: $$(grep '^Exec=' "$$entry")"; \
	[ "$$("$$tmp/bin/latch" version)" = "Latch $(VERSION)" ] || fail "the installed latch does not say Latch $(VERSION)"; \
	icon=$$(sed -n 's/^Icon=//p' "$$entry"); \
	for f in 48x48/apps/$$icon.png 128x128/apps/$$icon.png 256x256/apps/$$icon.png 512x512/apps/$$icon.png scalable/apps/$$icon.svg; do \
		[ -f "$$tmp/share/icons/hicolor/$$f" ] || fail "Icon=$$icon, but no icons/hicolor/$$f"; \
	done; \
	$(MAKE) --no-print-directory uninstall PREFIX="$$tmp" DATADIR="$$tmp/share" >/dev/null; \
	left=$$(find "$$tmp" -type f ! -name mimeinfo.cache); [ -z "$$left" ] || fail "uninstall left $$left"; \
	echo "check-desktop: $(APP_ID).desktop and $(APP_ID).metainfo.xml are valid"

# `make package`: the Debian package build/latch_<version>_<arch>.deb (the
# build above, stripped) and Fyne's release archive, build/Latch.tar.xz
# (`fyne package` from the pinned fyne.io/tools, which reads FyneApp.toml
# and builds its own release binary, build/release/latch). The how is in
# packaging/. `make test` checks the .deb (check-package); the archive,
# which rebuilds everything with Fyne's release flags, only `make package`
# makes.
FYNE_TOOLS   := v1.7.4
FYNE         := $(CURDIR)/.cache/bin/fyne
DEB          := build/latch_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null).deb

package: deb
	@if ! "$(FYNE)" version 2>/dev/null | grep -q '^fyne cli version: $(FYNE_TOOLS)$$'; then \
		echo "package: installing fyne.io/tools $(FYNE_TOOLS) into .cache/bin"; \
		GOBIN="$(dir $(FYNE))" $(GO) install fyne.io/tools/cmd/fyne@$(FYNE_TOOLS); \
	fi
	bash packaging/fyne-archive.sh $(VERSION) "$(FYNE)" build
	@exe=$$(tar -tJf build/Latch.tar.xz | grep -m1 'bin/latch$$') || { echo "package: build/Latch.tar.xz has no bin/latch" >&2; exit 1; }

deb: build
	bash packaging/deb.sh $(VERSION) $(BIN) $(DEB)

# The .deb unpacks into a scratch root (dpkg -x) with everything in place,
# and the latch there runs and tells its version; lintian finds no error in
# it (what else it says is shown).
check-package: deb
	@set -euo pipefail; root=$$(mktemp -d); trap 'rm -rf "$$root"' EXIT; \
	fail() { echo "check-package: $$*" >&2; exit 1; }; \
	dpkg -x $(DEB) "$$root/deb"; \
	for f in bin/latch share/applications/$(APP_ID).desktop share/metainfo/$(APP_ID).metainfo.xml \
		share/icons/hicolor/scalable/apps/latch.svg share/icons/hicolor/512x512/apps/latch.png \
		share/man/man1/latch.1.gz share/doc/latch/copyright share/doc/latch/changelog.gz; do \
		[ -s "$$root/deb/usr/$$f" ] || fail "$(DEB) has no /usr/$$f"; done; \
	got=$$("$$root/deb/usr/bin/latch" version) || fail "latch version, from $(DEB), failed"; \
	[ "$$got" = "Latch $(VERSION)" ] || fail "latch version, from $(DEB), says '$$got', not 'Latch $(VERSION)'"; \
	lint=$$(lintian --fail-on error $(DEB) 2>&1) && lintok=1 || lintok=0; \
	lint=$$(printf '%s\n' "$$lint" | grep -v '^running with root privileges' || true); \
	[ -z "$$lint" ] || printf 'lintian:\n%s\n' "$$lint"; \
	[ $$lintok = 1 ] && ! printf '%s\n' "$$lint" | grep -q '^E: ' || fail "lintian finds errors in $(DEB)"; \
	echo "check-package: $(DEB): Latch $(VERSION), no lintian error"

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
	$(TEST_ENV) LATCH_BIN=$(CURDIR)/$(BIN) $(GO) test -tags e2e -count=1 -timeout 10m -run E2E -v ./e2e/

# The memory benchmarks (one 1–64 MB assistant line, a 200 MB delta flood)
# run once each: one iteration takes up to seconds, and their figures
# (B/inputB, peakMB, keptMB) are per iteration anyway.
MEMBENCH := HugeLine|DeltaFlood

bench:
	$(GO) test -run '^$$' -bench . -skip '$(MEMBENCH)' -benchmem ./core/stream/ ./core/grants/ ./core/sessions/ ./core/audit/ ./ui/
	$(GO) test -run '^$$' -bench '$(MEMBENCH)' -benchtime 1x -timeout 30m ./core/stream/ ./ui/

# `make install`: Latch for this user, where the app menu looks: the
# program in PREFIX/bin (~/.local/bin), the menu entry, icons and AppStream
# metainfo in DATADIR (PREFIX/share, or $XDG_DATA_HOME when it is set and
# PREFIX is not given). `sudo make install PREFIX=/usr/local` installs for
# everyone. INSTALL_BIN=FILE installs that binary instead of building one.
install uninstall: DATADIR ?= $(if $(and $(XDG_DATA_HOME),$(filter file,$(origin PREFIX))),$(XDG_DATA_HOME),$(PREFIX)/share)
install: $(if $(INSTALL_BIN),,build)
	@case '$(subst ','\'',$(PREFIX))' in *[\"\'\`\$$\\%\|\&\;\<\>\*\?\#\(\)]*) \
		echo "install: PREFIX=$(PREFIX) has a character the menu entry's Exec line cannot hold as it is"; exit 1;; esac
	install -Dm755 "$(or $(INSTALL_BIN),$(BIN))" "$(PREFIX)/bin/latch"
	@mkdir -p "$(DATADIR)/applications"
	sed 's|@BINDIR@/latch|$(if $(word 2,$(PREFIX)),"$(PREFIX)/bin/latch",$(PREFIX)/bin/latch)|' assets/latch.desktop.in > "$(DATADIR)/applications/$(APP_ID).desktop"
	@command -v desktop-file-validate >/dev/null && desktop-file-validate "$(DATADIR)/applications/$(APP_ID).desktop" || true
	for s in 48 128 256; do install -Dm644 assets/icon-$$s.png "$(DATADIR)/icons/hicolor/$${s}x$${s}/apps/latch.png"; done
	install -Dm644 assets/icon.png "$(DATADIR)/icons/hicolor/512x512/apps/latch.png"
	install -Dm644 assets/icon.svg "$(DATADIR)/icons/hicolor/scalable/apps/latch.svg"
	install -Dm644 assets/$(APP_ID).metainfo.xml "$(DATADIR)/metainfo/$(APP_ID).metainfo.xml"
	-@command -v update-desktop-database >/dev/null && update-desktop-database -q "$(DATADIR)/applications"
	@case ":$${XDG_DATA_HOME:-$$HOME/.local/share}:$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:" in \
		*":$(DATADIR):"*|*":$(DATADIR)/:"*) ;; \
		*) echo "note: the app menu does not look in $(DATADIR); add it to XDG_DATA_DIRS to see Latch there";; esac
	@echo "installed: $(PREFIX)/bin/latch, and the app-menu entry $(APP_ID) in $(DATADIR)"

uninstall:
	rm -f "$(PREFIX)/bin/latch" "$(DATADIR)/applications/$(APP_ID).desktop" "$(DATADIR)/metainfo/$(APP_ID).metainfo.xml"
	rm -f $(foreach s,48x48 128x128 256x256 512x512,"$(DATADIR)/icons/hicolor/$(s)/apps/latch.png")
	rm -f "$(DATADIR)/icons/hicolor/scalable/apps/latch.svg"
	-@[ -d "$(DATADIR)/applications" ] && command -v update-desktop-database >/dev/null && update-desktop-database -q "$(DATADIR)/applications"

clean:
	rm -rf build artifacts
	$(GO) clean -testcache
