package evolver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"crucible/engine"
	"crucible/strategies"
)

// LLMOptions configures the model-driven proposer. Zero fields take the
// documented defaults.
type LLMOptions struct {
	// BaseURL is the OpenAI-compatible API's base URL (hosted, vLLM,
	// llama.cpp, Ollama: e.g. http://localhost:11434/v1). Default:
	// https://api.openai.com/v1.
	BaseURL string
	// Model is the model name (default "gpt-4o-mini").
	Model string
	// APIKey is sent as the bearer token; local servers usually need none.
	APIKey string
	// Timeout bounds each request (default 60s).
	Timeout time.Duration
	// Attempts is how many requests a generation makes before it falls back
	// to mutation (default 3).
	Attempts int
	// Backoff is the wait before the second attempt; it doubles for each
	// further one (default 1s).
	Backoff time.Duration
	// Temperature is the sampling temperature (default 0.7).
	Temperature float32
	// Show is how many of the best and of the worst measured genomes the
	// prompt shows (default 5 each).
	Show int
	// Sigma is the Gaussian step, in normalised units, of the mutations of
	// the elite that replace a failed reply (default 0.1).
	Sigma float64
	// SkipAfter is the number of consecutive failed generations after which
	// the model is asked only every RetryEvery generations, so a dead
	// server does not slow every generation (defaults 2 and 5).
	SkipAfter, RetryEvery int
	// HTTPClient is the client requests go through (default a new one).
	HTTPClient *http.Client
	// Progress receives a ModelNote for every clamped value, failed
	// attempt and fallback (nil: none).
	Progress func(Event)
}

func (o LLMOptions) withDefaults() LLMOptions {
	if o.BaseURL == "" {
		o.BaseURL = "https://api.openai.com/v1"
	}
	if o.Model == "" {
		o.Model = "gpt-4o-mini"
	}
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	if o.Attempts == 0 {
		o.Attempts = 3
	}
	if o.Backoff == 0 {
		o.Backoff = time.Second
	}
	if o.Temperature == 0 {
		o.Temperature = 0.7
	}
	if o.Show == 0 {
		o.Show = 5
	}
	if o.Sigma == 0 {
		o.Sigma = 0.1
	}
	if o.SkipAfter == 0 {
		o.SkipAfter = 2
	}
	if o.RetryEvery == 0 {
		o.RetryEvery = 5
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	return o
}

// LLM asks a language model for new genomes each generation. The prompt
// gives the schema (names, descriptions, bounds, defaults), the best and
// the worst genomes measured so far with their fitness, and asks for N new
// genomes as JSON. Replies are parsed strictly (see ParseReply); values out
// of bounds are clamped and logged. A reply that fails to parse, a timeout
// or an HTTP error is retried with backoff, and when every attempt fails
// the generation is made of mutations of the elite, so a run never stalls
// on the model; the generation's note says so.
//
// Model replies are not reproducible, so a resumed llm run continues from
// its checkpoint but need not end as an uninterrupted one would.
type LLM struct {
	space    Space
	n        int
	seed     uint64
	opt      LLMOptions
	client   *openai.Client
	failures int // consecutive generations without a usable reply
	note     string
}

// NewLLM returns the model-driven proposer of n genomes per generation.
func NewLLM(space Space, n int, seed uint64, opt LLMOptions) (*LLM, error) {
	opt = opt.withDefaults()
	if n < 1 {
		return nil, fmt.Errorf("llm: population %d is below 1", n)
	}
	if opt.Attempts < 1 {
		return nil, fmt.Errorf("llm: attempts %d is below 1", opt.Attempts)
	}
	cfg := openai.DefaultConfig(opt.APIKey)
	cfg.BaseURL = strings.TrimRight(opt.BaseURL, "/")
	cfg.HTTPClient = opt.HTTPClient
	return &LLM{space: space, n: n, seed: seed, opt: opt, client: openai.NewClientWithConfig(cfg)}, nil
}

// Name returns "llm".
func (l *LLM) Name() string { return "llm" }

// Note says where the last generation's genomes came from.
func (l *LLM) Note() string { return l.note }

// remark sends a ModelNote about generation gen.
func (l *LLM) remark(gen int, format string, args ...any) {
	emit(l.opt.Progress, ModelNote{Generation: gen, Message: fmt.Sprintf(format, args...)})
}

// Ask requests n genomes from the model, falling back to mutations of the
// elite when the model gives none.
func (l *LLM) Ask(ctx context.Context, gen int, h History) ([]Proposal, error) {
	var parents []string
	for _, e := range h.Hall[:min(2, len(h.Hall))] {
		parents = append(parents, e.ID)
	}
	var got []strategies.Genome
	var why string
	if l.failures >= l.opt.SkipAfter && gen%l.opt.RetryEvery != 0 {
		why = fmt.Sprintf("model skipped after %d failed generations (next try in generation %d)", l.failures, (gen/l.opt.RetryEvery+1)*l.opt.RetryEvery+1)
	} else {
		var err error
		got, err = l.request(ctx, gen, h)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			why = fmt.Sprintf("model failed after %d attempts: %v", l.opt.Attempts, err)
		}
	}
	out := make([]Proposal, 0, l.n)
	for _, g := range got {
		out = append(out, Proposal{X: l.space.Point(g), Parents: parents})
	}
	if len(got) > 0 {
		l.failures = 0
		l.note = fmt.Sprintf("%d genomes from %s", len(got), l.opt.Model)
	} else {
		l.failures++
	}
	if missing := l.n - len(out); missing > 0 {
		out = append(out, l.mutants(gen, h, missing)...)
		switch {
		case len(got) == 0:
			l.note = why + "; generation proposed by mutation of the elite"
			l.remark(gen, "%s", l.note)
		default:
			l.note += fmt.Sprintf(", %d by mutation of the elite", missing)
		}
	}
	return out, nil
}

