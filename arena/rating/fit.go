package rating

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"crucible/stats"
)

// summary computes the statistics and the model's figures, and orders
// the standings.
func (b *batch) summary(opt Options) (Summary, error) {
	n := len(b.names)
	m := newTallies(b.names, b.games)
	sum := Summary{Model: opt.Model, Clustered: true, Seeds: b.clusters, Units: b.rawUnits, Distinct: len(b.copies), Groups: b.groups, Repeated: b.repeated}
	// Each player's score against the field.
	st := make([]Standing, n)
	played := make([]bool, n)
	fieldIv := make([]stats.Interval, n)
	var few []string // the players with games in fewer than stats.MinUnits units
	all := func(int32) bool { return true }
	for p, name := range b.names {
		t := m.Field(p)
		s := Standing{Name: name, Games: t.Games(), Wins: t.Wins, Draws: t.Draws, Losses: t.Losses, Score: 0.5}
		if units, raw := b.units(p, all); len(units) > 0 {
			iv, _ := interval(units, opt.Level)
			fieldIv[p] = iv
			played[p] = true
			s.Score, s.ScoreLo, s.ScoreHi = iv.Mean, iv.Lo, iv.Hi
			s.Units, s.Distinct = raw, iv.Distinct
			g := float64(s.Games)
			s.Elo, s.EloLo, s.EloHi = eloOf(iv.Mean, g), eloOf(iv.Lo, g), eloOf(iv.Hi, g)
			if iv.Units < stats.MinUnits {
				// Half a game from the edges, the bar of one or two units
				// is no interval (one game: every end at 1/2, "0 [0, 0]").
				s.FewUnits, s.ScoreMethod = true, iv.Method
				s.EloLo, s.EloHi = 0, 0
				few = append(few, name)
			}
		}
		st[p] = s
	}
	// Every pair's head-to-head score.
	pairIv := make([][]stats.Interval, n)
	for i := range pairIv {
		pairIv[i] = make([]stats.Interval, n)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			units, raw := b.units(i, func(o int32) bool { return int(o) == j })
			iv, ok := interval(units, opt.Level)
			if !ok {
				continue
			}
			pairIv[i][j] = iv
			pairIv[j][i] = stats.Interval{Mean: 1 - iv.Mean, Lo: 1 - iv.Hi, Hi: 1 - iv.Lo, SE: iv.SE, Units: iv.Units, Distinct: iv.Distinct, Method: iv.Method}
			t := m.Cells[i][j]
			pr := Pair{A: b.names[i], B: b.names[j], Wins: t.Wins, Draws: t.Draws, Losses: t.Losses,
				Score: iv.Mean, Lo: iv.Lo, Hi: iv.Hi, Units: raw, Distinct: iv.Distinct}
			if iv.Units < stats.MinUnits && iv.Method != stats.ClusteredT {
				pr.Method = iv.Method // two different units keep their t interval
			}
			sum.Pairs = append(sum.Pairs, pr)
		}
	}
	spec := Lookup(opt.Model)
	view := &Batch{Names: b.names, Played: played, Games: b.games, Matrix: m, index: b.index, ms: b.ms, order: b.order}
	if opt.Field || spec.Field {
		f, notes, err := b.field(m, pairIv, played, st, opt)
		switch {
		case err != nil && spec.Field:
			return Summary{}, err
		case err != nil:
			notes = append(notes, "the field analysis failed: "+err.Error())
		case f == nil && spec.Field:
			return Summary{}, fmt.Errorf("%s needs at least two players with games", opt.Model)
		}
		sum.Field, view.Field = f, f
		sum.Notes = append(sum.Notes, notes...)
	}
	method, notes, err := spec.Rate(view, st, opt)
	if err != nil {
		return Summary{}, err
	}
	sum.Method = method
	sum.Notes = append(sum.Notes, notes...)
	if len(few) > 0 {
		sum.Notes = append(sum.Notes, smallSampleNote(few))
	}
	// Order: the model's figures (to 1e-9, so rounding noise does not
	// order equals), players without them last, then by name.
	order := make([]int, n)
	keys := make([][]float64, n)
	has := make([]bool, n)
	for p := range order {
		order[p] = p
		keys[p], has[p] = spec.Key(st[p])
	}
	slices.SortStableFunc(order, func(x, y int) int {
		hx, hy := has[x], has[y]
		if hx != hy {
			if hx {
				return -1
			}
			return 1
		}
		if hx {
			kx, ky := keys[x], keys[y]
			for i := range kx {
				a, c := math.Round(kx[i]*1e9), math.Round(ky[i]*1e9)
				if a != c {
					return cmp.Compare(c, a)
				}
			}
		}
		return strings.Compare(st[x].Name, st[y].Name)
	})
	ordered := make([]string, n)
	for r, p := range order {
		st[p].Rank = r + 1
		sum.Standings = append(sum.Standings, st[p])
		ordered[r] = b.names[p]
	}
	sum.Matrix = reorder(m, ordered)
	if spec.Rating {
		sum.Inversions = b.inversions(order, played, fieldIv, opt.Level)
	}
	if unmet := unmetPairs(m, played); unmet > 0 && sum.Field == nil {
		sum.Notes = append(sum.Notes, fmt.Sprintf("%d pairs of players never met", unmet))
	}
	if opt.Ranks != nil {
		ro := *opt.Ranks
		if ro.Level == 0 {
			ro.Level = opt.Level
		}
		t, err := b.rankTable(ro)
		if err != nil {
			return Summary{}, err
		}
		sum.Ranks = &t
	}
	return sum, nil
}

