// Package canon canonicalizes URIs so that two spellings of one resource
// compare equal.
//
// Canonicalize applies exactly the paper's rules (Ware, Klein and Nelson,
// §3.1 "URI canonicalization"). It does no I/O and does not follow redirects.
package canon
