package evolver

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"time"

	"crucible/engine"
	"crucible/evolver/llm"
	"crucible/strategies"
)

// LLMOptions tunes the llm algorithm: its model server (see llm.Options)
// and what it does with the replies. Zero fields take the documented
// defaults.
type LLMOptions struct {
	// BaseURL is the OpenAI-compatible API's base URL (e.g.
	// http://localhost:11434/v1 for Ollama; default $OPENAI_BASE_URL,
	// else https://api.openai.com/v1), Model the model name (default
	// "gpt-4o-mini") and APIKey the bearer token (default
	// $OPENAI_API_KEY; local servers usually need none).
	BaseURL, Model, APIKey string
	// Timeout bounds each request (default 60s); Attempts is how many
	// requests a generation makes before it falls back to mutation
	// (default 3), Backoff the wait before the second (doubling after;
	// default 1s) and Temperature the sampling temperature (default 0.7).
	Timeout     time.Duration
	Attempts    int
	Backoff     time.Duration
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
}

// newLLMOptions returns the options with their flags' defaults.
func newLLMOptions() *LLMOptions {
	return &LLMOptions{Model: "gpt-4o-mini", Timeout: 60 * time.Second, Attempts: 3}
}

// Flags defines the model server's flags: --llm-base-url, --llm-model,
// --llm-timeout and --llm-attempts.
func (o *LLMOptions) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.BaseURL, "llm-base-url", o.BaseURL, "llm: OpenAI-compatible API base URL (default $OPENAI_BASE_URL, else https://api.openai.com/v1)")
	fs.StringVar(&o.Model, "llm-model", o.Model, "llm: model name")
	fs.Var(durationFlag{&o.Timeout}, "llm-timeout", "llm: time limit of one request, positive")
	fs.Var(intFlag{&o.Attempts, 1, 10}, "llm-attempts", "llm: requests per generation (with doubling backoff from 1s) before mutation takes over, 1 to 10")
}

// Identity is empty: a resumed llm run may change its model.
func (o *LLMOptions) Identity() []string { return nil }

// resolved takes the base URL from $OPENAI_BASE_URL when it is not set.
func (o *LLMOptions) resolved(setup) Options {
	c := *o
	if c.BaseURL == "" {
		c.BaseURL = os.Getenv("OPENAI_BASE_URL")
	}
	return &c
}

func (o *LLMOptions) build(r setup) (algorithm, error) {
	c := o.resolved(r).(*LLMOptions)
	if c.APIKey == "" {
		c.APIKey = os.Getenv("OPENAI_API_KEY")
	}
	return newLLM(r, *c)
}

func (o LLMOptions) withDefaults() LLMOptions {
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
	return o
}

// client returns the model server's options.
func (o LLMOptions) client() llm.Options {
	return llm.Options{BaseURL: o.BaseURL, Model: o.Model, APIKey: o.APIKey, Timeout: o.Timeout, Attempts: o.Attempts,
		Backoff: o.Backoff, Temperature: o.Temperature, HTTPClient: o.HTTPClient}.WithDefaults()
}

// llmAlgo asks a language model for new genomes each generation. The prompt
// (see llm.Prompt) states the game's rules, the strategy's parameters (names,
// descriptions, bounds, defaults), what fitness is and the base's, the
// best genomes with their results against each opponent, the worst ones
// and the trend of the last generations, and asks for N new genomes as
// JSON. Replies are read as real models write them (see llm.ParseReply); each
// rejected genome is reported with its reason through Progress. A reply
// with no acceptable genome, a timeout or an HTTP error is retried with
// backoff, and when every attempt fails the generation is made of
// mutations of the elite, so a run never stalls on the model; the
// generation's note says so. Missing genomes of a short reply are made by
// mutation too.
//
// Model replies are not reproducible, so a resumed llm run continues from
// its checkpoint but need not end as an uninterrupted one would.
type llmAlgo struct {
	run      setup
	n        int
	opt      LLMOptions
	client   *llm.Client
	failures int // consecutive generations without a usable reply
	note     string
	// fromModel is how many proposals of the last Ask came from the model.
	fromModel int
	// trend holds the last generations (at most llm.TrendRows), oldest
	// first.
	trend []llm.Generation
}

// newLLM returns the model-driven proposer of the run's population.
func newLLM(r setup, opt LLMOptions) (*llmAlgo, error) {
	opt = opt.withDefaults()
	if r.population < 1 {
		return nil, fmt.Errorf("llm: population %d is below 1", r.population)
	}
	c, err := llm.NewClient(opt.client())
	if err != nil {
		return nil, err
	}
	return &llmAlgo{run: r, n: r.population, opt: opt, client: c}, nil
}

// Name returns "llm".
func (l *llmAlgo) Name() string { return "llm" }

// Note says where the last generation's genomes came from.
func (l *llmAlgo) Note() string { return l.note }

// remark sends a ModelNote about generation gen.
func (l *llmAlgo) remark(gen int, format string, args ...any) {
	emit(l.run.progress, ModelNote{Generation: gen, Message: fmt.Sprintf(format, args...)})
}

