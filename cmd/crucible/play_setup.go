package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/engine"
	"crucible/strategies"
)

// lookupGameFlag returns the rules of the game --game names.
func lookupGameFlag(name string) (engine.Game, error) {
	game, err := lookupGame(name)
	if err != nil {
		return nil, fmt.Errorf("--game: %w", err)
	}
	return game, nil
}

// playSession is what a command that plays matches of one game resolves
// its players and --config with: the registry of strategies and the
// session of the outside bots (manifests) it starts, which run for this
// command only (Close stops them).
type playSession struct {
	game     engine.Game
	gameName string
	secret   string // of http:// bots
	reg      *strategies.Registry
	stderr   io.Writer
	bs       *botSession
}

// newPlaySession builds the registry and opens a bot session whose logs
// go to logDir; notices go to cmd's stderr.
func newPlaySession(cmd *cobra.Command, game engine.Game, gameName, secret, logDir string) (*playSession, error) {
	reg, err := newRegistry()
	if err != nil {
		return nil, err
	}
	stderr := cmd.ErrOrStderr()
	return &playSession{game: game, gameName: gameName, secret: secret, reg: reg, stderr: stderr, bs: newBotSession(logDir, stderr)}, nil
}

// Close stops the outside bots the session started.
func (s *playSession) Close() { s.bs.Close() }

// players resolves the players that flag lists (see resolvePlayers).
func (s *playSession) players(flag, spec string) ([]arena.Entrant, error) {
	es, err := resolvePlayers(s.reg, s.gameName, spec, s.secret, s.stderr, s.bs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return es, nil
}

// player resolves the one player that flag names.
func (s *playSession) player(flag, spec string) (arena.Entrant, error) {
	es, err := s.players(flag, spec)
	if err != nil {
		return arena.Entrant{}, err
	}
	if len(es) != 1 {
		return arena.Entrant{}, fmt.Errorf("%s %q names %d players, want one", flag, spec, len(es))
	}
	return es[0], nil
}

// config is the game's configuration that --config names (a file or a
// preset), nil when value is empty.
func (s *playSession) config(value string) (any, error) {
	if value == "" {
		return nil, nil
	}
	data, err := readGameConfig(s.gameName, value)
	if err != nil {
		return nil, err
	}
	cfg, err := s.game.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("--config %s: %w", value, err)
	}
	return cfg, nil
}

// checkSPRTPlayRanges checks the flags a played test and a race share;
// what ("test", "race") names which one in the messages.
func checkSPRTPlayRanges(p sprtPlayOptions, what string) error {
	switch {
	case p.maxPairs < 1 || p.maxPairs > maxSPRTPairs:
		return fmt.Errorf("--max-pairs %d is outside its range [1, %d]", p.maxPairs, maxSPRTPairs)
	case p.workers < 1 || p.workers > maxWorkers:
		return fmt.Errorf("--workers %d is outside its range [1, %d]", p.workers, maxWorkers)
	case p.resume && p.out == "":
		return fmt.Errorf("--resume needs --out: the results file of the %s to continue", what)
	}
	return nil
}

// sprtOut is --out of a played test or race: the matches it held before
// (with --resume) and where the new ones go.
type sprtOut struct {
	prev arena.Results
	emit func(arena.Record) error
	file *arena.RunFile // nil without --out
}

// openSPRTOut opens --out (what names the test or the race in the
// messages), printing the warnings about its earlier lines on stderr;
// without --out the matches are not kept. Discard closes it.
func openSPRTOut(p sprtPlayOptions, stderr io.Writer, what string) (*sprtOut, error) {
	o := &sprtOut{emit: func(arena.Record) error { return nil }}
	if p.out == "" {
		return o, nil
	}
	f, err := arena.OpenRunFile(p.out, p.resume)
	if errors.Is(err, arena.ErrResultsExist) {
		return nil, fmt.Errorf("--out %w; refusing to overwrite it: add --resume to continue the %s, or choose another --out", err, what)
	}
	if err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	o.prev, o.emit, o.file = f.Prev, f.Write, f
	for _, warn := range o.prev.Warnings {
		fmt.Fprintln(stderr, "warning:", warn)
	}
	return o, nil
}

// Discard closes --out, removing a file this run created and wrote
// nothing to (see arena.RunFile.Discard).
func (o *sprtOut) Discard() {
	if o.file != nil {
		o.file.Discard()
	}
}

// runError is the error a played test or race stopped on, naming
// --resume when it disagrees with the file resumed.
func (o *sprtOut) runError(p sprtPlayOptions, runErr error) error {
	if p.out != "" && o.prev.Size > 0 && strings.Contains(runErr.Error(), "recorded job") {
		return fmt.Errorf("--resume %s: %w", p.out, runErr)
	}
	return runErr
}

// printPlayed prints on stderr how fast the played matches went, if any
// were played.
func printPlayed(stderr io.Writer, played, workers int, start time.Time) {
	if played > 0 {
		elapsed := time.Since(start)
		fmt.Fprintf(stderr, "played %d matches in %s (%.0f matches/s) with %d workers\n",
			played, elapsed.Round(time.Millisecond), float64(played)/elapsed.Seconds(), min(workers, played))
	}
}

// writeJSON prints v as indented JSON (--format json).
func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
