package evolver

import "time"

// Event is a step of a run, handed to a progress callback (Config.Progress,
// Search.Progress, LLMOptions.Progress) as it happens, on the goroutine that
// runs the search. The concrete types are RunStarted, GenerationDone,
// ModelNote, Warning, TournamentStarted, TournamentDone, HoldoutStarted and
// HoldoutDone; later versions may add more (progress inside a generation),
// so a receiver ignores the types it does not know.
type Event interface {
	event()
}

// RunStarted is sent once the run directory is ready and before the first
// generation of this session.
type RunStarted struct {
	// Meta is the run's configuration.
	Meta Meta
	// Resumed is set when the run continues from a checkpoint, which
	// covers Done generations.
	Resumed bool
	Done    int
}

// GenerationDone is sent after each generation, once its line, its hall
// file and its checkpoint are written.
type GenerationDone struct {
	// Stats is the generation's line of generations.jsonl.
	Stats GenStats
	// Generations and Budget are the search's stopping rules (0 when not
	// set); Elapsed is the run's wall time so far, over all sessions.
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

// TournamentStarted is sent when the search is over and the final
// tournament begins.
type TournamentStarted struct {
	// Finalists is the number of evolved variants, Reference the number
	// of reference strategies and Seeds the tournament's seeds.
	Finalists, Reference, Seeds int
}

// TournamentDone is sent when the final tournament is rated and its files
// (champion.json, ranked/, leaderboard.json) are written.
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

func (RunStarted) event()        {}
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
