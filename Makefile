# fsrb — see README.md. `make demo` and `make test` are the two set-up
# commands of a fresh machine; .ci/run calls `make test`, then
# `make test-full`.
GO      ?= go
GOBIN   := $(shell $(GO) env GOPATH)/bin
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -X main.version=$(VERSION)

# On Linux the binaries are linked statically (glibc, libstdc++ and libgcc
# inside) when the static libraries are there: no dynamic loader or
# relocations at start-up (make bench, the process rows;
# docs/PERFORMANCE.md). Debian's gcc and g++ bring them (libc6-dev,
# libstdc++-12-dev); Fedora needs glibc-static and libstdc++-static.
# Without them, or with STATIC=0, the link is dynamic, as plain `go build`
# links (cmd/fsrb cannot ask for -static itself: see docs/ARCHITECTURE.md
# "Decisions and why"). netgo,osusergo: names and users resolved in Go,
# not through glibc's NSS, which a static binary cannot load; nothing in
# fsrb resolves either (pflag imports net for its IP flags).
GOOS_   := $(shell $(GO) env GOOS)
STATIC_LIBS := $(and $(filter /%,$(shell $$($(GO) env CC) -print-file-name=libc.a 2>/dev/null)),$(filter /%,$(shell $$($(GO) env CXX) -print-file-name=libstdc++.a 2>/dev/null)))
STATIC  ?= $(if $(and $(filter linux,$(GOOS_)),$(STATIC_LIBS)),1,0)
ifeq ($(STATIC),1)
BUILDFLAGS := -tags netgo,osusergo
LDFLAGS += -linkmode external -extldflags -static
endif

# CLI_GC=nogreenteagc builds fsrb alone (not the two servers, which run for
# hours) with Go 1.26's previous garbage collector, while the toolchain
# accepts the opt-out: the Green Tea collector faults in a page for the
# mark bits of every new small-object span, which shows in a CLI run's
# start-up (make bench, the process rows). Not the default: a GOEXPERIMENT
# changes every package's build key, so a fresh machine would compile the
# cgo grammars, the slowest build, a second time for fsrb alone.
CLI_GC  ?=
CLI_ENV := $(if $(CLI_GC),GOEXPERIMENT=$(CLI_GC))

# The tree-sitter grammars' C and C++ compile with warnings that are
# theirs to fix, not ours: -w keeps them out of every build here (cgo's
# default flags otherwise). One setting for every target, so that the
# grammars, the slowest build, are compiled once per build cache.
CGO_CFLAGS   ?= -O2 -g -w
CGO_CXXFLAGS ?= -O2 -g -w
export CGO_CFLAGS CGO_CXXFLAGS

.PHONY: all build install demo test test-full fmt-check vet vet-arm64 staticcheck gotest gotest-race gotest-purego bench clean dist dist-check vsix vsix-arm64 e2e e2e-nvim e2e-vscode e2e-mcp e2e-emacs fuzz stress helptags

all: build

build:
	$(GO) build $(BUILDFLAGS) -ldflags "$(LDFLAGS)" ./...
	$(CLI_ENV) $(GO) build $(BUILDFLAGS) -ldflags "$(LDFLAGS)" -o /dev/null ./cmd/fsrb

install:
	$(GO) install $(BUILDFLAGS) -ldflags "$(LDFLAGS)" $$($(GO) list ./cmd/... | grep -v '/cmd/fsrb$$')
	$(CLI_ENV) $(GO) install $(BUILDFLAGS) -ldflags "$(LDFLAGS)" ./cmd/fsrb

# Builds and installs the binaries, then applies the bundled example patch to
# a scratch copy of testdata/example/project and shows what changed.
demo: install
	@scratch=$$(mktemp -d) && cp -R testdata/example/project/. $$scratch/ && \
	cp testdata/example/example.fsrb $$scratch.fsrb && \
	echo "== fsrb --diff example.fsrb   (in a scratch copy: $$scratch)" && \
	cd $$scratch && NO_COLOR=1 "$(GOBIN)/fsrb" --diff $$scratch.fsrb && \
	echo && echo "== README.md after the patch:" && cat README.md && \
	rm -rf $$scratch $$scratch.fsrb

# `make test` is the loop to run while working, minutes on a laptop:
# without the race detector, whose build compiles the cgo grammars a
# second time, and with -short, which cuts the kill trials and the long
# fault injection; go test prints a line a package as it goes.
# `make test-full` is what CI runs after it: every test at full length
# under the race detector, and the purego build (the Go loops the other
# architectures run). vet-arm64 builds those loops for arm64.
test: fmt-check vet vet-arm64 staticcheck gotest

