package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestBTTwoPlayers checks the fit against its closed form: with two
// players the maximum-likelihood difference is 400 log10(score/(n -
// score)) and its variance 1/(n p (1-p)) nats², half each way around the
// mean.
func TestBTTwoPlayers(t *testing.T) {
	wins := [][]float64{{0, 30}, {10, 0}}
	draws := [][]float64{{0, 20}, {20, 0}}
	fit, err := BradleyTerry{}.Fit([]string{"a", "b"}, wins, draws)
	if err != nil {
		t.Fatal(err)
	}
	diff := 400 * math.Log10(40.0/20)
	p := 40.0 / 60
	se := math.Sqrt(1/(60*p*(1-p))) * 400 / math.Ln10
	a, b := fit.Ratings[0], fit.Ratings[1]
	if a.Name != "a" || math.Abs(a.Elo-diff/2) > 1e-9 || math.Abs(b.Elo+diff/2) > 1e-9 {
		t.Fatalf("ratings %+v, want ±%v", fit.Ratings, diff/2)
	}
	if math.Abs(a.SE-se/2) > 1e-9 || a.Games != 60 || a.Points != 40 {
		t.Fatalf("a: %+v, want SE %v", a, se/2)
	}
	if d, dse := fit.Diff(0, 1); math.Abs(d-diff) > 1e-9 || math.Abs(dse-se) > 1e-9 {
		t.Fatalf("Diff %v ± %v, want %v ± %v", d, dse, diff, se)
	}
	// Anchored at b, b is 0 with no error and a carries all of it.
	fit, _ = BradleyTerry{Anchor: "b"}.Fit([]string{"a", "b"}, wins, draws)
	if a, b := fit.Ratings[0], fit.Ratings[1]; math.Abs(a.Elo-diff) > 1e-9 || b.Elo != 0 || b.SE != 0 || math.Abs(a.SE-se) > 1e-9 {
		t.Fatalf("anchored: %+v", fit.Ratings)
	}
}

// TestBTAgainstMM checks the Newton fit against an independent algorithm,
// Zermelo's (Hunter's MM) iteration pi_i = W_i / sum_j n_ij / (pi_i +
// pi_j), on an unbalanced schedule of 8 players, and checks the score
// equations: at the maximum every player's expected score equals its
// actual score.
func TestBTAgainstMM(t *testing.T) {
	names, wins, draws := syntheticCounts(8, 7, func(i, j int) int { return 5 + (i*7+j*3)%23 })
	fit, err := BradleyTerry{}.Fit(names, wins, draws)
	if err != nil {
		t.Fatal(err)
	}
	n := len(names)
	pts, games := newSquare(n), newSquare(n)
	for i := range n {
		for j := range n {
			pts[i][j] = wins[i][j] + draws[i][j]/2
			games[i][j] = wins[i][j] + wins[j][i] + draws[i][j]
		}
	}
	pi := make([]float64, n)
	for i := range pi {
		pi[i] = 1
	}
	for range 20000 {
		for i := range n {
			w, den := 0.0, 0.0
			for j := range n {
				w += pts[i][j]
				if games[i][j] > 0 {
					den += games[i][j] / (pi[i] + pi[j])
				}
			}
			pi[i] = w / den
		}
	}
	mean := 0.0
	for i := range pi {
		mean += math.Log(pi[i]) / float64(n)
	}
	elo := make([]float64, n)
	for _, r := range fit.Ratings {
		elo[r.Index] = r.Elo
	}
	for i := range n {
		if want := (math.Log(pi[i]) - mean) * 400 / math.Ln10; math.Abs(elo[i]-want) > 1e-6 {
			t.Errorf("%s: Newton %v, MM %v", names[i], elo[i], want)
		}
		exp, act := 0.0, 0.0
		for j := range n {
			exp += games[i][j] / (1 + math.Pow(10, (elo[j]-elo[i])/400))
			act += pts[i][j]
		}
		if math.Abs(exp-act) > 1e-7 {
			t.Errorf("%s: expected score %v, actual %v", names[i], exp, act)
		}
	}
	if !slices.IsSortedFunc(fit.Ratings, func(a, b Rated) int { return -cmpFloat(a.Elo, b.Elo) }) {
		t.Error("ratings not ordered best first")
	}
}

// TestBTRoundRobinOrderIsScoreOrder checks the property the leaderboard
// needs: in a complete round robin with as many games in every pair, the
// fitted order is the order of the scores (the score equations make the
// expected score increase with the rating).
func TestBTRoundRobinOrderIsScoreOrder(t *testing.T) {
	names, wins, draws := syntheticCounts(21, 3, func(i, j int) int { return 200 })
	fit, err := BradleyTerry{}.Fit(names, wins, draws)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(fit.Ratings); k++ {
		if fit.Ratings[k-1].Points < fit.Ratings[k].Points {
			t.Fatalf("%s (%v points) ranked above %s (%v points)", fit.Ratings[k-1].Name, fit.Ratings[k-1].Points, fit.Ratings[k].Name, fit.Ratings[k].Points)
		}
	}
}

