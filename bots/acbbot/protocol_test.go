package acbbot_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"crucible/bots"
	"crucible/protocol/acbhttp"
)

// TestExamplesSpeakTheProtocol sends the example bots, running as the
// manager starts them, the requests of the seed's checklist: a correctly
// signed turn is answered 200 with a reply signed over its exact bytes;
// a missing header, a timestamp 31 s off, a wrong signature, a body
// changed after signing, or a body whose match_id differs from the header
// is refused with 401 (authentication) or 400 (body), as the seed says;
// GET /health answers 200.
func TestExamplesSpeakTheProtocol(t *testing.T) {
	needPython(t)
	for _, tc := range []struct {
		name string
		m    func() *bots.Manifest
	}{{"acb-python", func() *bots.Manifest { return loadExample(t, "acb-python") }}, {"acb-go", func() *bots.Manifest { return goBot(t) }}} {
		t.Run(tc.name, func(t *testing.T) {
			mgr := newManager(t)
			l, err := mgr.Lease(context.Background(), tc.m().Own().Spec())
			if err != nil {
				t.Fatal(err)
			}
			defer l.Release()
			url, secret := l.Endpoint()
			if resp, err := http.Get(url + "/health"); err != nil || resp.StatusCode != 200 {
				t.Fatalf("GET /health: %v %v", resp, err)
			}
			body := []byte(`{"match_id":"m1","turn":0,"config":{"rows":16,"cols":16,"max_turns":10,"vision_radius2":49,"attack_radius2":25,"spawn_cost":3,"energy_interval":10,"cores_per_player":1,"turn_timeout":3000000000},` +
				`"you":{"id":0,"energy":0,"score":0},"bots":[{"position":{"row":2,"col":2},"owner":0}],"energy":[{"row":2,"col":5}],` +
				`"cores":[{"position":{"row":2,"col":2},"owner":0,"active":true}],"walls":[{"row":3,"col":2}],"dead":[]}`)
			now := strconv.FormatInt(time.Now().Unix(), 10)
			type req struct {
				rule    string
				headers map[string]string
				body    []byte
				status  int
			}
			good := func() map[string]string {
				return map[string]string{
					acbhttp.HeaderMatchID: "m1", acbhttp.HeaderTurn: "0", acbhttp.HeaderTimestamp: now, acbhttp.HeaderBotID: "seat0",
					acbhttp.HeaderSignature: acbhttp.SignRequest(secret, "m1", "0", now, body),
				}
			}
			with := func(k, v string) map[string]string {
				h := good()
				if v == "" {
					delete(h, k)
				} else {
					h[k] = v
				}
				return h
			}
			old := strconv.FormatInt(time.Now().Unix()-31, 10)
			otherMatch := bytes.Replace(body, []byte(`"m1"`), []byte(`"m2"`), 1)
			tests := []req{
				{"a signed turn", good(), body, 200},
				{"no signature", with(acbhttp.HeaderSignature, ""), body, 401},
				{"no bot id", with(acbhttp.HeaderBotID, ""), body, 401},
				{"a timestamp 31 s old", func() map[string]string {
					h := with(acbhttp.HeaderTimestamp, old)
					h[acbhttp.HeaderSignature] = acbhttp.SignRequest(secret, "m1", "0", old, body)
					return h
				}(), body, 401},
				{"another secret", with(acbhttp.HeaderSignature, acbhttp.SignRequest("not-the-secret", "m1", "0", now, body)), body, 401},
				{"a body changed after signing", good(), append(bytes.Clone(body[:len(body)-1]), []byte(` }`)...), 401},
				{"a body of another match", with(acbhttp.HeaderSignature, acbhttp.SignRequest(secret, "m1", "0", now, otherMatch)), otherMatch, 400},
			}
			for _, rq := range tests {
				r, _ := http.NewRequest(http.MethodPost, url+"/turn", bytes.NewReader(rq.body))
				for k, v := range rq.headers {
					r.Header.Set(k, v)
				}
				resp, err := http.DefaultClient.Do(r)
				if err != nil {
					t.Fatalf("%s: %v", rq.rule, err)
				}
				reply, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != rq.status {
					t.Fatalf("%s: status %d (%s), want %d", rq.rule, resp.StatusCode, reply, rq.status)
				}
				if rq.status != 200 {
					continue
				}
				if err := acbhttp.VerifySignature(secret, acbhttp.ResponsePayload("m1", "0", reply), resp.Header.Get(acbhttp.HeaderSignature)); err != nil {
					t.Fatalf("reply %s: %v", reply, err)
				}
				moves, _, err := acbhttp.ParseOrders(reply, nil)
				if err != nil || len(moves) != 1 {
					t.Fatalf("reply %s: moves %v, %v; want the unit on its core to step off it", reply, moves, err)
				}
			}
		})
	}
}
