package evolver

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzParseGenerations feeds generations.jsonl contents to the parser: it
// never panics, what it accepts has increasing generations, and every
// error names the file and a line.
func FuzzParseGenerations(f *testing.F) {
	f.Add([]byte("{\"generation\":0,\"best\":0.5}\n{\"generation\":1,\"best\":0.6}\n"))
	f.Add([]byte("{\"generation\":0}\n{\"generation\":1"))
	f.Add([]byte("\n\n{\"generation\":3}\n{\"generation\":2}\n"))
	f.Add([]byte("not json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		gens, _, err := parseGenerations(data, "g.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "g.jsonl:") {
				t.Fatalf("error %q does not name the file and line", err)
			}
			return
		}
		for i := 1; i < len(gens); i++ {
			if gens[i].Generation <= gens[i-1].Generation {
				t.Fatalf("accepted generation %d after %d", gens[i].Generation, gens[i-1].Generation)
			}
		}
	})
}

// Rule: OpenRun reads back what a run wrote, as far as it got: a finished
// run has its report (with the leaderboard), champion and finalists; the
// same run stopped during its search has its generations and its latest
// hall champion only; a killed run's half-written last line is skipped
// with a warning.
func TestOpenRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	rep, err := Evolve(context.Background(), tinyKindling(t, "ga", dir))
	if err != nil {
		t.Fatal(err)
	}
	run, err := OpenRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case run.Meta.Base != "contrarian" || run.Meta.Algorithm != "ga" || run.Meta.Seed != 5:
		t.Errorf("meta %+v, want the run's configuration", run.Meta)
	case len(run.Generations) != 3 || run.Generations[2].Generation != 2:
		t.Errorf("%d generations read, want 3", len(run.Generations))
	case run.Report == nil || run.Report.Champion.ID != rep.Champion.ID || !reflect.DeepEqual(run.Report.Holdout, rep.Holdout):
		t.Errorf("report %+v, want the run's", run.Report)
	case run.Champion == nil || run.Champion.ID != rep.Champion.ID:
		t.Errorf("champion.json read as %v, want %s", run.Champion, rep.Champion.ID)
	case !reflect.DeepEqual(run.Ranked, rep.Ranked):
		t.Errorf("ranked/ read as %v, want %v", run.Ranked, rep.Ranked)
	case run.Leaderboard == nil || !reflect.DeepEqual(run.Report.Leaderboard.Standings, rep.Leaderboard.Standings):
		t.Errorf("the leaderboard does not read back as the tournament's")
	case len(run.Warnings) != 0:
		t.Errorf("warnings %v on a whole run", run.Warnings)
	}

	// Stopped during the search, with a half-written line.
	for _, f := range []string{ReportFile, ChampionFile, LeaderboardFile} {
		os.Remove(filepath.Join(dir, f))
	}
	os.RemoveAll(filepath.Join(dir, RankedDir))
	f, _ := os.OpenFile(filepath.Join(dir, GenerationsFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"generation":3,"be`)
	f.Close()
	run, err = OpenRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if run.Report != nil || run.Champion != nil || run.Leaderboard != nil || len(run.Ranked) != 0 {
		t.Errorf("a stopped run reads with final files: %+v", run)
	}
	if len(run.Generations) != 3 || len(run.Warnings) != 1 || !strings.Contains(run.Warnings[0], "generations.jsonl:4: skipping a half-written last line") {
		t.Errorf("%d generations, warnings %v; want 3 and the half-written line named", len(run.Generations), run.Warnings)
	}
	hall, _ := os.ReadDir(filepath.Join(dir, HallDir))
	if last := hall[len(hall)-1].Name(); run.HallChampion == nil || run.HallFile != filepath.Join(HallDir, last) || !strings.Contains(last, run.HallChampion.ID) {
		t.Errorf("latest hall champion %v from %q, want the one of %s", run.HallChampion, run.HallFile, last)
	}
}

// Rule: OpenRun refuses what is not a run, naming the path at fault.
func TestOpenRunRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	notRun := filepath.Join(dir, "notrun")
	os.Mkdir(notRun, 0o755)
	foreign := filepath.Join(dir, "foreign")
	os.Mkdir(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, CheckpointFile), []byte(`{"format":"something else"}`), 0o644)
	badLine := filepath.Join(dir, "badline")
	os.Mkdir(badLine, 0o755)
	os.WriteFile(filepath.Join(badLine, CheckpointFile), []byte(`{"format":"`+checkpointKind+`","meta":{"game":"kindling","base":"easy"}}`), 0o644)
	os.WriteFile(filepath.Join(badLine, GenerationsFile), []byte("{\"generation\":0}\n{\"generation\":0}\n"), 0o644)
	tests := []struct {
		name, dir string
		want      string
		is        error
	}{
		{"missing", filepath.Join(dir, "gone"), filepath.Join(dir, "gone") + ": the run directory does not exist", ErrNoRunDir},
		{"a file", file, file + " is not a directory", nil},
		{"no checkpoint", notRun, notRun + " is not an evolve run directory: it holds no checkpoint.json", nil},
		{"foreign checkpoint", foreign, filepath.Join(foreign, CheckpointFile) + `: format "something else"`, nil},
		{"generations out of order", badLine, filepath.Join(badLine, GenerationsFile) + ":2: not a generation line: generation 0 follows generation 0", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := OpenRun(tc.dir)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %v", err, tc.is)
			}
		})
	}
}

