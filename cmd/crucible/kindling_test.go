package main

import (
	"strings"
	"testing"
)

// The command line: the flags given are what kindling play's --join
// refuses.
func TestKindlingPlayFlagsGiven(t *testing.T) {
	t.Setenv("KINDLING_URL", "")
	// The command line: the flags given are what --join refuses.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--start-after", "-1s"}, "--start-after -1s is negative"},
		{[]string{"--join", "K7QF2", "--bots", "1"}, "--bots shapes a match play creates"},
		{[]string{"--join", "K7QF2", "--bot-level", "normal"}, "--bot-level shapes a match play creates"},
		{[]string{"--seats", "0"}, "--seats 0 is outside 2..4"},
	} {
		_, _, err := execRoot(t, append([]string{"kindling", "play", "--url", "http://127.0.0.1:1", "--strategy", "greedy"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("kindling play %v = %v, want an error mentioning %q", tt.args, err, tt.want)
		}
	}
}

func TestExportCommandNeedsItsFlags(t *testing.T) {
	_, _, err := execRoot(t, "export", "--out", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "--variant") {
		t.Fatalf("export without --variant: %v", err)
	}
	v := writeFile(t, "v.json", `{"game":"kindling","base":"sniper","params":{}}`)
	_, _, err = execRoot(t, "export", "--variant", v, "--out", t.TempDir()+"/x", "--src", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "not the crucible source") {
		t.Fatalf("export with a bad --src: %v", err)
	}
}
