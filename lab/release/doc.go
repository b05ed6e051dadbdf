// Package release checks what a user of a relink release gets: it writes
// a module proxy directory (the layout GOPROXY=file://DIR reads) holding
// the library module at a version, made from the repository's committed
// files as the Go module proxy would serve a tag, so that a test can run
// what `go install github.com/linkrot/relink/cmd/relink@VERSION` does, in
// a clean GOPATH, with no network.
package release