// Rule: a fresh run needs a missing or empty directory, a resumed one a
// run's directory (with a checkpoint, or left before the first one);
// temporary files of interrupted writes count for nothing. Refusals are
// FieldErrors of Out.
func TestCheckOut(t *testing.T) {
	mk := func(files ...string) string {
		dir := filepath.Join(t.TempDir(), "run")
		os.Mkdir(dir, 0o755)
		for _, f := range files {
			if strings.HasSuffix(f, "/") {
				os.Mkdir(filepath.Join(dir, f), 0o755)
				continue
			}
			os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o644)
		}
		return dir
	}
	tests := []struct {
		name    string
		dir     string
		resume  bool
		has     bool
		wantErr error
	}{
		{"missing, fresh", filepath.Join(t.TempDir(), "x"), false, false, nil},
		{"missing, resumed", filepath.Join(t.TempDir(), "x"), true, false, ErrNoRunDir},
		{"empty, fresh", mk(), false, false, nil},
		{"empty, resumed", mk(), true, false, nil},
		{"only a temporary file, resumed", mk(".checkpoint.json.tmp42"), true, false, nil},
		{"a run, fresh", mk(CheckpointFile, GenerationsFile, HallDir+"/"), false, true, ErrRunExists},
		{"a run, resumed", mk(CheckpointFile, GenerationsFile, HallDir+"/"), true, true, nil},
		{"killed before its first checkpoint, fresh", mk(GenerationsFile, HallDir+"/"), false, false, ErrRunExists},
		{"killed before its first checkpoint, resumed", mk(GenerationsFile, HallDir+"/", ".generations.jsonl.tmp1"), true, false, nil},
		{"someone else's files, fresh", mk("notes.txt"), false, false, ErrNotEmpty},
		{"someone else's files, resumed", mk("notes.txt", GenerationsFile), true, false, ErrNotEmpty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			has, err := checkOut(tc.dir, tc.resume)
			var fe *FieldError
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantErr != nil && (!errors.Is(err, tc.wantErr) || !errors.As(err, &fe) || fe.Field != "Out" || fe.Value != tc.dir):
				t.Fatalf("error %v, want a FieldError of Out naming %s, wrapping %v", err, tc.dir, tc.wantErr)
			case tc.wantErr == nil && has != tc.has:
				t.Errorf("checkpoint found %v, want %v", has, tc.has)
			}
		})
	}
}

