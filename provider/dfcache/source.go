package dfcache

import (
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/linkrot/relink/internal/par"
	"github.com/linkrot/relink/lexsig"
)

// maxLookups is how many DocFreq calls DocFreqs makes at a time to an
// underlying DF that is not a lexsig.BatchDF, as lexsig.Rank does.
const maxLookups = 8

// Source is a DF whose answers are kept in a DB under a source name, in
// front of an underlying DF. Each value is asked of the underlying DF once
// and then read from the file, in this run and the next ones, until it is
// older than Options.MaxAge. Errors of the underlying DF are returned as
// they are and not stored, nor are negative document frequencies or a
// non-positive |D|, which lexsig.Rank rejects.
//
// Lookups of the same term (or of |D|) that arrive while one is in flight,
// in any goroutine and through any Source of the same DB and name, wait for
// it and share its answer, which is in the file by the time they get it: so
// concurrent lookups reach the underlying DF once. A Source is safe for
// concurrent use if its underlying DF is.
//
// A Source with a nil underlying DF answers from the file alone: a value
// the file lacks is an error wrapping ErrNotCached. A run can so be
// repeated offline, exactly, from the values an earlier run stored.
//
// The empty term and terms longer than MaxTermBytes cannot be stored; they
// are asked of the underlying DF every time.
type Source struct {
	db    *DB
	df    lexsig.DF
	name  string
	stats counters
}

var (
	_ lexsig.DF      = (*Source)(nil)
	_ lexsig.BatchDF = (*Source)(nil)
)

// Wrap returns a DF that keeps the answers of df in db under the name
// source, which keeps apart the values of different search engines or
// corpora: DF values and |D| alike. Use one name per engine (and index
// version, where that matters), such as "yahoo-2009" or "store:dev.db". A nil
// df answers from the file alone (see Source). Wrap panics if source is empty
// or longer than MaxTermBytes.
func (db *DB) Wrap(df lexsig.DF, source string) *Source {
	if source == "" || len(source) > MaxTermBytes {
		panic("dfcache: Wrap with an empty or overlong source name")
	}
	return &Source{db: db, df: df, name: source}
}

// Name returns the source name s keeps its values under.
func (s *Source) Name() string { return s.name }

// Stats returns the counts of the term lookups made through s so far.
func (s *Source) Stats() Stats { return s.stats.snapshot() }

// flightKey names one value: a term of a source, or its |D|.
type flightKey struct {
	source string
	term   string
	docs   bool
}

// flight is one lookup that other callers may wait for.
type flight struct {
	key  flightKey
	done chan struct{} // closed when n and err are set
	n    int64
	err  error
}

// errLookupPanicked is what callers waiting on a lookup receive when the
// underlying DF panicked in it; the panic itself goes on in the caller that
// made the call.
var errLookupPanicked = errors.New("dfcache: document frequency lookup panicked")

// state is what the file holds of a value.
type state int

const (
	missing state = iota
	expired
	fresh
)

// DocFreq returns the document frequency of term: from the file when it
// holds a fresh value, otherwise from the underlying DF, storing the answer
// before returning it. When ctx is done while waiting for another caller's
// lookup, DocFreq returns ctx.Err(); when that lookup is abandoned because
// its caller's ctx is done, DocFreq asks again with ctx. Errors of the file
// are *Error values; a failure to store an answer is returned as an error
// (Op "write"), and the answer is then asked for again next time.
func (s *Source) DocFreq(ctx context.Context, term string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if !storable(term) {
		s.miss(1, 0)
		return s.ask(ctx, term)
	}
	return s.lookup(ctx, flightKey{source: s.name, term: term})
}

// Docs returns |D| of the source, from the file or from the underlying DF,
// as DocFreq does for a term.
func (s *Source) Docs(ctx context.Context) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return s.lookup(ctx, flightKey{source: s.name, docs: true})
}

