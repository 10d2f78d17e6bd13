// Command acb-go is a small AI Code Battle bot in Go with the standard
// library only, started the way the platform's own bots are: it listens
// on BOT_PORT and signs with BOT_SECRET (crucible sets these and the
// seed's PORT and SHARED_SECRET; this bot reads only the platform's
// spelling, so that it shows that spelling works). GET /health answers
// 200; POST /turn verifies the engine's HMAC-SHA256 signature over
// "{match_id}.{turn}.{timestamp}.{sha256_hex(body)}", computes moves and
// signs its reply over "{match_id}.{turn}.{sha256_hex(reply)}", as the
// seed's protocol says (../../../shared/specs/acb.md).
//
// It plays the strategy of ../acb-python (the same two parameters, gather
// and wave, read from CRUCIBLE_PARAMS or CRUCIBLE_PARAM_GATHER and
// CRUCIBLE_PARAM_WAVE), which lives in ./strategy: a Go bot served over
// HTTP, for the lab's overhead figures and as a starting point (a copy
// outside this module changes the strategy import's path). Build it with
//
//	go build -o acb-go ./examples/acb-go
//
// and point bot.json's command at the binary.
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"time"

	"crucible/examples/acb-go/strategy"
)

// server answers the engine's turns for one strategy.Bot, signed with
// secret.
type server struct {
	bot    *strategy.Bot
	secret []byte
}

func sign(secret []byte, payload string) string {
	m := hmac.New(sha256.New, secret)
	io.WriteString(m, payload)
	return hex.EncodeToString(m.Sum(nil))
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

var headers = []string{"X-ACB-Match-Id", "X-ACB-Turn", "X-ACB-Timestamp", "X-ACB-Bot-Id", "X-ACB-Signature"}

func (b *server) serveTurn(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err != nil {
		fail(w, 400, "reading the body failed")
		return
	}
	for _, h := range headers {
		if r.Header.Get(h) == "" {
			fail(w, 401, "header "+h+" is missing")
			return
		}
	}
	matchID, turn, ts := r.Header.Get("X-ACB-Match-Id"), r.Header.Get("X-ACB-Turn"), r.Header.Get("X-ACB-Timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if d := time.Now().Unix() - sec; err != nil || d > 30 || d < -30 {
		fail(w, 401, "timestamp outside the 30 s window")
		return
	}
	got, err := hex.DecodeString(r.Header.Get("X-ACB-Signature"))
	want := hmac.New(sha256.New, b.secret)
	io.WriteString(want, matchID+"."+turn+"."+ts+"."+sha(body))
	if err != nil || len(got) != sha256.Size || !hmac.Equal(got, want.Sum(nil)) {
		fail(w, 401, "signature does not match")
		return
	}
	var s strategy.State
	if err := json.Unmarshal(body, &s); err != nil || s.MatchID != matchID || strconv.Itoa(s.Turn) != turn || s.Config.Rows < 1 || s.Config.Cols < 1 {
		fail(w, 400, "body is not the game state of the headers' match and turn")
		return
	}
	out, _ := json.Marshal(map[string][]strategy.Move{"moves": b.bot.Turn(&s)})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-ACB-Signature", sign(b.secret, matchID+"."+turn+"."+sha(out)))
	w.Write(out)
}

func main() {
	secret := os.Getenv("BOT_SECRET")
	if secret == "" {
		fmt.Fprintln(os.Stderr, "BOT_SECRET is not set: a bot without a secret would accept anyone's turns")
		os.Exit(1)
	}
	port := os.Getenv("BOT_PORT")
	if port == "" {
		port = "8080"
	}
	p := strategy.LoadParams()
	b := &server{bot: strategy.New(p), secret: []byte(secret)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("POST /turn", b.serveTurn)
	fmt.Fprintf(os.Stderr, "acb-go listening on port %s with gather %v, wave %d\n", port, p.Gather, p.Wave)
	srv := &http.Server{Addr: os.Getenv("HOST") + ":" + port, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
