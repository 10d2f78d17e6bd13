package kindlingapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"crucible/engine/kindling"
	"crucible/protocol/kindlingapi"
)

// humanBid is what the test's human types on a turn with sparks: half on
// Crown, the rest spread from Tor, skipping a beacon on odd turns.
func humanBid(turn, sparks int) kindling.Bid {
	var b kindling.Bid
	b[2] = sparks / 2
	left := sparks - b[2]
	for i := 3; left > 0; i = (i + 1 + turn%2) % kindling.Beacons {
		if i == 2 {
			continue
		}
		b[i]++
		left--
	}
	return b
}

// rawLog is the body of GET /api/matches/{code}/log.
func rawLog(t *testing.T, base, code string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/api/matches/" + code + "/log")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET log: %d %v %s", resp.StatusCode, err, b)
	}
	return b
}

// A person plays a whole match in the browser against two house bots while
// an agent (the agent loop of crucible kindling play) takes the fourth
// seat by the code: the UI creates the lobby, shows the players as Human,
// Bot and Agent, takes a typed legal bid every turn, shows each reveal,
// and at the end shows (and offers to download) the log the API serves,
// with the human's bids as typed.
func TestBrowserHumanPlaysMatchWithBotsAndAgent(t *testing.T) {
	base, reg := serveKindling(t)
	p := newPage(t)
	begin := time.Now()

	p.do(chromedp.Navigate(base + "/?poll=200"))
	p.waitFor(`document.getElementById("create-bots").options.length > 0`, 5*time.Second)
	p.typeInto("create-name", "Ada")
	p.choose("create-seats", "4")
	p.choose("create-bots", "2")
	p.typeInto("create-turn-seconds", "30")
	p.screenshot("1-start.png")
	p.do(chromedp.Click(chromedp.ID("create")))
	p.waitFor(`!document.getElementById("lobby").hidden`, 5*time.Second)
	code := p.text("lobby-code")
	if len(code) != 5 || !strings.Contains(p.text("lobby-open"), "1 open seat") {
		t.Fatalf("lobby shows code %q and %q", code, p.text("lobby-open"))
	}
	p.screenshot("2-lobby.png")

	// The agent joins by the code, as `crucible kindling play --join` does.
	client, err := kindlingapi.NewClient(base)
	if err != nil {
		t.Fatal(err)
	}
	sniper, err := reg.Lookup("kindling", "sniper")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	type outcome struct {
		st  kindlingapi.State
		err error
	}
	agentDone := make(chan outcome, 1)
	go func() {
		st, err := kindlingapi.PlayMatch(ctx, kindlingapi.PlayOptions{Client: client, Join: code, Name: "sniper-agent",
			NewBidder: kindlingapi.BidderFactory(sniper, sniper.Schema.Defaults()), Poll: 50 * time.Millisecond})
		agentDone <- outcome{st, err}
	}()

	p.waitFor(`document.getElementById("turn").textContent === "1"`, 10*time.Second)
	wantKinds := []string{"Human", "Bot", "Bot", "Agent"}
	kinds := eval[[]string](p, `[...document.querySelectorAll("#players tbody .kind-cell")].map(c => c.textContent)`)
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Fatalf("players are labelled %v, want %v", kinds, wantKinds)
	}

	typed := make([]kindling.Bid, 0, kindling.Turns)
	var reveal5 [][]string // the reveal of turn 5 as shown
	for turn := 1; turn <= kindling.Turns; turn++ {
		p.waitFor(fmt.Sprintf(`document.getElementById("turn").textContent === "%d" && document.getElementById("lock-in").textContent === "Lock in"`, turn), 10*time.Second)
		sparks := p.number("you-sparks")
		bid := humanBid(turn, sparks)
		for i, v := range bid {
			p.typeInto(fmt.Sprintf("bid-%d", i), fmt.Sprint(v))
		}
		if msg := p.text("bid-error"); msg != "" || eval[bool](p, `document.getElementById("lock-in").disabled`) {
			t.Fatalf("turn %d: the legal bid %v (of %d sparks) is refused: %q", turn, bid, sparks, msg)
		}
		if turn == 4 {
			p.screenshot("3-mid-match-turn4-bid-typed.png")
		}
		p.do(chromedp.Click(chromedp.ID("lock-in")))
		typed = append(typed, bid)
		if turn < kindling.Turns {
			p.waitFor(fmt.Sprintf(`document.getElementById("reveal-title").textContent === "Turn %d revealed"`, turn), 10*time.Second)
		}
		if turn == 5 {
			p.screenshot("4-reveal-turn5.png")
			reveal5 = eval[[][]string](p, `[...document.querySelectorAll("#reveal-table tbody tr")].slice(0, 5).map(r => [...r.cells].map(c => c.textContent))`)
		}
	}
	p.waitFor(`document.getElementById("end").dataset.logReady === "1"`, 10*time.Second)
	p.screenshot("5-end.png")
	t.Logf("the whole match took %v in the browser", time.Since(begin).Round(time.Millisecond))

	agent := <-agentDone
	if agent.err != nil {
		t.Fatalf("the agent: %v", agent.err)
	}

	// The log the page shows, and the one it offers to download, are the
	// API's byte for byte.
	api := rawLog(t, base, code)
	shown := eval[string](p, `document.getElementById("log-json").textContent`)
	if shown != string(api) {
		t.Fatalf("the page shows the log\n%s\nthe API serves\n%s", shown, api)
	}
	downloaded := eval[string](p, `fetch(document.getElementById("download-log").href).then(r => r.text())`, chromedp.EvalAwaitPromise)
	if downloaded != string(api) {
		t.Fatalf("the download link holds\n%s\nthe API serves\n%s", downloaded, api)
	}
	if name := eval[string](p, `document.getElementById("download-log").download`); name != "kindling-"+code+".json" {
		t.Errorf("the download is named %q", name)
	}
	var lg kindling.Log
	if err := json.NewDecoder(bytes.NewReader(api)).Decode(&lg); err != nil {
		t.Fatal(err)
	}
	if len(lg.Turns) != kindling.Turns || lg.Final == nil {
		t.Fatalf("the log has %d turns and final %v", len(lg.Turns), lg.Final)
	}
	for s, want := range []string{"human", "bot", "bot", "agent"} {
		if lg.Players[s].Kind != want {
			t.Errorf("the log's seat %d is a %s, want %s", s, lg.Players[s].Kind, want)
		}
	}
	// The human's bids are what was typed; the log table shows every
	// seat's bids, points and score of every turn as the log has them.
	cells := eval[[][]string](p, `[...document.querySelectorAll("#log-table tbody tr")].map(r => [...r.querySelectorAll(".log-cell")].map(c => c.textContent))`)
	if len(cells) != kindling.Turns {
		t.Fatalf("the log table has %d turns", len(cells))
	}
	for i, r := range lg.Turns {
		if r.Bids[0] != typed[i] {
			t.Errorf("turn %d: the log has the human's bid %v, the human typed %v", i+1, r.Bids[0], typed[i])
		}
		if r.Missed[0] {
			t.Errorf("turn %d: the human is listed as missing it", i+1)
		}
		for s := range lg.Players {
			b := r.Bids[s]
			want := fmt.Sprintf("[%d %d %d %d %d] → +%d (%d)", b[0], b[1], b[2], b[3], b[4], r.Points[s], r.Scores[s])
			if cells[i][s] != want {
				t.Errorf("turn %d seat %d: the log table shows %q, the log has %q", i+1, s, cells[i][s], want)
			}
		}
	}
	// The reveal of turn 5 showed the log's turn 5: values, every seat's
	// bid and strength, and who lit each beacon.
	r5 := lg.Turns[4]
	for i, name := range kindling.BeaconNames() {
		want := []string{name, fmt.Sprint(r5.Values[i])}
		for s := range lg.Players {
			want = append(want, fmt.Sprintf("%d / %d", r5.Bids[s][i], r5.Strength[s][i]))
		}
		if w := r5.Winners[i]; w == kindling.NoWinner {
			want = append(want, "nobody")
		} else {
			want = append(want, fmt.Sprintf("%s (+%d)", lg.Players[w].Name, r5.Values[i]))
		}
		if i >= len(reveal5) || !reflect.DeepEqual(reveal5[i], want) {
			t.Errorf("the reveal of turn 5 showed %v for %s, the log has %v", reveal5, name, want)
		}
	}
	// The standings the page shows are the final state's.
	rows := eval[[]string](p, `[...document.querySelectorAll("#standings tr[data-seat]")].map(r => r.dataset.seat + ":" + r.cells[3].textContent + ":" + r.cells[4].textContent)`)
	var want []string
	for _, s := range lg.Final.Standings {
		want = append(want, fmt.Sprintf("%d:%d:%d", s, lg.Final.Scores[s], lg.Final.Sparks[s]))
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("the standings show %v, the log has %v", rows, want)
	}
	if !reflect.DeepEqual(agent.st.Winners, lg.Final.Winners) {
		t.Errorf("the agent saw winners %v, the log has %v", agent.st.Winners, lg.Final.Winners)
	}
}

// The playUrl an agent gets is the browser page: opened by a person, it
// fills in the match's code, and one click seats them in the lobby.
func TestBrowserOpensPlayURLReadyToJoin(t *testing.T) {
	base, _ := serveKindling(t)
	client, err := kindlingapi.NewClient(base)
	if err != nil {
		t.Fatal(err)
	}
	s, err := client.Create(context.Background(), kindlingapi.CreateRequest{Name: "agent", Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t)
	p.do(chromedp.Navigate(s.PlayURL))
	p.waitFor(fmt.Sprintf(`document.getElementById("join-code").value === %q`, s.Code), 5*time.Second)
	p.do(chromedp.Click(chromedp.ID("join")))
	p.waitFor(`!document.getElementById("lobby").hidden`, 5*time.Second)
	st, err := client.State(context.Background(), s.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Players) != 2 || st.Players[1].Kind != kindlingapi.KindHuman {
		t.Fatalf("after the click the lobby seats %+v, want the agent and a human", st.Players)
	}
}
