package evolver

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"crucible/engine/kindling"
	"crucible/evolver/llm"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

// fakeModel is an OpenAI-compatible chat completions endpoint whose
// replies a test scripts per call.
type fakeModel struct {
	mu      sync.Mutex
	calls   int
	prompts []string
	reply   func(call int) (status int, content string, delay time.Duration)
	// noJSONMode makes it refuse requests with a response_format, as some
	// OpenAI-compatible servers do.
	noJSONMode bool
	formats    []string // each request's response_format type ("" for none)
}

func (f *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role, Content string
		} `json:"messages"`
		ResponseFormat *struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	format := ""
	if req.ResponseFormat != nil {
		format = req.ResponseFormat.Type
	}
	f.mu.Lock()
	f.formats = append(f.formats, format)
	if f.noJSONMode && format != "" {
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		fmt.Fprint(w, `{"error":{"message":"'response_format.type' must be 'json_schema' or 'text'","type":"invalid_request_error"}}`)
		return
	}
	f.calls++
	call := f.calls
	f.prompts = append(f.prompts, req.Messages[len(req.Messages)-1].Content)
	f.mu.Unlock()
	status, content, delay := f.reply(call)
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if status != 200 {
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"scripted failure %d","type":"server_error"}}`, status)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
	})
}

// seen returns the number of calls and the prompts so far; the handler
// may still run on a server goroutine after a client gave up on it.
func (f *fakeModel) seen() (int, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls, append([]string(nil), f.prompts...)
}

// noteLog writes the model's remarks (ModelNote events) to log, one line
// each.
func noteLog(log *bytes.Buffer) func(Event) {
	return func(e Event) {
		if n, ok := e.(ModelNote); ok {
			fmt.Fprintf(log, "generation %d: %s\n", n.Generation+1, n.Message)
		}
	}
}

// llmSetup is the run an llm test proposes for: Kindling's rules and
// title when the base is a Kindling strategy, as the games table gives
// them.
func llmSetup(space paramSpace, n int, seed uint64, pool []opponent, progress func(Event)) setup {
	r := setup{space: space, population: n, seed: seed, opponents: pool, progress: progress}
	if space.Base.Game == "kindling" {
		r.title, r.rules = `Kindling ("kindling")`, bidders.LLMRules
	}
	return r
}

func newLLMForTest(t *testing.T, url string, n int, log *bytes.Buffer) *llmAlgo {
	t.Helper()
	l, err := newLLM(llmSetup(paramSpace{Base: testStrategy()}, n, 3, nil, noteLog(log)), LLMOptions{
		BaseURL: url + "/v1", Model: "fake", APIKey: "test", Timeout: 300 * time.Millisecond,
		Backoff: 10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

const goodReply = `{"genomes": [
 {"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2},
 {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}]}`

// paramsReply is goodReply in the shape the prompt shows: each genome
// wrapped as {"params": ...} with fields beside it.
const paramsReply = `{"genomes": [
 {"params": {"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2}, "why": "closer to the best"},
 {"params": {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}, "fitness": 0.5}]}`

func hallHistory(space paramSpace) history {
	e := &entry{ID: space.ID(space.Origin()), X: space.Origin(), Points: 30, Games: 100, Evals: 1, Fitness: 0.3}
	return history{Entries: []*entry{e}, Hall: []*entry{e}}
}

func TestLLMServerCases(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	fromModel := []strategies.Genome{{0.7, 3, 25, 1.2}, {0.6, 4, 20, 1.3}}
	always := func(content string) func(int) (int, string, time.Duration) {
		return func(int) (int, string, time.Duration) { return 200, content, 0 }
	}
	tests := []struct {
		name      string
		reply     func(call int) (int, string, time.Duration)
		wantCalls int
		// wantModel lists the genomes that must come from the model; the
		// rest of the generation must be mutations of the elite.
		wantModel []strategies.Genome
		wantNote  string
		wantLog   []string
	}{
		{"good reply is used as is", always(goodReply),
			1, fromModel, "2 genomes from fake", nil},
		{"reply in a code fence is accepted", always("```json\n" + goodReply + "\n```"),
			1, fromModel, "2 genomes from fake", nil},
		{"prose before and after a fenced answer is skipped",
			always("Looking at the table, the best genomes push aggression up and keep reserve low, so I move further that way.\n\n```json\n" +
				paramsReply + "\n```\n\nBoth stay inside the ranges [0, 1] and [0, 10]."),
			1, fromModel, "2 genomes from fake", nil},
		{"prose then bare JSON, no fence", always("Here are my proposals: " + goodReply + " Good luck!"),
			1, fromModel, "2 genomes from fake", nil},
		{"a top-level reasoning field is ignored",
			always(`{"reasoning": "reserve matters most; horizon second", "genomes": [{"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2}, {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}], "confidence": 0.6}`),
			1, fromModel, "2 genomes from fake", nil},
		{"genomes wrapped as params, as the prompt shows them", always(paramsReply),
			1, fromModel, "2 genomes from fake", nil},
		{"a bare list of params objects",
			always(`[{"params": {"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2}}, {"params": {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}}]`),
			1, fromModel, "2 genomes from fake", nil},
		{"a think block with a draft is skipped",
			always("<think>\nMaybe {\"genomes\": [{\"aggression\": 0.1}, {\"aggression\": 0.2}, {\"aggression\": 0.3}]} ... no, go higher.\n</think>\n" + goodReply),
			1, fromModel, "2 genomes from fake", nil},
		{"a genome quoted from the prompt before the answer is not the answer",
			always(`The best so far is {"params": {"aggression": 0.5, "reserve": 5, "horizon": 0, "greed": 1}, "fitness": 0.61}. I propose: ` + goodReply),
			1, fromModel, "2 genomes from fake", nil},
		{"missing parameters take their defaults, with a note",
			always(`{"genomes": [{"params": {"aggression": 0.7, "reserve": 3}}, {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}]}`),
			1, []strategies.Genome{{0.7, 3, -30, 2.3}, fromModel[1]}, "2 genomes from fake",
			[]string{"genome 1: not given, so at the default: horizon = -30, greed = 2.3"}},
		{"malformed reply is retried, then the good one used",
			func(call int) (int, string, time.Duration) {
				if call == 1 {
					return 200, `Sure! Here are genomes: {"genomes": [`, 0
				}
				return 200, goodReply, 0
			},
			2, fromModel, "2 genomes from fake", []string{"attempt 1 of 3: reply holds no JSON with genomes", `it begins "Sure! Here are genomes:`}},
		{"a value out of its range rejects the genome, naming the range",
			always(`{"genomes": [{"aggression": 0.7, "reserve": 14, "horizon": 25, "greed": 1.2}, {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}]}`),
			1, fromModel[1:], "1 genomes from fake, 1 by mutation of the elite",
			[]string{"genome 1 rejected: parameter reserve = 14 is outside its range [0, 10]"}},
		{"a fractional integer is rounded, with a note",
			always(`{"genomes": [{"aggression": 0.7, "reserve": 2.6, "horizon": 25, "greed": 1.2}, {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}]}`),
			1, fromModel, "2 genomes from fake", []string{"genome 1: reserve = 2.6 must be whole, rounded to 3"}},
		{"a genome with an unknown parameter is rejected, naming it and its value",
			always(`{"genomes": [{"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2, "speed": 3},
				 {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}]}`),
			1, fromModel[1:], "1 genomes from fake, 1 by mutation of the elite", []string{`genome 1 rejected: unknown parameter "speed" = 3 (known: aggression, reserve, horizon, greed)`}},
		{"numbers as strings are refused, naming the parameter; no genome left is a failed attempt",
			always(`{"genomes": [{"aggression": "0.7", "reserve": 3, "horizon": 25, "greed": 1.2}, {"params": {"aggression": 0.6, "reserve": "4", "horizon": 20, "greed": 1.3}}]}`),
			3, nil, "model failed after 3 attempts: reply has no acceptable genome (2 given)",
			[]string{`genome 1 rejected: parameter aggression = "0.7" is a string, not a number`, `genome 2 rejected: parameter reserve = "4" is a string, not a number`, "proposed by mutation of the elite"}},
		{"extra genomes are dropped with a note",
			always(`{"genomes": [{"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2}, {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}, {"aggression": 0.5}]}`),
			1, fromModel, "2 genomes from fake", []string{"reply has 3 genomes, 2 asked for: genomes 3 to 3 are dropped"}},
		{"HTTP 500 is retried, then the generation is mutation",
			func(int) (int, string, time.Duration) { return 500, "", 0 },
			3, nil, "model failed after 3 attempts: HTTP 500", []string{"attempt 3 of 3", "proposed by mutation of the elite"}},
		{"timeout is retried, then the generation is mutation",
			func(int) (int, string, time.Duration) { return 200, goodReply, 2 * time.Second },
			3, nil, "no reply within 300ms", []string{"attempt 1 of 3: no reply within 300ms"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := &fakeModel{reply: tc.reply}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			var log bytes.Buffer
			l := newLLMForTest(t, srv.URL, 2, &log)
			props, err := l.Ask(context.Background(), 0, hallHistory(space))
			if err != nil {
				t.Fatal(err)
			}
			if len(props) != 2 {
				t.Fatalf("got %d proposals, want 2", len(props))
			}
			if calls, _ := fake.seen(); calls != tc.wantCalls {
				t.Errorf("model called %d times, want %d", calls, tc.wantCalls)
			}
			for i, want := range tc.wantModel {
				if got := space.Genome(props[i].X); !slices.Equal(got, want) {
					t.Errorf("proposal %d plays %v, want the model's %v", i, got, want)
				}
			}
			for i := len(tc.wantModel); i < len(props); i++ {
				if d := dist(props[i].X, space.Origin()); d == 0 || d > 1 {
					t.Errorf("fallback proposal %d is %v from the elite, want a small mutation", i, d)
				}
				if len(props[i].Parents) != 1 || props[i].Parents[0] != space.ID(space.Origin()) {
					t.Errorf("fallback proposal %d has parents %v, want the elite", i, props[i].Parents)
				}
			}
			if !strings.Contains(l.Note(), tc.wantNote) {
				t.Errorf("note %q does not say %q", l.Note(), tc.wantNote)
			}
			for _, w := range tc.wantLog {
				if !strings.Contains(log.String(), w) {
					t.Errorf("log does not say %q:\n%s", w, log.String())
				}
			}
			if err := l.Tell(0, []float64{0.5, 0.5}); err != nil {
				t.Error(err)
			}
		})
	}
}