// mutants returns k Gaussian mutations of the hall of fame's members, in
// turn, drawn from a generator seeded by the run seed and gen.
func (l *LLM) mutants(gen int, h History, k int) []Proposal {
	s := engine.Mix(engine.Mix(l.seed, 0x6c6c6d), uint64(gen))
	rng := rand.New(rand.NewPCG(s, engine.Mix(s, 1)))
	elite := []*Entry{{ID: l.space.ID(l.space.Origin()), X: l.space.Origin()}}
	if len(h.Hall) > 0 {
		elite = h.Hall
	}
	out := make([]Proposal, k)
	for i := range out {
		e := elite[i%len(elite)]
		x := append([]float64(nil), e.X...)
		for j := range x {
			x[j] += l.opt.Sigma * rng.NormFloat64()
		}
		out[i] = Proposal{X: clamp01(x), Parents: []string{e.ID}}
	}
	return out
}

// request asks the model, retrying with backoff, and returns the genomes of
// the first usable reply.
func (l *LLM) request(ctx context.Context, gen int, h History) ([]strategies.Genome, error) {
	prompt := l.Prompt(h)
	seed := int(engine.Mix(l.seed, uint64(gen)) >> 33)
	req := openai.ChatCompletionRequest{
		Model: l.opt.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: "You tune the numeric parameters of a game-playing strategy. You answer with JSON only."},
			{Role: openai.ChatMessageRoleUser, Content: prompt},
		},
		Temperature:    l.opt.Temperature,
		Seed:           &seed,
		ResponseFormat: &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject},
	}
	var last error
	wait := l.opt.Backoff
	for attempt := 1; attempt <= l.opt.Attempts; attempt++ {
		if attempt > 1 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		rctx, cancel := context.WithTimeout(ctx, l.opt.Timeout)
		resp, err := l.client.CreateChatCompletion(rctx, req)
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch {
		case err != nil:
			last = describeRequestError(err, l.opt.Timeout)
		case len(resp.Choices) == 0:
			last = errors.New("reply has no choices")
		default:
			gs, notes, perr := ParseReply([]byte(resp.Choices[0].Message.Content), l.space.Base.Schema, l.n)
			for _, n := range notes {
				l.remark(gen, "%s", n)
			}
			if perr == nil {
				return gs, nil
			}
			last = perr
		}
		l.remark(gen, "attempt %d of %d: %v", attempt, l.opt.Attempts, last)
	}
	return nil, last
}

// describeRequestError shortens the client's errors to what a user needs.
func describeRequestError(err error, timeout time.Duration) error {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no reply within %v", timeout)
	case errors.As(err, &apiErr):
		return fmt.Errorf("HTTP %d: %s", apiErr.HTTPStatusCode, apiErr.Message)
	case errors.As(err, &reqErr):
		return fmt.Errorf("HTTP %d: %s", reqErr.HTTPStatusCode, strings.TrimSpace(string(reqErr.Body)))
	}
	return fmt.Errorf("model server unreachable: %w", err)
}

// Prompt builds the user message of a request from the history.
func (l *LLM) Prompt(h History) string {
	s := l.space.Base
	var b strings.Builder
	fmt.Fprintf(&b, "Strategy %q of the game %q: %s\n\n", s.Name, s.Game, s.Description)
	b.WriteString("Parameters (name: range, kind, default — what it does):\n")
	for _, p := range s.Schema {
		kind := "real"
		if p.Integer {
			kind = "integer"
		}
		fmt.Fprintf(&b, "- %s: %s, %s, default %v — %s\n", p.Name, p.Range(), kind, p.Default, p.Description)
	}
	b.WriteString("\nFitness is the score rate against a pool of opponents (win 1, draw 0.5, loss 0 per game), from 0 to 1; higher is better. Each fitness is an estimate from the games shown and is noisy.\n")
	var measured []*Entry
	for _, e := range h.Entries {
		if e.Games > 0 {
			measured = append(measured, e)
		}
	}
	sortByFitness(measured)
	show := func(title string, es []*Entry) {
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, e := range es {
			params, _ := json.Marshal(s.Schema.Map(l.space.Genome(e.X)))
			fmt.Fprintf(&b, "{\"params\": %s, \"fitness\": %.4f, \"games\": %.0f}\n", params, e.Fitness, e.Games)
		}
	}
	if len(measured) == 0 {
		defaults, _ := json.Marshal(s.Schema.Map(s.Schema.Defaults()))
		fmt.Fprintf(&b, "\nNothing has been measured yet. The defaults are %s.\n", defaults)
	} else {
		k := min(l.opt.Show, len(measured))
		show("Best genomes so far", measured[:k])
		if rest := measured[k:]; len(rest) > 0 {
			worst := rest[max(0, len(rest)-l.opt.Show):]
			show("Worst genomes so far", worst)
		}
	}
	fmt.Fprintf(&b, "\nPropose %d new genomes, different from those above, that you expect to score higher than the best. "+
		"Reply with one JSON object and nothing else, of exactly this shape, giving every parameter a number within its range:\n", l.n)
	example := map[string]float64{}
	for _, p := range s.Schema {
		example[p.Name] = p.Default
	}
	ex, _ := json.Marshal(map[string]any{"genomes": []any{example}})
	b.Write(ex)
	b.WriteString("\n")
	return b.String()
}