// lookup answers one value from the file, from another caller's lookup in
// flight, or by leading a lookup of its own.
func (s *Source) lookup(ctx context.Context, key flightKey) (int64, error) {
	for {
		vals := make([]int64, 1)
		states, err := s.read([]flightKey{key}, vals)
		if err != nil {
			return 0, err
		}
		if states[0] == fresh {
			s.hit(key, 1)
			return vals[0], nil
		}
		f, leader := s.db.join(key)
		if !leader {
			s.share(key)
			n, err, retry := wait(ctx, f)
			if retry {
				continue
			}
			return n, err
		}
		if err := s.lead(ctx, []flightKey{key}, []*flight{f}, vals); err != nil {
			return 0, err
		}
		return vals[0], nil
	}
}

// DocFreqs returns the document frequency of each of terms, in order, as
// DocFreq would, reading the file once for all of them. The terms the file
// lacks, and no other caller is looking up, are asked of the underlying DF
// with one DocFreqs call when it is a lexsig.BatchDF and there are several
// (otherwise with up to 8 DocFreq calls at a time) and stored in one
// transaction. Stats count each
// distinct term of the call once. On error the slice is nil: the underlying
// error (a *lexsig.TermError naming the term when the underlying DF has no
// DocFreqs), an *Error of the file, or ctx.Err().
func (s *Source) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var (
		keys  []flightKey
		index = make(map[string]int, len(terms)) // term to its index in keys
		odd   []string                           // terms that cannot be stored
	)
	for _, t := range terms {
		if _, ok := index[t]; ok {
			continue
		}
		if !storable(t) {
			index[t] = -1 - len(odd)
			odd = append(odd, t)
			continue
		}
		index[t] = len(keys)
		keys = append(keys, flightKey{source: s.name, term: t})
	}
	vals := make([]int64, len(keys))
	states, err := s.read(keys, vals)
	if err != nil {
		return nil, err
	}

	var (
		leadKeys []flightKey
		leadAt   []int
		flights  []*flight
		waitAt   []int
		waiting  []*flight
	)
	for i, st := range states {
		if st == fresh {
			s.hit(keys[i], 1)
			continue
		}
		f, leader := s.db.join(keys[i])
		if leader {
			leadKeys, leadAt, flights = append(leadKeys, keys[i]), append(leadAt, i), append(flights, f)
		} else {
			waitAt, waiting = append(waitAt, i), append(waiting, f)
		}
	}
	if len(leadKeys) > 0 {
		led := make([]int64, len(leadKeys))
		if err := s.lead(ctx, leadKeys, flights, led); err != nil {
			return nil, err
		}
		for j, i := range leadAt {
			vals[i] = led[j]
		}
	}
	for j, i := range waitAt {
		s.share(keys[i])
		n, err, retry := wait(ctx, waiting[j])
		if retry {
			n, err = s.lookup(ctx, keys[i])
		}
		if err != nil {
			return nil, err
		}
		vals[i] = n
	}
	oddVals := make([]int64, len(odd))
	for i, t := range odd {
		s.miss(1, 0)
		n, err := s.ask(ctx, t)
		if err != nil {
			return nil, &lexsig.TermError{Term: t, Err: err}
		}
		oddVals[i] = n
	}

	out := make([]int64, len(terms))
	for i, t := range terms {
		if j := index[t]; j >= 0 {
			out[i] = vals[j]
		} else {
			out[i] = oddVals[-1-j]
		}
	}
	return out, nil
}