// Rule: Validate's errors name the Config field, its value and its range,
// never a command-line flag.
func TestValidateNamesFields(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *Config)
		field  string
		want   string
	}{
		{"population", func(c *Config) { c.Population = 2 }, "Population", "Population 2 is outside its range [4, 256]"},
		{"seeds", func(c *Config) { c.Seeds = 300 }, "Seeds", "Seeds 300 is outside its range [1, 256]"},
		{"generations", func(c *Config) { c.Generations = -1 }, "Generations", "Generations -1 is outside its range [1, 100000]"},
		{"no end", func(c *Config) { c.Generations = 0 }, "Generations", "Generations 0 and Budget 0 leave the search without an end"},
		{"budget", func(c *Config) { c.Budget = time.Second }, "Budget", "Budget 1s is outside its range [5s, 168h0m0s]"},
		{"tournament seeds", func(c *Config) { c.TournamentSeeds = 5000 }, "TournamentSeeds", "TournamentSeeds 5000 is outside its range [1, 1000]"},
		{"hall opponents", func(c *Config) { c.HallOpponents = 99 }, "HallOpponents", "HallOpponents 99 is outside its range [-1, 16]"},
		{"one held-out seed", func(c *Config) { c.Holdout = 1 }, "Holdout", "Holdout 1 cannot give an interval"},
		{"unknown algorithm", func(c *Config) { c.Algorithm = "annealing" }, "Algorithm", `Algorithm: unknown algorithm "annealing" (known: cmaes, ga, llm, map-elites, spsa)`},
		{"unknown base", func(c *Config) { c.Base = "nosuch" }, "Base", `Base: unknown kindling strategy "nosuch"`},
		{"no out", func(c *Config) { c.Out = "" }, "Out", "Out is not set"},
		{"another algorithm's options", func(c *Config) { c.Options = &CMAOptions{} }, "Options", "Options CMAOptions are not the options of ga (GAOptions)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyKindling(t, "ga", t.TempDir())
			tc.change(&cfg)
			err := cfg.Validate()
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want a FieldError of %s saying %q", err, tc.field, tc.want)
			}
			if strings.Contains(err.Error(), "--") {
				t.Errorf("error %q names a flag", err)
			}
		})
	}
	cfg := tinyKindling(t, "ga", t.TempDir())
	cfg.Pool = []string{"easy", "nosuch"}
	_, err := Evolve(context.Background(), cfg)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Pool" || !strings.Contains(err.Error(), `unknown kindling strategy "nosuch"`) {
		t.Errorf("unknown pool member: %v, want a FieldError of Pool", err)
	}
}

// Rule: the table of algorithms lists each once, sorted, with options
// that build an algorithm of that name, a default population within the
// limits, and flags whose usage starts with the algorithm's name and whose
// identity flags are among them.
func TestAlgorithmTable(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	var names []string
	for _, a := range Algorithms() {
		names = append(names, a.Name)
		if a.DefaultPopulation < MinPopulation || a.DefaultPopulation > MaxPopulation || a.Description == "" {
			t.Errorf("%s: default population %d, description %q", a.Name, a.DefaultPopulation, a.Description)
		}
		o := a.Options()
		algo, err := o.build(setup{space: space, population: a.DefaultPopulation, seed: 1, behaviour: fakeBehaviour()})
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		fs := flag.NewFlagSet(a.Name, flag.ContinueOnError)
		o.Flags(fs)
		fs.VisitAll(func(f *flag.Flag) {
			if !strings.HasPrefix(f.Usage, a.Name+": ") {
				t.Errorf("%s: flag --%s's usage %q does not start with the algorithm's name", a.Name, f.Name, f.Usage)
			}
		})
		for _, id := range o.Identity() {
			if fs.Lookup(id) == nil {
				t.Errorf("%s: identity %q is none of its flags", a.Name, id)
			}
		}
		if algo.Name() != a.Name {
			t.Errorf("the constructor of %s builds %s", a.Name, algo.Name())
		}
		algo.Close()
	}
	if !slices.IsSorted(names) || strings.Join(names, ",") != strings.Join(AlgorithmNames(), ",") || len(names) != 5 {
		t.Errorf("algorithms %v, names %v: want the five, sorted", names, AlgorithmNames())
	}
}
