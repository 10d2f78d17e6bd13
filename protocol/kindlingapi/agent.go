package kindlingapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"

	"crucible/engine/kindling"
)

// Client talks to a Kindling server's JSON API (ours or the public one).
type Client struct {
	// BaseURL is the server, e.g. "https://kindling.adamhaleworks.workers.dev"
	// or "http://127.0.0.1:8787".
	BaseURL string
	// HTTP carries the requests; nil means a client with a 15 s timeout.
	HTTP *http.Client
}

// NewClient returns a client of the server at baseURL.
func NewClient(baseURL string) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("server URL %q is not an http:// or https:// URL with a host", baseURL)
	}
	return &Client{BaseURL: strings.TrimSuffix(baseURL, "/"), HTTP: &http.Client{Timeout: 15 * time.Second}}, nil
}

// APIError is an error reply of the server: its status and the
// {"error","hint"} body.
type APIError struct {
	Status int
	Body   ErrorBody
}

// Error says what the server answered.
func (e *APIError) Error() string {
	if e.Body.Hint != "" {
		return fmt.Sprintf("server answered %d: %s (hint: %s)", e.Status, e.Body.Error, e.Body.Hint)
	}
	return fmt.Sprintf("server answered %d: %s", e.Status, e.Body.Error)
}

// do sends one request and decodes a 2xx JSON reply into out.
func (c *Client) do(ctx context.Context, method, path, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("%s %s: reading the reply: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &APIError{Status: resp.StatusCode}
		if json.Unmarshal(data, &e.Body) != nil || e.Body.Error == "" {
			e.Body.Error = strings.TrimSpace(string(data))
		}
		return e
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil // an empty 2xx reply (204) leaves out as it was
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decoding the reply: %w", method, path, err)
	}
	return nil
}

// Create creates a match and takes seat 0 as host.
func (c *Client) Create(ctx context.Context, req CreateRequest) (Seated, error) {
	var out Seated
	err := c.do(ctx, http.MethodPost, "/api/matches", "", req, &out)
	return out, err
}

// Join takes the next open seat of a lobby.
func (c *Client) Join(ctx context.Context, code string, req JoinRequest) (Seated, error) {
	var out Seated
	err := c.do(ctx, http.MethodPost, "/api/matches/"+url.PathEscape(code)+"/join", "", req, &out)
	return out, err
}

// State fetches the state as the token's seat sees it (a spectator's with
// an empty token).
func (c *Client) State(ctx context.Context, code, token string) (State, error) {
	var out State
	err := c.do(ctx, http.MethodGet, "/api/matches/"+url.PathEscape(code), token, nil, &out)
	return out, err
}

// Log fetches the match's replay.
func (c *Client) Log(ctx context.Context, code string) (kindling.Log, error) {
	var out kindling.Log
	err := c.do(ctx, http.MethodGet, "/api/matches/"+url.PathEscape(code)+"/log", "", nil, &out)
	return out, err
}

// Agent plays one seat of a match with a Bidder: the seed's loop.
type Agent struct {
	// Client is the server.
	Client *Client
	// Code and Token identify the match and the seat.
	Code, Token string
	// Bidder decides the moves.
	Bidder kindling.Bidder
	// Poll is the pause between polls (default 1 s, as the seed asks).
	Poll time.Duration
	// MaxBackoff caps the pause after errors, which doubles from Poll with
	// every consecutive error (default 30 s); MaxErrors consecutive errors
	// end the loop (default 20). A failed poll, start or move is an error;
	// a 409 to a move is not (the turn moved on: the next poll shows it).
	// A round whose poll, and move if one was due, succeed resets the count.
	MaxBackoff time.Duration
	MaxErrors  int
	// StartAfter, when positive, makes the host start the match (open
	// seats filled with house bots) once it has waited this long in the
	// lobby.
	StartAfter time.Duration
	// Logf, when set, receives a line per move and per error.
	Logf func(format string, args ...any)
}

