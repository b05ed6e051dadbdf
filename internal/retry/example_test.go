package retry_test

import (
	"fmt"
	"time"

	"github.com/linkrot/relink/internal/retry"
)

func ExampleAfter() {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, v := range []string{"120", "Fri, 02 Jan 2026 03:05:05 GMT", "soon"} {
		d, ok := retry.After(v, now)
		fmt.Println(d, ok)
	}
	// Output:
	// 2m0s true
	// 1m0s true
	// 0s false
}

func ExampleBackoff_Delay() {
	b := retry.Backoff{First: time.Second, Max: 4 * time.Second}
	for n := 1; n <= 4; n++ {
		hi := min(b.First<<(n-1), b.Max)
		d := b.Delay(n)
		fmt.Printf("after attempt %d: from %v to %v: %v\n", n, hi/2, hi, d >= hi/2 && d <= hi)
	}
	// Output:
	// after attempt 1: from 500ms to 1s: true
	// after attempt 2: from 1s to 2s: true
	// after attempt 3: from 2s to 4s: true
	// after attempt 4: from 2s to 4s: true
}

func ExampleStatus() {
	for _, code := range []int{404, 429, 501, 503} {
		fmt.Println(code, retry.Status(code))
	}
	// Output:
	// 404 false
	// 429 true
	// 501 false
	// 503 true
}
