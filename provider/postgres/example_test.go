package postgres_test

import (
	"fmt"

	"github.com/linkrot/relink/provider/postgres"
)

// A DSN prints without its password, so that a -store URL can be logged
// and written into results as it is.
func ExampleDSN() {
	store := "postgres://relink:hunter2@db.example:5432/web?sslmode=require"
	fmt.Println(postgres.IsURL(store))
	fmt.Println(postgres.DSN(store))
	fmt.Printf("%q\n", postgres.DSN("host=db.example password=hunter2 dbname=web"))
	// Output:
	// true
	// postgres://relink:xxxxx@db.example:5432/web?sslmode=require
	// "host=db.example password=xxxxx dbname=web"
}
