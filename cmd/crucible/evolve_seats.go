package main

import (
	"github.com/spf13/pflag"

	"crucible/evolver"
)

// evolveExtraFlags are the evolve command's options for multi-seat fitness
// and quality-diversity search.
type evolveExtraFlags struct {
	seats int
}

func addEvolveExtraFlags(fl *pflag.FlagSet, f *evolveExtraFlags) {
	fl.IntVar(&f.seats, "seats", 2, "seats of the fitness matches: 2 plays seat-swapped pairs; more plays free-for-all groups of the pool with the seats rotated on each seed, scored pairwise against the other seats (kindling 2 to 4; acb 2, 3, 4 or 6)")
}

// resumeExtraDefaults takes the flags the user left out from the run's
// checkpoint record.
func resumeExtraDefaults(set func(name string, apply func()), m evolver.Meta, f *evolveExtraFlags) {
	set("seats", func() { f.seats = max(2, m.Seats) })
}

// applyExtraFlags puts the options into the run's configuration.
func applyExtraFlags(cfg *evolver.Config, f evolveExtraFlags) error {
	cfg.Seats = f.seats
	return nil
}
