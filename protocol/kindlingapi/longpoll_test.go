package kindlingapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"crucible/engine/kindling"
)

// The long poll (GET /api/matches/{code}?wait=S&version=V) answers once
// the match's version differs from V: a poll sent before the host's bid
// comes back with the bid locked in; a poll at the current version with
// nothing happening comes back after its wait with the same version; and
// malformed parameters are refused naming the parameter.
func TestLongPoll(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	host := create(t, ts.URL, CreateRequest{Name: "A", Seats: 2, Bots: 0})
	guest := join(t, ts.URL, host.Code, "B")
	// The match starts once its seats are full.
	before := getState(t, ts.URL, host.Code, guest.Token)

	type reply struct {
		st  State
		err error
	}
	got := make(chan reply, 1)
	go func() {
		url := fmt.Sprintf("%s/api/matches/%s?wait=20&version=%d", ts.URL, host.Code, before.Version)
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+guest.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- reply{err: err}
			return
		}
		defer resp.Body.Close()
		var st State
		err = json.NewDecoder(resp.Body).Decode(&st)
		got <- reply{st, err}
	}()
	if st, b := bid(t, ts.URL, host.Code, host.Token, kindling.Bid{1, 0, 0, 0, 0}, 1); st != http.StatusOK {
		t.Fatalf("bid: %d %s", st, b)
	}
	r := <-got
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.st.Version == before.Version || !r.st.Players[0].LockedIn {
		t.Errorf("the long poll answered version %d (sent %d), host locked in %v; want the state after the host's bid", r.st.Version, before.Version, r.st.Players[0].LockedIn)
	}

	now := getState(t, ts.URL, host.Code, guest.Token)
	st, b := call(t, http.MethodGet, fmt.Sprintf("%s/api/matches/%s?wait=1&version=%d", ts.URL, host.Code, now.Version), guest.Token, nil)
	var same State
	if st != http.StatusOK || json.Unmarshal(b, &same) != nil || same.Version != now.Version {
		t.Errorf("a long poll with nothing happening: %d %s; want the same version %d after the wait", st, b, now.Version)
	}

	for _, tc := range []struct{ query, want string }{
		{"wait=x&version=1", "wait=x is"},
		{"wait=-1&version=1", "wait=-1 is"},
		{"wait=5", "needs both wait and version"},
		{"wait=5&version=v", "version=v is"},
	} {
		st, b := call(t, http.MethodGet, ts.URL+"/api/matches/"+host.Code+"?"+tc.query, guest.Token, nil)
		if st != http.StatusBadRequest || !strings.Contains(string(b), tc.want) {
			t.Errorf("?%s: %d %s; want 400 naming %s", tc.query, st, b, tc.want)
		}
	}
}
