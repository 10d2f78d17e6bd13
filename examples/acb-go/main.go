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
// CRUCIBLE_PARAM_WAVE): a Go bot served over HTTP, for the lab's overhead
// figures and as a starting point. Build it with
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
	"math"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

type pos struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

type state struct {
	MatchID string `json:"match_id"`
	Turn    int    `json:"turn"`
	Config  struct {
		Rows          int `json:"rows"`
		Cols          int `json:"cols"`
		VisionRadius2 int `json:"vision_radius2"`
	} `json:"config"`
	You struct {
		ID int `json:"id"`
	} `json:"you"`
	Bots []struct {
		Position pos `json:"position"`
		Owner    int `json:"owner"`
	} `json:"bots"`
	Energy []pos `json:"energy"`
	Cores  []struct {
		Position pos  `json:"position"`
		Owner    int  `json:"owner"`
		Active   bool `json:"active"`
	} `json:"cores"`
	Walls []pos `json:"walls"`
}

type move struct {
	Position  pos    `json:"position"`
	Direction string `json:"direction"`
}

type params struct {
	Gather float64
	Wave   int
}

// loadParams reads CRUCIBLE_PARAMS, else CRUCIBLE_PARAM_<NAME>, else the
// defaults (gather 0.9, wave 3).
func loadParams() params {
	p := map[string]float64{"gather": 0.9, "wave": 3}
	if raw := os.Getenv("CRUCIBLE_PARAMS"); raw != "" {
		var m map[string]float64
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			log.Fatalf("CRUCIBLE_PARAMS = %s: %v", raw, err)
		}
		for k, v := range m {
			p[k] = v
		}
	} else {
		for _, k := range []string{"gather", "wave"} {
			if s := os.Getenv("CRUCIBLE_PARAM_" + map[string]string{"gather": "GATHER", "wave": "WAVE"}[k]); s != "" {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					log.Fatalf("CRUCIBLE_PARAM_%s = %q is not a number", k, s)
				}
				p[k] = v
			}
		}
	}
	return params{Gather: math.Max(0, math.Min(1, p["gather"])), Wave: max(1, int(math.Round(p["wave"])))}
}

// memory is what one seat of one match remembers between turns.
type memory struct {
	walls map[pos]bool
	cores map[pos][2]int // owner, active (1 or 0)
	last  time.Time
}

type bot struct {
	p       params
	secret  []byte
	mu      sync.Mutex
	matches map[string]*memory
}

func (b *bot) memory(key string) *memory {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	for k, m := range b.matches {
		if now.Sub(m.last) > 10*time.Minute {
			delete(b.matches, k)
		}
	}
	m := b.matches[key]
	if m == nil {
		m = &memory{walls: map[pos]bool{}, cores: map[pos][2]int{}}
		b.matches[key] = m
	}
	m.last = now
	return m
}

var dirs = [4]struct {
	name   string
	dr, dc int
}{{"N", -1, 0}, {"E", 0, 1}, {"S", 1, 0}, {"W", 0, -1}}

const far = 1 << 30

// field is a multi-source BFS distance grid on the torus (far when not
// reached); unseen tiles count as open.
func field(rows, cols int, walls map[pos]bool, sources []pos) []int {
	d := make([]int, rows*cols)
	for i := range d {
		d[i] = far
	}
	q := make([]pos, 0, rows*cols)
	for _, s := range sources {
		if !walls[s] && d[s.Row*cols+s.Col] == far {
			d[s.Row*cols+s.Col] = 0
			q = append(q, s)
		}
	}
	for i := 0; i < len(q); i++ {
		p := q[i]
		for _, dd := range dirs {
			n := pos{(p.Row + dd.dr + rows) % rows, (p.Col + dd.dc + cols) % cols}
			if !walls[n] && d[n.Row*cols+n.Col] == far {
				d[n.Row*cols+n.Col] = d[p.Row*cols+p.Col] + 1
				q = append(q, n)
			}
		}
	}
	return d
}

