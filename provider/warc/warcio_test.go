package warc

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"io"
	"mime"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// warcioDir is where npm installed warcio.js (the directory holding
// node_modules/warcio), for the live cross-check; empty skips it.
var warcioDir = flag.String("warcio", "", "directory with node_modules/warcio for the warcio.js cross-check")

// summary is what the cross-check compares of one record: the fields
// testdata/warcio/read.mjs prints.
type summary struct {
	Offset        int64  `json:"offset"`
	Version       string `json:"version"`
	Type          string `json:"type"`
	Target        string `json:"target"`
	ID            string `json:"id"`
	Date          string `json:"date"`
	Length        int64  `json:"length"`
	Status        int    `json:"status"`
	PayloadSHA256 string `json:"payloadSHA256"`
}

// summarize reads data with Reader and summarizes each record as
// read.mjs does with warcio.js: the payload of an application/http block
// is what follows its HTTP header; the status is that of a response or
// revisit.
func summarize(t *testing.T, data []byte) []summary {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out []summary
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		block, err := io.ReadAll(rec.Body)
		if err != nil {
			t.Fatalf("reading the block at %d: %v", rec.Offset, err)
		}
		n, _ := rec.Header.ContentLength()
		s := summary{
			Offset: rec.Offset, Version: rec.Version, Type: rec.Header.Type(), Target: rec.Header.TargetURI(),
			ID: rec.Header.Get("WARC-Record-ID"), Date: rec.Header.Get("WARC-Date"), Length: n,
		}
		payload := block
		if mt, _, _ := mime.ParseMediaType(rec.Header.ContentType()); mt == "application/http" {
			if _, after, ok := bytes.Cut(block, []byte("\r\n\r\n")); ok {
				payload = after
			}
			if s.Type == TypeResponse || s.Type == TypeRevisit {
				again := &Record{Version: rec.Version, Header: rec.Header, Offset: rec.Offset, Body: bytes.NewReader(block)}
				if s.Status, _, _, err = ReadResponse(again); err != nil {
					t.Fatalf("ReadResponse at %d: %v", rec.Offset, err)
				}
			}
		}
		sum := sha256.Sum256(payload)
		s.PayloadSHA256 = hex.EncodeToString(sum[:])
		out = append(out, s)
	}
}

// readJSONLines parses one summary per line.
func readJSONLines(t *testing.T, data []byte) []summary {
	t.Helper()
	var out []summary
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var s summary
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		out = append(out, s)
	}
	return out
}

// TestWarcioFixtures reads files written by warcio.js 2.4.11 (an
// independent implementation) and compares what Reader sees with what
// warcio.js itself read from them (the .jsonl files, made by
// testdata/warcio/read.mjs).
func TestWarcioFixtures(t *testing.T) {
	for _, name := range []string{"warcio-1.0.warc", "warcio-1.0.warc.gz", "warcio-1.1.warc", "warcio-1.1.warc.gz"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(readJSONLines(t, want), summarize(t, data)); diff != "" {
				t.Errorf("records (-warcio.js +Reader):\n%s", diff)
			}
		})
	}
}

// TestWarcioReadsOurs has warcio.js read files the Writer wrote and
// compares with Reader. It runs only with -warcio=DIR and node on the PATH.
func TestWarcioReadsOurs(t *testing.T) {
	if *warcioDir == "" {
		t.Skip("no -warcio directory given")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "warcio", "read.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sample-1.0.warc", "sample-1.0.warc.gz", "sample-1.1.warc", "sample-1.1.warc.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(node, script, path)
			cmd.Env = append(os.Environ(), "WARCIO_DIR="+*warcioDir)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node read.mjs %s: %v\n%s", name, err, stderr.Bytes())
			}
			if diff := cmp.Diff(readJSONLines(t, out), summarize(t, data)); diff != "" {
				t.Errorf("records (-warcio.js +Reader):\n%s", diff)
			}
		})
	}
}