func dist(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
	}
	return d
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenPrompt builds the prompt of a fixed state of an llm run: Kindling's
// "easy" searched against even, greedy and sniper, after six generations
// (one proposed by mutation alone, one half by mutation), with fitness
// values as the search computes them (long fractions, one below 0).
func goldenPrompt(t *testing.T) string {
	t.Helper()
	reg := kindlingRegistry(t)
	base, err := reg.Lookup("kindling", "easy")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := referencePool(reg, "kindling", []string{"even", "greedy", "sniper"})
	if err != nil {
		t.Fatal(err)
	}
	space := paramSpace{Base: base}
	l, err := newLLM(llmSetup(space, 6, 1, pool, nil), LLMOptions{BaseURL: "http://127.0.0.1:1/v1", Show: 3})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(g strategies.Genome, fitness float64, evals int, vs map[string]tally) *entry {
		x := space.Point(g)
		e := &entry{ID: space.ID(x), X: x, Evals: evals, Fitness: fitness, Versus: vs}
		for _, t := range vs {
			e.Points += t.Points
			e.Games += t.Games
		}
		return e
	}
	baseE := mk(base.Schema.Defaults(), 0.20833333333333334, 6, map[string]tally{
		"even": {Points: 13, Games: 48}, "greedy": {Points: 4.5, Games: 48}, "sniper": {Points: 19, Games: 48},
		"hall:easy#4dbf4c3401": {Points: 6, Games: 24}, "hall:easy#2456234fa1": {Points: 4.5, Games: 16}})
	b1 := mk(strategies.Genome{0.8734567, 0.51234, 1}, 0.41666666666666663, 3, map[string]tally{
		"even": {Points: 14, Games: 24}, "greedy": {Points: 9, Games: 24}, "sniper": {Points: 17.5, Games: 24},
		"hall:easy#4dbf4c3401": {Points: 10, Games: 24}})
	b2 := mk(strategies.Genome{0.95, 1.25, 2}, 0.38020833333333337, 1, map[string]tally{
		"even": {Points: 5, Games: 8}, "greedy": {Points: 3.5, Games: 8}, "sniper": {Points: 6, Games: 8},
		"hall:easy#4dbf4c3401": {Points: 4, Games: 8}})
	b3 := mk(strategies.Genome{0.7, 0.30000000000000004, 1}, 0.33124999999999993, 2, map[string]tally{
		"even": {Points: 9, Games: 16}, "greedy": {Points: 4, Games: 16}, "sniper": {Points: 11, Games: 16},
		"hall:easy#4dbf4c3401": {Points: 3, Games: 8}, "hall:easy#2456234fa1": {Points: 2, Games: 8}})
	w1 := mk(strategies.Genome{0.2, 4, 3}, -0.041666666666666685, 1, map[string]tally{
		"even": {Points: 0, Games: 8}, "greedy": {Points: 0.5, Games: 8}, "sniper": {Points: 1, Games: 8}})
	w2 := mk(strategies.Genome{0.25, 3.5, 3}, 0.0123456789, 1, map[string]tally{
		"even": {Points: 1, Games: 8}, "greedy": {Points: 0, Games: 8}, "sniper": {Points: 2, Games: 8},
		"hall:easy#2456234fa1": {Points: 1, Games: 8}})

	// Six generations told, each observed by the next Ask but the last.
	fits := [][]float64{
		{0.1875, 0.25, 0.3125000000000001, 0.0625, 0.125, 0.2},
		{0.3333333333333333, 0.29166666666666663, 0.1, 0.15, 0.05, 0.0123456789},
		{0.21, 0.19, 0.2, 0.18, 0.22, 0.205},
		{0.41666666666666663, 0.35, 0.3, 0.2, 0.15, -0.041666666666666685},
		{0.38020833333333337, 0.31, 0.29, 0.25, 0.24, 0.23},
		{0.33124999999999993, 0.3, 0.28, 0.27, 0.2, 0.19},
	}
	fromModel := []int{6, 6, 0, 6, 4, 6}
	baseFit := []float64{0.1875, 0.19791666666666666, 0.2013888888888889, 0.203125, 0.20625}
	leader := []*entry{{Fitness: 0.3125}, {Fitness: 0.3333333333333333}, {Fitness: 0.3333333333333333}, {Fitness: 0.41666666666666663}, {Fitness: 0.4010416666666667}}
	for g := range fits {
		l.fromModel = fromModel[g]
		if err := l.Tell(g, fits[g]); err != nil {
			t.Fatal(err)
		}
		if g < len(baseFit) {
			l.observe(history{Entries: []*entry{{ID: baseE.ID, Games: 1, Fitness: baseFit[g]}}, Hall: []*entry{leader[g]}})
		}
	}
	h := history{Entries: []*entry{b1, b2, b3, baseE, w2, w1}, Hall: []*entry{b1, b3, b2, baseE}}
	return "system:\n" + llm.System + "\n\nuser:\n" + l.Prompt(6, h)
}

