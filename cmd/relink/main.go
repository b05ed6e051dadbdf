// Command relink finds where missing web pages went, from the pages that
// link to them (Ware, Klein and Nelson's method, and the project's best).
//
// Usage:
//
//	relink SUBCOMMAND [flags] [arguments]
//	relink help [SUBCOMMAND]
//	relink -version
//
// The subcommands:
//
//	corpus     build a store from a manifest, a directory, WARC or WAT files
//	df         write the document frequencies of a store as a table
//	find       treat one URL as missing and look for it again
//	fix        find where many dead links went, and repair them
//	review     accept or reject fix's repairs on a local web page
//	signature  the lexical signature of a target from saved backlink pages
//	soft404    the paper's soft 404 check of one live URL
//	worker     look for the dead links fix -queue put in a PostgreSQL queue
//
// Exit codes: 0 when the command did its work (whatever its verdicts), 1
// when it failed (one line on stderr says why), 2 when the command line is
// wrong: an unknown subcommand or flag, a missing argument, a value out of
// range or of the wrong form; 3 when fix -fail-on names a verdict that a
// dead link ended with. A file the command line names that is
// missing, unreadable or not what it should be is a failure (1).
//
// Commands that only read a store (find, signature) open it read-only:
// they never create or change one. Ctrl-C or SIGTERM stops a run at once,
// also one waiting for its input (standard input, a FIFO): one line on
// stderr says "interrupted", the exit code is 1, every client and file is
// closed on the way out and fix's -state journal holds every result
// finished. A command that has not stopped 10 seconds after the signal,
// or gets a second one, ends there.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/linkrot/relink/repair"
)

// Exit codes (see the package documentation).
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	// exitFailOn is fix's exit code when a dead link ended with a verdict
	// -fail-on names (for CI).
	exitFailOn = 3
)

// command is one subcommand.
type command struct {
	name  string
	short string // one line for the list of subcommands
	// run parses args and does the work. An error of type *usageError
	// exits 2, flag.ErrHelp 0 (the help is printed), any other 1.
	run func(ctx context.Context, env *env, args []string) error
	// flags returns the subcommand's flags, for its help.
	flags func() *flag.FlagSet
	// text returns the help before the flags: usage and description.
	text func() string
}

// help writes the subcommand's help: usage, description and flags.
func (c *command) help(w io.Writer) { writeHelp(w, c.text(), c.flags()) }

// env is what a subcommand may touch of the process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// afterResult, when set by a test, is called after fix has recorded
	// each dead link's result, with how many it has recorded in this run.
	afterResult func(n int)
}

// commands are the subcommands, in the order help lists them.
func commands() []*command {
	fixed := func(s string) func() string { return func() string { return s } }
	return []*command{
		{name: "corpus", short: "build a store from a manifest, a directory, WARC or WAT files", run: runCorpus,
			flags: func() *flag.FlagSet { fs, _ := corpusFlags(); return fs }, text: fixed(corpusHelp)},
		{name: "df", short: "write the document frequencies of a store as a table", run: runDF,
			flags: func() *flag.FlagSet { fs, _ := dfFlags(); return fs }, text: fixed(dfHelp)},
		{name: "find", short: "treat one URL as missing and look for it again", run: runFind,
			flags: func() *flag.FlagSet { fs, _ := findFlags(); return fs }, text: findText},
		{name: "fix", short: "find where many dead links went, and repair them", run: runFix,
			flags: func() *flag.FlagSet { fs, _ := fixFlags(); return fs }, text: fixText},
		{name: "review", short: "accept or reject fix's repairs on a local web page", run: runReview,
			flags: func() *flag.FlagSet { fs, _ := reviewFlags(); return fs }, text: fixed(reviewHelp)},
		{name: "signature", short: "the lexical signature of a target from saved backlink pages", run: runSignature,
			flags: func() *flag.FlagSet { fs, _ := signatureFlags(); return fs }, text: fixed(signatureHelp)},
		{name: "soft404", short: "the paper's soft 404 check of one live URL", run: runSoft404,
			flags: func() *flag.FlagSet { fs, _ := soft404Flags(); return fs }, text: fixed(soft404Help)},
		{name: "worker", short: "look for the dead links fix -queue put in a PostgreSQL queue", run: runWorker,
			flags: func() *flag.FlagSet { fs, _ := workerFlags(); return fs }, text: fixed(workerHelp)},
	}
}

// stopGrace is how long a command may take to stop after Ctrl-C or
// SIGTERM (closing files and clients, giving a worker's dead links back)
// before the process ends without it; a second signal ends it at once.
const stopGrace = 10 * time.Second

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		cancel(fmt.Errorf("%v signal received", s))
		select {
		case s = <-sigs:
		case <-time.After(stopGrace):
		}
		fmt.Fprintf(os.Stderr, "relink: interrupted (%v): stopped without waiting longer\n", s)
		os.Exit(exitFailure)
	}()
	code := runContext(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	signal.Stop(sigs)
	os.Exit(code)
}

// run runs the command line args (without the program's name) and returns
// the exit code. fix reads stdin (a list of dead links) unless -in.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run with a context that a signal cancels.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(ctx, &env{stdin: stdin, stdout: stdout, stderr: stderr}, args)
}

