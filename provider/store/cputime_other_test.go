//go:build !unix

package store_test

import "time"

// cpuTime returns 0 where the CPU time used is not known.
func cpuTime() time.Duration { return 0 }
