package evolver

import (
	"crucible/arena/rating"
	"crucible/strategies"
	"time"
)

// RunStarted is sent once the run directory is ready and before the first
// generation of this session.
type RunStarted struct {
	// Meta is the run's configuration.
	Meta Meta
	// Resumed is set when the run continues from a checkpoint, which
	// covers Done generations of Elapsed wall time (its earlier
	// sessions).
	Resumed bool
	Done    int
	Elapsed time.Duration
	// Budget is this session's budget (0: none), final stages included.
	Budget time.Duration
}

// TournamentStarted is sent when the champion starts its round robin with
// the reference strategies (the field) that ranks it among them.
type TournamentStarted struct {
	// Finalists is the number of evolved variants (1, the champion),
	// Reference the number of reference strategies, Seeds the
	// tournament's seeds and Seats the seats of its matches (those the
	// search played).
	Finalists, Reference, Seeds, Seats int
}

// TournamentDone is sent when the ranking tournament is rated and
// leaderboard.json is written.
type TournamentDone struct {
	// Report is the run's report so far: everything but the held-out
	// comparison and the total time. It is the caller's to read, not to
	// change.
	Report *Report
	// ChampionPath is where the champion was written.
	ChampionPath string
}

// HoldoutStarted is sent before the champion is compared with the base on
// held-out seeds.
type HoldoutStarted struct {
	// Seeds is the number of held-out seeds.
	Seeds int
}

// HoldoutDone is sent with the held-out comparison.
type HoldoutDone struct {
	// Comparison is the champion against the base.
	Comparison Comparison
}

// SelectionStarted is sent when the search is over and the finalists
// start playing the field for the champion's place.
type SelectionStarted struct {
	// Finalists is the number of finalists, Field the number of
	// opponents (the pool and the base) and Seeds the seeds planned.
	Finalists, Field, Seeds int
}

// SelectionDone is sent when the champion is chosen and champion.json and
// ranked/ are written.
type SelectionDone struct {
	// Selection is the stage's result; Champion the chosen variant,
	// written to ChampionPath.
	Selection    Selection
	Champion     strategies.Variant
	ChampionPath string
}

// HeadToHeadDone is sent with the finalists' round robin (reported, not
// used to choose the champion).
type HeadToHeadDone struct {
	Summary rating.Summary
}

func (RunStarted) event() {}

func (SelectionStarted) event() {}

func (SelectionDone) event() {}

func (HeadToHeadDone) event() {}

func (TournamentStarted) event() {}

func (TournamentDone) event() {}

func (HoldoutStarted) event() {}

func (HoldoutDone) event() {}
