package main

import (
	"context"
	"errors"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// errNoBrowser is the error of findChromium when no browser is installed.
var errNoBrowser = errors.New("no chromium binary found (chromium, chromium-browser or google-chrome on PATH, or /usr/bin/chromium); on Debian: apt-get install chromium")

// findChromium returns the path of a Chromium or Chrome binary.
func findChromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	if fi, err := os.Stat("/usr/bin/chromium"); err == nil && fi.Mode().IsRegular() {
		return "/usr/bin/chromium", nil
	}
	return "", errNoBrowser
}

// newBrowser starts the headless browser at path with a window of width
// by height pixels and returns a context for its first tab; cancel stops
// the browser. The sandbox is off: Chromium refuses to run as root with
// it, and the browser only opens the loopback page.
func newBrowser(ctx context.Context, path string, width, height int) (context.Context, context.CancelFunc) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(width, height),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-device-scale-factor", "1"),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	return bctx, func() {
		cancelBrowser()
		cancelAlloc()
	}
}
