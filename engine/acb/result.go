package acb

// The outcome of a match: per-player figures and the engine.Result.

// PlayerStats are one player's figures over a match: the final state the
// result lists, and counters for measuring strategies.
type PlayerStats struct {
	Score   int  `json:"score"`
	Energy  int  `json:"energy"`
	Units   int  `json:"units"`
	Cores   int  `json:"cores"`
	Crashed bool `json:"crashed"`
	// EnergyCollected is the energy gained from energy tiles.
	EnergyCollected int `json:"energy_collected"`
	// UnitsSpawned counts units spawned after the initial ones.
	UnitsSpawned int `json:"units_spawned"`
	// Units lost by cause.
	LostCollision  int `json:"lost_collision"`
	LostCombat     int `json:"lost_combat"`
	LostStorm      int `json:"lost_storm"`
	LostEliminated int `json:"lost_eliminated"`
	// Kills counts enemy units that died in combat with a unit of this
	// player in range (each scored kill_score).
	Kills int `json:"kills"`
	// CoresRazed counts enemy cores this player captured; FirstRazeTurn is
	// the turn of the first (0 when none).
	CoresRazed    int `json:"cores_razed"`
	FirstRazeTurn int `json:"first_raze_turn"`
	// CoresLost counts own cores razed by others.
	CoresLost int `json:"cores_lost"`
	// EliminatedTurn is the turn the player was eliminated (0 when not).
	EliminatedTurn int `json:"eliminated_turn"`
}

// Detail is the game-specific part of an ACB engine.Result.
type Detail struct {
	// Winner is the winning seat, NoWinner (-1) for a draw.
	Winner int `json:"winner"`
	// Players holds each seat's figures in seat order.
	Players []PlayerStats `json:"players"`
}
