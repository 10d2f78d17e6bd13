package evolver

import (
	"time"

	"crucible/arena/rating"
	"crucible/strategies"
)

// Event is a step of a run, handed to the progress callback
// (Config.Progress) as it happens, on the goroutine that
// runs the search. The concrete types are RunStarted, MatchProgress,
// GenerationDone, ModelNote, Warning, SelectionStarted, SelectionDone,
// HoldoutStarted, HoldoutDone, TournamentStarted, TournamentDone and
// HeadToHeadDone; later versions may add more, so a receiver ignores the
// types it does not know.
type Event interface {
	event()
}

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

// GenerationDone is sent after each generation, once its line, its hall
// file and its checkpoint are written.
type GenerationDone struct {
	// Stats is the generation's line of generations.jsonl.
	Stats GenStats
	// Generations and Budget are the search's stopping rules (0 when not
	// set; Budget over all sessions: the earlier sessions' time and this
	// session's budget); Elapsed is the run's wall time so far, over all
	// sessions.
	Generations int
	Budget      time.Duration
	Elapsed     time.Duration
}

// ModelNote is a remark of the llm algorithm: a value clamped, an attempt
// failed, a generation proposed by mutation.
type ModelNote struct {
	// Generation is the generation asked for, from 0.
	Generation int
	// Message is the remark.
	Message string
}

// Warning is something the run goes on despite: failed matches counted as
// losses, final stages that eat most of the budget.
type Warning struct {
	// Message is the warning.
	Message string
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

// MatchProgress is sent as the matches of a generation or of a final
// stage are played (at most about five times a second, and at the end).
type MatchProgress struct {
	// Stage names the work: "generation 3", "selection", "held-out",
	// "ranking", "head-to-head".
	Stage string
	// Done and Total are the stage's matches played and planned.
	Done, Total int
	// Elapsed is the stage's time so far and ETA the estimated time left
	// at the stage's pace.
	Elapsed, ETA time.Duration
}

// throttled returns a progress callback for stage that sends
// MatchProgress events to progress, at most every 200 ms and at the end.
func throttled(progress func(Event), stage string) func(done, total int) {
	start := time.Now()
	var last time.Time
	return func(done, total int) {
		now := time.Now()
		if done < total && now.Sub(last) < 200*time.Millisecond {
			return
		}
		last = now
		el := now.Sub(start)
		var eta time.Duration
		if done > 0 && total > done {
			eta = time.Duration(float64(el) / float64(done) * float64(total-done))
		}
		progress(MatchProgress{Stage: stage, Done: done, Total: total, Elapsed: el, ETA: eta})
	}
}

func (RunStarted) event()        {}
func (SelectionStarted) event()  {}
func (SelectionDone) event()     {}
func (HeadToHeadDone) event()    {}
func (MatchProgress) event()     {}
func (GenerationDone) event()    {}
func (ModelNote) event()         {}
func (Warning) event()           {}
func (TournamentStarted) event() {}
func (TournamentDone) event()    {}
func (HoldoutStarted) event()    {}
func (HoldoutDone) event()       {}

// emit sends e to progress when there is one.
func emit(progress func(Event), e Event) {
	if progress != nil {
		progress(e)
	}
}
