package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The adaptive schedule on six Kindling bidders: it stops within the
// budget, says how, writes round-robin job ids, gives the same results at
// 1 and 2 workers, and --resume of the finished run plays nothing.
func TestArenaAdaptiveKindling(t *testing.T) {
	dir := t.TempDir()
	args := func(out string, workers int) []string {
		return []string{"arena", "--game", "kindling", "--players", "modeller,normal,contrarian,lotto,sniper,easy",
			"--schedule", "adaptive", "--budget", "3000", "--top", "2", "--confidence", "0.9",
			"--out", out, "--workers", strconv.Itoa(workers), "--matrix=false"}
	}
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	out, errOut, err := execRoot(t, args(a, 1)...)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`adaptive: top 2 (settled|not settled when --budget 3000 ran out) after (\d+) matches in (\d+) batches: P\((\S+) > (\S+)\) = (\S+)`).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("no adaptive status line:\n%s", errOut)
	}
	// Under the leaderboard, the balanced fit whose order the status
	// speaks of, its top the status's.
	_, balanced, ok := strings.Cut(out, "Balanced fit: the order the adaptive schedule settles (top 2 at P = "+m[6]+")")
	first := regexp.MustCompile(`│ 1 │ (\S+) +│[^\n]*\n│ 2 │ (\S+) +│`).FindStringSubmatch(balanced)
	if !ok || first == nil || first[1] != m[4] || first[2] != m[5] || !strings.Contains(balanced, "ordinary Bradley–Terry fit of every match") {
		t.Fatalf("no balanced fit led by %s > %s under the leaderboard:\n%s", m[4], m[5], out)
	}
	matches, _ := strconv.Atoi(m[2])
	lines := resultLines(t, a)
	if matches != len(lines) || matches > 3000 || matches < 30 {
		t.Fatalf("status says %d matches, the file holds %d (budget 3000, first round 30)", matches, len(lines))
	}
	for _, l := range lines {
		if !regexp.MustCompile(`"job":"r\d+-\dv\d"`).MatchString(l) {
			t.Fatalf("result line without a round-robin job id: %s", l)
		}
	}
	if _, _, err := execRoot(t, args(b, 2)...); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lines, resultLines(t, b)) {
		t.Fatal("1 and 2 workers wrote different results")
	}
	_, errOut, err = execRoot(t, append(args(a, 2), "--resume")...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut, "played ") || !strings.Contains(errOut, "after "+m[2]+" matches") {
		t.Fatalf("resumed finished schedule played again or ended elsewhere:\n%s", errOut)
	}
}

// --top on a round robin reports when its own rounds settled the order.
func TestArenaRoundRobinTop(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rr.jsonl")
	_, errOut, err := execRoot(t, "arena", "--game", "kindling", "--players", "modeller,contrarian,sniper,easy", "--seeds", "12",
		"--top", "1", "--out", out, "--matrix=false")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`round robin: top 1 (settled at --confidence 0.95 after \d+ rounds, \d+ matches|not settled)`).MatchString(errOut) {
		t.Fatalf("no round-robin settle line:\n%s", errOut)
	}
}

func TestArenaAdaptiveErrors(t *testing.T) {
	base := []string{"arena", "--game", "kindling", "--players", "normal,easy,sniper", "--out", filepath.Join(t.TempDir(), "x.jsonl")}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--budget", "100"}, "--budget applies to --schedule adaptive only"},
		{[]string{"--schedule", "gauntlet", "--pool", "all", "--top", "2"}, "--top and --confidence apply to"},
		{[]string{"--schedule", "adaptive"}, "--schedule adaptive needs --budget"},
		{[]string{"--schedule", "adaptive", "--budget", "soon"}, `--budget "soon" is neither a number of matches nor a positive duration`},
		{[]string{"--schedule", "adaptive", "--budget", "100", "--seeds", "3"}, "--seeds does not apply to --schedule adaptive"},
		{[]string{"--schedule", "adaptive", "--budget", "4", "--top", "2"}, "--budget 4 is below the first round's 6 matches"},
		{[]string{"--schedule", "adaptive", "--budget", "100", "--top", "4"}, "--top 4 is above the 3 players"},
		{[]string{"--schedule", "adaptive", "--budget", "100", "--confidence", "1"}, "--confidence 1 is not in (0, 1)"},
	}
	for _, tt := range tests {
		_, _, err := execRoot(t, append(slices.Clone(base), tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.want)
		}
	}
}