// Rule: the prompt of a fixed state is the golden file (rewrite it with
// go test -run TestLLMPromptGolden -update): it states the game's rules,
// the base's fitness, the results of the base and of the best genomes
// against each opponent, the trend of the last generations, fitness on
// its true scale, and every measured figure to 3 significant digits.
func TestLLMPromptGolden(t *testing.T) {
	got := goldenPrompt(t)
	path := filepath.Join("testdata", "llm_prompt_kindling.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestLLMPromptGolden -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("prompt differs from %s (rerun with -update if the change is intended):\n%s", path, got)
	}
	for _, w := range []string{
		"Crown 4, Tor 3, Mill 2",     // the rules
		"gains 5 more, capped at 12", // ...
		"The base's fitness is 0.208 (score rate 0.255 over 184 games in 6 generations)",
		"its full range is -1 to 2", // the scale, truthfully
		`#1 {"params": {"spend": 0.873, "noise": 0.512, "focus": 1}, "fitness": 0.417, "vs_base": 0.208, "se": 0.0503, "score_rate": 0.526, "games": 96, "generations": 3}`,
		`"fitness": -0.0417, "vs_base": -0.25`, // a fitness below 0, as it is
		"| opponent | base | #1 | #2 | #3 |",
		"| greedy | 0.0938 (48) | 0.375 (24) | 0.438 (8) | 0.25 (16) |", // hardest for the base first
		"| earlier champions of this search | 0.263 (40) | 0.417 (24) | 0.5 (8) | 0.313 (16) |",
		"- sniper: " + "outbids the strongest visible threat", // the opponents described
		"| 3 | mutation | 0.22 | 0.201 | 3 of 6 | 0.333 | 0.201 |",
		"| 5 | model 4, mutation 2 | 0.38 | 0.283 | 6 of 6 | 0.401 | 0.206 |",
		"| 6 | model | 0.331 | 0.262 | 4 of 6 | 0.417 | 0.208 |", // completed from the history
		`{"reasoning": "...", "genomes": [{"params": {"spend": 0.6, "noise": 2, "focus": 2}}]}`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("prompt lacks %q", w)
		}
	}
	if strings.Contains(got, "from 0 to 1") {
		t.Error("prompt still says fitness runs from 0 to 1")
	}
	for _, num := range regexp.MustCompile(`-?\d+\.\d+`).FindAllString(got, -1) {
		digits := strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(num), "0")
		if len(digits) > 3 {
			t.Errorf("prompt shows %s, more than 3 significant digits", num)
		}
	}
}

