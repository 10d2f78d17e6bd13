package evolver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"crucible/strategies"
)

// fakeModel is an OpenAI-compatible chat completions endpoint whose
// replies a test scripts per call.
type fakeModel struct {
	mu      sync.Mutex
	calls   int
	prompts []string
	reply   func(call int) (status int, content string, delay time.Duration)
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
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	f.mu.Lock()
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

func newLLMForTest(t *testing.T, url string, n int, log *bytes.Buffer) *LLM {
	t.Helper()
	l, err := NewLLM(Space{Base: testStrategy()}, n, 3, LLMOptions{
		BaseURL: url + "/v1", Model: "fake", APIKey: "test", Timeout: 300 * time.Millisecond,
		Backoff: 10 * time.Millisecond, Progress: noteLog(log),
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

func hallHistory(space Space) History {
	e := &Entry{ID: space.ID(space.Origin()), X: space.Origin(), Points: 30, Games: 100, Evals: 1, Fitness: 0.3}
	return History{Entries: []*Entry{e}, Hall: []*Entry{e}}
}

func TestLLMServerCases(t *testing.T) {
	space := Space{Base: testStrategy()}
	fromModel := []strategies.Genome{{0.7, 3, 25, 1.2}, {0.6, 4, 20, 1.3}}
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
		{"good reply is used as is",
			func(int) (int, string, time.Duration) { return 200, goodReply, 0 },
			1, fromModel, "2 genomes from fake", nil},
		{"reply in a code fence is accepted",
			func(int) (int, string, time.Duration) { return 200, "```json\n" + goodReply + "\n```", 0 },
			1, fromModel, "2 genomes from fake", nil},
		{"malformed reply is retried, then the good one used",
			func(call int) (int, string, time.Duration) {
				if call == 1 {
					return 200, `Sure! Here are genomes: {"genomes": [`, 0
				}
				return 200, goodReply, 0
			},
			2, fromModel, "2 genomes from fake", []string{"attempt 1 of 3", "not the JSON object"}},
		{"out-of-bounds values are clamped and logged",
			func(int) (int, string, time.Duration) {
				return 200, `{"genomes": [{"aggression": 1.7, "reserve": 14, "horizon": -80, "greed": 1.5}]}`, 0
			},
			1, []strategies.Genome{{1, 10, -50, 1.5}}, "1 genomes from fake, 1 by mutation of the elite",
			[]string{"aggression = 1.7 is outside [0, 1], clamped to 1", "reserve = 14 is outside [0, 10], clamped to 10", "horizon = -80 is outside [-50, 50], clamped to -50"}},
		{"genome with an unknown parameter is dropped",
			func(int) (int, string, time.Duration) {
				return 200, `{"genomes": [{"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2, "speed": 3},
				 {"aggression": 0.6, "reserve": 4, "horizon": 20, "greed": 1.3}]}`, 0
			},
			1, fromModel[1:], "1 genomes from fake, 1 by mutation of the elite", []string{`genome 1 dropped: unknown parameter "speed"`}},
		{"HTTP 500 is retried, then the generation is mutation",
			func(int) (int, string, time.Duration) { return 500, "", 0 },
			3, nil, "model failed after 3 attempts: HTTP 500", []string{"attempt 3 of 3", "proposed by mutation of the elite"}},
		{"timeout is retried, then the generation is mutation",
			func(int) (int, string, time.Duration) { return 200, goodReply, 2 * time.Second },
			3, nil, "no reply within 300ms", []string{"attempt 1 of 3: no reply within 300ms"}},
		{"string value is a parse failure",
			func(int) (int, string, time.Duration) {
				return 200, `{"genomes": [{"aggression": "high", "reserve": 3, "horizon": 25, "greed": 1.2}]}`, 0
			},
			3, nil, "no usable genome", []string{`aggression is high, not a number`}},
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

// Rule: the prompt carries the schema (names, descriptions, bounds) and the
// best and worst measured genomes with their fitness.
func TestLLMPromptShowsSchemaAndHistory(t *testing.T) {
	space := Space{Base: testStrategy()}
	l, err := NewLLM(space, 4, 1, LLMOptions{BaseURL: "http://127.0.0.1:1/v1", Show: 1})
	if err != nil {
		t.Fatal(err)
	}
	best := &Entry{ID: "b", X: []float64{0.7, 0.3, 0.75, 0.35}, Points: 90, Games: 100, Fitness: 0.9}
	mid := &Entry{ID: "m", X: []float64{0.5, 0.5, 0.5, 0.5}, Points: 50, Games: 100, Fitness: 0.5}
	worst := &Entry{ID: "w", X: []float64{0, 1, 0, 1}, Points: 5, Games: 100, Fitness: 0.05}
	p := l.Prompt(History{Entries: []*Entry{worst, best, mid}})
	for _, want := range []string{
		"- reserve: [0, 10], integer, default 8 — sparks kept back",
		"- horizon: [-50, 50], real, default -30 — turns looked ahead",
		`{"params": {"aggression":0.7,"greed":1.2,"horizon":25,"reserve":3}, "fitness": 0.9000, "games": 100}`,
		`{"params": {"aggression":0,"greed":2.5,"horizon":-50,"reserve":10}, "fitness": 0.0500, "games": 100}`,
		"Propose 4 new genomes",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, `"fitness": 0.5000`) {
		t.Errorf("prompt shows the middle genome though Show is 1:\n%s", p)
	}
}

// Rule: with the model server unreachable the run goes on, every
// generation made by mutation, and says so; after repeated failures the
// model is only tried every few generations.
func TestLLMUnreachableServerRunGoesOn(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	space := Space{Base: testStrategy()}
	var log bytes.Buffer
	l := newLLMForTest(t, url, 6, &log)
	var progress bytes.Buffer
	s := &Search{Space: space, Algorithm: l, Evaluator: &synthetic{space: space, gamesPerSeed: 3},
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
	space := Space{Base: testStrategy()}
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
	s := &Search{Space: space, Algorithm: l, Evaluator: &synthetic{space: space, gamesPerSeed: 4},
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
	f.Fuzz(func(t *testing.T, data []byte) {
		gs, _, err := ParseReply(data, schema, 4)
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