// Ask requests n genomes from the model, falling back to mutations of the
// elite when the model gives none.
func (l *llmAlgo) Ask(ctx context.Context, gen int, h history) ([]proposal, error) {
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
			why = fmt.Sprintf("model failed after %d attempts: %v", l.opt.client().Attempts, err)
		}
	}
	out := make([]proposal, 0, l.n)
	for _, g := range got {
		out = append(out, proposal{X: l.run.space.Point(g), Parents: parents})
	}
	l.fromModel = len(got)
	if len(got) > 0 {
		l.failures = 0
		l.note = fmt.Sprintf("%d genomes from %s", len(got), l.opt.client().Model)
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
func (l *llmAlgo) mutants(gen int, h history, k int) []proposal {
	s := engine.Mix(engine.Mix(l.run.seed, 0x6c6c6d), uint64(gen))
	rng := rand.New(rand.NewPCG(s, engine.Mix(s, 1)))
	elite := []*entry{{ID: l.run.space.ID(l.run.space.Origin()), X: l.run.space.Origin()}}
	if len(h.Hall) > 0 {
		elite = h.Hall
	}
	out := make([]proposal, k)
	for i := range out {
		e := elite[i%len(elite)]
		x := append([]float64(nil), e.X...)
		for j := range x {
			x[j] += l.opt.Sigma * rng.NormFloat64()
		}
		out[i] = proposal{X: clamp01(x), Parents: []string{e.ID}}
	}
	return out
}

// request asks the model for the generation's genomes.
func (l *llmAlgo) request(ctx context.Context, gen int, h history) ([]strategies.Genome, error) {
	seed := int(engine.Mix(l.run.seed, uint64(gen)) >> 33)
	if p := l.run.space.Base.Program; p != nil {
		return l.client.ProposePrograms(ctx, l.Prompt(gen, h), seed, p, l.n, func(msg string) { l.remark(gen, "%s", msg) })
	}
	return l.client.Propose(ctx, l.Prompt(gen, h), seed, l.run.space.Base.Schema, l.n, func(msg string) { l.remark(gen, "%s", msg) })
}

type llmState struct {
	Failures int              `json:"failures"`
	Trend    []llm.Generation `json:"trend,omitempty"`
}

// State returns the count of consecutive failed generations and the
// trend the next prompts show.
func (l *llmAlgo) State() (json.RawMessage, error) {
	return json.Marshal(llmState{Failures: l.failures, Trend: l.trend})
}

// Restore continues from a State.
func (l *llmAlgo) Restore(done int, state json.RawMessage) error {
	var st llmState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("llm: checkpoint state: %w", err)
	}
	l.failures, l.trend = st.Failures, st.Trend
	return nil
}

// Tell records the generation's fitness for the trend; the model sees the
// measured genomes in the next prompt.
func (l *llmAlgo) Tell(gen int, fitness []float64) error {
	if len(fitness) != l.n {
		return fmt.Errorf("llm: told %d fitness values for %d proposals", len(fitness), l.n)
	}
	l.trend = append(l.trend, llm.Generation{Generation: gen, Model: l.fromModel, Fitness: append([]float64(nil), fitness...)})
	if len(l.trend) > llm.TrendRows {
		l.trend = l.trend[len(l.trend)-llm.TrendRows:]
	}
	return nil
}

// observe records, in the last generation of the trend, the base's and
// the leader's fitness after it, read from the history of the next Ask.
func (l *llmAlgo) observe(h history) {
	baseID := l.run.space.ID(l.run.space.Origin())
	for _, e := range h.Entries {
		if e.ID == baseID && e.Games > 0 {
			l.trend = l.trendView(h, e)
			return
		}
	}
}

// Close releases idle connections.
func (l *llmAlgo) Close() error {
	l.client.Close()
	return nil
}

// Prompt builds the request of generation gen (from 0) from the history:
// what llm.Prompt states, read off the search's entries.
func (l *llmAlgo) Prompt(gen int, h history) string {
	s := l.run.space.Base
	in := llm.Input{Strategy: s, Title: l.run.title, Rules: l.run.rules, GameConfig: l.run.gameConfig,
		Show: l.opt.Show, Generation: gen, N: l.n}
	for _, o := range l.run.opponents {
		in.Opponents = append(in.Opponents, llm.Opponent{Name: o.Name, Description: o.Strategy.Description,
			Self: o.Strategy.Game == s.Game && o.Strategy.Name == s.Name && o.VariantID == ""})
	}
	baseID := l.run.space.ID(l.run.space.Origin())
	var base *entry
	var measured []*entry
	for _, e := range h.Entries {
		switch {
		case e.ID == baseID:
			base = e
		case e.Games > 0:
			measured = append(measured, e)
		}
	}
	sortByFitness(measured)
	if base != nil {
		m := l.measured(base)
		in.Base = &m
	}
	for _, e := range measured {
		in.Measured = append(in.Measured, l.measured(e))
	}
	if base != nil && base.Games == 0 {
		base = nil
	}
	in.Trend = l.trendView(h, base)
	return llm.Prompt(in)
}

// measured is an entry as the prompt shows it; the earlier champions
// among its opponents are summed into one row.
func (l *llmAlgo) measured(e *entry) llm.Measured {
	m := llm.Measured{Genome: l.run.space.Genome(e.X), Fitness: e.Fitness, Rate: e.Mean(), Games: e.Games, Generations: e.Evals}
	if len(e.Versus) > 0 {
		m.Versus = map[string]llm.Tally{}
	}
	for name, t := range e.Versus {
		if strings.HasPrefix(name, hallPrefix) {
			name = llm.HallRow
		}
		sum := m.Versus[name]
		sum.Points += t.Points
		sum.Games += t.Games
		m.Versus[name] = sum
	}
	return m
}

// trendView returns the last llm.TrendRows generations, the latest
// completed from h when the next Ask has not yet recorded its base and
// leader.
func (l *llmAlgo) trendView(h history, base *entry) []llm.Generation {
	rows := append([]llm.Generation(nil), l.trend[max(0, len(l.trend)-llm.TrendRows):]...)
	if n := len(rows); n > 0 && !rows[n-1].Seen && base != nil && len(h.Hall) > 0 {
		rows[n-1].Seen, rows[n-1].Base, rows[n-1].Leader = true, base.Fitness, h.Hall[0].Fitness
	}
	return rows
}
