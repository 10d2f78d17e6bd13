package rating

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the level of the intervals the summaries report.
const Confidence = 0.95

// Wilson returns the Wilson score interval of a success rate at the given
// two-sided confidence level (0.95 for 95%): successes out of n trials, a
// draw counting as half a success. With no trial the interval is [0, 1].
func Wilson(successes float64, n int, level float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
	nf := float64(n)
	p := successes / nf
	z2 := z * z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	// At the edges the bound is exactly 0 or 1; rounding would leave a
	// speck (2.8e-17 for 0 of 10) that reads as a finite Elo of -6600.
	if successes <= 0 {
		lo = 0
	}
	if successes >= nf {
		hi = 1
	}
	return lo, hi
}

// EloDiff is the Elo rating difference that predicts score rate p against
// an opponent: -400 log10(1/p - 1). It is -Inf at 0 and +Inf at 1.
func EloDiff(p float64) float64 {
	return -400 * math.Log10(1/p-1)
}

// Tally counts one player's pairwise results.
type Tally struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games is the number of pairwise games.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// Points is the score: one per win, a half per draw.
func (t Tally) Points() float64 { return float64(t.Wins) + float64(t.Draws)/2 }

// Rate is the score rate, points per game; 0.5 when no game was played.
func (t Tally) Rate() float64 {
	if t.Games() == 0 {
		return 0.5
	}
	return t.Points() / float64(t.Games())
}

// Interval is the Wilson 95% score interval of Rate.
func (t Tally) Interval() (lo, hi float64) {
	return Wilson(t.Points(), t.Games(), Confidence)
}

// add counts one result with score s (1, 0.5 or 0).
func (t *Tally) add(s float64) {
	switch {
	case s > 0.5:
		t.Wins++
	case s < 0.5:
		t.Losses++
	default:
		t.Draws++
	}
}

// Matrix is the table of pairwise results: Cells[i][j] tallies Players[i]
// against Players[j].
type Matrix struct {
	Players []string  `json:"players"`
	Cells   [][]Tally `json:"cells"`
}

// NewMatrix tallies outcomes between players. Names of outcomes that are
// not in players are added after them, sorted.
func NewMatrix(players []string, outcomes []Outcome) Matrix {
	index := make(map[string]int, len(players))
	names := append([]string(nil), players...)
	for i, n := range names {
		index[n] = i
	}
	var extra []string
	for _, o := range outcomes {
		for _, n := range []string{o.A, o.B} {
			if _, ok := index[n]; !ok {
				index[n] = -1
				extra = append(extra, n)
			}
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		index[n] = len(names)
		names = append(names, n)
	}
	cells := make([][]Tally, len(names))
	for i := range cells {
		cells[i] = make([]Tally, len(names))
	}
	for _, o := range outcomes {
		a, b := index[o.A], index[o.B]
		if a == b {
			continue
		}
		cells[a][b].add(o.Score)
		cells[b][a].add(1 - o.Score)
	}
	return Matrix{Players: names, Cells: cells}
}

// Field is player i's tally against everyone.
func (m Matrix) Field(i int) Tally {
	var t Tally
	for _, c := range m.Cells[i] {
		t.Wins += c.Wins
		t.Draws += c.Draws
		t.Losses += c.Losses
	}
	return t
}

// Pair is the head-to-head record of two players, from A's side.
type Pair struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	// Score is A's score rate against B; Lo and Hi bound its Wilson 95%
	// interval.
	Score float64 `json:"score"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// Pairs lists every pair that played, in matrix order (A before B).
func (m Matrix) Pairs() []Pair {
	var out []Pair
	for i := range m.Players {
		for j := i + 1; j < len(m.Players); j++ {
			t := m.Cells[i][j]
			if t.Games() == 0 {
				continue
			}
			lo, hi := t.Interval()
			out = append(out, Pair{
				A: m.Players[i], B: m.Players[j],
				Wins: t.Wins, Draws: t.Draws, Losses: t.Losses,
				Score: t.Rate(), Lo: lo, Hi: hi,
			})
		}
	}
	return out
}

// Standing is one line of the leaderboard.
type Standing struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	Rating
	// Conservative is Rating - 2 RD, the leaderboard's order.
	Conservative float64 `json:"conservative"`
	// Games counts pairwise games: an N-seat match is N-1 games for each
	// of its players.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Score is the score rate against the field; ScoreLo and ScoreHi
	// bound its Wilson 95% interval.
	Score   float64 `json:"score"`
	ScoreLo float64 `json:"score_lo"`
	ScoreHi float64 `json:"score_hi"`
	// Elo is the Elo difference against the field implied by Score, and
	// EloLo and EloHi those implied by the ends of its Wilson interval. A
	// record of all wins or all losses has no finite Elo difference: it is
	// taken half a game from the edge (n-1/2 or 1/2 points of n), for the
	// figure and for its interval, so the bar stays finite, keeps the
	// figure inside and grows with the points and the games played.
	Elo   float64 `json:"elo"`
	EloLo float64 `json:"elo_lo"`
	EloHi float64 `json:"elo_hi"`
}

// Summary is a leaderboard with the pairwise statistics beside it.
type Summary struct {
	Standings []Standing `json:"standings"`
	Pairs     []Pair     `json:"pairs"`
	// Matrix holds the pairwise tallies with players in leaderboard order.
	Matrix Matrix `json:"matrix"`
}

// Summarize builds the leaderboard of every player in ratings, ordered by
// conservative rating (then rating, then name), with the statistics of
// outcomes. Players of outcomes missing from ratings are listed at
// initial, from Default.
func Summarize(ratings map[string]Rating, outcomes []Outcome) Summary {
	all := withPlayers(ratings, outcomes, Default().Initial)
	names := sortedNames(all)
	sort.SliceStable(names, func(i, j int) bool {
		a, b := all[names[i]], all[names[j]]
		if a.Conservative() != b.Conservative() {
			return a.Conservative() > b.Conservative()
		}
		return a.Rating > b.Rating
	})
	m := NewMatrix(names, outcomes)
	st := make([]Standing, len(names))
	for i, n := range names {
		r := all[n]
		t := m.Field(i)
		lo, hi := t.Interval()
		st[i] = Standing{
			Rank: i + 1, Name: n, Rating: r, Conservative: r.Conservative(),
			Games: t.Games(), Wins: t.Wins, Draws: t.Draws, Losses: t.Losses,
			Score: t.Rate(), ScoreLo: lo, ScoreHi: hi,
		}
		st[i].Elo, st[i].EloLo, st[i].EloHi = eloBar(t)
	}
	return Summary{Standings: st, Pairs: m.Pairs(), Matrix: m}
}

// eloBar is the Elo difference a tally implies and the ends of its 95%
// error bar (from the Wilson interval of the points). A tally of all wins
// or all losses is taken half a game from the edge; with no game all
// three are 0.
func eloBar(t Tally) (elo, lo, hi float64) {
	n := t.Games()
	if n == 0 {
		return 0, 0, 0
	}
	pts := math.Min(math.Max(t.Points(), 0.5), float64(n)-0.5)
	pl, ph := Wilson(pts, n, Confidence)
	return EloDiff(pts / float64(n)), EloDiff(pl), EloDiff(ph)
}