// lead makes the lookups of keys, whose flights this caller leads: it reads
// the file again (another caller may have stored a value between the first
// read and the flight), asks the underlying DF for the rest, stores the
// answers, and then releases the flights, so that a caller who finds no
// flight finds the value in the file. Answers go to out, by index.
func (s *Source) lead(ctx context.Context, keys []flightKey, flights []*flight, out []int64) (err error) {
	released := false
	defer func() {
		if !released { // a panic of the underlying DF
			for _, f := range flights {
				s.db.release(f, 0, errLookupPanicked)
			}
		}
	}()
	releaseAll := func(err error) {
		released = true
		for i, f := range flights {
			if err != nil {
				s.db.release(f, 0, err)
			} else {
				s.db.release(f, out[i], nil)
			}
		}
	}

	states, err := s.read(keys, out)
	if err != nil {
		releaseAll(err)
		return err
	}
	var ask []int // indexes into keys of the values to ask for
	nexpired := 0
	for i, st := range states {
		switch st {
		case fresh:
			s.hit(keys[i], 1)
		case expired:
			nexpired++
			ask = append(ask, i)
		default:
			ask = append(ask, i)
		}
	}
	if len(ask) == 0 {
		releaseAll(nil)
		return nil
	}
	if keys[0].docs {
		out[0], err = s.askDocs(ctx)
	} else {
		s.miss(len(ask), nexpired)
		terms := make([]string, len(ask))
		for j, i := range ask {
			terms[j] = keys[i].term
		}
		var ns []int64
		ns, err = s.askMany(ctx, terms)
		if err == nil {
			for j, i := range ask {
				out[i] = ns[j]
			}
		}
	}
	if err == nil {
		err = s.store(keys, ask, out)
	}
	releaseAll(err)
	return err
}

// ask asks the underlying DF for the document frequency of term.
func (s *Source) ask(ctx context.Context, term string) (int64, error) {
	if s.df == nil {
		return 0, s.notCached(fmt.Sprintf("term %q", term))
	}
	return s.df.DocFreq(ctx, term)
}

// askDocs asks the underlying DF for |D|.
func (s *Source) askDocs(ctx context.Context) (int64, error) {
	if s.df == nil {
		return 0, s.notCached("|D|")
	}
	return s.df.Docs(ctx)
}

