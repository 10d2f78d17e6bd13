package rating

import (
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"
	"sync"

	"crucible/stats"
)

// Model names what a leaderboard is ordered by: the Name of a registered
// Spec.
type Model string

// The names of the built-in models.
const (
	// ModelBT is the maximum-likelihood Bradley–Terry (Elo) fit of the
	// whole batch; the default (model_bt.go).
	ModelBT Model = "bt"
	// ModelGlicko2 is Glicko-2, ordered by the conservative rating
	// (rating - 2 RD); the ladder's rating (model_glicko2.go).
	ModelGlicko2 Model = "glicko2"
	// ModelWengLin is the Weng–Lin Bayesian rating of each match's full
	// ranking, made for free-for-all matches (model_wenglin.go).
	ModelWengLin Model = "weng-lin"
	// ModelAlphaRank orders by the α-Rank mass of the score matrix
	// (model_alpharank.go).
	ModelAlphaRank Model = "alpharank"
	// ModelNash orders by the payoff against the maximum-entropy Nash
	// equilibrium of the score margins (model_nash.go).
	ModelNash Model = "nash"
)

// builtin are the models every leaderboard knows, in the order the help
// texts and the CSV columns list them. Adding a model to the package is
// its file and one line here.
var builtin = []*Spec{btSpec, glicko2Spec, wengLinSpec, alphaRankSpec, nashSpec}

// Spec is a rating model: everything a leaderboard, a table and a report
// ask of it. Rate, Key and Columns are required; the rest is optional.
type Spec struct {
	// Name is the model's name (--method NAME) and Aliases other
	// spellings ParseModel accepts (compared in lower case).
	Name    Model
	Aliases []string
	// Title is how a table names the model it is ordered by.
	Title string
	// Rating marks a rating of strength: it is offered by the --rating
	// flags and the leaderboard lists the pairs it ranks against their
	// scores. The others rank a non-transitive field (--method only).
	Rating bool
	// Field marks a model that ranks from the field analysis (Field,
	// Standing.AlphaRank and .Nash); the leaderboard then always makes it.
	Field bool
	// Rate sets the model's figures in st (one standing per b.Names, in
	// that order) and says how it rated, in words (Summary.Method), with
	// remarks for Summary.Notes.
	Rate func(b *Batch, st []Standing, opt Options) (method string, notes []string, err error)
	// Key is a standing's ordering figures, compared in turn, higher
	// first (to 1e-9); ok false for a player without them, who is listed
	// after those with them.
	Key func(s Standing) (key []float64, ok bool)
	// Columns head the model's figures in the leaderboard table and Cells
	// gives a standing's ("-" where it has none).
	Columns []string
	Cells   func(s Standing) []string
	// CSV names the model's CSV columns and CSVValues gives a standing's
	// at full precision (NaN where it has none: an empty cell). Glicko-2's
	// columns are the standing's own and lead every CSV.
	CSV       []string
	CSVValues func(s Standing) []float64
	// Plot gives the report's plot of each player's figure with its
	// interval; nil (or no point) for none.
	Plot func(s Summary) Plot
}

// Plot is a model's plot in a report: one point with its interval per
// player in leaderboard order, and a dashed reference line at Ref.
type Plot struct {
	// Label is the axis label and Caption the figure's caption.
	Label, Caption string
	// Ref is where the reference line is drawn and Pad the least margin
	// beside the points on the axis.
	Ref, Pad float64
	Points   []PlotPoint
}

// PlotPoint is one player's figure X in a Plot, with its interval.
type PlotPoint struct {
	Name      string
	X, Lo, Hi float64
}

// registry holds the models: the built-in ones and those Registered.
var registry = struct {
	sync.RWMutex
	specs []*Spec
}{specs: builtin}

// Register adds a model, after the built-in ones. Its name and aliases
// must be new, and Rate, Key and Columns set. Register is meant for init
// functions and tests, as image.RegisterFormat is.
func Register(s *Spec) error {
	switch {
	case s == nil || s.Name == "":
		return fmt.Errorf("rating model: needs a name")
	case s.Rate == nil || s.Key == nil || len(s.Columns) == 0 || s.Cells == nil:
		return fmt.Errorf("rating model %s: needs Rate, Key, Columns and Cells", s.Name)
	case len(s.CSV) > 0 && s.CSVValues == nil:
		return fmt.Errorf("rating model %s: names CSV columns without CSVValues", s.Name)
	}
	registry.Lock()
	defer registry.Unlock()
	for _, name := range append([]string{string(s.Name)}, s.Aliases...) {
		if o := find(registry.specs, name); o != nil {
			return fmt.Errorf("rating model %s: the name %q is taken by %s", s.Name, name, o.Name)
		}
	}
	registry.specs = append(registry.specs[:len(registry.specs):len(registry.specs)], s)
	return nil
}

// Specs are the registered models in order, the built-in ones first.
func Specs() []*Spec {
	registry.RLock()
	defer registry.RUnlock()
	return registry.specs[:len(registry.specs):len(registry.specs)]
}

// Lookup is the model named m exactly; nil when there is none.
func Lookup(m Model) *Spec {
	for _, s := range Specs() {
		if s.Name == m {
			return s
		}
	}
	return nil
}

// find is the spec whose name or alias is name (lower case); nil for
// none.
func find(specs []*Spec, name string) *Spec {
	for _, s := range specs {
		if string(s.Name) == name {
			return s
		}
		for _, a := range s.Aliases {
			if strings.ToLower(a) == name {
				return s
			}
		}
	}
	return nil
}

