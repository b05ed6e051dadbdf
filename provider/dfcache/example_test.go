package dfcache_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/dfcache"
)

// asked records the terms engine was asked for.
var asked struct {
	sync.Mutex
	terms []string
}

// engine stands in for a web search engine's hit counts, which the paper
// asked Yahoo! for (§2.1 "TFIDF"). lexsig.Rank asks for several terms at
// once, so it records them for askedTerms.
var engine = lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
	asked.Lock()
	defer asked.Unlock()
	asked.terms = append(asked.terms, term)
	return map[string]int64{"lexical": 2_100_000, "signature": 9_800_000}[term], nil
}).WithDocs(20_000_000_000)

// askedTerms returns the terms engine was asked for since the last call,
// sorted.
func askedTerms() []string {
	asked.Lock()
	defer asked.Unlock()
	terms := asked.terms
	asked.terms = nil
	slices.Sort(terms)
	return terms
}

func Example() {
	dir, err := os.MkdirTemp("", "dfcache")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "df.cache")
	ctx := context.Background()

	for run := 1; run <= 2; run++ {
		fmt.Println("run", run)
		db, err := dfcache.Open(path, nil)
		if err != nil {
			log.Fatal(err)
		}
		sig, err := lexsig.Compute(ctx, []string{"lexical", "signature", "lexical"}, db.Wrap(engine, "yahoo-2009"), 2)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("  asked the engine for %q\n", askedTerms())
		fmt.Printf("  signature %q, %+v\n", sig, db.Stats())
		if err := db.Close(); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// run 1
	//   asked the engine for ["lexical" "signature"]
	//   signature "lexical signature", {Hits:0 Misses:2 Expired:0 Shared:0 Stored:2}
	// run 2
	//   asked the engine for []
	//   signature "lexical signature", {Hits:2 Misses:0 Expired:0 Shared:0 Stored:0}
}

// A second process that opens a file in use waits Options.LockTimeout and
// gets ErrLocked; so does a second Open in the same process.
func ExampleOpen_locked() {
	dir, err := os.MkdirTemp("", "dfcache")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "df.cache")

	db, err := dfcache.Open(path, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	_, err = dfcache.Open(path, &dfcache.Options{LockTimeout: -1}) // do not wait
	fmt.Println(errors.Is(err, dfcache.ErrLocked))
	// Output:
	// true
}

// A Source without an underlying DF answers from the file alone, so a run
// can be repeated offline with the values an earlier run stored.
func ExampleDB_Wrap_offline() {
	dir, err := os.MkdirTemp("", "dfcache")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := dfcache.Open(filepath.Join(dir, "df.cache"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()

	if _, err := db.Wrap(engine, "yahoo-2009").DocFreq(ctx, "lexical"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("asked the engine for %q\n", askedTerms())
	offline := db.Wrap(nil, "yahoo-2009")
	n, err := offline.DocFreq(ctx, "lexical")
	fmt.Println(n, err)
	_, err = offline.DocFreq(ctx, "signature")
	fmt.Println(errors.Is(err, dfcache.ErrNotCached))
	// Output:
	// asked the engine for ["lexical"]
	// 2100000 <nil>
	// true
}