// Rule: the best and worst lists show Show genomes each, the base apart;
// the opponents are listed with their descriptions, the base among them
// said to be the base.
func TestLLMPromptShow(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	other := testStrategy()
	other.Name, other.Description = "flat", "a flat landscape"
	l, err := newLLM(llmSetup(space, 4, 1, []opponent{{Name: "flat", Strategy: other}, {Name: "quad", Strategy: testStrategy()}}, nil),
		LLMOptions{BaseURL: "http://127.0.0.1:1/v1", Show: 1})
	if err != nil {
		t.Fatal(err)
	}
	best := &entry{ID: "b", X: []float64{0.7, 0.3, 0.75, 0.35}, Points: 90, Games: 100, Evals: 2, Fitness: 0.9}
	mid := &entry{ID: "m", X: []float64{0.5, 0.5, 0.5, 0.5}, Points: 50, Games: 100, Evals: 2, Fitness: 0.5}
	worst := &entry{ID: "w", X: []float64{0, 1, 0, 1}, Points: 5, Games: 100, Evals: 2, Fitness: 0.05}
	p := l.Prompt(0, history{Entries: []*entry{worst, best, mid}})
	for _, want := range []string{
		"- reserve: [0, 10], integer, default 8 - sparks kept back",
		"- horizon: [-50, 50], real, default -30 - turns looked ahead",
		`#1 {"params": {"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2}, "fitness": 0.9,`,
		`- {"params": {"aggression": 0, "reserve": 10, "horizon": -50, "greed": 2.5}, "fitness": 0.05,`,
		"The base has not been measured yet.",
		"- flat: a flat landscape\n",
		"- quad: a noisy quadratic (the base itself, at its defaults)\n",
		"Propose 4 new genomes",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, `"fitness": 0.5,`) {
		t.Errorf("prompt shows the middle genome though Show is 1:\n%s", p)
	}
	if strings.Contains(p, "## The game") || strings.Contains(p, "## Results against each opponent") {
		t.Errorf("prompt has a rules or results section for a game without rules or per-opponent results:\n%s", p)
	}
}

