package commoncrawl_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/warc"
)

// syntheticPath names a synthetic WAT file for TestMeasureReader, written by
// WriteSynthetic when it does not exist yet, e.g.
//
//	go test -run MeasureReader -v ./provider/commoncrawl -watfile /tmp/synthetic.wat.gz
//
// (run it twice: the second run reads a file it did not write, so that its
// peak resident size is the Reader's alone). Without it the test skips.
var syntheticPath = flag.String("watfile", "", "synthetic WAT file for TestMeasureReader (written when missing)")

// syntheticRecords is the size of the synthetic file, in records.
const syntheticRecords = 50_000

// writeSynthetic writes n records shaped like a Common Crawl WAT file: a
// warcinfo record, then for each capture the envelopes of its request, its
// response and the crawler's metadata record. Responses are HTML pages
// with 40 to 200 links (85% <a href>, the rest images, scripts, forms,
// image maps; a few mailto: and javascript: hrefs; relative and absolute
// URLs into a few thousand hosts), about 16 KB of JSON each.
func writeSynthetic(out io.Writer, n int) error {
	w := warc.NewWriter(out, true)
	rnd := rand.New(rand.NewPCG(7, 11))
	words := strings.Fields("the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when if so no will more can out other into some could time them")
	text := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = words[rnd.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	host := func() string {
		return fmt.Sprintf("site%d.example.%s", rnd.IntN(3000), []string{"com", "org", "net", "de"}[rnd.IntN(4)])
	}
	write := func(uri, block string) error {
		return w.WriteRecord(warc.Header{
			{Name: "WARC-Type", Value: warc.TypeMetadata},
			{Name: "WARC-Target-URI", Value: uri},
			{Name: "Content-Type", Value: "application/json"},
		}, []byte(block))
	}
	if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: warc.TypeWarcinfo}, {Name: "Content-Type", Value: "application/warc-fields"}},
		[]byte("software: synthetic\r\n")); err != nil {
		return err
	}
	for i := 1; i < n; i += 3 {
		h := host()
		uri := fmt.Sprintf("https://%s/%s/%d.html", h, strings.ReplaceAll(text(2), " ", "-"), i)
		var ls []string
		for range 40 + rnd.IntN(161) {
			var href string
			switch r := rnd.IntN(10); {
			case r < 5:
				href = fmt.Sprintf("/%s/%d", strings.ReplaceAll(text(3), " ", "/"), rnd.IntN(1000))
			case r < 8:
				href = fmt.Sprintf("https://%s/%s.html", host(), strings.ReplaceAll(text(2), " ", "-"))
			case r < 9:
				href = fmt.Sprintf("%s?page=%d#top", strings.ReplaceAll(text(1), " ", "-"), rnd.IntN(50))
			default:
				href = []string{"mailto:info@" + h, "javascript:void(0)", "#", "tel:+1555"}[rnd.IntN(4)]
			}
			switch r := rnd.IntN(100); {
			case r < 85:
				ls = append(ls, link("A@/href", href, text(1+rnd.IntN(6))))
			case r < 93:
				ls = append(ls, link("IMG@/src", "/img/"+text(1)+".png", ""))
			case r < 96:
				ls = append(ls, link("SCRIPT@/src", "/js/app.js", ""))
			case r < 98:
				ls = append(ls, link("FORM@/action", "/search", ""))
			default:
				ls = append(ls, link("AREA@/href", href, ""))
			}
		}
		if err := write(uri, request(uri)); err != nil {
			return err
		}
		if err := write(uri, response(uri, date, `"200"`, head(text(6), ""), links(ls...))); err != nil {
			return err
		}
		if err := write(uri, metadataEnvelope(uri)); err != nil {
			return err
		}
	}
	return nil
}

// createSynthetic writes the synthetic file of syntheticRecords records
// at path.
func createSynthetic(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := writeSynthetic(bw, syntheticRecords); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// BenchmarkReader reads 3,000 synthetic records from memory.
func BenchmarkReader(b *testing.B) {
	var buf bytes.Buffer
	if err := writeSynthetic(&buf, 3000); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		r, err := commoncrawl.NewReader(bytes.NewReader(buf.Bytes()), nil)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestMeasureReader reads the synthetic file twice: with gzip alone, for
// the size and the floor, then with Reader. It reports records and
// megabytes (uncompressed) per second and the peak resident size.
func TestMeasureReader(t *testing.T) {
	if *syntheticPath == "" {
		t.Skip("no -watfile")
	}
	if _, err := os.Stat(*syntheticPath); errors.Is(err, os.ErrNotExist) {
		start := time.Now()
		if err := createSynthetic(*syntheticPath); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s in %.1fs; run again to measure without the writer's memory", *syntheticPath, time.Since(start).Seconds())
	}
	f, err := os.Open(*syntheticPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.Copy(io.Discard, zr)
	if err != nil {
		t.Fatal(err)
	}
	gz := time.Since(start)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	r, err := commoncrawl.NewReader(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	d := time.Since(start)
	st := r.Stats()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("file: %.1f MB gzip, %.1f MB plain; gzip alone %.1fs (%.0f MB/s)", float64(fi.Size())/1e6, float64(plain)/1e6, gz.Seconds(), float64(plain)/1e6/gz.Seconds())
	t.Logf("Reader: %s", st)
	t.Logf("Reader: %.1fs, %.0f records/s, %.0f pages/s, %.0f links/s, %.1f MB/s plain (%.1f MB/s gzip)",
		d.Seconds(), float64(st.Records)/d.Seconds(), float64(st.Pages)/d.Seconds(), float64(st.Links)/d.Seconds(),
		float64(plain)/1e6/d.Seconds(), float64(fi.Size())/1e6/d.Seconds())
	t.Logf("memory: peak resident %s, Go heap in use %.1f MB, Go runtime total %.1f MB", peakRSS(), float64(ms.HeapInuse)/1e6, float64(ms.Sys)/1e6)
}

// peakRSS returns the VmHWM line of /proc/self/status, or "unknown".
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// BenchmarkParse parses one envelope of an HTML page with 150 links, as
// the synthetic file's responses are.
func BenchmarkParse(b *testing.B) {
	var ls []string
	for i := range 150 {
		switch i % 10 {
		case 0:
			ls = append(ls, link("IMG@/src", fmt.Sprintf("/img/%d.png", i), ""))
		case 1, 2, 3:
			ls = append(ls, link("A@/href", fmt.Sprintf("https://site%d.example.org/some/path-%d.html", i, i), "an external link"))
		default:
			ls = append(ls, link("A@/href", fmt.Sprintf("/section/%d/page-%d?x=%d#frag", i%7, i, i), "a page of this site"))
		}
	}
	block := []byte(response("https://www.example.com/blog/post.html", date, `"200"`, head("A post", ""), links(ls...)))
	b.SetBytes(int64(len(block)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := commoncrawl.Parse(block, ""); err != nil {
			b.Fatal(err)
		}
	}
}
