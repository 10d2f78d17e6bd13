// Package llm asks an OpenAI-compatible language model for genomes of a
// strategy: the client (Client: retries with backoff, JSON mode with a
// fall back to plain text), the prompt (Prompt: the game, the strategy,
// what the search measured) and the reply parser (ParseReply: replies as
// real models write them). It knows nothing of the search that uses it:
// the evolver's llm algorithm hands it an Input and takes the genomes.
package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"crucible/strategies"
)

// Options configure a Client. Zero fields take the documented defaults.
type Options struct {
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
	// Attempts is how many requests Propose makes before it gives up
	// (default 3).
	Attempts int
	// Backoff is the wait before the second attempt; it doubles for each
	// further one (default 1s).
	Backoff time.Duration
	// Temperature is the sampling temperature (default 0.7).
	Temperature float32
	// HTTPClient is the client requests go through (default a new one).
	HTTPClient *http.Client
}

// WithDefaults returns o with its zero fields set to their defaults.
func (o Options) WithDefaults() Options {
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
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	return o
}

// Client asks a model for genomes. Requests ask for JSON mode
// (response_format json_object); a server that refuses it is asked again
// at once, and from then on, for plain text.
type Client struct {
	opt    Options
	client *openai.Client
	// plainText is set once the server refused JSON mode.
	plainText bool
}

// NewClient returns a client with the options (their zero fields at the
// defaults).
func NewClient(opt Options) (*Client, error) {
	opt = opt.WithDefaults()
	if opt.Attempts < 1 {
		return nil, fmt.Errorf("llm: attempts %d is below 1", opt.Attempts)
	}
	cfg := openai.DefaultConfig(opt.APIKey)
	cfg.BaseURL = strings.TrimRight(opt.BaseURL, "/")
	cfg.HTTPClient = opt.HTTPClient
	return &Client{opt: opt, client: openai.NewClientWithConfig(cfg)}, nil
}

// Propose sends the prompt and returns the genomes of the first usable
// reply (at most n of schema, see ParseReply), retrying with backoff. Each
// remark (a rejected genome, a failed attempt, the switch to plain text)
// goes to note. seed is the request's sampling seed. It returns ctx.Err()
// when ctx ends, and the last attempt's error when every attempt failed.
func (c *Client) Propose(ctx context.Context, prompt string, seed int, schema strategies.Schema, n int, note func(string)) ([]strategies.Genome, error) {
	return c.propose(ctx, System, prompt, seed, func(reply []byte) ([]strategies.Genome, []string, error) {
		return ParseReply(reply, schema, n)
	}, note)
}

// ProposePrograms is Propose for a program strategy: the prompt is a
// ProgramPrompt and the replies are read by ParseProgramReply.
func (c *Client) ProposePrograms(ctx context.Context, prompt string, seed int, prog *strategies.Program, n int, note func(string)) ([]strategies.Genome, error) {
	return c.propose(ctx, ProgramSystem, prompt, seed, func(reply []byte) ([]strategies.Genome, []string, error) {
		return ParseProgramReply(reply, prog, n)
	}, note)
}

// propose sends the prompt and reads the first usable reply with parse.
func (c *Client) propose(ctx context.Context, system, prompt string, seed int, parse func([]byte) ([]strategies.Genome, []string, error), note func(string)) ([]strategies.Genome, error) {
	req := openai.ChatCompletionRequest{
		Model: c.opt.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: prompt},
		},
		Temperature: c.opt.Temperature,
		Seed:        &seed,
	}
	if !c.plainText {
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	var last error
	wait := c.opt.Backoff
	for attempt := 1; attempt <= c.opt.Attempts; attempt++ {
		if attempt > 1 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		resp, err := c.complete(ctx, req)
		if err != nil && req.ResponseFormat != nil && refusesJSONMode(err) {
			// Some OpenAI-compatible servers know no JSON mode: ask them
			// for text, which the parser reads as well.
			c.plainText, req.ResponseFormat = true, nil
			note(fmt.Sprintf("the server refuses JSON mode (%v): asking for plain text from now on", describeRequestError(err, c.opt.Timeout)))
			resp, err = c.complete(ctx, req)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch {
		case err != nil:
			last = describeRequestError(err, c.opt.Timeout)
		case len(resp.Choices) == 0:
			last = errors.New("reply has no choices")
		case resp.Choices[0].FinishReason == openai.FinishReasonLength && resp.Choices[0].Message.Content == "":
			last = errors.New("reply was cut at the token limit before any answer")
		default:
			gs, notes, perr := parse([]byte(resp.Choices[0].Message.Content))
			for _, n := range notes {
				note(n)
			}
			if perr == nil {
				return gs, nil
			}
			last = perr
		}
		note(fmt.Sprintf("attempt %d of %d: %v", attempt, c.opt.Attempts, last))
	}
	return nil, last
}

// Close releases idle connections.
func (c *Client) Close() { c.opt.HTTPClient.CloseIdleConnections() }

// complete sends one request, bounded by the timeout.
func (c *Client) complete(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	rctx, cancel := context.WithTimeout(ctx, c.opt.Timeout)
	defer cancel()
	return c.client.CreateChatCompletion(rctx, req)
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