func dist2(a, b pos, rows, cols int) int {
	dr, dc := abs(a.Row-b.Row), abs(a.Col-b.Col)
	dr, dc = min(dr, rows-dr), min(dc, cols-dc)
	return dr*dr + dc*dc
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// turn is the strategy of ../acb-python/main.py, step for step.
func (b *bot) turn(s *state) []move {
	rows, cols, me := s.Config.Rows, s.Config.Cols, s.You.ID
	mem := b.memory(s.MatchID + "/" + strconv.Itoa(me))
	for _, w := range s.Walls {
		mem.walls[w] = true
	}
	for _, c := range s.Cores {
		active := 0
		if c.Active {
			active = 1
		}
		mem.cores[c.Position] = [2]int{c.Owner, active}
	}
	var mine, enemies []pos
	for _, u := range s.Bots {
		if u.Owner == me {
			mine = append(mine, u.Position)
		} else {
			enemies = append(enemies, u.Position)
		}
	}
	moves := []move{}
	if len(mine) == 0 {
		return moves
	}
	var home, targets []pos
	for p, c := range mem.cores {
		if c[1] == 1 && c[0] == me {
			home = append(home, p)
		} else if c[1] == 1 {
			targets = append(targets, p)
		}
	}
	sortPos(home)
	sortPos(targets)
	toEnergy := field(rows, cols, mem.walls, s.Energy)
	at := func(f []int, p pos) int { return f[p.Row*cols+p.Col] }
	sortBy(mine, func(p pos) int { return at(toEnergy, p) })
	nGather := int(math.Round(b.p.Gather * float64(len(mine))))
	gatherers, attackers := mine[:nGather], mine[nGather:]
	if len(targets) == 0 {
		targets = enemies
	}
	if len(targets) == 0 {
		from := home
		if len(from) == 0 {
			from = mine[:1]
		}
		for _, p := range from {
			targets = append(targets, pos{(p.Row + rows/2) % rows, (p.Col + cols/2) % cols})
		}
	}
	r2 := s.Config.VisionRadius2
	if r2 == 0 {
		r2 = 49
	}
	threatened := false
	for _, e := range enemies {
		for _, h := range home {
			if dist2(e, h, rows, cols) <= r2 {
				threatened = true
			}
		}
	}
	var toTarget []int
	if len(attackers) > 0 && (len(attackers) >= b.p.Wave || threatened) {
		toTarget = field(rows, cols, mem.walls, targets)
	}
	isHome := map[pos]bool{}
	for _, h := range home {
		isHome[h] = true
	}
	occupied := map[pos]bool{}
	for _, p := range mine {
		occupied[p] = true
	}
	taken := map[pos]bool{}
	for _, g := range []struct {
		units []pos
		f     []int
	}{{gatherers, toEnergy}, {attackers, toTarget}} {
		for _, p := range g.units {
			delete(occupied, p)
			cost := func(q pos) int {
				if g.f == nil {
					return far
				}
				return at(g.f, q)
			}
			stay := cost(p)
			if isHome[p] {
				stay = far + 1 // step off a core to let it spawn
			}
			best, bestDir, bestPos := 0, "", pos{}
			for _, d := range dirs {
				n := pos{(p.Row + d.dr + rows) % rows, (p.Col + d.dc + cols) % cols}
				if mem.walls[n] || taken[n] || occupied[n] {
					continue // two own units on one tile both die
				}
				if c := cost(n); bestDir == "" || c < best {
					best, bestDir, bestPos = c, d.name, n
				}
			}
			if bestDir != "" && best < stay {
				taken[bestPos] = true
				moves = append(moves, move{Position: p, Direction: bestDir})
			} else {
				taken[p] = true
			}
		}
	}
	return moves
}

func less(a, b pos) bool { return a.Row < b.Row || a.Row == b.Row && a.Col < b.Col }

func sortPos(ps []pos) { sortBy(ps, func(pos) int { return 0 }) }

// sortBy sorts ps by key, then by position (a stable, simple insertion
// sort: a few dozen units).
func sortBy(ps []pos, key func(pos) int) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0; j-- {
			a, b := ps[j-1], ps[j]
			ka, kb := key(a), key(b)
			if ka < kb || ka == kb && less(a, b) {
				break
			}
			ps[j-1], ps[j] = b, a
		}
	}
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

func (b *bot) serveTurn(w http.ResponseWriter, r *http.Request) {
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
	if err != nil || abs(int(time.Now().Unix()-sec)) > 30 {
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
	var s state
	if err := json.Unmarshal(body, &s); err != nil || s.MatchID != matchID || strconv.Itoa(s.Turn) != turn || s.Config.Rows < 1 || s.Config.Cols < 1 {
		fail(w, 400, "body is not the game state of the headers' match and turn")
		return
	}
	out, _ := json.Marshal(map[string][]move{"moves": b.turn(&s)})
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
	b := &bot{p: loadParams(), secret: []byte(secret), matches: map[string]*memory{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("POST /turn", b.serveTurn)
	fmt.Fprintf(os.Stderr, "acb-go listening on port %s with gather %v, wave %d\n", port, b.p.Gather, b.p.Wave)
	srv := &http.Server{Addr: os.Getenv("HOST") + ":" + port, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
