package evolver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"crucible/stats"
	"crucible/strategies"
)

// The champion is chosen by what a user of the variant cares about: its
// strength against the reference field (the pool the user chose, plus the
// base at its defaults), measured on fresh seeds. How the finalists fare
// against each other is real information about non-transitivity and is
// reported (HeadToHead), but it does not pick the champion: a variant bred
// to beat the search's latest leader can win every head-to-head and still
// be the weaker one against the field.

// errNoTime is the selection's error when the budget ends before its
// first seed.
var errNoTime = errors.New("selection: the budget ended before the first seed")

// selectionSPRT is the test that stops measuring a finalist clearly below
// the leader: H0 the leader is no stronger (Elo 0) against H1 it is 40 Elo
// stronger (logistic), 5% errors. Its games are the paired comparisons of
// the two on one seed and one opponent: the leader's seat-swapped pair total
// against the finalist's, more (a win of the leader), the same (a draw) or
// less (a loss), counted as a trinomial. Comparisons on one seed share its
// map, so the test treats as independent what is only nearly so; it only
// decides when to stop measuring, the champion is chosen by the clustered
// intervals.
var selectionSPRT = stats.SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05, Model: stats.Logistic}

// Selection is the final stage that picks the champion.
type Selection struct {
	// Field are the names of the opponents every finalist played.
	Field []string `json:"field"`
	// SeedsPlanned is the number of fresh seeds planned and SeedsPlayed
	// the number the leader played.
	SeedsPlanned int `json:"seeds_planned"`
	SeedsPlayed  int `json:"seeds_played"`
	// Finalists are the finalists' results, the champion first, then by
	// score rate.
	Finalists []FinalistScore `json:"finalists"`
	// Champion is the champion's variant id and Leader the id of the
	// highest score rate; Reason says why the champion was chosen.
	Champion string `json:"champion"`
	Leader   string `json:"leader"`
	Reason   string `json:"reason"`
	// Matches is the number of matches played; SavedMatches those the
	// SPRT saved by stopping finalists early.
	Matches      int `json:"matches"`
	SavedMatches int `json:"saved_matches"`
	// Method is "race" when the finalists were raced (raceChampion), ""
	// for the SPRT against the leader; FamilyError then states the
	// race's error rates for the whole family of finalists.
	Method      string `json:"method,omitempty"`
	FamilyError string `json:"family_error,omitempty"`
	// Note says when the budget cut the stage short.
	Note string `json:"note,omitempty"`
}

// FinalistScore is one finalist's measurement against the field.
type FinalistScore struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	// Fingerprint is its behaviour fingerprint ("" when unknown).
	Fingerprint string `json:"fingerprint,omitempty"`
	// Rate is its score rate against the field with the 95% interval
	// over seeds (stats.ClusteredRate), over the seeds it played.
	Rate stats.Interval `json:"rate"`
	// distance is its distance from the base's defaults: the root mean
	// square of the parameter differences, each over its range.
	Distance float64 `json:"distance"`
	// VsLeader is its score rate less the leader's, paired by seed
	// (stats.PairedDifference), over the seeds both played; nil for the
	// leader.
	VsLeader *stats.Interval `json:"vs_leader,omitempty"`
	// SPRT is the last sequential test of the leader against it
	// (selectionSPRT); nil for the leader.
	SPRT *SPRTState `json:"sprt,omitempty"`
	// Dropped is set when the SPRT found it clearly below the leader and
	// it stopped playing; Contender when it is within noise of the leader
	// (its difference's interval reaches 0).
	Dropped   bool `json:"dropped,omitempty"`
	Contender bool `json:"contender,omitempty"`
	// Race is its state in the race (raceChampion); nil with the SPRT.
	Race *RaceEntry `json:"race,omitempty"`
}

// SPRTState is the state of a selectionSPRT: the leader's paired
// comparisons with a finalist counted as wins, draws and losses of the
// leader, the log-likelihood ratio, its bounds and the verdict (H0, H1 or
// continue).
type SPRTState struct {
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	LLR     float64 `json:"llr"`
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Verdict string  `json:"verdict"`
}

// distance is the root mean square difference of two points of the
// normalised space: parameter distance with each parameter over its range.
func distance(x, y []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	d := 0.0
	for i := range x {
		d += (x[i] - y[i]) * (x[i] - y[i])
	}
	return math.Sqrt(d / float64(len(x)))
}

// selectChampion measures the finalists (variants of ev.Base) against ev.Pool, the
// field, one seed after another in both seat orders, and picks the
// champion:
//
//   - after every seed, the leader is the finalist with the highest score
//     rate so far, and each other finalist still playing is tested against
//     it (selectionSPRT); a finalist the test finds clearly below the
//     leader stops playing;
//   - at the end, the finalists not stopped whose paired difference with
//     the leader has an interval reaching 0 are within noise of it; of
//     these and the leader, the champion is the one closest to the base's
//     defaults (distance), the higher score rate breaking ties.
//
// When ctx's deadline passes after at least one seed, the seeds completed
// decide and Note says so. progress, when set, receives the matches done
// and the matches still planned.
func selectChampion(ctx context.Context, ev *arenaEvaluator, space paramSpace, finalists []strategies.Variant, seeds []uint64, progress func(done, total int)) (Selection, error) {
	sel, err := selectWith(ctx, ev, space, finalists, seeds, sprtRule{}, progress)
	return *sel, err
}

