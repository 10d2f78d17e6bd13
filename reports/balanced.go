package reports

import (
	"fmt"
	"io"
	"strconv"

	"crucible/stats"
)

// WriteBalancedOrder writes, for table and Markdown (nothing for JSON and
// CSV, whose output is the summary alone), the balanced Bradley–Terry fit
// an adaptive schedule settles (stats.BalancedFit: every pair weighed
// alike, the round robin's estimand), best first, with each player's
// place in the ordinary leaderboard printed above it (board: names in
// that leaderboard's order), and a note on which fit is which.
func WriteBalancedOrder(w io.Writer, f Format, fit stats.BTFit, board []string, top int, prob float64) error {
	if f != Table && f != Markdown {
		return nil
	}
	place := map[string]int{}
	for i, name := range board {
		place[name] = i + 1
	}
	differ := 0
	var rows [][]string
	for i, r := range fit.Ratings {
		p := "-"
		if k, ok := place[r.Name]; ok {
			p = strconv.Itoa(k)
			if k != i+1 {
				differ++
			}
		}
		rows = append(rows, []string{strconv.Itoa(i + 1), r.Name, fmt.Sprintf("%+.0f ± %.0f", r.Elo, r.SE), p})
	}
	title := fmt.Sprintf("Balanced fit: the order the adaptive schedule settles (top %d at P = %.3f)", top, prob)
	if err := writeTable(w, f, title, []int{1}, []string{"#", "player", "Elo (balanced BT) ± SE", "# in the leaderboard above"}, rows); err != nil {
		return err
	}
	note := "The leaderboard above is the ordinary Bradley–Terry fit of every match, in which the pairs the adaptive schedule played more often weigh more; the schedule chooses and stops by this balanced fit, which weighs every pair alike (the round robin's estimand), so its order is the one the schedule's probability is about."
	if differ > 0 {
		note += fmt.Sprintf(" The two orders differ for %d players here.", differ)
	} else {
		note += " The two orders agree here."
	}
	return writeNotes(w, f, []string{note})
}
