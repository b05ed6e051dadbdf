package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/linkrot/relink/provider/postgres"
)

// TestDSNString checks that no form of printing a DSN shows its password.
func TestDSNString(t *testing.T) {
	const secret = "s3cr3t-p@ss"
	tests := []struct {
		name, dsn, want string
	}{
		{"url", "postgres://relink:s3cr3t-p%40ss@db.example:5432/web?sslmode=disable", "postgres://relink:xxxxx@db.example:5432/web?sslmode=disable"},
		{"postgresql scheme", "postgresql://relink:s3cr3t-p%40ss@db.example/web", "postgresql://relink:xxxxx@db.example/web"},
		{"query password", "postgres://db.example/web?user=relink&password=s3cr3t-p%40ss", "postgres://db.example/web?password=xxxxx&user=relink"},
		{"no password", "postgres://relink@db.example/web", "postgres://relink@db.example/web"},
		{"key value", "host=db.example password=s3cr3t-p@ss dbname=web", "host=db.example password=xxxxx dbname=web"},
		{"key value quoted", `host=db.example password='s3cr3t-p@ss x' dbname=web`, "host=db.example password=xxxxx dbname=web"},
		{"unparsable url", "postgres://relink:s3cr3t-p@ss@db:port/%zz", "postgres://xxxxx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := postgres.DSN(tt.dsn)
			if got := d.String(); got != tt.want {
				t.Errorf("DSN(%s).String() = %q, want %q", tt.name, got, tt.want)
			}
			for _, verb := range []string{"%s", "%v", "%q", "%#v", "%+v"} {
				out := fmt.Sprintf(verb, d)
				if strings.Contains(out, secret) || strings.Contains(out, "s3cr3t") {
					t.Errorf("fmt.Sprintf(%q, DSN) = %q shows the password", verb, out)
				}
			}
			if got := fmt.Sprint(struct{ Store postgres.DSN }{d}); strings.Contains(got, "s3cr3t") {
				t.Errorf("a struct holding the DSN prints as %q", got)
			}
		})
	}
}

// TestOpenErrorHidesPassword checks that a failed Open does not repeat the
// password, whatever the driver says: a port where nothing listens, and a
// connection string the driver cannot parse.
func TestOpenErrorHidesPassword(t *testing.T) {
	for _, dsn := range []string{
		"postgres://relink:s3cr3t@127.0.0.1:1/web?connect_timeout=5",
		"postgres://relink:s3cr3t@127.0.0.1:1/web?sslmode=nonsense",
		"host=127.0.0.1 port=1 password=s3cr3t connect_timeout=5",
	} {
		_, err := postgres.Open(context.Background(), postgres.DSN(dsn), nil)
		if err == nil {
			t.Fatalf("Open(%s) succeeded", postgres.DSN(dsn))
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("Open's error shows the password: %v", err)
		}
	}
}

// TestIsURL checks which -store values name PostgreSQL.
func TestIsURL(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://h/db": true, "postgresql://h/db": true, "POSTGRES://h/db": true,
		"dev.db": false, "/tmp/postgres://x": false, "": false, "postgres:/h": false,
	} {
		if got := postgres.IsURL(s); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", s, got, want)
		}
	}
}
