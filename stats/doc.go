// Package stats holds the lab's numeric statistics: the numbers a
// researcher can trust about who is stronger. Values go in and come out
// as plain slices and matrices; the package knows nothing of games,
// arenas or files.
//
// # Sequential tests (SPRT)
//
// SPRT is the generalized sequential probability ratio test of fishtest
// (LLRcalc.py) and fastchess, on pentanomial counts of game pairs or
// trinomial counts of games, in the logistic or normalized Elo model;
// EstimateElo is the Elo estimate they print beside it.
//
// A game pair is two games on one seed with the seats swapped; B's total
// in the pair puts it in one of five classes [LL, LD, WL+DD, WD, WW]
// (PairBucket). Pairs, not games, are the independent units: the seed's
// bias cancels inside the pair and its variance is measured.
//
// # Racing candidates
//
// Race runs k SPRTs at once, candidates against one baseline on common
// seeds, with the family's false-positive rate bounded by Bonferroni
// (each at Alpha/k) and candidates dropped when their test accepts H0 or
// another is clearly stronger (an empirical-Bernstein bound valid at every
// round). RaceSim checks the family's error rate and cost by simulation
// against testing each candidate alone.
//
// # Settling a ranking
//
// FitBalanced is a Bradley–Terry fit that weighs every pair alike (the
// round robin's estimand, however unevenly the pairs were played), with a
// delta-method covariance; TopOrderCertainty is the probability of its
// top-k order under the fit's normal approximation, and
// BalancedFit.NextPairs the variance-driven choice of the next pairs to
// play to settle it.
//
// # N-seat games: the pairwise reduction
//
// For a game of N > 2 seats, the comparison of A and B on one seed is a
// group of N players (A, B and N-2 fixed opponents) played in the N
// rotations of the seat order, so every player sits in every seat once.
// In each rotation B scores 1 if it finished ahead of A, 0.5 if level,
// 0 if behind (only A's and B's relative rank counts, not the others').
// The seed's pair score is the mean over the rotations (RotationScore),
// in [0, 1], and its class is the nearest of 0, 1/4, 1/2, 3/4, 1, a tie
// between two going to the one nearer 1/2 (ScoreBucket). Each seed is one
// unit of the pentanomial count. For N = 2 this is exactly the
// seat-swapped pair.
//
// # Intervals over independent units
//
// ClusteredRate, ClusteredMean and PairedDifference compute every printed
// interval over independent units (seeds, game pairs), never over games:
// the cluster-robust standard error with a Student t quantile. Each
// reports how many units there were and how many distinct results they
// gave. When all units gave the same result the robust variance is zero
// however many there are; the interval then falls back to the Wilson
// interval over the number of distinct results, one, so repeating a
// deterministic outcome never narrows an interval. A caller that can tell
// exact repeats apart (the same games with the same results on another
// seed) merges them into one unit and uses ClusteredRateDistinct, whose
// fallback is over the number of units: twenty different games all won
// are twenty observations, twenty copies of one game are one.
// PairIntervals builds the head-to-head table of such intervals from
// individual games. SmallSampleRate keeps them honest below MinUnits (3)
// units: the exact bound [(α/2)^(1/n), 1] of units all won, t on one
// degree of freedom for two different units, otherwise NotAvailable.
//
// Ranks turns samples of ratings (bootstrap resamples, say) into each
// player's probability of each rank and a percentile rank interval, ties
// sharing their ranks.
//
// # Ratings of a batch
//
// BradleyTerry fits the maximum-likelihood Elo ratings of a batch of
// pairwise results, a draw counting as half a win for each side (as Ordo
// does), with intervals from the observed Fisher information, or
// cluster-robust ones when the games come with their units (exact
// repeats deflated, or merged by the caller: MergedRepeats). Ratings are
// anchored at mean 0 or at a named player and returned best first. A field
// in which some group never dropped a point has no finite fit
// (ErrNoFiniteRatings); a Prior of virtual draws rates it.
//
// # Non-transitive fields
//
// AlphaRank is OpenSpiel's α-Rank (single population) on a payoff matrix;
// NashAverage is the maximum-entropy Nash equilibrium of an antisymmetric
// matrix (Balduzzi et al., "Re-evaluating evaluation", 2018); Cycles3
// lists the 3-cycles of significant wins in a score matrix.
//
// # Free-for-all ratings
//
// WengLin is the Bayesian rating of Weng and Lin (2011) as openskill
// implements it, for games of more than two players or teams: the
// Plackett–Luce model by default, the full-pairing Bradley–Terry one as an
// option.
package stats
