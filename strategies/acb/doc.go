// Package acb holds the 21 reference strategies of AI Code Battle, playing
// through the engine's fog-filtered view.
package acb

import "crucible/strategies"

// All returns the 21 reference strategies.
func All() []strategies.Strategy { return nil }
