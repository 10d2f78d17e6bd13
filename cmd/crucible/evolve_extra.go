package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"crucible/evolver"
	"crucible/evolver/behave"
)

// evolveExtraFlags are the evolve command's options for multi-seat fitness
// and quality-diversity search.
type evolveExtraFlags struct {
	seats       int
	descriptors string
	bins        int
}

func addEvolveExtraFlags(fl *pflag.FlagSet, f *evolveExtraFlags) {
	fl.IntVar(&f.seats, "seats", 2, "seats of the fitness matches: 2 plays seat-swapped pairs; more plays free-for-all groups of the pool with the seats rotated on each seed, scored pairwise against the other seats (kindling 2 to 4; acb 2, 3, 4 or 6)")
	fl.StringVar(&f.descriptors, "descriptors", "", "map-elites: the behaviour descriptors of the archive's axes, comma-separated, 1 to 3 ("+descriptorHelp()+"; default the game's first two)")
	fl.IntVar(&f.bins, "bins", 8, fmt.Sprintf("map-elites: cells per descriptor, 2 to %d", evolver.MaxBins))
}

// descriptorHelp lists each game's descriptors.
func descriptorHelp() string {
	var parts []string
	for _, g := range labGames.All() {
		if b := behave.For(g.Name); b != nil {
			parts = append(parts, g.Name+": "+strings.Join(b.Names(), ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// resumeExtraDefaults takes the flags the user left out from the run's
// checkpoint record.
func resumeExtraDefaults(set func(name string, apply func()), m evolver.Meta, f *evolveExtraFlags) {
	set("seats", func() { f.seats = max(2, m.Seats) })
	if names, bins, ok := strings.Cut(m.QD, "/"); ok {
		set("descriptors", func() { f.descriptors = names })
		set("bins", func() {
			if n, err := strconv.Atoi(bins); err == nil {
				f.bins = n
			}
		})
	}
}

// applyExtraFlags puts the options into the run's configuration.
func applyExtraFlags(cfg *evolver.Config, f evolveExtraFlags, changed func(string) bool) error {
	cfg.Seats = f.seats
	cfg.Behaviour = behave.For(cfg.Game.Name())
	if cfg.Algorithm != "map-elites" {
		for _, name := range []string{"descriptors", "bins"} {
			if changed(name) {
				return fmt.Errorf("--%s applies to --algo map-elites only", name)
			}
		}
		return nil
	}
	cfg.MapElites.Bins = f.bins
	for _, d := range strings.Split(f.descriptors, ",") {
		if d = strings.TrimSpace(d); d != "" {
			cfg.MapElites.Descriptors = append(cfg.MapElites.Descriptors, d)
		}
	}
	return nil
}
