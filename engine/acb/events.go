package acb

// What a turn reports: death causes, event types and the reasons a match
// ends, as they appear in replays and in Match.Events.

// Death causes and event types as they appear in replays and Events.
const (
	CauseCollision  = "collision"
	CauseCombat     = "combat"
	CauseStorm      = "storm"
	CauseEliminated = "eliminated"

	EventSpawned     = "spawned"
	EventDied        = "died"
	EventCollected   = "collected"
	EventCaptured    = "captured"
	EventBotInactive = "bot_inactive"
)

// Reasons a match ends.
const (
	ReasonElimination  = "elimination"
	ReasonAnnihilation = "annihilation"
	ReasonTurns        = "turns"
)

// Event is something that happened in a turn, in phase order. Fields that
// do not apply to the event's type are -1 (ids) or empty.
type Event struct {
	// Type is one of EventSpawned, EventDied, EventCollected,
	// EventCaptured, EventBotInactive.
	Type string
	// Unit is the unit's id (spawned, died), else -1.
	Unit int
	// Owner is the unit's owner (spawned, died) or the razed core's owner
	// (captured), else -1.
	Owner int
	// Player is the acting player: the collector, the capturer, the bot
	// that went inactive; else -1.
	Player int
	// Core is the core's id (spawned: where the unit appeared; captured),
	// else -1.
	Core int
	// Pos is where it happened (the unit's tile, the energy tile, the core).
	Pos Pos
	// Cause is the cause of a death: CauseCollision, CauseCombat,
	// CauseStorm or CauseEliminated.
	Cause string
}
