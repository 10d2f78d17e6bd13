package evolver

import "time"

// Limits of the run's knobs; errors name the field and its range.
const (
	MinPopulation, MaxPopulation = 4, 256
	MinSeeds, MaxSeeds           = 1, 256
	MinBudget, MaxBudget         = 5 * time.Second, 7 * 24 * time.Hour
	MaxGenerations               = 100000
	MaxTop                       = 16
	MaxHoldout                   = 10000
	MaxTournamentSeeds           = 1000
)
