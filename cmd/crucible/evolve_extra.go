package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"crucible/evolver"
)

// evolveExtraFlags are the evolve command's options for multi-seat fitness
// and the algorithms' own options, each algorithm's bound to the flags it
// declares (evolver.Options.Flags).
type evolveExtraFlags struct {
	seats      int
	selectRace bool
	// options are each algorithm's options by its name, and owner the
	// algorithm of each of their flags.
	options map[string]evolver.Options
	owner   map[string]string
}

func addEvolveExtraFlags(fl *pflag.FlagSet, f *evolveFlags) {
	fl.IntVar(&f.extra.seats, "seats", 2, "seats of the fitness matches: 2 plays seat-swapped pairs; more plays free-for-all groups of the pool with the seats rotated on each seed, scored pairwise against the other seats (kindling 2 to 4; acb 2, 3, 4 or 6); the selection, the held-out comparison and the ranking play the same seats")
	fl.BoolVar(&f.extra.selectRace, "select-race", false, "race the finalists against the field in the selection (a GSPRT per finalist, Elo 0 against 40, α 5% shared by the finalists (Bonferroni), and empirical-Bernstein eliminations, 5% for the family): the first shown stronger than the field is the champion and the seeds left are saved; instead of the SPRT against the leader; two seats only")
	f.extra.options, f.extra.owner = map[string]evolver.Options{}, map[string]string{}
	for _, a := range evolver.Algorithms() {
		o := a.Options()
		gfs := flag.NewFlagSet(a.Name, flag.ContinueOnError)
		o.Flags(gfs)
		gfs.VisitAll(func(g *flag.Flag) {
			fl.AddGoFlag(g)
			f.extra.owner[g.Name] = a.Name
		})
		f.extra.options[a.Name] = o
	}
}

// checkOwners refuses an algorithm's flag given with another algorithm.
func (f *evolveExtraFlags) checkOwners(changed func(string) bool, algo string) error {
	names := make([]string, 0, len(f.owner))
	for name := range f.owner {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if owner := f.owner[name]; owner != algo && changed(name) {
			return fmt.Errorf("--%s applies to --algo %s only", name, owner)
		}
	}
	return nil
}

// descriptorHelp lists each game's behaviour descriptors, one game a line.
func descriptorHelp() string {
	var b strings.Builder
	for _, g := range labGames.All() {
		if g.Behaviour != nil {
			fmt.Fprintf(&b, "  %-9s %s\n", g.Name, strings.Join(g.Behaviour.Names(), ", "))
		}
	}
	return b.String()
}
