// Package e2e holds the end-to-end tests (build tag e2e): the built latch
// binary ($LATCH_BIN) in a real X window under Xvfb, driven by keyboard
// with xdotool, running the real claude CLI against the fake Anthropic
// API, with the desktop's services on private buses. `make test` runs them
// (make test-e2e). They live apart from package main so that their test
// binary does not link Fyne: it only drives the binary under test.
package e2e
