package evolver

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"crucible/engine"
	"crucible/strategies"
)

// A behaviour fingerprint is the hash of what a variant does on a fixed
// probe set: a few matches, always the same (fixed seeds, fixed opponents,
// fixed seats), whose replays (every move of every turn, as the game
// records them) are hashed in order. Two genomes that
// differ only in a parameter the strategy never consults in those matches
// play them move for move alike and share a fingerprint; the search then
// measures the behaviour once (see search.fingerprint). The probe is a
// sample: genomes alike on it may still differ elsewhere, which is the
// price of not playing them again.

// probeStream keeps the probe seeds apart from every other seed stream.
const probeStream = 0x70726f6265

// probeSeeds returns the n fixed seeds of the probe matches. They do not
// depend on the run, so fingerprints of one base against the same probe
// opponents compare across runs.
func probeSeeds(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = engine.Mix(probeStream, uint64(i))
	}
	return out
}

// probeFingerprinter fingerprints genomes by playing each against every
// probe opponent on every probe seed, the candidate's seat alternating from
// match to match, and hashing the matches' replays.
type probeFingerprinter struct {
	// Game is the game's rules and Config its configuration (nil for the
	// defaults).
	Game   engine.Game
	Config any
	// Base is the strategy the genomes are variants of.
	Base strategies.Strategy
	// Opponents are the probe opponents and Seeds the probe seeds.
	Opponents []opponent
	Seeds     []uint64
	// Workers is the number of matches played at once (0: every core).
	Workers int
}

// newProbeFingerprinter builds the probe set of a run: the base at its
// defaults and up to two opponents spread over the pool (the pool's names
// other than the base's), each on two fixed seeds: six matches a genome.
func newProbeFingerprinter(g engine.Game, config any, base strategies.Strategy, pool []opponent, workers int) *probeFingerprinter {
	opp := []opponent{{Name: base.Name, Strategy: base, Genome: base.Schema.Defaults()}}
	var others []opponent
	for _, o := range pool {
		if o.Name != base.Name {
			others = append(others, o)
		}
	}
	switch n := len(others); {
	case n == 1:
		opp = append(opp, others[0])
	case n >= 2:
		opp = append(opp, others[n/3], others[(2*n)/3])
	}
	return &probeFingerprinter{Game: g, Config: config, Base: base, Opponents: opp, Seeds: probeSeeds(2), Workers: workers}
}

// ProbeMatches is the number of probe matches of one genome.
func (p *probeFingerprinter) ProbeMatches() int { return len(p.Opponents) * len(p.Seeds) }

// Fingerprint plays the probe matches of every genome and returns the
// fingerprints: 16 hex digits of SHA-256 over the probe matches' replays in
// order. The candidate plays under a fixed name and without its parameters
// in the replay, so only what it does counts. A match that fails (a
// player's error or panic) contributes its error text: failing alike is
// behaving alike.
func (p *probeFingerprinter) Fingerprint(ctx context.Context, genomes []strategies.Genome) ([]string, error) {
	probes := p.ProbeMatches()
	if probes == 0 {
		return nil, fmt.Errorf("fingerprint: the probe set has %d opponents and %d seeds; it needs at least one of each", len(p.Opponents), len(p.Seeds))
	}
	digests := make([][sha256.Size]byte, len(genomes)*probes)
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i := range digests {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			d, err := p.probe(gctx, genomes[i/probes], i%probes)
			digests[i] = d
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]string, len(genomes))
	for gi := range genomes {
		h := sha256.New()
		for k := 0; k < probes; k++ {
			h.Write(digests[gi*probes+k][:])
		}
		out[gi] = hex.EncodeToString(h.Sum(nil))[:16]
	}
	return out, nil
}

// hasherPool reuses the replay hashers: a replay may be large.
var hasherPool = sync.Pool{New: func() any { return sha256.New() }}

// probe plays probe match k of genome and returns the hash of its replay
// (or of its error). It fails only when ctx is cancelled.
func (p *probeFingerprinter) probe(ctx context.Context, genome strategies.Genome, k int) ([sha256.Size]byte, error) {
	var d [sha256.Size]byte
	o := p.Opponents[k/len(p.Seeds)]
	seed := p.Seeds[k%len(p.Seeds)]
	seat := k % 2
	h := hasherPool.Get().(hash.Hash)
	defer hasherPool.Put(h)
	h.Reset()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(k))
	h.Write(n[:])
	res, err := p.play(ctx, genome, o, seed, seat, h)
	if ctx.Err() != nil {
		return d, ctx.Err()
	}
	if err != nil {
		fmt.Fprintf(h, "\x00error: %v", err)
	} else {
		fmt.Fprintf(h, "\x00ranks %v scores %v turns %d", res.Ranks, res.Scores, res.Turns)
	}
	copy(d[:], h.Sum(nil))
	return d, nil
}

// play plays one probe match, the candidate in seat, its replay into w;
// a panic of a player or of the rules is an error.
func (p *probeFingerprinter) play(ctx context.Context, genome strategies.Genome, o opponent, seed uint64, seat int, w hash.Hash) (res engine.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", engine.ErrPanic, r)
		}
	}()
	seats := make([]engine.Seat, 2)
	cand := p.Base.New(append(strategies.Genome(nil), genome...), engine.SeatSeed(seed, seat), seat)
	opp := o.Strategy.New(append(strategies.Genome(nil), o.Genome...), engine.SeatSeed(seed, 1-seat), 1-seat)
	if cand == nil || opp == nil {
		return res, fmt.Errorf("a strategy built no player")
	}
	// A player that holds something until its match is over (an outside
	// bot's lease on its process) is closed, as the arena closes its
	// players: left open, every probe match would start another process.
	defer closeIfCloser(cand)
	defer closeIfCloser(opp)
	seats[seat] = engine.Seat{Name: "probe", Strategy: p.Base.Name, Player: cand}
	seats[1-seat] = engine.Seat{Name: o.Name, Strategy: o.Strategy.Name, Player: opp}
	return p.Game.Play(ctx, engine.MatchSpec{Seed: seed, MatchID: "probe", Config: p.Config, Seats: seats, Replay: w})
}

// closeIfCloser closes a player that implements io.Closer.
func closeIfCloser(p engine.Player) {
	if c, ok := p.(io.Closer); ok {
		c.Close()
	}
}
