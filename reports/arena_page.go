package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"crucible/arena"
	"crucible/arena/rating"
)

// MaxErrors is the number of failed matches an arena report lists.
const MaxErrors = 10

// ArenaFacts describes the matches of a results file.
type ArenaFacts struct {
	// Games and Configs are the game names and configuration ids seen,
	// sorted.
	Games   []string
	Configs []string
	// Matches counts the records and Failed those with an error.
	Matches, Failed int
	// Rounds and Seeds count the distinct rounds and match seeds.
	Rounds, Seeds int
	// Seats are the distinct seat counts of the matches, sorted.
	Seats []int
	// MeanTurns is the mean length of the finished matches.
	MeanTurns float64
	// Reasons are the finished matches' end reasons with their counts,
	// most frequent first (ties by name).
	Reasons []Fact
	// Errors are "job: error" of the first MaxErrors failed matches by
	// round and job id, so that the page does not depend on the order in
	// which the matches finished.
	Errors []string
}

// NewArenaFacts counts the facts of records.
func NewArenaFacts(recs []arena.Record) ArenaFacts {
	var f ArenaFacts
	games, configs, rounds, seeds, seats := map[string]bool{}, map[string]bool{}, map[int]bool{}, map[uint64]bool{}, map[int]bool{}
	reasons := map[string]int{}
	turns, finished := 0, 0
	var failed []arena.Record
	for _, r := range recs {
		f.Matches++
		games[r.Game] = true
		if r.Config != "" {
			configs[r.Config] = true
		}
		rounds[r.Round] = true
		seeds[r.Seed] = true
		seats[len(r.Players)] = true
		if r.Error != "" {
			f.Failed++
			failed = append(failed, r)
			continue
		}
		finished++
		turns += r.Turns
		reasons[r.Reason]++
	}
	slices.SortStableFunc(failed, func(a, b arena.Record) int {
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return strings.Compare(a.Job, b.Job)
	})
	for _, r := range failed[:min(len(failed), MaxErrors)] {
		f.Errors = append(f.Errors, r.Job+": "+r.Error)
	}
	f.Games = sortedKeys(games)
	f.Configs = sortedKeys(configs)
	f.Rounds, f.Seeds = len(rounds), len(seeds)
	for s := range seats {
		f.Seats = append(f.Seats, s)
	}
	slices.Sort(f.Seats)
	if finished > 0 {
		f.MeanTurns = float64(turns) / float64(finished)
	}
	for _, name := range sortedKeys(reasons) {
		f.Reasons = append(f.Reasons, Fact{name, strconv.Itoa(reasons[name])})
	}
	slices.SortStableFunc(f.Reasons, func(a, b Fact) int {
		na, _ := strconv.Atoi(a.Value)
		nb, _ := strconv.Atoi(b.Value)
		return nb - na
	})
	return f
}

