// Command reviewshot takes the screenshot of relink review's page that
// the README shows: it serves the results of a relink fix run with
// package repair/review on loopback, opens the page in headless Chromium,
// makes a few decisions with the keyboard as a person would, selects a
// dead link and saves a PNG of the window.
//
//	reviewshot -in fix.jsonl -out docs/review.png [-select N] [-width 1360] [-height 860]
//
// The decisions go to a temporary state file, removed at the end. It
// needs a Chromium (Debian's chromium package) and exits 1 without one.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/repair"
	"github.com/linkrot/relink/repair/review"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "reviewshot:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	in, out       string
	sel           int
	width, height int
	decide        string
}

func run(args []string, stderr io.Writer) error {
	var c config
	fs := flag.NewFlagSet("reviewshot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.in, "in", "", "the results `FILE` of relink fix -o jsonl")
	fs.StringVar(&c.out, "out", "review.png", "the PNG `FILE` to write")
	fs.IntVar(&c.sel, "select", 0, "the `index` of the dead link shown at the end, 0 first")
	fs.IntVar(&c.width, "width", 1360, "window width in `pixels`")
	fs.IntVar(&c.height, "height", 860, "window height in `pixels`")
	fs.StringVar(&c.decide, "keys", "aar", "`keys` pressed from the first dead link on (a accept, r reject, 1-9 a candidate, j/k move)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.in == "" {
		return errors.New("-in FILE is required")
	}
	f, err := os.Open(c.in)
	if err != nil {
		return err
	}
	results, err := repair.ReadResults(f)
	f.Close()
	if err != nil {
		return err
	}
	if c.sel < 0 || c.sel >= len(results) {
		return fmt.Errorf("-select %d: want 0 to %d", c.sel, len(results)-1)
	}
	png, err := shoot(results, c)
	if err != nil {
		return err
	}
	return os.WriteFile(c.out, png, 0o644)
}

// shoot serves results, presses c.decide's keys, selects c.sel and
// returns the screenshot.
func shoot(results []repair.Result, c config) ([]byte, error) {
	path, err := findChromium()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "reviewshot")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	token := review.NewToken()
	srv, err := review.New(results, review.Options{Token: token, State: filepath.Join(dir, "decisions.json"), Threshold: relink.DefaultThreshold})
	if err != nil {
		return nil, err
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx, stop := newBrowser(ctx, path, c.width, c.height)
	defer stop()
	steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(hs.URL + "/?token=" + token), chromedp.WaitVisible(chromedp.CSS(`tr.row.sel`))}
	n := 0
	for _, k := range c.decide {
		steps = append(steps, chromedp.KeyEvent(string(k)))
		if k != 'j' && k != 'k' {
			n++
			steps = append(steps, waitDecided(n))
		}
	}
	// Reloaded, the page shows the decisions as the server has them.
	sel := strconv.Itoa(c.sel)
	steps = append(steps,
		chromedp.Navigate(hs.URL+"/?sel="+sel),
		chromedp.WaitVisible(chromedp.CSS(`#d-`+sel)),
	)
	if err := chromedp.Do(bctx, steps...); err != nil {
		return nil, err
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('.list').scrollTop = 0`)); err != nil {
		return nil, err
	}
	shot, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	if err != nil {
		return nil, err
	}
	return smaller(shot)
}

// smaller encodes the PNG shot again at the best compression.
func smaller(shot []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img); err != nil {
		return nil, err
	}
	if b.Len() >= len(shot) {
		return shot, nil
	}
	return b.Bytes(), nil
}

// waitDecided waits until the page counts n decisions.
func waitDecided(n int) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](fmt.Sprintf(`+document.getElementById('n-open').textContent === document.querySelectorAll('tr.row').length - %d`, n))
}