test-full: gotest-race gotest-purego

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# The packages that build without cgo, as a cross build without a cross
# compiler does: everything but what imports the tree-sitter grammars or
# is cgo alone (no Go file left without it), the engine and its scans
# included.
vet-arm64:
	GOARCH=arm64 $(GO) vet $$(GOARCH=arm64 $(GO) list -f '{{if .GoFiles}}{{.ImportPath}} {{join .Deps " "}}{{end}}' ./... | grep -v go-tree-sitter | cut -d' ' -f1)

# staticcheck at a pinned version (2026.2.2), installed into GOBIN when that
# version is missing: CI starts from a fresh machine.
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK := $(GOBIN)/staticcheck
staticcheck:
	@$(STATICCHECK) -version 2>/dev/null | grep -q '($(patsubst v%,%,$(STATICCHECK_VERSION)))' || \
	  GOBIN="$(GOBIN)" $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	$(STATICCHECK) ./...
	$(STATICCHECK) -tags purego ./internal/scan ./core

gotest:
	$(GO) test -short -count=1 ./...

# The race detector slows core's randomized tests several times over; a
# loaded 2-core machine needs more than go test's default ten minutes.
gotest-race:
	$(GO) test -race -count=1 -timeout 30m ./...

# Only internal/scan has a purego build of its own; core runs on it.
gotest-purego:
	$(GO) test -tags purego -count=1 ./internal/scan ./core

# The performance workloads (bench/main.go, docs/PERFORMANCE.md), in
# process and as whole fsrb processes beside grep -c -F, as one table; a
# few minutes. BENCHFLAGS:
# -quick (a smoke run), -only W1,W6, -no-lsp. Not part of `make test`.
# The fsrb and fsrb-lsp it times are built as `make install` builds them
# (static above). W8 streams a chat answer into fsrb-lsp for 2.5 minutes:
# make bench BENCHFLAGS="-only W8".
# The in-process micro-benchmarks: go test -run '^$$' -bench W -benchmem ./core/
BENCHFLAGS ?=
bench:
	@bin=$$(mktemp -d) && $(CLI_ENV) $(GO) build $(BUILDFLAGS) -ldflags "$(LDFLAGS)" -o $$bin/fsrb ./cmd/fsrb && \
	$(GO) build $(BUILDFLAGS) -ldflags "$(LDFLAGS)" -o $$bin/fsrb-lsp ./cmd/fsrb-lsp && \
	$(GO) run ./bench -fsrb $$bin/fsrb -fsrb-lsp $$bin/fsrb-lsp -hello-tags "$(filter-out -tags,$(BUILDFLAGS))" -hello-ldflags "$(LDFLAGS)" $(BENCHFLAGS); rc=$$?; rm -rf $$bin; exit $$rc

# Fuzzing (SECURITY.md): each target for FUZZTIME with FUZZPARALLEL workers
# (1 keeps a loaded 2-core machine from timing workers out); the last line
# of each run is its exec count. New failures land in the package's
# testdata/fuzz.
FUZZTIME     ?= 2m
FUZZPARALLEL ?= 1
FUZZTARGETS  ?= FuzzParse FuzzLinesSplice FuzzParseApplyPatch FuzzApplyInverse FuzzStrEditTwice FuzzValidatePlan FuzzFuzzyMatch FuzzOccurrences FuzzEscapeBody FuzzClosestScan
SCANFUZZTARGETS ?= FuzzIndexPair FuzzIndexEither FuzzAppendIndexes
fuzz:
	@log=$$(mktemp); for f in $(FUZZTARGETS:%=core:%) $(SCANFUZZTARGETS:%=internal/scan:%); do \
	  pkg=$${f%%:*}; f=$${f#*:}; echo "== $$f ($(FUZZTIME))"; \
	  if ! $(GO) test ./$$pkg -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) -parallel $(FUZZPARALLEL) >$$log 2>&1; then \
	    cat $$log; rm -f $$log; exit 1; fi; \
	  grep 'execs:' $$log | tail -1; \
	done; rm -f $$log