// selectWith is the selection with rule deciding who stops playing (see
// selectChampion and raceChampion).
func selectWith(ctx context.Context, ev *arenaEvaluator, space paramSpace, finalists []strategies.Variant, seeds []uint64, rule selectRule, progress func(done, total int)) (*Selection, error) {
	sel := &Selection{SeedsPlanned: len(seeds)}
	for _, o := range ev.Pool {
		sel.Field = append(sel.Field, o.Name)
	}
	if len(finalists) == 0 || len(seeds) == 0 {
		return sel, fmt.Errorf("selection: %d finalists and %d seeds; it needs at least one of each", len(finalists), len(seeds))
	}
	n := len(finalists)
	genomes := make([]strategies.Genome, n)
	origin := space.Origin()
	for i, v := range finalists {
		g, err := space.Base.Schema.FromMap(v.Params)
		if err != nil {
			return sel, fmt.Errorf("selection: finalist %s: %w", v.Label(), err)
		}
		genomes[i] = g
		sel.Finalists = append(sel.Finalists, FinalistScore{ID: v.ID, Label: v.Label(), Fingerprint: v.Fingerprint, Distance: distance(space.Point(g), origin)})
	}
	st := &selState{units: make([][]stats.Unit, n), pairs: make([][]map[string]float64, n), active: make([]bool, n),
		perSeed: ev.PlannedMatches(1, 1, 0), seeds: len(seeds), finalists: finalists}
	for i := range st.active {
		st.active[i] = true
	}
	if err := rule.start(sel, st); err != nil {
		return sel, err
	}
	done := 0
	played := 0
	for k, seed := range seeds {
		var idx []int
		b := matchBatch{Seeds: []uint64{seed}}
		for i := range finalists {
			if st.active[i] {
				idx = append(idx, i)
				b.Candidates = append(b.Candidates, genomes[i])
				b.IDs = append(b.IDs, finalists[i].ID)
			}
		}
		total := done + len(idx)*st.perSeed*(len(seeds)-k)
		var seedProgress func(done, total int)
		if progress != nil {
			seedProgress = func(d, _ int) { progress(done+d, total) }
		}
		ms, err := ev.EvaluateProgress(ctx, b, seedProgress)
		switch {
		case errors.Is(err, context.DeadlineExceeded) && played > 0:
			sel.Note = fmt.Sprintf("the budget stopped the selection after %d of %d seeds", played, len(seeds))
		case errors.Is(err, context.DeadlineExceeded):
			return sel, errNoTime
		case err != nil:
			return sel, fmt.Errorf("selection: %w", err)
		}
		if err != nil {
			break
		}
		for j, i := range idx {
			m := ms[j]
			st.units[i] = append(st.units[i], stats.Unit{Points: m.SeedPoints[0], Games: m.SeedGames[0]})
			pt := map[string]float64{}
			for name, t := range m.Versus {
				pt[name] = t.Points
			}
			st.pairs[i] = append(st.pairs[i], pt)
			done += m.Matches
			sel.Matches += m.Matches
		}
		played++
		over, err := rule.seed(sel, st, k, idx)
		if err != nil {
			return sel, err
		}
		if over {
			break
		}
	}
	sel.SeedsPlayed = played
	return sel, sel.decide(st.units, st.active, finalists, rule.champion(st))
}

// selState is what the selection has measured: per finalist, its units
// and pair totals by opponent on each seed it played, and whether it is
// still playing.
type selState struct {
	units     [][]stats.Unit
	pairs     [][]map[string]float64
	active    []bool
	perSeed   int // matches of one finalist on one seed
	seeds     int // seeds planned
	finalists []strategies.Variant
}

// drop stops finalist i after seed k and counts the matches it saves.
func (st *selState) drop(sel *Selection, i, k int) {
	st.active[i] = false
	sel.Finalists[i].Dropped = true
	sel.SavedMatches += st.perSeed * (st.seeds - k - 1)
}

// selectRule decides, after each seed, which finalists stop playing and
// whether the selection is over: the SPRT against the leader
// (sprtRule, the default) or the race (raceRule).
type selectRule interface {
	// start is called once before the first seed.
	start(sel *Selection, st *selState) error
	// seed counts seed k, which the finalists idx played, and reports
	// whether the selection is over.
	seed(sel *Selection, st *selState, k int, idx []int) (bool, error)
	// champion is the finalist the rule chose, or -1 to let the score
	// rates choose (Selection.decide).
	champion(st *selState) int
}

// sprtRule stops a finalist the selectionSPRT finds clearly below the
// leader; it never ends the selection early.
type sprtRule struct{}

func (sprtRule) start(*Selection, *selState) error { return nil }

func (sprtRule) champion(*selState) int { return -1 }

