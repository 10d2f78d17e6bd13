package evolver

import (
	"time"
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

func (MatchProgress) event() {}
func (ModelNote) event()     {}
func (Warning) event()       {}

// emit sends e to progress when there is one.
func emit(progress func(Event), e Event) {
	if progress != nil {
		progress(e)
	}
}
