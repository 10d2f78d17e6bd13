package arena

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"crucible/engine"
	"crucible/internal/atomicfile"
)

// Options tune Run.
type Options struct {
	// Workers is the number of matches played at once; 0 means
	// runtime.NumCPU().
	Workers int
	// Config is the game configuration passed in MatchSpec.Config; nil
	// means the game's defaults.
	Config any
	// ReplayDir, when set, receives each successful match's replay or log
	// as <job id>.json. The directory must exist.
	ReplayDir string
	// Progress, when set, is called after every emitted record with the
	// number of records emitted so far and the number of jobs.
	Progress func(done, total int)
}

// batchWindow is how much match time a worker gathers in finished records
// before it hands them to the emitter. Fast games (microseconds a match)
// then cost one hand-over, and one wake-up of the emitter, per window
// instead of per match (each wake-up costs the worker about 1% at a 1 ms
// window on two cores); a match slower than the window is handed over as
// soon as it ends. On cancellation held records are handed over; a killed
// process loses at most one window of matches per worker.
const batchWindow = 10 * time.Millisecond

// maxBatch caps the records a worker holds back.
const maxBatch = 4096

// Run plays jobs on a pool of workers and calls emit for every finished
// match, from one goroutine (the caller's), in completion order. A player
// that panics or fails ends its match as a Record with Error set and the
// run goes on. Run returns when every job is done, when emit returns an
// error (that error), or when ctx is cancelled (ctx.Err()): matches already
// finished are emitted, matches in flight are dropped. Each match is played
// under a match id unique to the run, "<job id>-<12 hex digits>" (the hex
// digits hash the game, its configuration, the entrants and the match
// seed), so that runs sharing a remote bot never reuse one another's ids;
// the same run gives the same ids, resumed or not, at any worker count.
func Run(ctx context.Context, g engine.Game, entrants []Entrant, jobs []Job, opt Options, emit func(Record) error) error {
	if err := Validate(g, entrants, jobs); err != nil {
		return err
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, len(jobs))
	if workers == 0 {
		return ctx.Err()
	}
	cfgID, err := ConfigID(g, opt.Config)
	if err != nil {
		return err
	}
	// The workers stop when the caller cancels, when one of them fails
	// (the group cancels) or when emit fails (cancel).
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	group, groupCtx := errgroup.WithContext(runCtx)

	p := &pool{g: g, name: g.Name(), configID: cfgID, entrants: entrants, jobs: jobs, opt: opt, ctx: groupCtx, workers: workers,
		free: make(chan []Record, 2*workers)}
	p.refs = make([]PlayerRef, len(entrants))
	for i, e := range entrants {
		p.refs[i] = e.Ref()
	}
	p.runKey = runKey(p.name, cfgID, p.refs)
	out := make(chan []Record, workers)
	for w := 0; w < workers; w++ {
		group.Go(func() error { return p.work(out) })
	}
	workErr := make(chan error, 1)
	go func() {
		workErr <- group.Wait()
		close(out)
	}()

	done := 0
	var emitErr error
	for batch := range out {
		for _, rec := range batch {
			if emitErr != nil {
				break
			}
			if err := emit(rec); err != nil {
				emitErr = err
				cancel()
				break
			}
			done++
			if opt.Progress != nil {
				opt.Progress(done, len(jobs))
			}
		}
		// emit got copies: the batch's array can carry the next batch.
		select {
		case p.free <- batch[:0]:
		default:
		}
	}
	if emitErr != nil {
		return emitErr
	}
	if err := <-workErr; err != nil {
		return err
	}
	return ctx.Err()
}

// Validate checks that every job seats known entrants, in a number of seats
// the game allows, that job ids are unique and that entrants have unique
// names and a constructor.
func Validate(g engine.Game, entrants []Entrant, jobs []Job) error {
	names := make(map[string]bool, len(entrants))
	for i, e := range entrants {
		if e.Name == "" {
			return fmt.Errorf("entrant %d (strategy %q) has no name", i, e.Strategy)
		}
		if e.New == nil {
			return fmt.Errorf("entrant %d (%q) has no constructor (New)", i, e.Name)
		}
		if names[e.Name] {
			return fmt.Errorf("entrant name %q appears twice", e.Name)
		}
		names[e.Name] = true
	}
	lo, hi := g.SeatRange()
	ids := make(map[string]bool, len(jobs))
	for _, j := range jobs {
		if len(j.Seats) < lo || len(j.Seats) > hi {
			return fmt.Errorf("job %s has %d seats; %s allows [%d, %d]", j.ID, len(j.Seats), g.Name(), lo, hi)
		}
		for _, s := range j.Seats {
			if s < 0 || s >= len(entrants) {
				return fmt.Errorf("job %s seats entrant %d, outside [0, %d]", j.ID, s, len(entrants)-1)
			}
		}
		if ids[j.ID] {
			return fmt.Errorf("job id %q appears twice in the schedule", j.ID)
		}
		ids[j.ID] = true
	}
	return nil
}