func sortedKeys[K interface{ ~string }, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ArenaPage is the content of the HTML report of an arena results file.
type ArenaPage struct {
	// Source names the results file and Prior the ratings file the
	// players started from ("" for none).
	Source, Prior string
	// Method says how the ratings were computed (shown under the
	// leaderboard), e.g. "one Glicko-2 rating period per round".
	Method string
	// Facts describe the matches.
	Facts ArenaFacts
	// Summary is the leaderboard with its pairwise statistics.
	Summary rating.Summary
	// Matches, when set, are shown as a table of every match with a link
	// to its viewer page; ReplayDir names the directory of the replays.
	Matches   []MatchRow
	ReplayDir string
	// Exploit, when set, adds each player's exploitability to the
	// leaderboard (a column, and ExploitNote under it).
	Exploit Exploits
}

// WriteArenaHTML writes the report of an arena results file as one HTML
// page with inline CSS and SVG: the run's facts, the leaderboard with how
// its figures were computed, the ratings with their bars, the
// non-transitive field (α-Rank, Nash averaging, cycles) when the summary
// has it, and the pairwise score heat map. The same page gives the same
// bytes.
func WriteArenaHTML(w io.Writer, pg ArenaPage) error {
	lb, err := newBoard(pg.Summary, "", nil)
	if err != nil {
		return err
	}
	notes := summaryNotes(pg.Summary)
	if pg.Exploit != nil {
		var cells [][]string
		for _, r := range lb.Rows {
			cells = append(cells, r.Cells)
		}
		lb.Head, cells = pg.Exploit.addColumn(lb.Head, cells, pg.Summary.Standings)
		for i := range lb.Rows {
			lb.Rows[i].Cells = cells[i]
		}
		notes = append(notes, ExploitNote)
	}
	facts := []Fact{
		{"results file", pg.Source},
		{"game", orNone(strings.Join(pg.Facts.Games, ", "))},
		{"matches", matchesFact(pg.Facts)},
		{"rounds", strconv.Itoa(pg.Facts.Rounds)},
		{"seeds", strconv.Itoa(pg.Facts.Seeds)},
		{"players", strconv.Itoa(len(pg.Summary.Standings))},
		{"seats per match", joinInts(pg.Facts.Seats)},
	}
	if pg.Facts.Matches > pg.Facts.Failed {
		facts = append(facts, Fact{"mean turns", fmt.Sprintf("%.1f", pg.Facts.MeanTurns)})
		var rs []string
		for _, r := range pg.Facts.Reasons {
			rs = append(rs, r.Name+" "+r.Value)
		}
		facts = append(facts, Fact{"end reasons", strings.Join(rs, ", ")})
	}
	if len(pg.Facts.Configs) > 0 {
		facts = append(facts, Fact{"game configuration", strings.Join(pg.Facts.Configs, ", ")})
	}
	model := pg.Summary.Model
	if model == "" {
		model = rating.ModelGlicko2
	}
	facts = append(facts, Fact{"ordered by", model.Title()})
	if model == rating.ModelGlicko2 {
		prior := "none (every player starts at 1500 ± 350)"
		if pg.Prior != "" {
			prior = pg.Prior
		}
		facts = append(facts, Fact{"prior ratings", prior})
	}
	if pg.Method != "" {
		facts = append(facts, Fact{"rated as", pg.Method})
	}
	if s := pg.Summary; s.Clustered {
		u := fmt.Sprintf("%d seeds (every match on a seed is one unit)", s.Seeds)
		r := fmt.Sprintf("%d", s.Units)
		if s.Distinct < s.Units {
			r += fmt.Sprintf(" (%d distinct outcomes; %d of the %d pairings (groups of players) gave one outcome on every seed)", s.Distinct, s.Repeated, s.Groups)
		}
		facts = append(facts, Fact{"independent units", u}, Fact{"rounds of pairings", r})
	}
	field, err := newFieldView(pg.Summary)
	if err != nil {
		return err
	}
	return render(w, "arena", struct {
		Title  string
		Page   ArenaPage
		Facts  []Fact
		Board  board
		Notes  []string
		Field  *fieldView
		Errors []string
	}{"Arena report: " + pg.Source, pg, facts, lb, notes, field, pg.Facts.Errors})
}

// fieldView is the non-transitive field section: each player's α-Rank
// and Nash masses with their bars (0 to massBarW), and the cycles.
type fieldView struct {
	AlphaRank string
	Rows      []fieldRow
	Cycles    []cycleView
	Unmet     int
}

type fieldRow struct {
	Rank                      int
	Name, Alpha, Nash, Payoff string
	AlphaW, NashW             float64
	InSupport                 bool
}

type cycleView struct {
	Text, Lows string
}

// massBarW is the width of the mass bars in CSS pixels.
const massBarW = 160.0

func newFieldView(s rating.Summary) (*fieldView, error) {
	f := s.Field
	if f == nil {
		return nil, nil
	}
	v := &fieldView{AlphaRank: f.AlphaRank, Unmet: f.Unmet}
	bar := func(m float64) float64 { return math.Round(m*massBarW*10) / 10 }
	for _, st := range s.Standings {
		if st.AlphaRank == nil || st.Nash == nil {
			continue
		}
		v.Rows = append(v.Rows, fieldRow{Rank: st.Rank, Name: st.Name,
			Alpha: fmt.Sprintf("%.3f", *st.AlphaRank), Nash: fmt.Sprintf("%.3f", st.Nash.Mass), Payoff: rating.Signed(100*st.Nash.Payoff, 1),
			AlphaW: bar(*st.AlphaRank), NashW: bar(st.Nash.Mass), InSupport: st.Nash.Mass > 0})
	}
	for _, c := range f.Cycles {
		v.Cycles = append(v.Cycles, cycleView{Text: cycleText(c), Lows: fmt.Sprintf("%.1f%%, %.1f%%, %.1f%%", 100*c.Lo[0], 100*c.Lo[1], 100*c.Lo[2])})
	}
	return v, nil
}

func matchesFact(f ArenaFacts) string {
	if f.Failed == 0 {
		return strconv.Itoa(f.Matches)
	}
	return fmt.Sprintf("%d (%d failed and left out of the ratings)", f.Matches, f.Failed)
}
