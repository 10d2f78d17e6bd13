package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"crucible/engine/kindling"
)

// runKindlingMatch runs `crucible match kindling` with args and returns
// stdout and the error.
func runKindlingMatch(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := execRoot(t, append([]string{"match", "kindling"}, args...)...)
	return out, err
}

func TestMatchKindlingPlaysAndLogs(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "m.json")
	out, err := runKindlingMatch(t, "--players", "normal,sniper,easy", "--seed", "7", "--log", logPath, "--param", "sniper.margin=2")
	if err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= kindling.Turns; turn++ {
		if !strings.Contains(out, "\nturn "+strconv.Itoa(turn)+"  values  Fen ") {
			t.Fatalf("output lacks turn %d:\n%s", turn, out)
		}
	}
	for _, want := range []string{"seat 0 normal", "seat 1 sniper", "seat 2 easy", "bids [", "lit:", "final standings", "SPARKS LEFT", "log written to " + logPath} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var lg kindling.Log
	if err := json.Unmarshal(data, &lg); err != nil {
		t.Fatalf("the log is not the API's log JSON: %v", err)
	}
	if len(lg.Turns) != kindling.Turns || len(lg.Players) != 3 || lg.Code != kindling.MatchCode(7) || lg.Final == nil {
		t.Fatalf("log: code %q, %d players, %d turns, final %v", lg.Code, len(lg.Players), len(lg.Turns), lg.Final)
	}
	// The printed winner is the log's.
	w := lg.Final.Winners[0]
	if !strings.Contains(out, "seat "+strconv.Itoa(w)+" ("+lg.Players[w].Name+")") {
		t.Fatalf("output does not name the log's winner seat %d:\n%s", w, out)
	}
	// The last turn's printed scores are the log's final scores.
	last := lg.Turns[kindling.Turns-1]
	for p := 0; p < 3; p++ {
		if !strings.Contains(out, "score "+strconv.Itoa(lg.Final.Scores[p])) || last.Scores[p] != lg.Final.Scores[p] {
			t.Fatalf("seat %d final score %d is not printed", p, lg.Final.Scores[p])
		}
	}

	// The same command writes the same bytes.
	again := filepath.Join(dir, "again.json")
	if _, err := runKindlingMatch(t, "--players", "normal,sniper,easy", "--seed", "7", "--log", again, "--param", "sniper.margin=2"); err != nil {
		t.Fatal(err)
	}
	if data2, _ := os.ReadFile(again); !bytes.Equal(data, data2) {
		t.Fatal("the same seed and players wrote different logs")
	}
}

// TestMatchKindlingParamChangesPlay checks --param reaches the seats that
// play the strategy.
func TestMatchKindlingParamChangesPlay(t *testing.T) {
	dir := t.TempDir()
	logs := map[string][]byte{}
	for _, margin := range []string{"0", "4"} {
		path := filepath.Join(dir, margin+".json")
		if _, err := runKindlingMatch(t, "--players", "sniper,normal", "--seed", "3", "--log", path, "--param", "sniper.margin="+margin); err != nil {
			t.Fatal(err)
		}
		logs[margin], _ = os.ReadFile(path)
	}
	if bytes.Equal(logs["0"], logs["4"]) {
		t.Fatal("sniper.margin=0 and sniper.margin=4 played the same match")
	}
}

func TestMatchKindlingBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown strategy lists the known ones", []string{"--players", "normal,nosuch"},
			[]string{`unknown kindling strategy "nosuch"`, "known:", "normal", "sniper", "easy"}},
		{"one player is too few", []string{"--players", "normal"}, []string{"lists 1 players", "2 to 4"}},
		{"five players are too many", []string{"--players", "normal,easy,even,greedy,sniper"}, []string{"lists 5 players", "2 to 4"}},
		{"an empty name", []string{"--players", "normal,,easy"}, []string{"empty name"}},
		{"players are required", nil, []string{"players"}},
		{"unknown parameter names the known ones", []string{"--players", "normal,sniper", "--param", "sniper.bogus=1"},
			[]string{`unknown parameter "bogus"`, "margin", "threatShare"}},
		{"a value out of range names the range", []string{"--players", "normal,sniper", "--param", "sniper.margin=9"},
			[]string{"margin = 9", "[0, 4]"}},
		{"an integer parameter refuses fractions", []string{"--players", "normal,sniper", "--param", "sniper.margin=1.5"},
			[]string{"margin = 1.5 must be a whole number", "[0, 4]"}},
		{"a value that is not a number names the range", []string{"--players", "normal,sniper", "--param", "normal.memory=lots"},
			[]string{`"lots" is not a number`, "normal.memory", "[0, 1]"}},
		{"a parameter of a strategy nobody plays", []string{"--players", "normal,sniper", "--param", "even.width=2"},
			[]string{"no seat plays even"}},
		{"a parameter of an unknown strategy", []string{"--players", "normal,sniper", "--param", "nosuch.x=2"},
			[]string{`unknown kindling strategy "nosuch"`}},
		{"a malformed parameter", []string{"--players", "normal,sniper", "--param", "margin=2"},
			[]string{"want NAME.KEY=VALUE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "m.json")
			out, err := runKindlingMatch(t, append(tt.args, "--log", logPath)...)
			if err == nil {
				t.Fatalf("no error; output:\n%s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q lacks %q", err, w)
				}
			}
			if _, statErr := os.Stat(logPath); !os.IsNotExist(statErr) {
				t.Fatalf("a log file was left behind after the error: %v", statErr)
			}
		})
	}
}

func TestMatchKindlingUnwritableLog(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "missing", "m.json")
	_, err := runKindlingMatch(t, "--players", "normal,easy", "--log", logPath)
	if want := "--log " + logPath + ": directory " + filepath.Dir(logPath) + " does not exist"; err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("files left behind: %v", entries)
	}
}

func TestLookupGameKindling(t *testing.T) {
	g, err := lookupGame("kindling")
	if err != nil || g.Name() != "kindling" {
		t.Fatalf("lookupGame(kindling) = %v, %v", g, err)
	}
}
