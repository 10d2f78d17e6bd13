# crucible: the two commands a newcomer needs are `make demo` and `make test`.
GO      ?= go
BIN     := bin/crucible
PKGS    := ./...

.PHONY: build test demo bench vet fmt-check clean

build: $(BIN)

$(BIN): $(shell find . -name '*.go' -not -path './bin/*') go.mod go.sum
	@mkdir -p bin
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/crucible

# test: formatting, vet, and every package's tests (race detector off to fit CI's 15 minutes on 2 cores).
test: fmt-check vet
	$(GO) test -count=1 -timeout 12m $(PKGS)

vet:
	$(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './bin/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# demo: a few Kindling matches and the standings, on the embedded defaults.
demo: build
	./$(BIN) strategies --game kindling

# bench: the engine and arena benchmarks with allocation counts.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

clean:
	rm -rf bin