// runEnv is runContext with the process's parts in e.
func runEnv(ctx context.Context, e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	if len(args) == 0 {
		return fail(stderr, "relink", usagef("no subcommand: want relink SUBCOMMAND [flags] [arguments]"))
	}
	switch name := args[0]; name {
	case "-version", "--version", "version":
		if len(args) > 1 {
			return fail(stderr, "relink", usagef("-version takes no arguments"))
		}
		fmt.Fprintln(stdout, "relink", version())
		return exitOK
	case "help", "-h", "-help", "--help":
		return help(e, args[1:])
	}
	c := lookup(args[0])
	if c == nil {
		if strings.HasPrefix(args[0], "-") {
			return fail(stderr, "relink", usagef("flag %s before a subcommand: want relink SUBCOMMAND [flags] (see relink help)", quoteArg(args[0])))
		}
		return fail(stderr, "relink", usagef("unknown subcommand %s (see relink help)", quoteArg(args[0])))
	}
	err := c.run(ctx, e, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		c.help(stdout)
		return exitOK
	}
	return fail(stderr, "relink "+c.name, err)
}

// lookup returns the subcommand called name, or nil.
func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// help prints the help of the subcommand args names, or the list of
// subcommands.
func help(e *env, args []string) int {
	switch len(args) {
	case 0:
		mainUsage(e.stdout)
		return exitOK
	case 1:
		if c := lookup(args[0]); c != nil {
			c.help(e.stdout)
			return exitOK
		}
		return fail(e.stderr, "relink help", usagef("unknown subcommand %s", quoteArg(args[0])))
	}
	return fail(e.stderr, "relink help", usagef("want at most one subcommand"))
}

// mainUsage lists the subcommands.
func mainUsage(w io.Writer) {
	fmt.Fprint(w, `relink finds where missing web pages went, from the pages that link to them.

Usage:

	relink SUBCOMMAND [flags] [arguments]

The subcommands are:

`)
	for _, c := range commands() {
		fmt.Fprintf(w, "\t%-10s %s\n", c.name, c.short)
	}
	fmt.Fprint(w, `
Use "relink help SUBCOMMAND" for more about a subcommand, "relink -version"
for the version. Exit codes: 0 done, 1 failure, 2 bad usage, 3 a verdict
fix -fail-on names.
`)
}

// version returns the module's version from the build information, or
// "(devel)" when it has none, and the commit it was built from when the
// build recorded one (a build in a git work tree, where Go takes the
// version from the commit's tag). `go install ...@VERSION` records no
// commit: a pseudo-version names its commit, and a release is named by
// its tag and the module's checksum (go.sum's h1: hash), printed instead.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionOf(info)
}

// versionOf is version for the build information info.
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	switch {
	case rev != "":
		v += " commit " + rev[:min(len(rev), 12)]
		if modified {
			v += " with uncommitted changes"
		}
	case pseudoCommit(v) != "":
		v += " commit " + pseudoCommit(v)
	case info.Main.Sum != "":
		v += " sum " + info.Main.Sum
	}
	return v
}

// pseudoCommit returns the commit prefix a pseudo-version ends with
// (v0.0.0-20261202083000-8fb7913a0c1d, or vX.Y.Z-pre.0.TIME-COMMIT), or
// "" when v is none.
func pseudoCommit(v string) string {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 15 {
		return ""
	}
	commit, stamp := v[i+1:], v[i-14:i]
	if len(commit) != 12 || strings.Trim(commit, "0123456789abcdef") != "" || strings.Trim(stamp, "0123456789") != "" {
		return ""
	}
	if sep := v[i-15]; sep != '-' && sep != '.' {
		return ""
	}
	return commit
}

// usageError is a command line that cannot work: exit code 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a usageError with the formatted message.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// usage marks err, when not nil, as a usage error.
func usage(err error) error {
	if err == nil {
		return nil
	}
	return &usageError{err}
}

// exitError is a run that did its work but must exit with code (fix
// -fail-on): its message is printed as a failure's is.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// fail prints err, when not nil, as one line on w after prefix (URL
// passwords redacted, repair.RedactPasswords) and returns
// its exit code: 0 for nil, 2 for a usage error, an exitError's own, 1 for
// any other.
func fail(w io.Writer, prefix string, err error) int {
	if err == nil {
		return exitOK
	}
	code := exitFailure
	var ue *usageError
	var xe *exitError
	switch {
	case errors.As(err, &ue):
		code = exitUsage
	case errors.As(err, &xe):
		code = xe.code
	}
	// A message may quote the input (a URL with a password): the
	// password is not shown.
	msg := repair.RedactPasswords(err.Error())
	switch {
	case errors.Is(err, context.Canceled):
		msg = "interrupted: " + msg
	case code == exitUsage && !strings.Contains(msg, "relink help"):
		msg += " (see relink help)"
	}
	fmt.Fprintf(w, "%s: %s\n", prefix, oneLine(msg))
	return code
}

// maxLine bounds a message printed on stderr, so that a 10 KB argument
// does not make a 10 KB line.
const maxLine = 1000

// oneLine returns s on one line: line breaks and other control characters
// become spaces (a message quoting a hostile page or URL must not break
// the line or drive the terminal), and a message longer than maxLine bytes
// is cut in its middle.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
	if len(s) <= maxLine {
		return s
	}
	head, tail := s[:maxLine/2], s[len(s)-maxLine/2:]
	for !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	for !utf8.ValidString(tail) {
		tail = tail[1:]
	}
	return head + " … " + tail
}

// quoteArg quotes an argument for a message, shortened when long.
func quoteArg(s string) string {
	const max = 80
	if len(s) > max {
		s = s[:max] + "…"
	}
	return fmt.Sprintf("%q", s)
}
