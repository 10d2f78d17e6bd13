package evolver

import (
	"encoding/json"
	"fmt"
	"time"

	"crucible/engine"
	"crucible/evolver/behave"
	"crucible/strategies"
)

// BudgetMargin is how far past its budget a run may end: the matches in
// flight when a stage is cut at its deadline stop, and the run's files are
// written (5s and 2% of the budget).
func BudgetMargin(budget time.Duration) time.Duration { return 5*time.Second + budget/50 }

// Config describes a whole evolution run: the search, the final
// tournament and the held-out comparison.
type Config struct {
	// Game is the game's rules and GameConfig its configuration (nil for
	// the defaults), parsed from GameConfigJSON (kept in the checkpoint).
	Game           engine.Game
	GameConfig     any
	GameConfigJSON json.RawMessage
	// GameTitle is the game's name as the llm algorithm's prompt calls it
	// and GameRules the rules the prompt states ("" for none); Behaviour
	// is the game's behaviour descriptors (nil for none: MAP-Elites needs
	// them). The games table holds all three.
	GameTitle, GameRules string
	Behaviour            *behave.Behaviour
	// Registry holds the strategies; Base names the one searched.
	Registry *strategies.Registry
	Base     string
	// Algorithm names the search algorithm (see Algorithms) and Options
	// are its own options: the type its AlgorithmSpec.Options returns
	// (nil: its defaults).
	Algorithm string
	Options   Options
	// Pool names the reference opponents (nil: every strategy of the
	// game) at their defaults.
	Pool []string
	// Population is the number of proposals per generation (per island
	// for the GA; 0: AlgorithmSpec.DefaultPopulation) and Seeds the match
	// seeds per generation (default 8).
	Population, Seeds int
	// Seats is the number of seats of the fitness matches: 0 or 2 for
	// seat-swapped pairs, more for free-for-all groups; it must be one of
	// the game's seat counts. The final stages play in the same seats.
	Seats int
	// Seed drives every random choice of the run.
	Seed uint64
	// Generations and Budget stop the search (at least one must be set;
	// with both, whichever comes first). Budget is the wall clock of this
	// session (a resumed run's earlier sessions do not count), final
	// stages included: the search keeps back the time they are estimated
	// to take, every stage is cut at its deadline, and the run ends within
	// Budget and BudgetMargin; a first generation that clearly cannot fit
	// is refused at once (a FieldError of Budget; not with Play).
	Generations int
	Budget      time.Duration
	// Workers is the number of matches played at once (0: every core);
	// Play, when set, plays the search's, the selection's and the held-out
	// matches instead of arena.Run (the tournaments stay here).
	Workers int
	Play    MatchRunner
	// Hall is the hall-of-fame size and HallOpponents how many recent
	// champions join the opponents (defaults 4 and 1; -1 for none).
	Hall, HallOpponents int
	// Top is the number of distinct finalists of the selection (default
	// 4) and TournamentSeeds the fresh seeds of the selection and of the
	// ranking tournament (default 16).
	Top, TournamentSeeds int
	// Holdout is the number of held-out seeds on which the champion is
	// compared with the base (0: no comparison).
	Holdout int
	// SelectRace races the finalists against the field in the selection
	// (raceChampion) instead of testing each against the leader
	// (selectChampion); two seats only.
	SelectRace bool
	// Out is the run directory: missing or empty, unless Resume is set
	// and it holds a checkpoint. Progress receives the run's events (nil:
	// none).
	Out      string
	Resume   bool
	Progress func(Event)

	// files writes the run's files (a test's hook sees every write).
	files files
}

// withDefaults returns c with its zero fields at their defaults.
func (c Config) withDefaults() Config {
	if a, err := LookupAlgorithm(c.Algorithm); err == nil && c.Population == 0 {
		c.Population = a.DefaultPopulation
	}
	if c.Seeds == 0 {
		c.Seeds = 8
	}
	if c.Hall == 0 {
		c.Hall = 4
	}
	if c.HallOpponents == 0 {
		c.HallOpponents = 1
	}
	if c.Top == 0 {
		c.Top = 4
	}
	if c.TournamentSeeds == 0 {
		c.TournamentSeeds = 16
	}
	return c
}

// Validate checks the configuration (its zero fields at their defaults);
// errors are FieldErrors that name the field, its value and its range.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.Game == nil:
		return &FieldError{Field: "Game", Reason: "is not set"}
	case c.Registry == nil:
		return &FieldError{Field: "Registry", Reason: "is not set"}
	case c.Out == "":
		return &FieldError{Field: "Out", Reason: "is not set: the run directory"}
	}
	spec, err := LookupAlgorithm(c.Algorithm)
	if err != nil {
		return err
	}
	if _, err := spec.options(c.Options); err != nil {
		return err
	}
	if _, err := c.Registry.Lookup(c.Game.Name(), c.Base); err != nil {
		return &FieldError{Field: "Base", Err: err}
	}
	switch {
	case c.Population < MinPopulation || c.Population > MaxPopulation:
		return rangeError("Population", c.Population, MinPopulation, MaxPopulation)
	case c.Seeds < MinSeeds || c.Seeds > MaxSeeds:
		return rangeError("Seeds", c.Seeds, MinSeeds, MaxSeeds)
	case c.Generations < 0 || c.Generations > MaxGenerations:
		return rangeError("Generations", c.Generations, 1, MaxGenerations)
	case c.Budget != 0 && (c.Budget < MinBudget || c.Budget > MaxBudget):
		return rangeError("Budget", c.Budget, MinBudget, MaxBudget)
	case c.Generations == 0 && c.Budget == 0:
		return &FieldError{Field: "Generations", Value: 0, Reason: "and Budget 0 leave the search without an end: set one or both"}
	case c.Workers < 0:
		return rangeError("Workers", c.Workers, 0, "cores")
	case c.Hall < 1 || c.Hall > 64:
		return rangeError("Hall", c.Hall, 1, 64)
	case c.HallOpponents < -1 || c.HallOpponents > c.Hall*4:
		return rangeError("HallOpponents", c.HallOpponents, -1, c.Hall*4)
	case c.Top < 1 || c.Top > MaxTop:
		return rangeError("Top", c.Top, 1, MaxTop)
	case c.TournamentSeeds < 1 || c.TournamentSeeds > MaxTournamentSeeds:
		return rangeError("TournamentSeeds", c.TournamentSeeds, 1, MaxTournamentSeeds)
	case c.Holdout < 0 || c.Holdout > MaxHoldout:
		return rangeError("Holdout", c.Holdout, 0, MaxHoldout)
	case c.Holdout == 1:
		return &FieldError{Field: "Holdout", Value: 1, Reason: "cannot give an interval (a paired interval needs at least 2 seeds); use 0 for none or 2 and more"}
	}
	if err := checkSeats(c.Game, c.Seats); err != nil {
		return err
	}
	if c.SelectRace && c.seats() > 2 {
		return &FieldError{Field: "SelectRace", Value: true, Reason: fmt.Sprintf("races seat-swapped pairs; it cannot run with free-for-all groups of %d seats", c.seats())}
	}
	lo, hi := c.Game.SeatRange()
	if lo > 2 || hi < 2 {
		return &FieldError{Field: "Game", Value: c.Game.Name(), Reason: fmt.Sprintf("does not allow two-seat matches (seats %d to %d); the evolver plays pairs", lo, hi)}
	}
	return nil
}

// seats is the seat count of the run's matches.
func (c Config) seats() int { return max(2, c.Seats) }