// Models are the names of every registered model (crucible rate
// --method) and RatingModels those of the ratings of strength (the
// --rating flags).
func Models() []Model { return names(func(*Spec) bool { return true }) }

// RatingModels are the names of the registered ratings of strength.
func RatingModels() []Model { return names(func(s *Spec) bool { return s.Rating }) }

func names(keep func(*Spec) bool) []Model {
	var out []Model
	for _, s := range Specs() {
		if keep(s) {
			out = append(out, s.Name)
		}
	}
	return out
}

// ParseModel checks a model name, or one of its aliases ("bradley-terry"
// for bt, "openskill" for weng-lin, ...), against the allowed ones.
func ParseModel(s string, allowed []Model) (Model, error) {
	m := Model(strings.ToLower(strings.TrimSpace(s)))
	if spec := find(Specs(), string(m)); spec != nil {
		m = spec.Name
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
		if a == m {
			return m, nil
		}
	}
	return "", fmt.Errorf("model %q is not one of %s", s, strings.Join(names, ", "))
}

// Title is how a table names the model it is ordered by; "" (a summary
// of an earlier version) is Glicko-2.
func (m Model) Title() string {
	if m == "" {
		m = ModelGlicko2
	}
	if s := Lookup(m); s != nil {
		return s.Title
	}
	return string(m)
}

// Batch is what a model rates: the players and their matches reduced to
// pairwise games by independent units.
type Batch struct {
	// Names are the players, in the standings' index order; Played marks
	// those with at least one game.
	Names  []string
	Played []bool
	// Games are the pairwise games (A and B index Names), Unit the
	// independent cluster, a dense index of the seed: every match on one
	// seed is in one cluster, whatever its players, since the pairings of
	// a round share the seed's map or deal (a round merged with exact
	// repeats on other seeds belongs to the first seed's).
	Games []stats.PairGame
	// Matrix tallies the pairwise games, players in Names order.
	Matrix Matrix
	// Field is the analysis of the non-transitive field, nil unless made
	// (always for a Spec with Field).
	Field *Field
	index map[string]int
	ms    *Matches
	order []int32
}

// Matches yields the batch's matches in canonical order (round, seed,
// players). A yielded match's Players and Ranks are only valid until the
// next one.
func (b *Batch) Matches() iter.Seq[Match] { return b.ms.in(b.order) }

// MatchCount is the number of matches in the batch.
func (b *Batch) MatchCount() int { return b.ms.Len() }

// Index is the position of the named player in Names, -1 for none.
func (b *Batch) Index(name string) int {
	if i, ok := b.index[name]; ok {
		return i
	}
	return -1
}

// Figures are a registered model's figures for one player, by name
// (Standing.Figures); the built-in models have fields of their own.
type Figures map[string]float64

// SetFigures sets the figures of model m in s.
func (s *Standing) SetFigures(m Model, f Figures) {
	if s.Figures == nil {
		s.Figures = map[Model]Figures{}
	}
	s.Figures[m] = f
}

// Signed formats v with a sign and the given decimals, without "-0": the
// tables' style for differences.
func Signed(v float64, decimals int) string {
	out := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(out, "-0.") == "" {
		return strconv.FormatFloat(0, 'f', decimals, 64)
	}
	if v > 0 {
		out = "+" + out
	}
	return out
}

// NotAvailable is the cell of an interval no method valid at the sample
// size gives (see Standing.FewUnits).
const NotAvailable = "n/a"

// none is n "-" cells, a model's cells for a player without its figures.
func none(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "-"
	}
	return out
}

// nan is n NaNs, a model's CSV values for a player without its figures.
func nan(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// Periods chooses how Glicko-2 rates a batch.
type Periods string

// The ways Glicko-2 can rate a batch.
const (
	// OnePeriod rates the whole batch as one rating period: every player
	// is updated once from all its games against the others' starting
	// ratings. The order then follows the scores (from equal starts, on a
	// round robin); the default.
	OnePeriod Periods = "one"
	// RoundPeriods rates one period per round of the schedule, the
	// rounds in order. A batch's rounds are not a history, yet later
	// rounds move the ratings differently from earlier ones (the
	// deviations shrink as the rounds go), so the order can disagree with
	// the scores; offered for comparison with earlier versions.
	RoundPeriods Periods = "rounds"
	// PriorIsRating does not rate: Options.Prior holds the ratings (a
	// ladder's, say) and the batch only gives the statistics beside them.
	PriorIsRating Periods = "none"
)

// Options tune Leaderboard. The zero value orders by Bradley–Terry at
// 95%.
type Options struct {
	// Model is the ordering model; "" means ModelBT.
	Model Model
	// Glicko2 is the Glicko-2 system of ModelGlicko2; nil means Default().
	Glicko2 *Glicko2
	// Periods is how Glicko-2 rates the batch; "" means OnePeriod.
	Periods Periods
	// Prior are the Glicko-2 ratings the players start from (players
	// missing from it start at Glicko2.Initial); with PriorIsRating, the
	// ratings themselves.
	Prior map[string]Rating
	// WengLin is the Weng–Lin model of ModelWengLin; nil means
	// stats.DefaultWengLin().
	WengLin *stats.WengLin
	// Level is the confidence level of every interval; 0 means
	// Confidence (0.95).
	Level float64
	// Field asks for the analysis of a non-transitive field (α-Rank,
	// Nash averaging, cycles; see Field). It is always made for a model
	// that ranks from it (Spec.Field).
	Field bool
	// Ranks asks for each player's probability of each rank
	// (Summary.Ranks, see RankProbabilities); nil for none.
	Ranks *RankOptions
}
