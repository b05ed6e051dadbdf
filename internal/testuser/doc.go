// Package testuser lets a test running as root act as another user (on
// Linux; elsewhere it has nothing), to see what a user other than root
// meets, such as files it cannot give another owner, in a run where
// everything else is root's, as in CI. It is for tests only.
package testuser
