package reports

import "io"

// WriteTable writes one titled table in the Table or Markdown format:
// head is the header row, and the columns listed in left (names) are
// aligned left, the others (figures) right. Commands use it for tables
// other than a leaderboard, in the same style.
func WriteTable(w io.Writer, f Format, title string, left []int, head []string, rows [][]string) error {
	return writeTable(w, f, title, left, head, rows)
}
