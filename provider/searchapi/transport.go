package searchapi

import (
	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Transport says how a Client sends its requests: through which HTTP
// client (HTTP, UserAgent), how fast (Rate, Burst), how often it tries
// again (Attempts, Backoff, MaxBackoff), how long it waits (MaxWait,
// Timeout) and where it may be redirected (CrossHostRedirects). Every
// engine package's Options embeds it, so these fields mean the same for
// every engine:
//
//	c, err := brave.New(brave.Options{Key: key, Transport: searchapi.Transport{Attempts: 3}})
//
// It is the one declaration relink's HTTP layer for web APIs runs on
// (package provider/internal/apiclient, whose Client embeds it), where
// each field is documented. The zero value is ready to use, and a zero or
// negative field means its default: 1 request per second and a burst of
// 1, 5 attempts, 1 s of backoff doubled up to 30 s, waits of at most
// 1 min obeyed, 30 s per attempt, and no redirect to another host. A
// Transport holds no secret.
type Transport = apiclient.Transport

// transportClient returns the apiclient.Client that sends the requests
// for t.
func transportClient(t Transport) *apiclient.Client {
	return &apiclient.Client{Transport: t}
}
