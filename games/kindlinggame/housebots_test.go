package kindlinggame

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"crucible/engine/kindling"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
)

// kindling serve --bot-variant FILE seats the variant as the house bots of
// --bot-variant-level, named by its label; the other level keeps its
// strategy. A variant of the other game or a level that is not one is
// refused.
func TestKindlingServeBotVariant(t *testing.T) {
	reg, err := testEnv.Registry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := reg.Lookup(Name, "sniper")
	if err != nil {
		t.Fatal(err)
	}
	g := s.Schema.Defaults()
	g[0] = s.Schema[0].Max
	v := strategies.NewVariant(s, g)
	path := filepath.Join(t.TempDir(), "champion.json")
	if err := v.Save(path); err != nil {
		t.Fatal(err)
	}
	house, labels, err := serveHouseBots(reg, serveOptions{botVariant: path, botVariantAt: "easy"})
	if err != nil {
		t.Fatal(err)
	}
	if labels["easy"] != v.Label() || labels["normal"] != "" {
		t.Fatalf("labels %v, want easy: %s", labels, v.Label())
	}
	// The easy bots decide as the variant does, the normal ones as normal.
	normal, err := reg.Lookup(Name, "normal")
	if err != nil {
		t.Fatal(err)
	}
	st, err := kindling.NewState(3)
	if err != nil {
		t.Fatal(err)
	}
	var view kindling.View
	var bids [kindling.MaxSeats]kindling.Bid
	var last *kindling.TurnRecord
	bots := map[string][2]kindling.Bidder{}
	for level, want := range map[string]any{"easy": s.New(g, 9, 1), "normal": normal.New(normal.Schema.Defaults(), 9, 1)} {
		b, err := house(level, 9, 1)
		if err != nil {
			t.Fatal(err)
		}
		bots[level] = [2]kindling.Bidder{b, want.(kindling.Bidder)}
	}
	for !st.Finished {
		view.Fill(&st, 1, last)
		for level, pair := range bots {
			var got, want kindling.Bid
			pair[0].Bid(&view, &got)
			pair[1].Bid(&view, &want)
			if got != want {
				t.Fatalf("turn %d: the %s house bot bids %v, its strategy %v", st.Turn, level, got, want)
			}
			if level == "normal" {
				bids[1] = want
			}
		}
		rec, err := kindling.Resolve(&st, &bids, nil)
		if err != nil {
			t.Fatal(err)
		}
		last = &rec
	}

	srv, err := kindlingapi.NewServer(kindlingapi.ServerConfig{HouseBot: house, BotLabels: labels})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client, err := kindlingapi.NewClient(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	for level, want := range map[string]string{"easy": "Bot 1 (" + v.Label() + ")", "normal": "Bot 1 (normal)"} {
		seated, err := client.Create(context.Background(), kindlingapi.CreateRequest{Name: "me", Seats: 2, Bots: 1, BotLevel: level, TurnSeconds: 30})
		if err != nil {
			t.Fatal(err)
		}
		if got := seated.State.Players[1]; got.Name != want || got.Kind != kindlingapi.KindBot {
			t.Errorf("botLevel %s seats %q (%s), want %q", level, got.Name, got.Kind, want)
		}
	}
	for _, tt := range []struct {
		o    serveOptions
		want string
	}{
		{serveOptions{botVariant: path, botVariantAt: "expert"}, `--bot-variant-level "expert" is not normal, easy or hard`},
		{serveOptions{botVariant: filepath.Join(t.TempDir(), "none.json")}, "--bot-variant: "},
		// Issue 20 (low): a level without a variant was silently accepted.
		{serveOptions{botVariantAt: "hard"}, `--bot-variant-level "hard" without --bot-variant`},
		{serveOptions{botVariantAt: "easy"}, `--bot-variant-level "easy" without --bot-variant`},
	} {
		if _, _, err := serveHouseBots(reg, tt.o); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.o, err, tt.want)
		}
	}
}

// The server's house bot of level hard is the crowded-table bidder crowd
// at its defaults: it bids as crowd does with the same seed.
func TestHardHouseBotIsCrowd(t *testing.T) {
	reg, err := testEnv.Registry()
	if err != nil {
		t.Fatal(err)
	}
	house, err := kindlingapi.HouseBots(reg)
	if err != nil {
		t.Fatal(err)
	}
	crowd, err := reg.Lookup(Name, "crowd")
	if err != nil {
		t.Fatal(err)
	}
	got, err := house("hard", 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := crowd.New(crowd.Schema.Defaults(), 5, 2).(kindling.Bidder)
	st, err := kindling.NewState(4)
	if err != nil {
		t.Fatal(err)
	}
	var last *kindling.TurnRecord
	for turn := 1; turn <= kindling.Turns; turn++ {
		var v kindling.View
		v.Fill(&st, 2, last)
		var a, b kindling.Bid
		got.Bid(&v, &a)
		want.Bid(&v, &b)
		if a != b {
			t.Fatalf("turn %d: the hard house bot bid %v, crowd %v", turn, a, b)
		}
		bids := [kindling.MaxSeats]kindling.Bid{{0, 0, 2, 1, 0}, {1, 1, 1, 1, 1}, a, {0, 0, 0, 3, 2}}
		rec, err := kindling.Resolve(&st, &bids, nil)
		if err != nil {
			t.Fatal(err)
		}
		last = &rec
	}
	if _, err := house("expert", 5, 2); err == nil || !strings.Contains(err.Error(), `"expert" is not normal, easy or hard`) {
		t.Fatalf("level expert: %v", err)
	}
}
