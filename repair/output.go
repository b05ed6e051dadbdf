package repair

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Output names an output format of relink fix -o.
type Output string

// The output formats.
const (
	OutputJSONL    Output = "jsonl"   // one Result a line, in input order (WriteJSONL)
	OutputCSV      Output = "csv"     // a header and one row a result (WriteCSV)
	OutputMarkdown Output = "md"      // a summary and a table (WriteMarkdown)
	OutputNginx    Output = "nginx"   // map $uri $new_uri { ... } body lines (Redirects)
	OutputApache   Output = "apache"  // RewriteMap txt: lines (Redirects)
	OutputNetlify  Output = "netlify" // _redirects lines, Netlify or Cloudflare (Redirects)
)

// Outputs lists every output format, OutputJSONL first.
func Outputs() []Output {
	return []Output{OutputJSONL, OutputCSV, OutputMarkdown, OutputNginx, OutputApache, OutputNetlify}
}

// ErrOutput is returned for an output name that is not one of Outputs.
var ErrOutput = errors.New("repair: unknown output format")

// Write writes results to w in format. site is used by the redirect maps
// (see Redirects.Site) and must then be set; the other formats ignore it.
// The redirect maps record what they skip as comments in the output.
func Write(w io.Writer, results []Result, format Output, site string) error {
	switch format {
	case OutputJSONL:
		return WriteJSONL(w, results)
	case OutputCSV:
		return WriteCSV(w, results)
	case OutputMarkdown:
		return WriteMarkdown(w, results)
	case OutputNginx, OutputApache, OutputNetlify:
		_, err := Redirects{Site: site, Format: format}.Write(w, results)
		return err
	}
	return fmt.Errorf("%w %q (want one of %v)", ErrOutput, format, Outputs())
}

// WriteJSONL writes each result as one line of JSON, in the order given
// (which is the input's order when the results come from ReadInput's
// links). Characters such as < and & are written as they are, not as
// \u escapes. Calling it once a result streams the output.
func WriteJSONL(w io.Writer, results []Result) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// CSVHeader is the header row of WriteCSV.
var CSVHeader = []string{"dead", "verdict", "uri", "confidence", "sources", "candidates", "queries", "archive", "error"}

// WriteCSV writes a header (CSVHeader) and one row a result, RFC 4180
// style: comma separated, quoted where needed, \n line endings. Lists
// (sources, candidate URIs, queries) are joined with newlines inside
// their cell; archive is the archived copy's URI. Every cell that a
// spreadsheet would run as a formula, one starting with = + - @, a tab, a
// carriage return or a NUL, is written with a single quote before it
// (OWASP, "CSV Injection"; ASVS 4.0 5.3.x and 5.0 1.2.10): the input's
// URLs, titles and error texts come from other people's pages.
func WriteCSV(w io.Writer, results []Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	row := make([]string, len(CSVHeader))
	for _, r := range results {
		r = r.Redacted()
		cands := make([]string, len(r.Candidates))
		for i, c := range r.Candidates {
			cands[i] = c.URI
		}
		archive := ""
		if r.Archive != nil {
			archive = r.Archive.URI
		}
		row = append(row[:0],
			r.Dead, string(r.Verdict), r.URI, strconv.FormatFloat(r.Confidence, 'f', -1, 64),
			strings.Join(r.Sources, "\n"), strings.Join(cands, "\n"), strings.Join(r.Queries, "\n"),
			archive, r.Error)
		for i := range row {
			row[i] = CSVCell(row[i])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// CSVCell returns s as a spreadsheet will show it and not run it: with a
// single quote before it when it starts with = + - @, a tab, a carriage
// return or a NUL (OWASP's list, and ASVS's NUL), unchanged otherwise.
func CSVCell(s string) string {
	if s != "" && strings.IndexByte("=+-@\t\r\x00", s[0]) >= 0 {
		return "'" + s
	}
	return s
}

// WriteMarkdown writes a report in GitHub-flavoured Markdown: a heading,
// a table counting the verdicts (moved, gone, alive, unknown, any other
// verdict found, and the total), then a table with one row a dead URL in
// the order given: its number, the dead URL, the verdict, the new URI,
// the confidence (two decimals), the sources and the error. Text from the
// results is escaped so that it renders as written: | and Markdown's
// punctuation with backslashes, < > & as entities, and a line break as
// <br>. An http(s) or ftp URL without characters that would need escaping
// is written as an autolink; every other URL as escaped text, so no
// javascript: link becomes clickable.
func WriteMarkdown(w io.Writer, results []Result) error {
	bw := bufio.NewWriter(w)
	counts := map[Verdict]int{}
	var others []Verdict
	known := map[Verdict]bool{}
	for _, v := range Verdicts() {
		known[v] = true
	}
	for _, r := range results {
		if !known[r.Verdict] && counts[r.Verdict] == 0 {
			others = append(others, r.Verdict)
		}
		counts[r.Verdict]++
	}
	fmt.Fprintf(bw, "# relink fix report\n\n| verdict | count |\n| --- | ---: |\n")
	for _, v := range append(Verdicts(), others...) {
		fmt.Fprintf(bw, "| %s | %d |\n", mdText(string(v)), counts[v])
	}
	fmt.Fprintf(bw, "| total | %d |\n\n", len(results))
	fmt.Fprintf(bw, "| # | dead | verdict | new URI | confidence | sources | error |\n")
	fmt.Fprintf(bw, "| ---: | --- | --- | --- | ---: | --- | --- |\n")
	for i, r := range results {
		r = r.Redacted()
		srcs := make([]string, len(r.Sources))
		for j, s := range r.Sources {
			srcs[j] = mdURL(s)
		}
		fmt.Fprintf(bw, "| %d | %s | %s | %s | %.2f | %s | %s |\n",
			i+1, mdURL(r.Dead), mdText(string(r.Verdict)), mdURL(r.URI), r.Confidence,
			strings.Join(srcs, "<br>"), mdText(r.Error))
	}
	return bw.Flush()
}

// mdText escapes s for a cell of a Markdown table.
func mdText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			b.WriteString("<br>")
		case '\n':
			b.WriteString("<br>")
		case '\\', '`', '*', '_', '[', ']', '|', '~', '#', '!':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < ' ' || c == 0x7f {
				b.WriteByte(' ')
				continue
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// mdURL writes u as an autolink when it is a plain http(s) or ftp URL,
// and as escaped text otherwise.
func mdURL(u string) string {
	if u == "" {
		return ""
	}
	scheme, _, _ := strings.Cut(strings.ToLower(u), ":")
	if (scheme == "http" || scheme == "https" || scheme == "ftp") && strings.HasPrefix(u[len(scheme):], "://") &&
		!strings.ContainsFunc(u, func(r rune) bool { return r <= ' ' || r == 0x7f || strings.ContainsRune("<>|\\`", r) }) {
		return "<" + u + ">"
	}
	return mdText(u)
}
