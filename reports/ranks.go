package reports

import (
	"fmt"
	"io"
	"strconv"

	"crucible/arena/rating"
)

// RankNote says how a rank table was computed, for the notes under it.
func RankNote(t *rating.RankTable) string {
	return fmt.Sprintf("Rank probabilities: %s; the rank interval is the central %.0f%% percentile interval of the resampled ranks.", t.Method, 100*t.Level)
}

// rankHeader and rankRows lay out a rank table: each player's
// probability of each rank in percent, its expected rank and its rank
// interval, best first by the whole batch's Bradley–Terry fit.
func rankHeader(t *rating.RankTable) []string {
	head := []string{"#", "player"}
	for r := range t.Players {
		head = append(head, strconv.Itoa(r+1))
	}
	return append(head, "mean rank", fmt.Sprintf("%.0f%% rank interval", 100*t.Level))
}

func rankRows(t *rating.RankTable) [][]string {
	rows := make([][]string, len(t.Players))
	for i, p := range t.Players {
		row := []string{strconv.Itoa(p.Rank), p.Name}
		for _, v := range p.P {
			row = append(row, percentCell(v))
		}
		rows[i] = append(row, fmt.Sprintf("%.2f", p.Mean), rankInterval(p))
	}
	return rows
}

// percentCell writes a probability in percent: "·" for a rank never
// taken, "100" for one always taken, one decimal otherwise.
func percentCell(v float64) string {
	switch v {
	case 0:
		return "·"
	case 1:
		return "100"
	}
	return fmt.Sprintf("%.1f", 100*v)
}

// rankInterval writes a rank interval: "1" when it is one rank.
func rankInterval(p rating.PlayerRanks) string {
	if p.Lo == p.Hi {
		return strconv.Itoa(p.Lo)
	}
	return fmt.Sprintf("%d-%d", p.Lo, p.Hi)
}

// writeRanks writes the rank table of a summary (table and Markdown),
// or the reason there is none.
func writeRanks(w io.Writer, f Format, s rating.Summary) error {
	t := s.Ranks
	if t.Unavailable != "" {
		return writeNotes(w, f, []string{"Rank probabilities: not available (" + t.Unavailable + ")."})
	}
	title := "Probability of each rank (% of resamples; columns are ranks), best first by the Bradley–Terry fit"
	if err := writeTable(w, f, title, []int{1}, rankHeader(t), rankRows(t)); err != nil {
		return err
	}
	notes := []string{RankNote(t)}
	if m := s.Model; m != "" && m != rating.ModelBT {
		notes = append(notes, fmt.Sprintf("Note: the leaderboard is ordered by %s; the rank probabilities are those of the Bradley–Terry order.", m.Title()))
	}
	return writeNotes(w, f, notes)
}

// rankCSVHeader and rankCSVValues are the CSV columns of a rank table:
// the expected rank, the interval and the probability of each rank.
func rankCSVHeader(t *rating.RankTable) []string {
	head := []string{"rank_mean", "rank_lo", "rank_hi"}
	for r := range t.Players {
		head = append(head, "p_rank_"+strconv.Itoa(r+1))
	}
	return head
}

func rankCSVValues(t *rating.RankTable, name string) []string {
	for _, p := range t.Players {
		if p.Name != name {
			continue
		}
		row := []string{strconv.FormatFloat(p.Mean, 'g', -1, 64), strconv.Itoa(p.Lo), strconv.Itoa(p.Hi)}
		for _, v := range p.P {
			row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
		}
		return row
	}
	return make([]string, 3+len(t.Players)) // a player without games
}
