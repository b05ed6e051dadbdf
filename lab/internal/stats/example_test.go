package stats_test

import (
	"fmt"

	"github.com/linkrot/relink/lab/internal/stats"
)

func ExampleQuantile() {
	ms := []float64{9, 1, 3, 7, 5, 2, 8, 4, 6, 100}
	fmt.Println(stats.Quantile(ms, 0.5), stats.Quantile(ms, 0.99), stats.Quantile(nil, 0.5))
	// Output: 5 100 0
}