// ParseReply decodes a model's reply strictly: one JSON object
// {"genomes": [{name: number, ...}, ...]} with no other field, optionally
// inside a single Markdown code fence, and nothing after it. A genome that
// names an unknown parameter, leaves one out or gives a non-number is
// dropped with a note; a value out of bounds is clamped, and a fractional
// value of an integer parameter rounded, with a note each. At most n
// genomes are returned (extra ones are dropped with a note). A reply that
// does not decode, or yields no genome, is an error.
func ParseReply(reply []byte, schema strategies.Schema, n int) ([]strategies.Genome, []string, error) {
	body := bytes.TrimSpace(reply)
	if bytes.HasPrefix(body, []byte("```")) {
		nl := bytes.IndexByte(body, '\n')
		if nl < 0 || !bytes.HasSuffix(body, []byte("```")) || len(body) < nl+1+3 {
			return nil, nil, errors.New("reply opens a code fence it does not close")
		}
		body = bytes.TrimSpace(body[nl+1 : len(body)-3])
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var doc struct {
		Genomes []map[string]any `json:"genomes"`
	}
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("reply is not the JSON object asked for: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("reply has text after its JSON object")
	}
	if doc.Genomes == nil {
		return nil, nil, errors.New(`reply has no "genomes" array`)
	}
	var out []strategies.Genome
	var notes []string
	for i, m := range doc.Genomes {
		if len(out) == n {
			notes = append(notes, fmt.Sprintf("reply has %d genomes, %d asked for: the rest are dropped", len(doc.Genomes), n))
			break
		}
		g, gnotes, err := parseGenome(m, schema)
		for _, s := range gnotes {
			notes = append(notes, fmt.Sprintf("genome %d: %s", i+1, s))
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("genome %d dropped: %v", i+1, err))
			continue
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, notes, fmt.Errorf("reply has no usable genome (%d given)", len(doc.Genomes))
	}
	return out, notes, nil
}

func parseGenome(m map[string]any, schema strategies.Schema) (strategies.Genome, []string, error) {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if schema.Index(k) < 0 {
			return nil, nil, fmt.Errorf("unknown parameter %q (known: %s)", k, strings.Join(schema.Names(), ", "))
		}
	}
	g := make(strategies.Genome, len(schema))
	var notes []string
	for i, p := range schema {
		raw, ok := m[p.Name]
		if !ok {
			return nil, nil, fmt.Errorf("parameter %s is missing", p.Name)
		}
		num, ok := raw.(json.Number)
		if !ok {
			return nil, nil, fmt.Errorf("parameter %s is %v, not a number", p.Name, raw)
		}
		v, err := num.Float64()
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, nil, fmt.Errorf("parameter %s = %s is not a finite number", p.Name, num)
		}
		c := p.Clamp(v)
		switch {
		case v < p.Min || v > p.Max:
			notes = append(notes, fmt.Sprintf("%s = %v is outside %s, clamped to %v", p.Name, v, p.Range(), c))
		case c != v:
			notes = append(notes, fmt.Sprintf("%s = %v must be whole, rounded to %v", p.Name, v, c))
		}
		g[i] = c
	}
	return g, notes, nil
}

type llmState struct {
	Failures int `json:"failures"`
}

// State returns the count of consecutive failed generations.
func (l *LLM) State() (json.RawMessage, error) { return json.Marshal(llmState{Failures: l.failures}) }

// Restore continues from a State.
func (l *LLM) Restore(done int, state json.RawMessage) error {
	var st llmState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("llm: checkpoint state: %w", err)
	}
	l.failures = st.Failures
	return nil
}

// Tell only checks the count of values: the model sees the measured
// genomes in the next prompt.
func (l *LLM) Tell(gen int, fitness []float64) error {
	if len(fitness) != l.n {
		return fmt.Errorf("llm: told %d fitness values for %d proposals", len(fitness), l.n)
	}
	return nil
}

// Close releases idle connections.
func (l *LLM) Close() error {
	l.opt.HTTPClient.CloseIdleConnections()
	return nil
}
