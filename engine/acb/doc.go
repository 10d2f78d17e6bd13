// Package acb implements the rules of AI Code Battle as pinned down in
// shared/specs/acb.md (rules version "acb-lab-1"): the wrapping grid, the
// symmetric map generator, the eight turn phases, fog of war, replays, and
// Game, the engine.Game the arena plays.
//
// # Using it
//
// Game{}.Play plays a whole match from an engine.MatchSpec whose seats hold
// Controllers (view.go). For tests and measurements, NewMatch (or
// NewMatchWith) builds a Match that is played with Run, or turn by turn
// with Step, and read through accessors (Turn, Units, Cores, Score, Events,
// View, VisibleTiles, Result, Replay). Idle and Random are two trivial
// players. ParseReplay reads a replay back into Replay's types.
//
// The map of a match is generated from its seed (GenerateMap) unless
// MatchSpec.Config is a MatchConfig with a Map (for example one read with
// LoadMap; CheckFair says whether it is as fair as a generated one); a
// supplied map fixes rows, cols and cores_per_player.
//
// # Where the rules are
//
// Each rule of shared/specs/acb.md is in the file named after it: the turn
// loop in turn.go walks the phases orders.go, move.go, combat.go, zone.go,
// capture.go, collect.go, spawn.go, energy.go and endgame.go (ranks and
// tie-breaks); fog.go builds the views; mapgen.go, symmetry.go and
// fairness.go make and check maps; replay.go and replayfile.go write and
// read replays.
//
// # Decisions where the spec leaves room
//
//   - Symmetry: see GenerateMap. Three and six seats use translations by a
//     third of the grid (and the 180-degree rotation for six), so their grid
//     sides are rounded to multiples of 3 (MapSize: 40x40 plays as 39x39);
//     the match's config reports the map's size.
//   - Spawn priority: the initial units count as spawned in turn 0, so at
//     first every core ties and the lowest core id goes first.
//   - The zone sent to bots with the state of turn t carries the radius of
//     turn t+1, the turn its orders run in (R0 before zone_start_turn).
//   - Units that die in a self-collision take no part in combat.
//   - dead lists every unit that died in the last turn on a tile the player
//     sees now, whatever the cause (eliminated included). "Sees now" is the
//     vision of the state sent (living units and active cores after the
//     turn), so a unit that died alone, far from the rest, is not listed
//     even for its owner.
//   - A replay's orders are the validated moves other than stay, including
//     moves into walls (which leave the unit in place).
//   - Contested energy (two or more players on it) empties without an event.
//   - Ranks: players still in the game rank above eliminated ones, those
//     eliminated later above those eliminated earlier, then by score, energy
//     held and living units; equal keys share a place. In an annihilation
//     the players eliminated in the last turn share first place (a draw).
//   - Remote controllers are asked concurrently (each has its own View);
//     in-process ones in seat order. A panic in any controller aborts the
//     match; only a remote controller's returned error is a failed turn.
//   - The match id defaults to "m_" and the seed in 16 hex digits.
//
// # Performance
//
// A match allocates when it is built and never per turn: grids are flat
// slices indexed row*cols+col, occupancy uses per-owner grids stamped with
// a generation instead of being cleared, and fog is a bitset per player
// (one row mask per vision-disc row, from precomputed column masks) from
// which walls, energy and units come out already sorted by (row, col).
// See BenchmarkRandomVsRandom.
package acb