func (sprtRule) seed(sel *Selection, st *selState, k int, _ []int) (bool, error) {
	lead := leaderOf(st.units, st.active)
	for i := range st.finalists {
		if !st.active[i] || i == lead {
			continue
		}
		r, err := compareSPRT(st.pairs[lead], st.pairs[i])
		if err != nil {
			return false, err
		}
		sel.Finalists[i].SPRT = &r
		if r.Verdict == stats.AcceptH1.String() {
			st.drop(sel, i, k)
		}
	}
	return false, nil
}

// leaderOf is the active finalist with the highest score rate (the first
// on ties).
func leaderOf(units [][]stats.Unit, active []bool) int {
	lead, best := -1, math.Inf(-1)
	for i, us := range units {
		if !active[i] {
			continue
		}
		if r := rateOf(us); r > best {
			lead, best = i, r
		}
	}
	return lead
}

func rateOf(us []stats.Unit) float64 {
	var p, g float64
	for _, u := range us {
		p += u.Points
		g += u.Games
	}
	if g == 0 {
		return 0
	}
	return p / g
}

// compareSPRT tests the leader against a finalist on the seeds both
// played: per seed and opponent, the leader's pair total against the
// finalist's.
func compareSPRT(lead, other []map[string]float64) (SPRTState, error) {
	var t stats.Trinomial
	for k := range other {
		for name, b := range other[k] {
			a := lead[k][name]
			switch {
			case a > b:
				t.Wins++
			case a < b:
				t.Losses++
			default:
				t.Draws++
			}
		}
	}
	llr, err := selectionSPRT.LLR(t)
	if err != nil {
		return SPRTState{}, err
	}
	lo, hi := selectionSPRT.Bounds()
	return SPRTState{Wins: t.Wins, Draws: t.Draws, Losses: t.Losses, LLR: llr, Lower: lo, Upper: hi, Verdict: selectionSPRT.Decide(llr).String()}, nil
}

// decide fills the finalists' intervals and picks the champion: forced
// when it is not -1 (the race's winner), else by the score rates.
func (sel *Selection) decide(units [][]stats.Unit, active []bool, finalists []strategies.Variant, forced int) error {
	for i := range units {
		iv, err := stats.ClusteredRate(units[i], 0.95)
		if err != nil {
			return fmt.Errorf("selection: finalist %s: %w", finalists[i].Label(), err)
		}
		sel.Finalists[i].Rate = iv
	}
	lead := leaderOf(units, active)
	if lead < 0 {
		// Every finalist was dropped (the race found none stronger than
		// the field): the score rates choose among them all.
		active = slices.Repeat([]bool{true}, len(units))
		lead = leaderOf(units, active)
	}
	sel.Leader = finalists[lead].ID
	champ := lead
	sel.Finalists[lead].Contender = true
	for i := range units {
		if i == lead {
			continue
		}
		n := min(len(units[i]), len(units[lead]))
		a, b := make([]float64, n), make([]float64, n)
		for k := 0; k < n; k++ {
			a[k] = units[i][k].Points / units[i][k].Games
			b[k] = units[lead][k].Points / units[lead][k].Games
		}
		if n > 0 {
			d, err := stats.PairedDifference(a, b, 0.95)
			if err != nil {
				return fmt.Errorf("selection: finalist %s against the leader: %w", finalists[i].Label(), err)
			}
			sel.Finalists[i].VsLeader = &d
			sel.Finalists[i].Contender = active[i] && d.Hi >= 0
		}
		f, c := sel.Finalists[i], sel.Finalists[champ]
		if f.Contender && (f.Distance < c.Distance || (f.Distance == c.Distance && f.Rate.Mean > c.Rate.Mean)) {
			champ = i
		}
	}
	if forced >= 0 {
		champ = forced
	}
	sel.Champion = finalists[champ].ID
	switch {
	case forced >= 0:
		sel.Reason = fmt.Sprintf("the race's winner: its test against the field accepted H1, score rate %.3f over %d seeds", sel.Finalists[champ].Rate.Mean, len(units[champ]))
	case champ == lead:
		sel.Reason = fmt.Sprintf("the highest score rate against the field (%.3f over %d seeds)", sel.Finalists[lead].Rate.Mean, len(units[lead]))
	default:
		sel.Reason = fmt.Sprintf("within noise of the leader %s (%.3f against %.3f, difference interval [%+.3f, %+.3f]) and closer to the base (distance %.3f against %.3f)",
			finalists[lead].Label(), sel.Finalists[champ].Rate.Mean, sel.Finalists[lead].Rate.Mean,
			sel.Finalists[champ].VsLeader.Lo, sel.Finalists[champ].VsLeader.Hi, sel.Finalists[champ].Distance, sel.Finalists[lead].Distance)
	}
	// The champion first, then by score rate.
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		i, j := order[x], order[y]
		if (i == champ) != (j == champ) {
			return i == champ
		}
		return sel.Finalists[i].Rate.Mean > sel.Finalists[j].Rate.Mean
	})
	sorted := make([]FinalistScore, len(order))
	for k, i := range order {
		sorted[k] = sel.Finalists[i]
	}
	sel.Finalists = sorted
	return nil
}
