package acbstrat

// LLMRules states the rules of AI Code Battle for a language model: a short and
// exact summary of the game's spec (/work/shared/specs/acb.md), what a
// strategy's parameters act on, with the default settings the arena
// plays. The evolver's llm algorithm shows it in every prompt (the games
// table hands it over).
const LLMRules = `AI Code Battle is a real-time strategy game for 2 to 6 players on a grid that wraps around on both axes, by default 40 rows by 40 columns, for at most 500 turns. Distances are squared Euclidean distances taking the shorter way round each axis. Tiles are open, wall (about 10-15% of tiles, in clumps and ridges; only walls block movement), energy (about one tile in 100) or core. Generated maps are symmetric, so every seat is equivalent. Each player starts with 2 cores, one unit on each, no energy and a score of 0; different players' cores are at least 8 tiles apart. Fog of war: a player sees only the tiles within squared distance 49 (7 tiles) of its units and active cores.

Each turn, in this order:
1. Move. Every unit moves one tile N, E, S or W, or stays; a move into a wall stays. Two or more units of one player ending on one tile all die. Units of different players may share a tile.
2. Combat (focus fire). A unit's enemies are the enemy units within squared distance 25 (5 tiles), counted before anyone dies. A unit dies if one of its enemies has no more enemies around it than the unit has: locally outnumbering the enemy kills without loss, equal numbers trade. Deaths are simultaneous. For each unit killed in combat, every other player that had a unit within squared distance 25 of it scores 1.
3. Zone (off unless the run enables it). From turn 10 on, units farther than r from the map's centre die, with r shrinking by 1 per turn from half the grid's side down to 2.
4. Capture. An active core with an enemy unit on it and no unit of its owner is razed for good; the capturer scores 2.
5. Collect. An energy tile with units of exactly one player on it gives that player 1 energy and empties; with units of two or more players it empties and nobody gains. It is full again 10 turns later.
6. Spawn. Each active core with no unit on it spawns one unit, for 3 energy, while its owner's energy covers the cost (at most one unit per core per turn).
7. End. A player with no active core left is eliminated and its units removed. The match ends when one player remains (it wins), when none remains (a draw), or after 500 turns: then the highest score wins, ties broken by energy held, then by living units; still tied is a draw.

Points come only from kills (1 each) and razed cores (2 each); energy only buys units.
`
