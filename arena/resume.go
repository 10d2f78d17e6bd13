package arena

import (
	"errors"
	"fmt"
	"math"
	"os"

	"crucible/engine"
)

// MaxScore bounds the magnitude of a score in a results file: no game of
// the lab scores anywhere near it, and ratings computed from sums of
// scores stay finite. A line beyond it was written by hand or damaged.
const MaxScore = 1e9

// checkScores refuses a score that is not finite or beyond MaxScore.
func checkScores(r Record) error {
	for i, s := range r.Scores {
		if math.IsNaN(s) || math.IsInf(s, 0) || math.Abs(s) > MaxScore {
			return fmt.Errorf("result record of job %s: score %g of seat %d is outside [-%g, %g]", r.Job, s, i, MaxScore, MaxScore)
		}
	}
	return nil
}

// RunFile is a results file opened for a run (see OpenRunFile).
type RunFile struct {
	*ResultsWriter
	// Prev is what the file held (see OpenResults).
	Prev Results

	created bool // the file did not exist before
}

// OpenRunFile opens path for a run as OpenResults does, remembering
// whether the file existed, so that Discard can leave none behind.
func OpenRunFile(path string, resume bool) (*RunFile, error) {
	_, statErr := os.Stat(path)
	w, prev, err := OpenResults(path, resume)
	if err != nil {
		return nil, err
	}
	return &RunFile{ResultsWriter: w, Prev: prev, created: errors.Is(statErr, os.ErrNotExist)}, nil
}

// Discard closes the file, and removes it when this run created it and
// wrote nothing to it: a run that failed before its first match leaves no
// empty file behind.
func (f *RunFile) Discard() {
	f.Close()
	if f.created && f.Written() == 0 {
		os.Remove(f.path)
	}
}

// Resumed is a run's results file opened to play the jobs it lacks: the
// one way the local arena and the queue's arena resume a file. Prev holds
// the file's records, finished and failed, in file order (a follower of
// the queue skips what the file holds already); a caller that no longer
// needs them may set Prev.Records to nil.
type Resumed struct {
	*RunFile
	// Todo are the run's jobs the file has no finished match of, in
	// schedule order: its failed matches' jobs are among them.
	Todo []Job
	// Done has collected the file's finished matches (they count in the
	// ratings of the run).
	Done Collector
	// Retry counts the file's failed matches; their error lines stay in
	// the file for the readers to skip.
	Retry int
	// Fresh is set when the file was missing or empty: nothing was
	// resumed.
	Fresh bool
}

// ResumeResults opens the results file at path for a run of jobs over
// entrants (game g, configuration config as Options.Config), as
// OpenResults does with resume, and returns it with the jobs still to
// play (see Remaining). A file that holds records of another run is a
// NotThisRunError, after which nothing is left behind.
func ResumeResults(path string, resume bool, g engine.Game, config any, jobs []Job, entrants []Entrant) (*Resumed, error) {
	f, err := OpenRunFile(path, resume)
	if err != nil {
		return nil, err
	}
	r := &Resumed{RunFile: f, Fresh: f.Prev.Size == 0}
	if r.Todo, err = Remaining(g, config, jobs, entrants, f.Prev.Records); err != nil {
		r.Discard()
		return nil, &NotThisRunError{Path: path, Err: err}
	}
	for _, rec := range f.Prev.Records {
		if rec.Error == "" {
			r.Done.Add(rec)
		} else {
			r.Retry++
		}
	}
	return r, nil
}

// NotThisRunError is ResumeResults' error for a file that holds results of
// another run (another schedule, seed, players or configuration).
type NotThisRunError struct {
	Path string
	Err  error
}

func (e *NotThisRunError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *NotThisRunError) Unwrap() error { return e.Err }

// Summary says what the file held, for a message: "4 of 10 matches done
// (1 failed match skipped: its job is played again), 6 to play".
func (r *Resumed) Summary(total int) string {
	again := ""
	if r.Retry > 0 {
		again = fmt.Sprintf(" (%d failed matches skipped: their jobs are played again)", r.Retry)
	}
	return fmt.Sprintf("%d of %d matches done%s, %d to play", r.Done.Matches, total, again, len(r.Todo))
}