// pool is the read-only state the workers share.
type pool struct {
	g        engine.Game
	name     string
	configID string
	workers  int
	entrants []Entrant
	refs     []PlayerRef
	jobs     []Job
	opt      Options
	ctx      context.Context
	runKey   uint64
	next     atomic.Int64
	// free returns emitted batches to the workers for reuse.
	free chan []Record
}

// work claims jobs until none is left or the run is cancelled, handing
// finished records to out in batches (see batchWindow). It returns an
// error only for a failure of the arena itself (writing a replay).
func (p *pool) work(out chan<- []Record) error {
	var batch []Record
	var slab []PlayerRef
	var held time.Duration // match time gathered in batch
	// One clock read per match: a match's time runs from the end of the
	// previous one (claiming the job and building players included).
	t0 := time.Now()
	last := time.Duration(0)
	flush := func() {
		if len(batch) > 0 {
			out <- batch
			batch, held = nil, 0
		}
	}
	defer flush()
	for {
		i := int(p.next.Add(1) - 1)
		if i >= len(p.jobs) || p.ctx.Err() != nil {
			return nil
		}
		job := p.jobs[i]
		// Records take their player lists from a slab shared by a batch:
		// one allocation per batch instead of one per match.
		// Arrays are sized for this worker's share of the jobs left, up
		// to a batch: short runs (the evolver plays many) allocate little.
		share := min(maxBatch, (len(p.jobs)-i+p.workers-1)/p.workers)
		if cap(slab)-len(slab) < len(job.Seats) {
			slab = make([]PlayerRef, 0, share*len(job.Seats))
		}
		n := len(slab)
		slab = slab[:n+len(job.Seats)]
		if batch == nil {
			select {
			case batch = <-p.free:
			default:
				batch = make([]Record, 0, share)
			}
		}
		batch = append(batch, Record{})
		rec := &batch[len(batch)-1]
		ok, err := p.play(job, slab[n:n+len(job.Seats):n+len(job.Seats)], rec)
		if err != nil {
			batch = batch[:len(batch)-1]
			return err
		}
		if !ok {
			batch = batch[:len(batch)-1]
			return nil
		}
		now := time.Since(t0)
		took := now - last
		last = now
		rec.DurationMS = float64(took.Nanoseconds()) / 1e6
		held += took
		if len(batch) >= maxBatch || held >= batchWindow {
			flush()
		}
	}
}

// play runs one job into rec, storing its Players in refs. ok is false
// when the match was cut short by cancellation (the record is dropped);
// err reports a failure to keep the replay.
func (p *pool) play(job Job, refs []PlayerRef, rec *Record) (ok bool, err error) {
	*rec = Record{
		Job:     job.ID,
		Game:    p.name,
		Config:  p.configID,
		Round:   job.Round,
		Seed:    job.Seed,
		Players: refs,
	}
	seats := make([]engine.Seat, len(job.Seats))
	defer closePlayers(seats)
	// Every seat is named before any player is built, so that a record of
	// a match that failed to start still names all its players.
	for s, ei := range job.Seats {
		rec.Players[s] = p.refs[ei]
	}
	for s, ei := range job.Seats {
		e := &p.entrants[ei]
		pl, err := newPlayer(p.ctx, e, engine.SeatSeed(job.Seed, s), s)
		if err != nil {
			if p.ctx.Err() != nil {
				return false, nil // cut short by cancellation, not a failure
			}
			rec.Error = fmt.Sprintf("seed %d: building player %s (strategy %s) for seat %d: %v", job.Seed, e.Name, e.Strategy, s, err)
			return true, nil
		}
		seats[s] = engine.Seat{Name: e.Name, Strategy: e.Strategy, Params: e.Params, Player: pl}
	}
	spec := engine.MatchSpec{Seed: job.Seed, MatchID: matchID(p.runKey, job), Config: p.opt.Config, Seats: seats}
	var replay *bytes.Buffer
	if p.opt.ReplayDir != "" {
		replay = new(bytes.Buffer)
		spec.Replay = replay
	}
	res, perr := safePlay(p.ctx, p.g, spec)
	if perr != nil {
		if ctxErr := p.ctx.Err(); ctxErr != nil && errors.Is(perr, ctxErr) {
			return false, nil
		}
		rec.Error = describe(perr, job, p.entrants)
		return true, nil
	}
	if len(res.Scores) != len(seats) || len(res.Ranks) != len(seats) || (res.Crashed != nil && len(res.Crashed) != len(seats)) {
		rec.Error = fmt.Sprintf("seed %d: %s returned %d scores, %d ranks and %d crash flags for %d seats",
			job.Seed, p.name, len(res.Scores), len(res.Ranks), len(res.Crashed), len(seats))
		return true, nil
	}
	rec.Scores, rec.Ranks, rec.Turns, rec.Reason, rec.Crashed = res.Scores, res.Ranks, res.Turns, res.Reason, res.Crashed
	rec.Adjudicated = res.Adjudicated
	rec.Detail = res.Detail
	if replay != nil {
		path := filepath.Join(p.opt.ReplayDir, job.ID+".json")
		if err := atomicfile.WriteFile(path, replay.Bytes()); err != nil {
			return false, fmt.Errorf("keeping the replay of job %s: %w", job.ID, err)
		}
	}
	return true, nil
}