// TestBTNoFiniteFit checks the existence condition: a player who never
// dropped a point has no finite rating, the error names the split, and a
// prior of virtual draws makes the fit finite.
func TestBTNoFiniteFit(t *testing.T) {
	names := []string{"hunter", "scout", "pacifist"}
	wins := [][]float64{{0, 5, 5}, {0, 0, 3}, {0, 2, 0}}
	_, err := BradleyTerry{}.Fit(names, wins, nil)
	if err == nil || !strings.Contains(err.Error(), "hunter never dropped a point against scout, pacifist") {
		t.Fatalf("error %v", err)
	}
	fit, err := BradleyTerry{Prior: 1}.Fit(names, wins, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Ratings[0].Name != "hunter" || math.IsInf(fit.Ratings[0].Elo, 0) || fit.Ratings[0].Points != 10 {
		t.Fatalf("with a prior: %+v", fit.Ratings)
	}
}

// TestBTBadInput checks the errors name the field and the value.
func TestBTBadInput(t *testing.T) {
	names := []string{"a", "b"}
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"rows", func() error { _, err := BradleyTerry{}.Fit(names, [][]float64{{0, 1}}, nil); return err }, "wins has 1 rows, want 2"},
		{"negative", func() error { _, err := BradleyTerry{}.Fit(names, [][]float64{{0, -1}, {1, 0}}, nil); return err }, "wins[0][1] = -1"},
		{"draws", func() error {
			_, err := BradleyTerry{}.Fit(names, [][]float64{{0, 1}, {1, 0}}, [][]float64{{0, 1}, {2, 0}})
			return err
		}, "draws[0][1] = 1 but draws[1][0] = 2"},
		{"idle", func() error {
			_, err := BradleyTerry{}.Fit([]string{"a", "b", "c"}, [][]float64{{0, 1, 0}, {1, 0, 0}, {0, 0, 0}}, nil)
			return err
		}, "player c has no game"},
		{"anchor", func() error {
			_, err := BradleyTerry{Anchor: "z"}.Fit(names, [][]float64{{0, 1}, {1, 0}}, nil)
			return err
		}, `anchor "z"`},
		{"prior", func() error {
			_, err := BradleyTerry{Prior: -1}.Fit(names, [][]float64{{0, 1}, {1, 0}}, nil)
			return err
		}, "prior -1"},
		{"game index", func() error { _, err := BradleyTerry{}.FitGames(names, []PairGame{{A: 0, B: 2, Score: 1}}); return err }, "game 0: players 0 and 2"},
		{"game score", func() error { _, err := BradleyTerry{}.FitGames(names, []PairGame{{A: 0, B: 1, Score: 2}}); return err }, "game 0: score 2"},
	}
	for _, tc := range tests {
		if err := tc.run(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestBTFitGames checks FitGames: its ratings are Fit's on the same
// counts; with random outcomes in one-game units the sandwich agrees with
// the Fisher information (the model is right); and a deterministic field
// repeated over more seeds keeps its intervals.
func TestBTFitGames(t *testing.T) {
	names, games := syntheticGames(6, 400, 11)
	n := len(names)
	wins, draws := newSquare(n), newSquare(n)
	for _, g := range games {
		switch g.Score {
		case 1:
			wins[g.A][g.B]++
		case 0:
			wins[g.B][g.A]++
		default:
			draws[g.A][g.B]++
			draws[g.B][g.A]++
		}
	}
	byGames, err := BradleyTerry{}.FitGames(names, games)
	if err != nil {
		t.Fatal(err)
	}
	byCounts, err := BradleyTerry{}.Fit(names, wins, draws)
	if err != nil {
		t.Fatal(err)
	}
	for k := range byGames.Ratings {
		a, b := byGames.Ratings[k], byCounts.Ratings[k]
		if a.Name != b.Name || math.Abs(a.Elo-b.Elo) > 1e-9 {
			t.Fatalf("FitGames %+v, Fit %+v", a, b)
		}
		// Each unit is one seed's seat-swapped pair of one pairing, so
		// the robust errors are close to the model's.
		if r := a.SE / b.SE; r < 0.8 || r > 1.25 {
			t.Errorf("%s: robust SE %v, Fisher %v", a.Name, a.SE, b.SE)
		}
	}
	if byGames.Method != "cluster-robust" || byGames.Units != 400*15 {
		t.Fatalf("method %s over %d units", byGames.Method, byGames.Units)
	}

	// A deterministic field: in every unit, each pair plays one pair of
	// games with the same result. 5 or 50 units give the same intervals.
	det := func(units int) BTFit {
		var games []PairGame
		for u := range units {
			for i := range 4 {
				for j := i + 1; j < 4; j++ {
					s := 1.0
					if (i+j)%3 == 0 {
						s = 0.5
					}
					if i == 0 && j == 3 {
						s = 0 // a cycle keeps the fit finite
					}
					games = append(games, PairGame{A: i, B: j, Score: s, Unit: int64(u)}, PairGame{A: j, B: i, Score: 1 - s, Unit: int64(u)})
				}
			}
		}
		fit, err := BradleyTerry{}.FitGames([]string{"p0", "p1", "p2", "p3"}, games)
		if err != nil {
			t.Fatal(err)
		}
		return fit
	}
	few, many := det(5), det(50)
	if few.Method != "fisher-distinct" || many.Method != "fisher-distinct" {
		t.Fatalf("methods %s, %s", few.Method, many.Method)
	}
	for k := range few.Ratings {
		if math.Abs(few.Ratings[k].SE-many.Ratings[k].SE) > 1e-9 || math.Abs(few.Ratings[k].Elo-many.Ratings[k].Elo) > 1e-9 {
			t.Fatalf("5 units %+v, 50 units %+v", few.Ratings[k], many.Ratings[k])
		}
	}
}

// TestBTMergedRepeats checks the caller's merge of exact repeats: a pair
// that won every one of its distinct units is not deflated (the
// covariance is the sandwich), while without MergedRepeats the same games
// are taken for repeats and deflated.
func TestBTMergedRepeats(t *testing.T) {
	var games []PairGame
	for u := range 30 {
		for i := range 3 {
			for j := i + 1; j < 3; j++ {
				s := 1.0 // p0 beats p1 and p2 every time; p1 and p2 vary
				if i == 1 {
					s = float64(u%3) / 2
				}
				games = append(games, PairGame{A: i, B: j, Score: s, Unit: int64(u)}, PairGame{A: j, B: i, Score: 1 - s, Unit: int64(u)})
			}
		}
	}
	games = append(games, PairGame{A: 1, B: 0, Score: 1, Unit: 30}) // keep the fit finite
	names := []string{"p0", "p1", "p2"}
	merged, err := BradleyTerry{MergedRepeats: true}.FitGames(names, games)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := BradleyTerry{}.FitGames(names, games)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Method != "cluster-robust" || plain.Method != "fisher-distinct" {
		t.Fatalf("methods %s and %s, want cluster-robust and fisher-distinct", merged.Method, plain.Method)
	}
	if d, _ := merged.Diff(0, 1); d <= 0 {
		t.Fatalf("p0 over p1 %v, want > 0", d)
	}
	_, seM := merged.Diff(0, 1)
	_, seP := plain.Diff(0, 1)
	if !(seM < seP) {
		t.Fatalf("p0-p1 SE %v merged, %v deflated: thirty distinct wins should count for more than one", seM, seP)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// trueElo is the strength of synthetic player i: 40 Elo apart, with a
// twist that makes the field not quite evenly spaced.
func trueElo(i int) float64 { return 40*float64(i) + 15*math.Sin(float64(i)) }

// playGame draws one game's score for a player rated d Elo above its
// opponent: draws take a third of the mass at d = 0.
func playGame(rng *rand.Rand, d float64) float64 {
	p := 1 / (1 + math.Pow(10, -d/400))
	draw := 0.3 * 4 * p * (1 - p)
	u := rng.Float64()
	switch {
	case u < p-draw/2:
		return 1
	case u < p+draw/2:
		return 0.5
	}
	return 0
}

// syntheticCounts plays games(i, j) games for every pair i < j of n
// players and returns the win and draw counts.
func syntheticCounts(n int, seed uint64, games func(i, j int) int) ([]string, [][]float64, [][]float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%02d", i)
	}
	wins, draws := newSquare(n), newSquare(n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			for range games(i, j) {
				switch playGame(rng, trueElo(i)-trueElo(j)) {
				case 1:
					wins[i][j]++
				case 0:
					wins[j][i]++
				default:
					draws[i][j]++
					draws[j][i]++
				}
			}
		}
	}
	return names, wins, draws
}

// syntheticGames plays, for each of seeds seeds, a seat-swapped pair of
// games in every pairing of n players; each pairing on a seed is one unit.
func syntheticGames(n, seeds int, seed uint64) ([]string, []PairGame) {
	rng := rand.New(rand.NewPCG(seed, 2))
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%02d", i)
	}
	var games []PairGame
	unit := int64(0)
	for range seeds {
		for i := range n {
			for j := i + 1; j < n; j++ {
				d := trueElo(i) - trueElo(j)
				games = append(games,
					PairGame{A: i, B: j, Score: playGame(rng, d), Unit: unit},
					PairGame{A: j, B: i, Score: playGame(rng, -d), Unit: unit})
				unit++
			}
		}
	}
	return names, games
}
