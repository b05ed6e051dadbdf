package ccindex_test

import (
	"net/url"
	"strconv"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func queryEscape(s string) string { return url.QueryEscape(s) }
