package evolver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"crucible/arena/rating"
	"crucible/strategies"
)

// Report is what a run leaves: the search, the tournament, the champion
// and the held-out comparison.
type Report struct {
	// Dir is the run directory.
	Dir string `json:"dir"`
	// Meta is the run's identity.
	Meta Meta `json:"meta"`
	// Generations, Matches, Elapsed and Stopped describe the search.
	Generations int     `json:"generations"`
	Matches     int     `json:"matches"`
	ElapsedS    float64 `json:"elapsed_s"`
	Stopped     string  `json:"stopped"`
	// Base is the base strategy at its defaults as a variant.
	Base strategies.Variant `json:"base"`
	// Cache is what the behaviour cache saved the search.
	Cache CacheStats `json:"cache"`
	// Champion is the finalist the selection chose: the strongest against
	// the field (the pool and the base) on fresh seeds (see
	// selectChampion). Validated is unset when the budget left the
	// selection no time, and ValidationNote then says what the champion
	// is instead (the search's hall-of-fame leader, or the base itself
	// when the budget cut the first generation).
	Champion       strategies.Variant `json:"champion"`
	Validated      bool               `json:"validated"`
	ValidationNote string             `json:"validation_note,omitempty"`
	// Selection is the stage that chose it.
	Selection *Selection `json:"selection,omitempty"`
	// ChampionRank is its place on the ranking tournament's leaderboard
	// (the champion and the field on fresh seeds, in the run's seats: a
	// round robin of pairs, or free-for-all groups; 0 when the budget
	// left no time for it) and AboveReference whether it ranks above every
	// reference strategy. RankSeats is the seats of the ranking's matches.
	ChampionRank   int  `json:"champion_rank"`
	AboveReference bool `json:"above_reference"`
	RankSeats      int  `json:"rank_seats,omitempty"`
	// Ranked are the finalists, the champion first, then by score rate
	// against the field.
	Ranked []strategies.Variant `json:"ranked"`
	// Leaderboard is the ranking tournament's summary.
	Leaderboard rating.Summary `json:"-"`
	// HeadToHead is the finalists' round robin: how they fare against
	// each other, reported but not used to choose the champion.
	HeadToHead *rating.Summary `json:"head_to_head,omitempty"`
	// Plan is the seeds each final stage played, and FinalMatches their
	// matches.
	Plan         FinalPlan `json:"final_plan"`
	FinalMatches int       `json:"final_matches"`
	// Holdout compares the champion with the base on held-out seeds.
	Holdout *Comparison `json:"holdout,omitempty"`
	// ElapsedTotalS is the wall time including the final stages.
	ElapsedTotalS float64 `json:"elapsed_total_s"`
}

// ChampionPlace says where the champion finished in the ranking tournament:
// its rank and whether it ranks above every reference strategy.
func (r *Report) ChampionPlace() string {
	switch {
	case r.ChampionRank == 0:
		return "not ranked (no ranking tournament)"
	case r.AboveReference:
		return fmt.Sprintf("%d, above every reference strategy", r.ChampionRank)
	}
	return fmt.Sprintf("%d, not above every reference strategy", r.ChampionRank)
}

// writeFinal writes the champion, the ranked variants and the leaderboard
// (as reports.WriteSummary writes a summary in JSON).
func writeFinal(f files, dir string, rep *Report) error {
	if err := f.variant(filepath.Join(dir, ChampionFile), rep.Champion); err != nil {
		return err
	}
	rd := filepath.Join(dir, RankedDir)
	if err := os.MkdirAll(rd, 0o755); err != nil {
		return err
	}
	for i, v := range rep.Ranked {
		if err := f.variant(filepath.Join(rd, fmt.Sprintf("%02d-%s.json", i+1, v.ID)), v); err != nil {
			return err
		}
	}
	if len(rep.Leaderboard.Standings) == 0 {
		return nil
	}
	data, err := json.MarshalIndent(rep.Leaderboard, "", "  ")
	if err != nil {
		return err
	}
	return f.atomic(filepath.Join(dir, LeaderboardFile), append(data, '\n'))
}

// FinalPlan is how many seeds each final stage plays.
type FinalPlan struct {
	Select     int `json:"select"`
	Holdout    int `json:"holdout"`
	Rank       int `json:"rank"`
	HeadToHead int `json:"head_to_head"`
}