// runKey identifies a run for its match ids: the first 8 bytes of the
// SHA-256 of the game, its configuration id and the entrants in order
// (name, strategy, variant). A resumed run has the same key (--resume
// refuses other entrants or configurations), and so does the same run with
// more seeds.
func runKey(game, configID string, refs []PlayerRef) uint64 {
	h := sha256.New()
	io.WriteString(h, game)
	h.Write([]byte{0})
	io.WriteString(h, configID)
	for _, r := range refs {
		for _, s := range [...]string{r.Name, r.Strategy, r.VariantID} {
			h.Write([]byte{0})
			io.WriteString(h, s)
		}
	}
	return binary.BigEndian.Uint64(h.Sum(nil))
}

// matchID is the id a match is played under (MatchSpec.MatchID: replays,
// logs, and the protocol of remote bots): the job's id, then 12 hex
// digits of the run's key mixed with the match seed, e.g.
// "r0-0v1-3fa9c2e1b0d4". Job ids repeat from run to run; match ids of runs
// with other entrants, configuration or seeds differ, so two arenas that
// share a served bot do not mix its per-match state. The same run (resumed
// or not, at any worker count) gives the same ids.
func matchID(key uint64, job Job) string {
	const hexDigits = "0123456789abcdef"
	buf := make([]byte, 0, len(job.ID)+13)
	buf = append(buf, job.ID...)
	buf = append(buf, '-')
	h := engine.Mix(key, job.Seed)
	for shift := 44; shift >= 0; shift -= 4 {
		buf = append(buf, hexDigits[(h>>uint(shift))&0xf])
	}
	return string(buf)
}

// describe turns a match error into the record's message, naming the
// failing player's strategy and the seed.
func describe(err error, job Job, entrants []Entrant) string {
	var pe *engine.PlayerError
	if errors.As(err, &pe) && pe.Seat >= 0 && pe.Seat < len(job.Seats) {
		e := entrants[job.Seats[pe.Seat]]
		return fmt.Sprintf("seed %d: player %s (strategy %s) in seat %d failed: %v", job.Seed, e.Name, e.Strategy, pe.Seat, pe.Err)
	}
	return fmt.Sprintf("seed %d: %v", job.Seed, err)
}

// closePlayers closes the players of a match that implement io.Closer
// (an outside bot's lease on its process), once the match is over:
// played, failed or cut short.
func closePlayers(seats []engine.Seat) {
	for _, s := range seats {
		if c, ok := s.Player.(io.Closer); ok {
			c.Close()
		}
	}
}

// newPlayer calls the entrant's constructor, turning a panic into an error.
func newPlayer(ctx context.Context, e *Entrant, seed uint64, seat int) (p engine.Player, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", engine.ErrPanic, r)
		}
	}()
	return e.New(ctx, seed, seat)
}

// safePlay calls Game.Play, turning a panic that escapes the game into an
// error (games recover their players' panics themselves; this guards the
// run against a bug in the rules).
func safePlay(ctx context.Context, g engine.Game, spec engine.MatchSpec) (res engine.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v", g.Name(), r)
		}
	}()
	return g.Play(ctx, spec)
}

// PlaySequential plays jobs one after another on the calling goroutine
// with nothing around Game.Play but building the players: no pool, no
// records, no recovery. It is the bare match loop the arena's overhead is
// measured against (crucible bench and the arena benchmarks); the first
// error stops it and names the job.
func PlaySequential(ctx context.Context, g engine.Game, entrants []Entrant, jobs []Job) error {
	for _, j := range jobs {
		seats := make([]engine.Seat, len(j.Seats))
		for s, ei := range j.Seats {
			e := &entrants[ei]
			p, err := e.New(ctx, engine.SeatSeed(j.Seed, s), s)
			if err != nil {
				return fmt.Errorf("job %s: building %s: %w", j.ID, e.Name, err)
			}
			seats[s] = engine.Seat{Name: e.Name, Strategy: e.Strategy, Params: e.Params, Player: p}
		}
		_, err := g.Play(ctx, engine.MatchSpec{Seed: j.Seed, MatchID: j.ID, Seats: seats})
		closePlayers(seats)
		if err != nil {
			return fmt.Errorf("job %s: %w", j.ID, err)
		}
	}
	return nil
}
