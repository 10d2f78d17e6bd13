// Package rating turns match outcomes into leaderboards.
//
// Leaderboard ranks a batch of matches by a model: the maximum-likelihood
// Bradley–Terry fit (the default: on a round robin its order is the order
// of the scores), Glicko-2 (Glickman, "Example of the Glicko-2 system"),
// Weng–Lin for free-for-all rankings, α-Rank or Nash averaging. Beside
// the model's figures it gives each player's score against the field,
// every pair's score and the Elo difference the score implies, all with
// intervals clustered by seed (every match on one seed is one unit,
// whatever its players: a round's pairings share its map or deal), exact
// repeats of one outcome counting once; the analysis of
// a non-transitive field (α-Rank, Nash, 3-cycles of significant wins); and
// the pairs the order ranks against their scores.
//
// On fewer than stats.MinUnits (3) distinct units the large-sample
// intervals are not valid: a score interval there is stats.SmallSampleRate's
// (an exact bound when every unit was won or lost, t on one degree of
// freedom for two different units, else not available), and the Elo vs
// field bar and the Bradley–Terry interval are not available
// (Standing.FewUnits, Elo.NoInterval), so no difference is significant on
// one seed.
//
// RankProbabilities (and Options.Ranks) gives each player's probability
// of each rank and a rank interval, by a seeded stratified bootstrap of
// the same seeds, each resample ranked by its Bradley–Terry fit.
//
// # Models
//
// A model is a registered value, a Spec: its name and aliases, its title,
// how it rates a batch, the key it orders by, its table and CSV columns
// and its report plot. Each built-in model is one file (model_bt.go,
// model_glicko2.go, model_wenglin.go, model_alpharank.go, model_nash.go)
// and one line of the builtin list in model.go; a model from outside the
// package is added with Register. The leaderboard, crucible rate, crucible
// report and the reports package ask the registry and name no model.
//
// The numeric methods of every model, Glicko-2's included, are package
// crucible/stats'; this package reduces matches to what they take
// (pairwise games by unit, rankings in schedule order, score matrices)
// and puts their figures in the standings. Rating, Glicko2, Game and
// Outcome are stats' Glicko-2 types under the names the ladder and the
// ratings files have always used.
//
// Summarize is the older summary of Glicko-2 ratings from pairwise
// outcomes without seeds, with Wilson intervals over games.
//
// The package knows players only by name and matches only by their
// players, ranks, round, seed and a fingerprint of the result, so it
// serves the arena, the evolver, the ladder and crucible rate alike.
package rating