// askMany asks the underlying DF for the document frequencies of distinct
// terms: one term with DocFreq, more with one DocFreqs call of a BatchDF or
// with DocFreq calls.
func (s *Source) askMany(ctx context.Context, terms []string) ([]int64, error) {
	if s.df == nil {
		return nil, s.notCached(fmt.Sprintf("term %q", terms[0]))
	}
	if b, ok := s.df.(lexsig.BatchDF); ok && len(terms) > 1 {
		ns, err := b.DocFreqs(ctx, terms)
		if err != nil {
			return nil, err
		}
		if len(ns) != len(terms) {
			return nil, fmt.Errorf("dfcache: underlying DocFreqs answered %d frequencies for %d terms", len(ns), len(terms))
		}
		return ns, nil
	}
	if len(terms) == 1 {
		n, err := s.df.DocFreq(ctx, terms[0])
		if err != nil {
			return nil, &lexsig.TermError{Term: terms[0], Err: err}
		}
		return []int64{n}, nil
	}
	ns := make([]int64, len(terms))
	err := par.Do(ctx, len(terms), maxLookups, func(ctx context.Context, i int) error {
		n, err := s.df.DocFreq(ctx, terms[i])
		if err != nil {
			return &lexsig.TermError{Term: terms[i], Err: err}
		}
		ns[i] = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ns, nil
}

// notCached returns the error of a Source without an underlying DF for a
// value the file lacks.
func (s *Source) notCached(what string) error {
	return &Error{Op: "read", Path: s.db.path, Err: fmt.Errorf("%w: %s of source %q", ErrNotCached, what, s.name)}
}

// read reads the values of keys from the file in one transaction, into out
// by index, and returns what the file holds of each.
func (s *Source) read(keys []flightKey, out []int64) ([]state, error) {
	states := make([]state, len(keys))
	if len(keys) == 0 {
		return states, nil
	}
	now := s.db.now()
	err := s.db.view(func(sources *bolt.Bucket) error {
		b := sources.Bucket([]byte(s.name))
		if b == nil {
			return nil
		}
		terms := b.Bucket(termsBucket)
		for i, k := range keys {
			var v []byte
			switch {
			case k.docs:
				v = b.Get(docsKey)
			case terms != nil:
				v = terms.Get([]byte(k.term))
			}
			if v == nil {
				continue
			}
			e, err := decodeEntry(v)
			if err != nil {
				return fmt.Errorf("%w (source %q, %s)", err, s.name, k)
			}
			out[i] = e.n
			if e.fresh(now, s.db.maxAge) {
				states[i] = fresh
			} else {
				states[i] = expired
			}
		}
		return nil
	})
	return states, err
}

// String names k in error messages.
func (k flightKey) String() string {
	if k.docs {
		return "|D|"
	}
	return fmt.Sprintf("term %q", k.term)
}

// store writes the values out[i] of keys[i], for i in at, in one batched
// transaction, leaving out negative frequencies and a non-positive |D|.
// A read-only DB stores nothing.
func (s *Source) store(keys []flightKey, at []int, out []int64) error {
	if s.db.readOnly {
		return nil
	}
	var put []int
	for _, i := range at {
		if out[i] > 0 || (out[i] == 0 && !keys[i].docs) {
			put = append(put, i)
		}
	}
	if len(put) == 0 {
		return nil
	}
	now := s.db.now()
	err := s.db.update(func(sources *bolt.Bucket) error {
		b, err := sources.CreateBucketIfNotExists([]byte(s.name))
		if err != nil {
			return err
		}
		terms, err := b.CreateBucketIfNotExists(termsBucket)
		if err != nil {
			return err
		}
		for _, i := range put {
			v := entry{n: out[i], stored: now}.encode()
			if keys[i].docs {
				err = b.Put(docsKey, v)
			} else {
				err = terms.Put([]byte(keys[i].term), v)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	n := 0
	for _, i := range put {
		if !keys[i].docs {
			n++
		}
	}
	s.stats.stored.Add(int64(n))
	s.db.stats.stored.Add(int64(n))
	return nil
}

// storable reports whether term can be a key of the file.
func storable(term string) bool { return term != "" && len(term) <= MaxTermBytes }

// join returns the flight of key, and whether the caller leads it: a new
// flight the caller must release, or one in progress to wait for.
func (db *DB) join(key flightKey) (*flight, bool) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if f, ok := db.flights[key]; ok {
		return f, false
	}
	f := &flight{key: key, done: make(chan struct{})}
	db.flights[key] = f
	return f, true
}

// release ends flight f with its answer and wakes its waiters.
func (db *DB) release(f *flight, n int64, err error) {
	db.mu.Lock()
	delete(db.flights, f.key)
	db.mu.Unlock()
	f.n, f.err = n, err
	close(f.done)
}

// wait waits for flight f and returns its answer. retry reports that f was
// abandoned because its leader's context was done while ctx is not, so the
// caller should look again.
func wait(ctx context.Context, f *flight) (n int64, err error, retry bool) {
	select {
	case <-f.done:
	case <-ctx.Done():
		return 0, ctx.Err(), false
	}
	if f.err != nil && isContextErr(f.err) && ctx.Err() == nil {
		return 0, nil, true
	}
	return f.n, f.err, false
}

// isContextErr reports whether err comes from a done context.
func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// hit counts n lookups answered from the file.
func (s *Source) hit(k flightKey, n int) {
	if k.docs {
		return
	}
	s.stats.hits.Add(int64(n))
	s.db.stats.hits.Add(int64(n))
}

// miss counts n lookups that go to the underlying DF, nexpired of them
// because their value was too old.
func (s *Source) miss(n, nexpired int) {
	s.stats.misses.Add(int64(n))
	s.db.stats.misses.Add(int64(n))
	s.stats.expired.Add(int64(nexpired))
	s.db.stats.expired.Add(int64(nexpired))
}

// share counts a lookup that waits for another's.
func (s *Source) share(k flightKey) {
	if k.docs {
		return
	}
	s.stats.shared.Add(int64(1))
	s.db.stats.shared.Add(int64(1))
}
