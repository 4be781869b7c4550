# fsrb — see README.md. `make demo` and `make test` are the two set-up
# commands of a fresh machine; .ci/run calls `make test`.
GO      ?= go
GOBIN   := $(shell $(GO) env GOPATH)/bin
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: all build install demo test fmt-check vet gotest bench clean vsix e2e e2e-nvim e2e-vscode

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" ./...

install:
	$(GO) install -ldflags "$(LDFLAGS)" ./cmd/...

# Builds and installs the binaries, then applies the bundled example patch to
# a scratch copy of testdata/example/project and shows what changed.
demo: install
	@scratch=$$(mktemp -d) && cp -R testdata/example/project/. $$scratch/ && \
	cp testdata/example/example.fsrb $$scratch.fsrb && \
	echo "== fsrb --diff example.fsrb   (in a scratch copy: $$scratch)" && \
	cd $$scratch && NO_COLOR=1 "$(GOBIN)/fsrb" --diff $$scratch.fsrb && \
	echo && echo "== README.md after the patch:" && cat README.md && \
	rm -rf $$scratch $$scratch.fsrb

test: fmt-check vet gotest

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

gotest:
	$(GO) test -race -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./core/...

clean:
	$(GO) clean ./...

# Editor integrations (editors/README.md). `bash editors/e2e/setup.sh` installs
# what these need (Debian packages, and code-server + Node 24 + playwright-core
# cached in ~/.cache/fsrb-e2e), idempotently.
vsix:
	cd editors/vscode && { [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund; } && npm run package

e2e: e2e-nvim e2e-vscode

e2e-nvim:
	bash editors/e2e/nvim.sh

e2e-vscode: vsix
	bash editors/e2e/vscode.sh editors/vscode/fsrb.vsix
