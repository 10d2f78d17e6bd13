package acbhttp

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The routes of the bot server and the JSON bodies of its 404 and 405
// replies, with the Allow header a 405 names.
func TestServerRoutesAndErrorBodies(t *testing.T) {
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory})
	tests := []struct {
		method, path string
		status       int
		allow        string
		body         string // the exact reply body
	}{
		{"GET", "/health", 200, "", "ok\n"},
		{"HEAD", "/health", 200, "", ""},
		{"POST", "/health", 405, "GET, HEAD", `{"error":"use GET /health"}` + "\n"},
		{"DELETE", "/health", 405, "GET, HEAD", `{"error":"use GET /health"}` + "\n"},
		{"GET", "/turn", 405, "POST", `{"error":"use POST /turn"}` + "\n"},
		{"PUT", "/turn", 405, "POST", `{"error":"use POST /turn"}` + "\n"},
		{"GET", "/", 404, "", `{"error":"this bot serves GET /health and POST /turn"}` + "\n"},
		{"POST", "/moves", 404, "", `{"error":"this bot serves GET /health and POST /turn"}` + "\n"},
		{"POST", "/turn/", 404, "", `{"error":"this bot serves GET /health and POST /turn"}` + "\n"},
		{"GET", "/health/x", 404, "", `{"error":"this bot serves GET /health and POST /turn"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(""))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || string(body) != tt.body {
				t.Fatalf("%s %s = %d %q, want %d %q", tt.method, tt.path, resp.StatusCode, body, tt.status, tt.body)
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Fatalf("Allow = %q, want %q", got, tt.allow)
			}
			if tt.status >= 400 {
				if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
					t.Fatalf("Content-Type = %q, want application/json", ct)
				}
				var e struct{ Error string }
				if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
					t.Fatalf("error body %q is not {\"error\": ...}", body)
				}
			}
		})
	}
}
