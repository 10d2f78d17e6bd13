package viewer

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
)

//go:embed assets
var assets embed.FS

// pageTmpl is the skeleton of every page; each game's page gives its own
// body, style and script.
var pageTmpl = template.Must(template.New("page.html").ParseFS(assets, "assets/page.html"))

// asset returns the text of one of the skeleton's files.
func asset(name string) string { return Asset(assets, name) }

// Asset returns the text of assets/name in fsys, the embedded assets of a
// page's package. The files are fixed at build time, so a missing one is a
// bug of that package, and panics.
func Asset(fsys embed.FS, name string) string {
	b, err := fsys.ReadFile("assets/" + name)
	if err != nil {
		panic("viewer: missing asset " + name)
	}
	return string(b)
}

// Page is one game's viewer page: its own markup, style and script, and
// the match it shows. Write wraps them in the shared skeleton (the common
// style and script first).
type Page struct {
	// Title is the page's title and heading.
	Title string
	// Kind is the body's data-kind, naming the page's kind for its script
	// and style ("acb").
	Kind string
	// Body is the page's own markup, CSS its style and Script its code, run
	// after the common script (which defines the timeline and the
	// charts).
	Body   template.HTML
	CSS    string
	Script string
	// Data is the match's JSON (a replay, a log), embedded as given in the
	// <script id="data"> element.
	Data []byte
	// Derived is what the Go side computed for the page, embedded as JSON
	// in the <script id="derived"> element.
	Derived any
}

// pageData fills pageTmpl.
type pageData struct {
	Title   string
	Kind    string
	Body    template.HTML
	CSS     template.CSS
	Data    template.JS
	Derived template.JS
	Script  template.JS
}

// ScriptJSON makes JSON safe to embed in a <script> element: compacted,
// with <, >, &, U+2028 and U+2029 written as \u escapes, so no "</script"
// or "<!--" can appear in it whatever its strings hold.
func ScriptJSON(data []byte) (template.JS, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		return "", err
	}
	var safe bytes.Buffer
	json.HTMLEscape(&safe, compact.Bytes())
	return template.JS(safe.String()), nil
}

// Write writes the self-contained page p to w. what names the match's
// document in errors ("replay", "kindling log").
func Write(w io.Writer, p Page, what string) error {
	data, err := ScriptJSON(p.Data)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	derived, err := json.Marshal(p.Derived)
	if err != nil {
		return fmt.Errorf("viewer: encoding the derived data: %w", err)
	}
	derivedJS, err := ScriptJSON(derived)
	if err != nil {
		return err
	}
	d := pageData{
		Title:   p.Title,
		Kind:    p.Kind,
		Body:    p.Body,
		CSS:     template.CSS(asset("common.css") + p.CSS),
		Data:    data,
		Derived: derivedJS,
		Script:  template.JS(asset("common.js") + p.Script),
	}
	if err := pageTmpl.Execute(w, d); err != nil {
		return fmt.Errorf("viewer: rendering the page: %w", err)
	}
	return nil
}