// newTallies tallies the pairwise games into a matrix in the batch's
// player order.
func newTallies(names []string, games []stats.PairGame) Matrix {
	cells := make([][]Tally, len(names))
	for i := range cells {
		cells[i] = make([]Tally, len(names))
	}
	for _, g := range games {
		cells[g.A][g.B].add(g.Score)
		cells[g.B][g.A].add(1 - g.Score)
	}
	return Matrix{Players: slices.Clone(names), Cells: cells}
}

// reorder is m with its players in the given order.
func reorder(m Matrix, order []string) Matrix {
	at := make(map[string]int, len(m.Players))
	for i, n := range m.Players {
		at[n] = i
	}
	out := Matrix{Players: order, Cells: make([][]Tally, len(order))}
	for i, a := range order {
		out.Cells[i] = make([]Tally, len(order))
		for j, c := range order {
			out.Cells[i][j] = m.Cells[at[a]][at[c]]
		}
	}
	return out
}

// unmetPairs counts the pairs of players with games that never met.
func unmetPairs(m Matrix, played []bool) int {
	k := 0
	for i := range m.Players {
		for j := i + 1; j < len(m.Players); j++ {
			if played[i] && played[j] && m.Cells[i][j].Games() == 0 {
				k++
			}
		}
	}
	return k
}

// field computes α-Rank, Nash averaging and the cycles over the players
// with games, and sets their masses in st.
func (b *batch) field(m Matrix, pairIv [][]stats.Interval, played []bool, st []Standing, opt Options) (*Field, []string, error) {
	var sub []int
	for p, ok := range played {
		if ok {
			sub = append(sub, p)
		}
	}
	if len(sub) < 2 {
		return nil, nil, nil
	}
	k := len(sub)
	score := make([][]float64, k)
	lo := make([][]float64, k)
	f := &Field{}
	for a, i := range sub {
		score[a] = make([]float64, k)
		lo[a] = make([]float64, k)
		for c, j := range sub {
			score[a][c] = 0.5
			if i == j {
				continue
			}
			t := m.Cells[i][j]
			if t.Games() == 0 {
				if a < c {
					f.Unmet++
				}
				continue
			}
			score[a][c] = t.Rate()
			lo[a][c] = pairIv[i][j].Lo
		}
	}
	var notes []string
	if f.Unmet > 0 {
		notes = append(notes, fmt.Sprintf("%d pairs of players never met; α-Rank and Nash averaging take them as even (1/2)", f.Unmet))
	}
	ar := stats.AlphaRank{}
	pi, err := ar.Rank(score)
	f.AlphaRank = "α-Rank of the score matrix (single population, m 50, α 100, as OpenSpiel's defaults)"
	if err != nil {
		var eps float64
		pi, eps, err = stats.InfiniteAlphaRank(score)
		if err != nil {
			return nil, notes, fmt.Errorf("alpha-rank: %w", err)
		}
		f.AlphaRank = fmt.Sprintf("infinite-α α-Rank of the score matrix (the finite-α chain is reducible; noise ε %.2g)", eps)
	}
	for a, i := range sub {
		v := pi[a]
		st[i].AlphaRank = &v
	}
	nash, err := stats.NashAverage(stats.ScoreMargins(score))
	if err != nil {
		return nil, notes, fmt.Errorf("nash averaging: %w", err)
	}
	for a, i := range sub {
		st[i].Nash = &NashShare{Mass: nash.Mass[a], Payoff: nash.Rating[a]}
	}
	cycles, err := stats.Cycles3(lo)
	if err != nil {
		return nil, notes, err
	}
	for _, c := range cycles {
		p := c.Players
		f.Cycles = append(f.Cycles, Cycle{
			Players: [3]string{b.names[sub[p[0]]], b.names[sub[p[1]]], b.names[sub[p[2]]]},
			Lo:      [3]float64{lo[p[0]][p[1]], lo[p[1]][p[2]], lo[p[2]][p[0]]},
			Margin:  c.Margin,
		})
	}
	return f, notes, nil
}

