package evolver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
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
	// Progress receives a ModelNote for every rejected genome, failed
	// attempt and fallback (nil: none).
	Progress func(Event)
	// Opponents are the reference opponents, whose descriptions the
	// prompt lists; GameConfig is the run's game configuration as JSON,
	// which the prompt shows when it changes a default. Evolve fills both
	// from its Config (nil: not shown).
	Opponents  []Opponent
	GameConfig json.RawMessage
}

// withRun fills what the prompt says about the run (opponents, game
// configuration) from cfg where o leaves it unset.
func (o LLMOptions) withRun(cfg Config) LLMOptions {
	if o.GameConfig == nil {
		o.GameConfig = cfg.GameConfigJSON
	}
	if o.Opponents == nil && cfg.Registry != nil && cfg.Game != nil {
		if pool, err := ReferencePool(cfg.Registry, cfg.Game.Name(), cfg.Pool); err == nil {
			o.Opponents = pool
		}
	}
	return o
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
// (see Prompt) states the game's rules, the strategy's parameters (names,
// descriptions, bounds, defaults), what fitness is and the base's, the
// best genomes with their results against each opponent, the worst ones
// and the trend of the last generations, and asks for N new genomes as
// JSON. Replies are read as real models write them (see ParseReply); each
// rejected genome is reported with its reason through Progress. A reply
// with no acceptable genome, a timeout or an HTTP error is retried with
// backoff, and when every attempt fails the generation is made of
// mutations of the elite, so a run never stalls on the model; the
// generation's note says so. Missing genomes of a short reply are made by
// mutation too. Requests ask for JSON mode (response_format json_object);
// a server that refuses it is asked again at once, and from then on, for
// plain text.
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
	// fromModel is how many proposals of the last Ask came from the model.
	fromModel int
	// trend holds the last generations (at most trendRows), oldest first.
	trend []llmGen
	// plainText is set once the server refused JSON mode.
	plainText bool
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
	l.observe(h)
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
	l.fromModel = len(got)
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
	prompt := l.Prompt(gen, h)
	seed := int(engine.Mix(l.seed, uint64(gen)) >> 33)
	req := openai.ChatCompletionRequest{
		Model: l.opt.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: llmSystem},
			{Role: openai.ChatMessageRoleUser, Content: prompt},
		},
		Temperature: l.opt.Temperature,
		Seed:        &seed,
	}
	if !l.plainText {
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
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
		resp, err := l.complete(ctx, req)
		if err != nil && req.ResponseFormat != nil && refusesJSONMode(err) {
			// Some OpenAI-compatible servers know no JSON mode: ask them
			// for text, which the parser reads as well.
			l.plainText, req.ResponseFormat = true, nil
			l.remark(gen, "the server refuses JSON mode (%v): asking for plain text from now on", describeRequestError(err, l.opt.Timeout))
			resp, err = l.complete(ctx, req)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch {
		case err != nil:
			last = describeRequestError(err, l.opt.Timeout)
		case len(resp.Choices) == 0:
			last = errors.New("reply has no choices")
		case resp.Choices[0].FinishReason == openai.FinishReasonLength && resp.Choices[0].Message.Content == "":
			last = errors.New("reply was cut at the token limit before any answer")
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

// complete sends one request, bounded by the timeout.
func (l *LLM) complete(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	rctx, cancel := context.WithTimeout(ctx, l.opt.Timeout)
	defer cancel()
	return l.client.CreateChatCompletion(rctx, req)
}

// refusesJSONMode reports whether err is a server's refusal of the
// request's response_format (HTTP 400 or 422 naming it).
func refusesJSONMode(err error) bool {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		return (apiErr.HTTPStatusCode == 400 || apiErr.HTTPStatusCode == 422) && strings.Contains(apiErr.Message, "response_format")
	case errors.As(err, &reqErr):
		return (reqErr.HTTPStatusCode == 400 || reqErr.HTTPStatusCode == 422) && strings.Contains(string(reqErr.Body), "response_format")
	}
	return false
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

type llmState struct {
	Failures int      `json:"failures"`
	Trend    []llmGen `json:"trend,omitempty"`
}

// State returns the count of consecutive failed generations and the
// trend the next prompts show.
func (l *LLM) State() (json.RawMessage, error) {
	return json.Marshal(llmState{Failures: l.failures, Trend: l.trend})
}

// Restore continues from a State.
func (l *LLM) Restore(done int, state json.RawMessage) error {
	var st llmState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("llm: checkpoint state: %w", err)
	}
	l.failures, l.trend = st.Failures, st.Trend
	return nil
}

// Tell records the generation's fitness for the trend; the model sees the
// measured genomes in the next prompt.
func (l *LLM) Tell(gen int, fitness []float64) error {
	if len(fitness) != l.n {
		return fmt.Errorf("llm: told %d fitness values for %d proposals", len(fitness), l.n)
	}
	l.trend = append(l.trend, llmGen{Generation: gen, Model: l.fromModel, Fitness: append([]float64(nil), fitness...)})
	if len(l.trend) > trendRows {
		l.trend = l.trend[len(l.trend)-trendRows:]
	}
	return nil
}

// observe records, in the last generation of the trend, the base's and
// the leader's fitness after it, read from the history of the next Ask.
func (l *LLM) observe(h History) {
	baseID := l.space.ID(l.space.Origin())
	for _, e := range h.Entries {
		if e.ID == baseID && e.Games > 0 {
			l.trend = l.trendView(h, e)
			return
		}
	}
}

// Close releases idle connections.
func (l *LLM) Close() error {
	l.opt.HTTPClient.CloseIdleConnections()
	return nil
}
