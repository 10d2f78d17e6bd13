package evolver

import (
	"encoding/json"
	"fmt"
)

// A CMA-ES checkpoint holds the values told in every generation, and
// Restore replays them (see cmaES).

type cmaState struct {
	Lambda int         `json:"lambda"`
	Told   [][]float64 `json:"told"`
	// Last is the final generation's samples, checked on replay.
	Last [][]float64 `json:"last,omitempty"`
}

// State returns the values told so far (and the last samples as a check).
func (c *cmaES) State() (json.RawMessage, error) {
	var last [][]float64
	if len(c.told) > 0 {
		last = c.last
	}
	return json.Marshal(cmaState{Lambda: c.lambda0, Told: c.told, Last: last})
}

// Restore replays the told values into a fresh method.
func (c *cmaES) Restore(done int, state json.RawMessage) error {
	var st cmaState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("cmaes: checkpoint state: %w", err)
	}
	if st.Lambda != c.lambda0 {
		return fmt.Errorf("cmaes: checkpoint has population %d, the run %d", st.Lambda, c.lambda0)
	}
	if len(st.Told) != done {
		return fmt.Errorf("cmaes: checkpoint holds %d generations of values, expected %d", len(st.Told), done)
	}
	c.stop()
	c.reset()
	for g, raw := range st.Told {
		if _, err := c.ask(g); err != nil {
			return err
		}
		if len(raw) != c.lambda {
			return fmt.Errorf("cmaes: checkpoint generation %d has %d values, expected %d", g, len(raw), c.lambda)
		}
		if err := c.tellRaw(g, raw); err != nil {
			return err
		}
	}
	if st.Last != nil {
		if len(st.Last) != len(c.last) {
			return fmt.Errorf("cmaes: replaying the checkpoint drew %d samples in generation %d, the checkpoint %d", len(c.last), done-1, len(st.Last))
		}
		for i := range st.Last {
			for j := range st.Last[i] {
				if st.Last[i][j] != c.last[i][j] {
					return fmt.Errorf("cmaes: replaying the checkpoint drew different samples in generation %d; the checkpoint does not belong to this seed and schema", done-1)
				}
			}
		}
	}
	return nil
}