// inversions lists the pairs ranked against a significant difference of
// their scores against the common field. order is the standings' order
// of player indices and field each player's interval against all its
// opponents, which is its interval against the common field when every
// opponent it met was met by the other too (a round robin).
func (b *batch) inversions(order []int, played []bool, field []stats.Interval, level float64) []Inversion {
	n := len(b.names)
	opps := make([][]bool, n)
	count := make([]int, n)
	for p := range n {
		opps[p] = make([]bool, n)
		for _, e := range b.entries[p] {
			if !opps[p][e.opp] {
				opps[p][e.opp] = true
				count[p]++
			}
		}
	}
	// scoreAgainst is p's interval against the opponents both p and q met,
	// and q itself.
	scoreAgainst := func(p, q int, shared int) (stats.Interval, bool) {
		if shared+boolInt(opps[p][q]) == count[p] {
			return field[p], true // every opponent of p counts
		}
		units, _ := b.units(p, func(o int32) bool {
			return int(o) == q || (int(o) != p && opps[p][o] && opps[q][o])
		})
		return interval(units, level)
	}
	var out []Inversion
	for r, a := range order {
		if !played[a] {
			continue
		}
		for _, c := range order[r+1:] {
			if !played[c] {
				continue
			}
			shared := 0
			for o := range n {
				if o != a && o != c && opps[a][o] && opps[c][o] {
					shared++
				}
			}
			ia, okA := scoreAgainst(a, c, shared)
			ic, okC := scoreAgainst(c, a, shared)
			if !okA || !okC || ia.Units < stats.MinUnits || ic.Units < stats.MinUnits {
				continue // no difference is significant on one or two units
			}
			d := ic.Mean - ia.Mean
			se := math.Hypot(ia.SE, ic.SE)
			df := max(min(ia.Units, ic.Units)-1, 1)
			t := stats.StudentQuantile(level, df)
			if d-t*se > 0 {
				common := shared + boolInt(opps[a][c])
				out = append(out, Inversion{Above: b.names[a], Below: b.names[c], Opponents: common, Diff: d, Lo: d - t*se, Hi: d + t*se})
			}
		}
	}
	return out
}

// smallSampleNote says how the intervals of the players with games in
// fewer than stats.MinUnits units were computed.
func smallSampleNote(few []string) string {
	who := strings.Join(few, ", ")
	if len(few) > 6 {
		who = strings.Join(few[:6], ", ") + fmt.Sprintf(" and %d more", len(few)-6)
	}
	return fmt.Sprintf("%s played in fewer than %d distinct units, too few for the large-sample intervals: a score interval there is the exact bound [(α/2)^(1/n), 1] when every unit was won (mirrored when every unit was lost; valid for any score in [0, 1]), Student's t on one degree of freedom when two units differ, and otherwise %s; Elo vs field and the Bradley–Terry interval are %s (no Bradley–Terry difference is significant on them)",
		who, stats.MinUnits, NotAvailable, NotAvailable)
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}