# The long runs (SECURITY.md): SIGKILL of a real fsrb during a 324-file
# commit KILLTRIALS times, then --recover; the 100 MB target file; the
# language server's abuse tests under the race detector, several times.
KILLTRIALS ?= 200
stress:
	@log=$$(mktemp); \
	if ! FSRB_KILL_TRIALS=$(KILLTRIALS) FSRB_STRESS=1 $(GO) test -count=1 -timeout 60m -v \
	  -run 'TestKillDuringCommit|TestBigTargetFile|TestTenThousandBlocks|TestSizeLimits' ./cmd/fsrb >$$log 2>&1; then \
	  cat $$log; rm -f $$log; exit 1; fi; \
	grep -E '^(ok|---)|kill trials|target of|blocks \(|broken block' $$log; \
	if ! $(GO) test -race -count=5 -v -timeout 30m -run 'TestMalformedJSONRPC|TestUnknownDocuments|TestCancelEveryRequestType|TestApplyEditNeverAnswered|TestPanicRecovered|TestDidChangeStorm' ./lsp >$$log 2>&1; then \
	  cat $$log; rm -f $$log; exit 1; fi; \
	grep -E '^ok|storm of|unanswered' $$log; rm -f $$log

clean:
	$(GO) clean ./...

# Editor integrations (editors/README.md). `bash editors/e2e/setup.sh` installs
# what these need (Debian packages, and code-server + Node 24 + playwright-core
# cached in ~/.cache/fsrb-e2e), idempotently.
# `make vsix`: editors/vscode/fsrb-$(VSIX_TARGET).vsix, the extension with
# fsrb-lsp inside (static, -trimpath, stripped), for this machine by default
# (linux-x64 here). Another target: make vsix VSIX_TARGET=darwin-arm64 on
# that platform, or with CC/CXX set to its cross compilers
# (editors/vscode/scripts/package-target.sh; docs/editors.md).
# `make vsix-arm64`: linux-arm64 with Debian's cross compilers
# (apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu).
# The universal package with no server (fsrb-lsp from PATH):
# cd editors/vscode && npm run package  (fsrb.vsix).
VSIX_TARGET ?= $(subst windows,win32,$(shell $(GO) env GOOS))-$(subst amd64,x64,$(shell $(GO) env GOARCH))
VSCODE_DEPS := cd editors/vscode && { [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund; }

vsix:
	$(VSCODE_DEPS) && GO="$(GO)" VERSION="$(VERSION)" bash scripts/package-target.sh $(VSIX_TARGET)

vsix-arm64:
	$(VSCODE_DEPS) && GO="$(GO)" VERSION="$(VERSION)" CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ \
	  bash scripts/package-target.sh linux-arm64

# `make dist`: the release archives (linux-amd64, linux-arm64,
# windows-amd64; three static binaries, LICENSE, a README and the example
# patch each), the linux-x64 and linux-arm64 vsix with their server inside
# and SHA256SUMS, in dist/ (release/build.sh says what it needs:
# Debian's cross compilers and mingw-w64). `make dist-check` proves them
# on this machine: the case suite against each archive's fsrb (arm64 under
# qemu-user, Windows under Wine), fsrb-lsp's initialize, the arm64 vsix in
# code-server (release/check.sh).
dist:
	$(VSCODE_DEPS)
	GO="$(GO)" VERSION="$(VERSION)" bash release/build.sh

dist-check:
	GO="$(GO)" VERSION="$(VERSION)" bash release/check.sh

e2e: e2e-nvim e2e-vscode e2e-mcp e2e-emacs

# Emacs 28.2 with eglot 1.9 and lsp-mode 8.0, and Emacs 30.1 from the
# setup.sh cache, in batch (editors/e2e/emacs.sh).
e2e-emacs:
	bash editors/e2e/emacs.sh

# fsrb mcp from a client that is not ours: the official TypeScript SDK's
# (mcp/e2e, its own package.json and lockfile; Node >= 18 and npm).
e2e-mcp:
	bash mcp/e2e/run.sh

e2e-nvim:
	bash editors/e2e/nvim.sh

# editors/nvim/doc/tags after an edit of doc/fsrb.txt: shipped, so that
# :help fsrb works in a plain package; make e2e-nvim fails while it lags.
helptags:
	nvim --headless -u NONE -i NONE -n -c 'helptags editors/nvim/doc' -c q

# The linux-x64 package, with its bundled server (code-server's Node is x64).
e2e-vscode:
	$(MAKE) vsix VSIX_TARGET=linux-x64
	cd editors/vscode && npm test
	bash editors/e2e/vscode.sh editors/vscode/fsrb-linux-x64.vsix
