package main

// spsaHelp is the evolve command's paragraph on --algo spsa: its
// formulas, defaults and their sources.
func spsaHelp() string {
	return `--algo spsa is simultaneous perturbation stochastic approximation (Spall) as
fishtest and OpenBench tune chess engines. Each generation measures the current
point θ and population/2 pairs θ+c_k·Δ, θ−c_k·Δ (Δ a random ±1 per parameter,
one pair an iteration k = 1, 2, ...), every point on the same seeds in both seat
orders against the same opponents: the two sides of a pair play paired games.
A pair's result is the plus side's wins less its losses over those paired games
(games × the difference of the two sides' score rates; a game the plus side won
and the minus side lost counts 1). θ then moves, per parameter i, by
R_k,i · c_k,i · result · Δ_i, clipped to the parameter's bounds (the points
played are clamped, and integers rounded, as for every algorithm). For a run
planned for N iterations (population/2 times the generations: --generations, or
under --budget the generations the time left holds at the generations' mean
time, re-estimated each generation), with A = a-ratio·N:
  c_i = c_end,i · N^γ          a_i = r_end,i · c_end,i² · (A + N)^α
  c_k,i = c_i / k^γ            R_k,i = a_i / (A + k)^α / c_k,i²
so that c = c_end and R = r_end at the planned end; an integer's step is at
least half a unit (OpenBench). These are fishtest's formulas
(server/fishtest/spsa_handler.py, the parameter parsing of its run form),
which OpenBench takes verbatim (OpenBench/workloads/create_workload.py,
spsa_utils.py), and their defaults: --spsa-alpha 0.602, --spsa-gamma 0.101
(Spall's), --spsa-a-ratio 0.1, and per parameter --spsa-c-end (max−min)/20 and
--spsa-r-end 0.002, the values Stockfish's tune.cpp prints for fishtest. An
iteration's result here sums all of a pair's paired games (about 270 on
Kindling at --seeds 8 against its 16 strategies, where fishtest counts one game
pair), so θ moves per iteration as far as over that many of fishtest's; with
fewer games a generation (a small --pool, few --seeds) a larger --spsa-r-end
moves it further, at the cost of noise (on Kindling's 270 games, 0.05 threw θ
from bound to bound). The note of each generation gives θ and the gains.
`
}
