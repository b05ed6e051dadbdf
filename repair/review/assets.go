package review

import (
	"embed"
	"html/template"
	"net/http"
	"path"
)

// assets are the page's template, script and style sheet: served from the
// binary, so the page works offline and loads nothing from elsewhere.
//
//go:embed assets
var assets embed.FS

// pageTemplate is the review page.
var pageTemplate = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"web": webURL,
	"inc": func(i int) int { return i + 1 },
	"add": func(a, b int) int { return a + b },
}).ParseFS(assets, "assets/page.html"))

// staticTypes are the files GET /static/ serves, with their types.
var staticTypes = map[string]string{
	"review.js":  "text/javascript; charset=utf-8",
	"review.css": "text/css; charset=utf-8",
}

// static serves the script and the style sheet.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	typ, ok := staticTypes[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	b, err := assets.ReadFile(path.Join("assets", name))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Write(b)
}
