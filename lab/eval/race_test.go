//go:build race

package eval_test

// raceEnabled reports whether the race detector is on.
const raceEnabled = true
