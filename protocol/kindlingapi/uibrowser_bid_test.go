package kindlingapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"crucible/engine/kindling"
	"crucible/protocol/kindlingapi"
)

// A person joins an agent's lobby by its code in the browser; the bid
// editor then refuses illegal bids as they are typed, with a message that
// names the beacon and the problem, and keeps the lock-in button disabled
// (nothing reaches the server); a legal bid is then taken.
func TestBrowserBidEditorRefusesIllegalBids(t *testing.T) {
	base, _ := serveKindling(t)
	client, err := kindlingapi.NewClient(base)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	host, err := client.Create(ctx, kindlingapi.CreateRequest{Name: "host-agent", Seats: 2, TurnSeconds: 60})
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t)
	p.do(chromedp.Navigate(base + "/?poll=200#" + host.Code))
	p.waitFor(`document.getElementById("join-code").value !== ""`, 5*time.Second)
	if got := p.text("join-code"); got != "" {
		t.Fatalf("join-code's text is %q", got) // a value, not text
	}
	if got := eval[string](p, `document.getElementById("join-code").value`); got != host.Code {
		t.Fatalf("the link #%s fills the code field with %q", host.Code, got)
	}
	p.typeInto("join-name", "Grace")
	p.do(chromedp.Click(chromedp.ID("join")))
	p.waitFor(`document.getElementById("turn").textContent === "1" && !document.getElementById("bid-form").hidden`, 10*time.Second)
	kinds := eval[[]string](p, `[...document.querySelectorAll("#players tbody .kind-cell")].map(c => c.textContent)`)
	if strings.Join(kinds, ",") != "Agent,Human" {
		t.Fatalf("players are labelled %v, want Agent, Human", kinds)
	}

	type typed struct {
		bid  [kindling.Beacons]string
		want string // the message, or "" for a legal bid
	}
	for _, tt := range []typed{
		{[5]string{"0", "0", "7", "0", "0"}, "Crown: 7 is more than your 5 sparks"},
		{[5]string{"-1", "0", "0", "0", "0"}, "Fen: -1 is negative (each bid must be 0 or more)"},
		{[5]string{"0", "1.5", "0", "0", "0"}, `Cairn: "1.5" is not a whole number`},
		{[5]string{"0", "0", "0", "x", "0"}, `Tor: "x" is not a whole number`},
		{[5]string{"0", "0", "0", "0", ""}, "Mill: empty; enter a number (0 bids nothing)"},
		{[5]string{"0", "0", "3", "3", "0"}, "Your bids add up to 6, more than your 5 sparks"},
		{[5]string{"1", "0", "3", "1", "0"}, ""},
	} {
		for i, v := range tt.bid {
			p.typeInto(fmt.Sprintf("bid-%d", i), v)
		}
		msg := p.text("bid-error")
		disabled := eval[bool](p, `document.getElementById("lock-in").disabled`)
		if msg != tt.want || disabled != (tt.want != "") {
			t.Errorf("typed %q: the editor says %q with lock-in disabled %v; want %q", tt.bid, msg, disabled, tt.want)
		}
		if tt.want == "" {
			continue
		}
		bad := eval[[]bool](p, `[0,1,2,3,4].map(i => document.getElementById("bid-" + i).classList.contains("bad"))`)
		if !strings.HasPrefix(tt.want, "Your bids") {
			name := strings.SplitN(tt.want, ":", 2)[0]
			for i, n := range kindling.BeaconNames() {
				if bad[i] != (n == name) {
					t.Errorf("typed %q: beacon %s marked bad: %v", tt.bid, n, bad[i])
				}
			}
		}
		if tt.want == "Your bids add up to 6, more than your 5 sparks" {
			p.screenshot("6-illegal-bid.png")
		}
		// Submitting the form (Enter in a field) sends nothing either.
		p.do(chromedp.SendKeys(chromedp.ID("bid-0"), "\r"))
		st, err := client.State(ctx, host.Code, "")
		if err != nil {
			t.Fatal(err)
		}
		if st.Players[1].LockedIn {
			t.Fatalf("typed %q: an illegal bid reached the server", tt.bid)
		}
	}
	p.do(chromedp.Click(chromedp.ID("lock-in")))
	p.waitFor(`document.getElementById("lock-status").className === "locked"`, 5*time.Second)
	st, err := client.State(ctx, host.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	if !st.Players[1].LockedIn || st.Turn != 1 {
		t.Fatalf("after lock-in the server shows seat 1 locked in %v at turn %d", st.Players[1].LockedIn, st.Turn)
	}

	// The editor's rule is the engine's: random typed bids, legal or not,
	// are accepted by the page exactly when kindling.CheckBid accepts them.
	rng := rand.New(rand.NewPCG(7, 16))
	type bidCase struct {
		Texts  []string `json:"texts"`
		Sparks int      `json:"sparks"`
	}
	var cases []bidCase
	var want []bool
	state, err := kindling.NewState(2)
	if err != nil {
		t.Fatal(err)
	}
	for range 400 {
		c := bidCase{Sparks: rng.IntN(kindling.SparkCap + 1)}
		// Half spread at most the sparks held, then one entry of those
		// or of the others is nudged by -1..+2.
		var bid kindling.Bid
		left := c.Sparks
		for i := range bid {
			bid[i] = rng.IntN(left + 1)
			left -= bid[i]
		}
		if rng.IntN(2) == 0 {
			bid[rng.IntN(kindling.Beacons)] += rng.IntN(4) - 1
		}
		for i := range bid {
			c.Texts = append(c.Texts, strconv.Itoa(bid[i]))
		}
		state.Sparks[0] = c.Sparks
		cases = append(cases, c)
		want = append(want, kindling.CheckBid(&state, 0, bid) == nil)
	}
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	got := eval[[]bool](p, fmt.Sprintf(`%s.map(c => Kindling.checkBid(c.texts, c.sparks, []).ok)`, js))
	legal := 0
	for i := range cases {
		if got[i] != want[i] {
			t.Errorf("bid %v with %d sparks: the page says legal %v, the engine %v", cases[i].Texts, cases[i].Sparks, got[i], want[i])
		}
		if want[i] {
			legal++
		}
	}
	if legal < 50 || legal > 350 {
		t.Fatalf("%d of %d random bids are legal: the check needs both kinds", legal, len(cases))
	}
}

