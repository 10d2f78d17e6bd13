package httpguard_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"crucible/protocol/httpguard"
)

// A server that reads small JSON bodies: 8 at once, 2 from one address,
// half of them kept for requests that carry a key, each within a second.
func Example() {
	slots, err := httpguard.NewSlots(httpguard.SlotsConfig{Max: 8, Reserved: 4, PerAddr: 2})
	if err != nil {
		panic(err)
	}
	bodies := httpguard.Bodies{Slots: slots, Timeout: time.Second, Max: 1 << 10}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		body, err := bodies.Read(w, r, r.Header.Get("X-Key") == "known")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Write(body)
	})
	h := httpguard.Wrap(mux, time.Second, slog.New(slog.DiscardHandler), func(w http.ResponseWriter) {
		http.Error(w, "internal error", http.StatusInternalServerError)
	})
	ts := httptest.NewServer(h)
	defer ts.Close()
	for _, body := range []string{`{"a":1}`, strings.Repeat("x", 2<<10)} {
		resp, err := http.Post(ts.URL+"/echo", "application/json", strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		reply, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%d %s", resp.StatusCode, reply)
	}
	// Output:
	// 200 {"a":1}400 body is over 1024 bytes
}