// Play runs the loop until the match is finished and returns its final
// state: poll the state; when the version is unchanged, wait; when
// you.canMove and this turn has no move yet, convert the state into the
// Bidder's View, ask it, and send {"bids", "turn"}; back off on errors;
// stop when the phase is finished.
func (a *Agent) Play(ctx context.Context) (State, error) {
	poll := a.Poll
	if poll <= 0 {
		poll = time.Second
	}
	maxBackoff := a.MaxBackoff
	if maxBackoff <= 0 {
		maxBackoff = 30 * time.Second
	}
	maxErrors := a.MaxErrors
	if maxErrors <= 0 {
		maxErrors = 20
	}
	logf := a.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	began := time.Now()
	var (
		lastVersion int64 = -1
		movedTurn         = 0
		errs              = 0
		backoff           = poll
		view        kindling.View
	)
	sleep := func(d time.Duration) error {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		}
	}
	fail := func(err error) error {
		errs++
		if errs >= maxErrors {
			return fmt.Errorf("match %s: giving up after %d consecutive errors, the last: %w", a.Code, errs, err)
		}
		logf("match %s: %v (retrying in %v)", a.Code, err, backoff)
		if e := sleep(backoff); e != nil {
			return e
		}
		backoff = min(2*backoff, maxBackoff)
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return State{}, err
		}
		st, err := a.Client.State(ctx, a.Code, a.Token)
		if err != nil {
			var apiErr *APIError
			if errors.As(err, &apiErr) && (apiErr.Status == http.StatusNotFound || apiErr.Status == http.StatusUnauthorized) {
				return State{}, fmt.Errorf("match %s: %w", a.Code, err)
			}
			if e := fail(err); e != nil {
				return State{}, e
			}
			continue
		}
		if st.Phase == PhaseFinished {
			return st, nil
		}
		if st.Phase == PhaseLobby && a.StartAfter > 0 && time.Since(began) >= a.StartAfter && st.You != nil && st.You.Seat == st.Host {
			// Any 2xx starts it; the reply's shape is not the seed's business.
			if err := a.Client.do(ctx, http.MethodPost, a.path("/start"), a.Token, struct{}{}, nil); err != nil {
				if e := fail(fmt.Errorf("starting the match: %w", err)); e != nil {
					return State{}, e
				}
				continue
			}
			errs, backoff = 0, poll
			logf("match %s: started, open seats filled with house bots", a.Code)
			continue
		}
		if st.Version != lastVersion {
			lastVersion = st.Version
			if st.Phase == PhasePlaying && st.You != nil && st.You.CanMove && movedTurn != st.Turn {
				if err := st.View(&view); err != nil {
					if e := fail(fmt.Errorf("state of turn %d: %w", st.Turn, err)); e != nil {
						return State{}, e
					}
					continue
				}
				if err := st.LastTurnError(); err != nil {
					logf("match %s: turn %d: bidding without the last turn, which could not be read: %v", a.Code, st.Turn, err)
				}
				bid := a.decide(&view)
				// Any 2xx takes the move, whatever the reply holds.
				err := a.Client.do(ctx, http.MethodPost, a.path("/bids"), a.Token, BidRequest{Bids: bid, Turn: &st.Turn}, nil)
				var apiErr *APIError
				switch {
				case err == nil:
					movedTurn = st.Turn
					logf("match %s: turn %d bid %v", a.Code, st.Turn, bid)
				case errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict:
					// The turn resolved meanwhile: the next poll, after the
					// usual pause, shows the new one (or the same turn, and
					// the move is sent again).
					logf("match %s: turn %d moved on before the move arrived: %v", a.Code, st.Turn, err)
					lastVersion = -1
				default:
					// Errors count until a whole round (poll and move)
					// succeeds, so a move that keeps failing backs off and
					// ends the loop after MaxErrors.
					lastVersion = -1
					if e := fail(err); e != nil {
						return State{}, e
					}
					continue
				}
			}
		}
		errs, backoff = 0, poll
		if err := sleep(poll); err != nil {
			return State{}, err
		}
	}
}

// path returns the API path of the agent's match plus suffix.
func (a *Agent) path(suffix string) string {
	return "/api/matches/" + url.PathEscape(a.Code) + suffix
}

