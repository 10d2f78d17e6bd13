package kindlingapi

import (
	"embed"
	"io/fs"
	"net/http"
)

// uiFiles is the browser UI: plain HTML, CSS and JavaScript, embedded so
// the binary serves it with no build step and no network. The page uses
// only the public JSON API below, as an agent does, with kind "human".
//
//go:embed ui/index.html ui/style.css ui/app.js
var uiFiles embed.FS

// uiCSP keeps the page to its own origin: no CDN, no third-party request.
const uiCSP = "default-src 'self'; img-src 'self' blob: data:; connect-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// uiRoutes serves the browser UI: GET / is the page, GET /ui/{file} its
// style and script. Every other path stays the API's.
func uiRoutes(mux *http.ServeMux) {
	sub, err := fs.Sub(uiFiles, "ui")
	if err != nil {
		panic(err) // the embedded directory is fixed at build time
	}
	files := http.FileServerFS(sub)
	serve := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", uiCSP)
			w.Header().Set("X-Content-Type-Options", "nosniff")
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/" + name
			if name == "" {
				r2.URL.Path = "/"
			}
			files.ServeHTTP(w, r2)
		}
	}
	mux.HandleFunc("GET /{$}", serve(""))
	for _, name := range []string{"style.css", "app.js"} {
		mux.HandleFunc("GET /ui/"+name, serve(name))
	}
}
