package kindlingapi

import (
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// GET / is the browser UI, GET /ui/app.js and /ui/style.css its script and
// style, each with its content type and a policy that keeps the page to its
// own origin.
func TestUIServedAtRoot(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	for _, tt := range []struct{ path, ctype, contains string }{
		{"/", "text/html", `<script src="/ui/app.js"></script>`},
		{"/ui/app.js", "javascript", "function checkBid("},
		{"/ui/style.css", "text/css", ".beacon"},
	} {
		resp, err := http.Get(ts.URL + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), tt.ctype) || !strings.Contains(string(body), tt.contains) {
			t.Fatalf("GET %s: %d %q, body has %q: %v", tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), tt.contains, strings.Contains(string(body), tt.contains))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Fatalf("GET %s: Content-Security-Policy %q", tt.path, csp)
		}
	}
}

// The UI needs no network: no file of it names another origin, and every
// request it makes is to the API's own paths.
func TestUIHasNoExternalReferences(t *testing.T) {
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}|@import|\burl\(`)
	calls := regexp.MustCompile("(?:api\\(\"(GET|POST)\", [`\"]([^`\"]+))")
	err := fs.WalkDir(uiFiles, "ui", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := uiFiles.ReadFile(path)
		if err != nil {
			return err
		}
		if m := external.Find(b); m != nil {
			t.Errorf("%s refers to %q: the UI must not reach outside its server", path, m)
		}
		for _, c := range calls.FindAllSubmatch(b, -1) {
			if !strings.HasPrefix(string(c[2]), "/api/matches") {
				t.Errorf("%s calls %s %s, not an API path", path, c[1], c[2])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The browser's create form offers every house bot level the API takes,
// and no other.
func TestUIOffersEveryBotLevel(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	resp, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(body)
	for _, level := range BotLevels() {
		if !strings.Contains(page, `<option value="`+level+`">`) {
			t.Errorf("the create form has no option for botLevel %q", level)
		}
	}
	if n, want := strings.Count(page[strings.Index(page, `id="create-bot-level"`):], "<option "), len(BotLevels()); n < want {
		t.Errorf("the bot level select has %d options, want %d", n, want)
	}
}
