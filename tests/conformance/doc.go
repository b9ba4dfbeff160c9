// Package conformance runs the black-box HTTP/1.1 server conformance
// corpus (testdata/requests.jsonl, a copy of shared/conformance) against a
// server over TCP. It is the shared probe turned into a library: LoadCases
// reads the corpus, Run sends one case on a fresh connection and Judge
// checks the answer against the case's expectation.
//
// The server under test answers every request with the echo JSON document
// of package internal/echo. Each case is raw request bytes plus what the
// server must answer: status codes, the number of final responses, whether
// the connection is closed, and the request fields the echo must report.
// MUST-level cases follow from an RFC 9110/9112 requirement or a broken
// grammar; SHOULD-level cases are graded separately (IsShould).
//
// conformance_test.go starts a brisk.Server with the echo handler on
// loopback and runs every case whole and split into 1..4-byte pieces.
package conformance