// decide asks the Bidder, passing when it panics or bids illegally (a
// pass keeps the sparks and never draws a 400).
func (a *Agent) decide(v *kindling.View) (bid kindling.Bid) {
	defer func() {
		if recover() != nil {
			bid = kindling.Bid{}
		}
	}()
	a.Bidder.Bid(v, &bid)
	sum := 0
	for _, b := range bid {
		if b < 0 {
			return kindling.Bid{}
		}
		sum += b
	}
	if sum > v.Budget() {
		return kindling.Bid{}
	}
	return bid
}

// PlayOptions configures PlayMatch.
type PlayOptions struct {
	// Client is the server.
	Client *Client
	// Join is the code of a lobby to join; empty creates a match with
	// Create (Create.Name defaults to Name).
	Join   string
	Create CreateRequest
	// Name is the seat's name (1 to 32 printable characters).
	Name string
	// NewBidder builds the Bidder once the seat is known.
	NewBidder func(code string, seat int) (kindling.Bidder, error)
	// Poll, StartAfter and Logf are passed to the Agent.
	Poll       time.Duration
	StartAfter time.Duration
	Logf       func(format string, args ...any)
	// Seated, when set, is called once the seat is taken (to print the
	// code others can join).
	Seated func(Seated)
}

// PlayMatch takes a seat (creating a match or joining one), plays it to
// the end with an Agent and returns the final state.
func PlayMatch(ctx context.Context, o PlayOptions) (State, error) {
	var (
		s   Seated
		err error
	)
	if o.Join != "" {
		s, err = o.Client.Join(ctx, o.Join, JoinRequest{Name: o.Name})
	} else {
		req := o.Create
		if req.Name == "" {
			req.Name = o.Name
		}
		s, err = o.Client.Create(ctx, req)
	}
	if err != nil {
		return State{}, err
	}
	if o.Seated != nil {
		o.Seated(s)
	}
	b, err := o.NewBidder(s.Code, s.Seat)
	if err != nil {
		return State{}, err
	}
	a := &Agent{Client: o.Client, Code: s.Code, Token: s.Token, Bidder: b, Poll: o.Poll, StartAfter: o.StartAfter, Logf: o.Logf}
	return a.Play(ctx)
}

// WriteStandings prints a finished state's standings: a title line, a
// table of one seat a row in standings order, then the winners.
func WriteStandings(w io.Writer, st State) error {
	rows := make([][]string, 0, len(st.Standings))
	place := 0
	for i, seat := range st.Standings {
		if seat < 0 || seat >= len(st.Players) {
			return fmt.Errorf("standings list seat %d of %d players", seat, len(st.Players))
		}
		p := st.Players[seat]
		if i == 0 || !sameKey(st.Players[st.Standings[i-1]], p) {
			place = i + 1
		}
		you := ""
		if st.You != nil && st.You.Seat == seat {
			you = " (you)"
		}
		rows = append(rows, []string{strconv.Itoa(place), strconv.Itoa(seat), p.Name + you, p.Kind, strconv.Itoa(p.Score), strconv.Itoa(p.Sparks)})
	}
	if _, err := fmt.Fprintf(w, "match %s (%s, turn %d of %d)\n", st.Code, st.Phase, st.Turn, st.Turns); err != nil {
		return err
	}
	t := tablewriter.NewWriter(w)
	t.Header("place", "seat", "name", "kind", "score", "sparks left")
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	var names []string
	for _, s := range st.Winners {
		if s >= 0 && s < len(st.Players) {
			names = append(names, fmt.Sprintf("seat %d (%s)", s, st.Players[s].Name))
		}
	}
	var err error
	switch len(names) {
	case 0:
	case 1:
		_, err = fmt.Fprintf(w, "winner: %s\n", names[0])
	default:
		_, err = fmt.Fprintf(w, "shared win: %s\n", strings.Join(names, ", "))
	}
	return err
}

func sameKey(a, b Player) bool { return a.Score == b.Score && a.Sparks == b.Sparks }