// The host of a lobby starts it from the browser, open seats filling with
// house bots; the clock counts down; a reload of the tab keeps the seat.
func TestBrowserHostStartsAndReloadKeepsSeat(t *testing.T) {
	base, _ := serveKindling(t)
	p := newPage(t)
	p.do(chromedp.Navigate(base + "/?poll=200"))
	p.waitFor(`document.getElementById("create-bots").options.length > 0`, 5*time.Second)
	p.typeInto("create-name", "Lin")
	p.choose("create-seats", "3")
	p.choose("create-bots", "0")
	p.typeInto("create-turn-seconds", "20")
	p.do(chromedp.Click(chromedp.ID("create")))
	p.waitFor(`!document.getElementById("lobby").hidden && !document.getElementById("start").hidden`, 5*time.Second)
	if got := p.text("lobby-open"); !strings.HasPrefix(got, "2 open seats") {
		t.Fatalf("the lobby says %q", got)
	}
	p.do(chromedp.Click(chromedp.ID("start")))
	p.waitFor(`document.getElementById("turn").textContent === "1" && document.getElementById("lobby").hidden`, 5*time.Second)
	kinds := eval[[]string](p, `[...document.querySelectorAll("#players tbody .kind-cell")].map(c => c.textContent)`)
	if strings.Join(kinds, ",") != "Human,Bot,Bot" {
		t.Fatalf("after start the players are %v", kinds)
	}
	first := p.number("countdown")
	if first < 18 || first > 20 {
		t.Fatalf("the countdown starts at %d of 20 s", first)
	}
	p.waitFor(fmt.Sprintf(`Number(document.getElementById("countdown").textContent) < %d`, first), 3*time.Second)

	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById("turn").textContent === "1" && !document.getElementById("bid-form").hidden`, 5*time.Second)
	if got := eval[string](p, `document.querySelector("#players tr.you td:nth-child(2)").textContent`); got != "Lin (you)" {
		t.Fatalf("after a reload the page shows you as %q", got)
	}
	p.do(chromedp.Click(chromedp.ID("pass")))
	p.waitFor(`document.getElementById("reveal-title").textContent === "Turn 1 revealed"`, 5*time.Second)
}
