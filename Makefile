# crucible: the two commands a newcomer needs are `make demo` and `make test`.
GO      ?= go
BIN     := bin/crucible
PKGS    := ./...

.PHONY: build test demo bench vet fmt-check staticcheck clean

build: $(BIN)

$(BIN): $(shell find . -name '*.go' -not -path './bin/*') go.mod go.sum
	@mkdir -p bin
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/crucible

# RACE_PKGS are the packages with concurrency (the arena's worker pool, the
# HTTP servers and players, the evolver's parallel evaluation; the ladder and
# the queue join them), run again under the race detector.
RACE_PKGS := ./arena/... ./protocol/... ./evolver/... ./queue/... ./bots/...

# test: formatting, vet, staticcheck, every package's tests, then the
# concurrent packages again under the race detector. The -timeout figures are
# per package's test binary and are limits, not expectations: they hold at
# load 40 on 2 cores, where a cold build of the exported bot alone (the
# export tests) can take some 30 minutes of wall time for under 2 of CPU.
# -short lets a package skip, under the race detector only, a test too long
# for that run (the kill -9 campaigns).
test: fmt-check vet staticcheck
	$(GO) test -count=1 -timeout 40m $(PKGS)
	$(GO) test -race -short -count=1 -timeout 15m $(RACE_PKGS)

vet:
	$(GO) vet $(PKGS)

# staticcheck: the default checks, pinned; go run fetches it from the Go
# module proxy once and caches the build.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
staticcheck:
	$(GO) run $(STATICCHECK) $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './bin/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# demo: the main job on the embedded defaults, in about 15 seconds: one
# Kindling match, a round robin of each game with its Glicko-2 leaderboard,
# a short evolution run with its ranked table, and HTML reports of the
# arena and the evolution. Output lands in runs/demo.
# The ladder part (under a second more): two nights of a persistent
# ladder, the evolved champion as a new version of contrarian with its
# regression test's verdict, and the ladder's HTML report.
DEMO := runs/demo
LADDER := $(DEMO)/ladder.db
demo: build
	@rm -rf $(DEMO) && mkdir -p $(DEMO)
	@echo "== One Kindling match: normal, sniper, greedy and easy on seed 7"
	./$(BIN) match kindling --players normal,sniper,greedy,easy --seed 7 --log $(DEMO)/match.json
	@echo "== Kindling: round robin of every bidder on 20 seeds"
	./$(BIN) arena --game kindling --players all --seeds 20 --out $(DEMO)/kindling.jsonl
	@echo "== AI Code Battle: round robin of the 21 reference strategies on 2 seeds"
	./$(BIN) arena --game acb --players all --seeds 2 --out $(DEMO)/acb.jsonl --matrix=false
	@echo "== Evolution: a genetic search over the contrarian bidder's parameters, then its final stages (selection of the champion, held-out comparison, ranking)"
	./$(BIN) evolve --game kindling --base contrarian --algo ga --generations 40 --seeds 16 --holdout 100 --out $(DEMO)/evolve
	@echo "== HTML reports with plots of the AI Code Battle arena and the evolution"
	./$(BIN) report --results $(DEMO)/acb.jsonl --out $(DEMO)/acb.html
	./$(BIN) report --run $(DEMO)/evolve --out $(DEMO)/evolve.html
	@echo "== A persistent ladder: two nights; the evolved champion comes in as a new version of contrarian"
	@echo "   and plays a regression test (pentanomial SPRT) against it; ladder run exits 3 if it is weaker"
	./$(BIN) ladder init --game kindling --db $(LADDER)
	for s in normal sniper greedy contrarian; do ./$(BIN) ladder add $$s --strategy $$s --db $(LADDER) || exit 1; done
	./$(BIN) ladder run --night night-1 --seeds-per-night 20 --db $(LADDER)
	./$(BIN) ladder add contrarian --variant $(DEMO)/evolve/champion.json --db $(LADDER)
	./$(BIN) ladder run --night night-2 --seeds-per-night 20 --db $(LADDER) || { s=$$?; test $$s -eq 3 && echo "(exit status 3: the regression alarm)"; }
	./$(BIN) ladder report --db $(LADDER) --out $(DEMO)/ladder.html
	@echo "== Done: results, logs, reports, the evolved variants and the ladder are in $(DEMO)/"

# bench: the engine and arena benchmarks with allocation counts.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

clean:
	rm -rf bin
