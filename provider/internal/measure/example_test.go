package measure_test

import (
	"fmt"

	"github.com/linkrot/relink/provider/internal/measure"
)

// A title query takes a title's content words once each.
func ExampleTitleTerms() {
	fmt.Println(measure.TitleTerms("The Python Tutorial: a tour of the Python language"))
	// Output:
	// [python tutorial tour language]
}