// kindlingLLMSearch runs an llm search of Kindling's easy against even,
// greedy and sniper for gens generations in dir (resuming when it holds a
// checkpoint), the model answering with fixed genomes, and returns the
// prompts it was sent.
func kindlingLLMSearch(t *testing.T, dir string, gens int) []string {
	t.Helper()
	reg := kindlingRegistry(t)
	base, err := reg.Lookup("kindling", "easy")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := referencePool(reg, "kindling", []string{"even", "greedy", "sniper"})
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeModel{}
	fake.reply = func(call int) (int, string, time.Duration) {
		// The reply depends on the generation the prompt names, so that a
		// resumed run meets the same model.
		_, prompts := fake.seen()
		var gen int
		if m := regexp.MustCompile(`This is generation (\d+) `).FindStringSubmatch(prompts[call-1]); m != nil {
			gen, _ = strconv.Atoi(m[1])
		}
		if gen%3 == 0 { // every third generation's request fails: it is made by mutation
			return 500, "", 0
		}
		return 200, fmt.Sprintf("Raising spend should pay.\n```json\n{\"genomes\": [{\"params\": {\"spend\": %.2f, \"noise\": 1, \"focus\": 1}}, {\"params\": {\"spend\": 0.9, \"noise\": 0.5}}, {\"spend\": 0.3, \"noise\": 3, \"focus\": 3}]}\n```", 0.5+0.05*float64(gen)), 0
	}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	space := paramSpace{Base: base}
	l, err := newLLM(llmSetup(space, 4, 9, pool, nil), LLMOptions{BaseURL: srv.URL + "/v1", Model: "fake", Attempts: 1, SkipAfter: 100, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s := &search{Space: space, Algorithm: l, Seed: 9, Seeds: 4, Generations: gens, Dir: dir, Resume: true,
		Evaluator: &arenaEvaluator{Game: kindling.Game{}, Base: base, Pool: pool, Workers: 2}}
	if _, err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, prompts := fake.seen()
	return prompts
}

// Rule: in a real search the prompt's per-opponent table and trend come
// from the matches played: the base, which plays every generation, has
// met each reference opponent on every seed in both seat orders; every
// entry's per-opponent results add up to its total; and a run resumed
// from its checkpoint sends the model the same prompts as one left alone.
func TestLLMPromptFromKindlingSearch(t *testing.T) {
	dir := t.TempDir()
	prompts := kindlingLLMSearch(t, dir, 4)
	if len(prompts) != 4 {
		t.Fatalf("model asked %d times in 4 generations, want 4", len(prompts))
	}
	p := prompts[2] // after 2 generations: 2 x 4 seeds x 2 seat orders per opponent
	for _, w := range []string{"## The game", "| opponent | base | #1 |", "| earlier champions of this search | ", "The base's fitness is ",
		"| 1 | model 3, mutation 1 |", "| 2 | model 3, mutation 1 |"} {
		if !strings.Contains(p, w) {
			t.Errorf("prompt of generation 3 lacks %q:\n%s", w, p)
		}
	}
	for _, name := range []string{"even", "greedy", "sniper"} {
		if !regexp.MustCompile(`\| ` + name + ` \| [0-9.]+ \(16\) \|`).MatchString(p) {
			t.Errorf("prompt of generation 3 has no row of %s with the base's 16 games:\n%s", name, p)
		}
	}
	if !strings.Contains(prompts[3], "| 3 | mutation |") || !strings.Contains(prompts[3], "This is generation 4 of the search.") {
		t.Errorf("the generation whose request failed is not shown as mutation:\n%s", prompts[3])
	}
	cp, err := readCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range cp.Archive {
		var sum tally
		for _, v := range e.Versus {
			sum.Points += v.Points
			sum.Games += v.Games
		}
		if sum != (tally{Points: e.Points, Games: e.Games}) || len(e.Versus) < 3 {
			t.Errorf("entry %s: per-opponent results %v add up to %v, not its %v points over %v games", e.ID, e.Versus, sum, e.Points, e.Games)
		}
	}

	resumed := t.TempDir()
	first := kindlingLLMSearch(t, resumed, 2)
	rest := kindlingLLMSearch(t, resumed, 4)
	if got := append(first, rest...); !slices.Equal(got, prompts) {
		t.Errorf("the resumed run sent other prompts than the uninterrupted one")
	}
}

// Rule: the library never prints: rejected genomes, failed attempts and
// the fallback reach the caller only through Progress.
func TestLLMDoesNotPrint(t *testing.T) {
	fake := &fakeModel{reply: func(call int) (int, string, time.Duration) {
		if call == 1 {
			return 500, "", 0
		}
		return 200, `{"genomes": [{"aggression": "0.7"}]}`, 0
	}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	space := paramSpace{Base: testStrategy()}
	var log bytes.Buffer
	l := newLLMForTest(t, srv.URL, 2, &log)
	out := captureOutput(t, func() {
		if _, err := l.Ask(context.Background(), 0, hallHistory(space)); err != nil {
			t.Error(err)
		}
	})
	if out != "" {
		t.Errorf("Ask printed %q", out)
	}
	if !strings.Contains(log.String(), `aggression = "0.7" is a string`) || !strings.Contains(log.String(), "HTTP 500") {
		t.Errorf("the remarks did not reach Progress:\n%s", log.String())
	}
}

// Rule: a server that refuses JSON mode (HTTP 400 naming response_format)
// is asked again at once for plain text, and not in JSON mode again; the
// switch is reported.
func TestLLMServerWithoutJSONMode(t *testing.T) {
	fake := &fakeModel{noJSONMode: true, reply: func(int) (int, string, time.Duration) {
		return 200, "Here you go:\n```json\n" + paramsReply + "\n```", 0
	}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	space := paramSpace{Base: testStrategy()}
	var log bytes.Buffer
	l := newLLMForTest(t, srv.URL, 2, &log)
	for gen := range 2 {
		if _, err := l.Ask(context.Background(), gen, hallHistory(space)); err != nil {
			t.Fatal(err)
		}
		if l.Note() != "2 genomes from fake" {
			t.Errorf("generation %d: note %q, want the model's genomes", gen+1, l.Note())
		}
	}
	fake.mu.Lock()
	formats := slices.Clone(fake.formats)
	fake.mu.Unlock()
	if want := []string{"json_object", "", ""}; !slices.Equal(formats, want) {
		t.Errorf("requests' response formats %q, want %q", formats, want)
	}
	if !strings.Contains(log.String(), "the server refuses JSON mode (HTTP 400: 'response_format.type' must be") {
		t.Errorf("the switch to plain text is not reported:\n%s", log.String())
	}
}

// captureOutput runs fn with the process's standard output and error
// redirected, and returns what was written to them.
func captureOutput(t *testing.T, fn func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = w, w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	fn()
	os.Stdout, os.Stderr = stdout, stderr
	w.Close()
	return <-done
}

// Rule: with the model server unreachable the run goes on, every
// generation made by mutation, and says so; after repeated failures the
// model is only tried every few generations.
func TestLLMUnreachableServerRunGoesOn(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	space := paramSpace{Base: testStrategy()}
	var log bytes.Buffer
	l := newLLMForTest(t, url, 6, &log)
	var progress bytes.Buffer
	s := &search{Space: space, Algorithm: l, Evaluator: &synthetic{space: space, gamesPerSeed: 3},
		Seed: 3, Seeds: 4, Generations: 8, Dir: t.TempDir(), Progress: func(e Event) {
			if g, ok := e.(GenerationDone); ok {
				fmt.Fprintf(&progress, "gen %d: %s\n", g.Stats.Generation+1, g.Stats.Note)
			}
		}}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Generations != 8 {
		t.Errorf("ran %d generations, want 8", res.Generations)
	}
	if !strings.Contains(log.String(), "model server unreachable") || !strings.Contains(progress.String(), "proposed by mutation of the elite") {
		t.Errorf("the run does not say the model is unreachable and mutation took over:\nlog:\n%s\nprogress:\n%s", log.String(), progress.String())
	}
	if !strings.Contains(progress.String(), "model skipped after 2 failed generations") {
		t.Errorf("a dead server is still asked every generation:\n%s", progress.String())
	}
	lines := stripTimes(t, readLines(t, s.Dir+"/"+GenerationsFile))
	if !strings.Contains(lines[0].Note, "mutation") {
		t.Errorf("generations.jsonl note %q does not record the fallback", lines[0].Note)
	}
}

// Rule: a search driven by the model's proposals (here a model that
// answers with random genomes) keeps the best of them: the champion beats
// the base on the noisy objective.
func TestLLMSearchImproves(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	fake := &fakeModel{}
	fake.reply = func(call int) (int, string, time.Duration) {
		r := rand.New(rand.NewPCG(uint64(call), 1))
		var gs []map[string]float64
		for i := 0; i < 6; i++ {
			m := map[string]float64{}
			for _, p := range space.Base.Schema {
				v := p.Min + r.Float64()*(p.Max-p.Min)
				if p.Integer {
					v = float64(int(v))
				}
				m[p.Name] = v
			}
			gs = append(gs, m)
		}
		b, _ := json.Marshal(map[string]any{"genomes": gs})
		return 200, string(b), 0
	}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	l := newLLMForTest(t, srv.URL, 6, &bytes.Buffer{})
	s := &search{Space: space, Algorithm: l, Evaluator: &synthetic{space: space, gamesPerSeed: 4},
		Seed: 5, Seeds: 6, Generations: 15, Dir: t.TempDir()}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	base := trueRate(space, space.Genome(space.Origin()))
	got := trueRate(space, space.Genome(res.Hall[0].X))
	if got < base+0.2 {
		t.Errorf("champion's true rate %.3f is not clearly above the base's %.3f", got, base)
	}
	calls, prompts := fake.seen()
	if calls != 15 {
		t.Fatalf("model asked %d times in 15 generations, want 15", calls)
	}
	if !strings.Contains(prompts[14], "Best genomes so far") {
		t.Errorf("later prompts do not show the best genomes:\n%s", prompts[14])
	}
}

func FuzzParseReply(f *testing.F) {
	schema := testStrategy().Schema
	f.Add([]byte(goodReply))
	f.Add([]byte("```json\n" + goodReply + "\n```"))
	f.Add([]byte(`{"genomes": [{"aggression": 1e400}]}`))
	f.Add([]byte(`{"genomes": null}`))
	f.Add([]byte(`{"genomes": [{"aggression": 0.5, "reserve": 3.5, "horizon": 0, "greed": 1}]} trailing`))
	f.Add([]byte("Here:\n```json\n" + paramsReply + "\n```\nThat's all."))
	f.Add([]byte(`<think>{"aggression": 0.1}</think>[{"params": {"aggression": 0.5}}, {"params": [1]}]`))
	f.Add([]byte(`{"reasoning": "x", "genomes": [{"aggression": "0.5"}, {"reserve": 2.6}]}`))
	f.Add([]byte(`[[[[[[{"genomes": [{{{{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		gs, _, err := llm.ParseReply(data, schema, 4)
		if err != nil {
			if gs != nil {
				t.Fatalf("error %v with genomes %v", err, gs)
			}
			return
		}
		if len(gs) == 0 || len(gs) > 4 {
			t.Fatalf("%d genomes without error", len(gs))
		}
		for _, g := range gs {
			for i, p := range schema {
				if err := p.Check(g[i]); err != nil {
					t.Fatalf("parsed an illegal genome: %v", err)
				}
			}
		}
	})
}
