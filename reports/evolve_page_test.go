package reports

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"crucible/arena/rating"
)

// evolvePage renders pg and returns the page.
func evolvePage(t *testing.T, pg EvolvePage) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteEvolveHTML(&buf, pg); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// section is the HTML of the page's section with the given id, "" when
// there is none.
func section(page, id string) string {
	i := strings.Index(page, `<section id="`+id+`">`)
	if i < 0 {
		return ""
	}
	return page[i : i+strings.Index(page[i:], "</section>")]
}

// TestEvolveRankingSaysItsModel checks that the ranking's caption names
// the model that orders the table (Bradley–Terry, as evolver ranks),
// not Glicko-2.
func TestEvolveRankingSaysItsModel(t *testing.T) {
	pg := evolveSample()
	lb := clusteredSample(rating.ModelBT)
	pg.Leaderboard = &lb
	sec := section(evolvePage(t, pg), "tournament")
	if sec == "" {
		t.Fatal("no ranking section")
	}
	for _, want := range []string{"ordered by Bradley–Terry Elo (maximum likelihood)", "rated by maximum-likelihood Bradley–Terry fit"} {
		if !strings.Contains(sec, want) {
			t.Errorf("the ranking's caption lacks %q", want)
		}
	}
	if strings.Contains(sec, "Glicko-2") || strings.Contains(sec, "rating − 2 RD") {
		t.Errorf("the caption of a Bradley–Terry ranking speaks of Glicko-2:\n%s", sec)
	}
}

// TestEvolveGenerationsFromOne checks that the page numbers generations
// as crucible evolve prints them, 1 to N: the summary table and the
// fitness plot's axis.
func TestEvolveGenerationsFromOne(t *testing.T) {
	page := evolvePage(t, evolveSample()) // generations 0, 1, 2 in the files
	for _, want := range []string{`<td class="text">first</td><td>1</td>`, `<td class="text">last</td><td>3</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the generations table lacks %q", want)
		}
	}
	i := strings.Index(page, `id="fitness-plot"`)
	plot := page[i : i+strings.Index(page[i:], "</figure>")]
	var ticks []string
	for _, m := range regexp.MustCompile(`>(\d+)</text>`).FindAllStringSubmatch(plot, -1) {
		ticks = append(ticks, m[1])
	}
	if strings.Join(ticks, ",") != "1,2,3" {
		t.Errorf("the fitness plot's generation axis is labelled %v, want 1, 2, 3", ticks)
	}
}

// TestEvolveHeadToHead checks that a run's finalists' head-to-head is on
// the page with the line saying why the champion may come last there,
// and that a run without one shows none.
func TestEvolveHeadToHead(t *testing.T) {
	pg := evolveSample()
	if sec := section(evolvePage(t, pg), "head-to-head"); sec != "" {
		t.Fatalf("a run without a head-to-head shows one:\n%s", sec)
	}
	h := clusteredSample(rating.ModelBT)
	pg.HeadToHead, pg.HeadToHeadSeeds = &h, 4
	sec := section(evolvePage(t, pg), "head-to-head")
	for _, want := range []string{"<table class=\"leaderboard\">", "every pair on 4 fresh seeds", "it does not choose the champion",
		"The champion is the finalist strongest against the field", "its place here, even last, is expected"} {
		if !strings.Contains(sec, want) {
			t.Errorf("the head-to-head section lacks %q", want)
		}
	}
}
