// Package fakeapi is a scripted fake of the Anthropic Messages API on
// 127.0.0.1, for running the real Claude Code CLI in tests
// (docs/protocol.md §12).
//
// Each conversation request (one with a non-empty tools list) is answered by
// the first queued Reply (Push); when the queue is empty, by the first Rule
// (Handle) that matches; otherwise by a plain "done." text. Rules
// suit resumed sessions, which re-send the whole history: decide from the
// request ("the last message holds a tool_result → done., else call Bash").
// Side requests are answered "ok" without touching the script. Every request
// is recorded for assertions (Requests).
package fakeapi

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Rule picks a reply for a request; ok=false passes to the next rule.
type Rule func(r Request) (reply Reply, ok bool)

// Always is a rule that always answers reply.
func Always(reply Reply) Rule {
	return func(Request) (Reply, bool) { return reply, true }
}

// Server is a running fake API. Its methods are safe for concurrent use.
type Server struct {
	ln   net.Listener
	http *http.Server

	mu       sync.Mutex
	queue    []Reply
	rules    []Rule
	requests []Request
	seq      int
	changed  chan struct{} // closed and replaced on every recorded request
}

// Start serves on a free port of 127.0.0.1.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakeapi: listen: %w", err)
	}
	s := &Server{ln: ln, changed: make(chan struct{})}
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.http.Serve(ln) }()
	return s, nil
}

// URL is the API root to put in ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:PORT.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops serving and drops open connections.
func (s *Server) Close() { _ = s.http.Close() }

// Push queues replies for the next conversation requests, in order.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// Handle adds a rule, consulted after the queue and earlier rules.
func (s *Server) Handle(rules ...Rule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, rules...)
}

// Requests returns every recorded POST /v1/messages so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Conversation returns the recorded conversation requests, oldest first.
func (s *Server) Conversation() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Conversation {
			out = append(out, r)
		}
	}
	return out
}

// Wait blocks until cond holds for the recorded requests or timeout passes,
// and reports whether it held.
func (s *Server) Wait(timeout time.Duration, cond func([]Request) bool) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ok := cond(append([]Request(nil), s.requests...))
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false
		}
	}
}

// ServeHTTP serves POST /v1/messages (any query) and answers the rest
// gracefully: count_tokens with a token count, anything else 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		w.Header().Set("content-type", "application/json")
		_, _ = io.WriteString(w, `{"input_tokens":10}`)
	default:
		writeError(w, http.StatusNotFound, "not_found_error", "fakeapi: no route for "+r.Method+" "+r.URL.Path)
	}
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	req, err := decodeRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "fakeapi: bad body: "+err.Error())
		return
	}
	req.Query = r.URL.RawQuery
	req.Header = r.Header.Clone()

	reply := Say(Text("ok"))
	if req.Conversation {
		reply = s.next(req)
	}
	reply = withIDs(reply)
	req.Served = reply

	s.mu.Lock()
	s.seq++
	n := s.seq
	s.requests = append(s.requests, req)
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()

	w.Header().Set("request-id", fmt.Sprintf("req_fake_%d_%s", n, randHex(6)))
	if reply.isError() {
		msg := reply.Message
		if msg == "" {
			msg = http.StatusText(reply.Status)
		}
		writeError(w, reply.Status, errorType(reply.Status), msg)
		return
	}
	model := req.Model
	if model == "" {
		model = "claude-fake"
	}
	streamReply(w, r, reply, model, fmt.Sprintf("msg_fake_%d_%s", n, randHex(6)))
}

// next takes the reply for a conversation request.
func (s *Server) next(req Request) Reply {
	s.mu.Lock()
	if len(s.queue) > 0 {
		reply := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return reply
	}
	rules := append([]Rule(nil), s.rules...)
	s.mu.Unlock()
	for _, rule := range rules {
		if reply, ok := rule(req); ok {
			return reply
		}
	}
	return defaultReply()
}

// withIDs copies reply, minting a toolu_ id for each tool_use without one.
func withIDs(reply Reply) Reply {
	bs := make([]Block, len(reply.Blocks))
	copy(bs, reply.Blocks)
	for i := range bs {
		if bs[i].Type == "tool_use" && bs[i].ID == "" {
			bs[i].ID = "toolu_fake" + randHex(12)
		}
	}
	reply.Blocks = bs
	return reply
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	body, _ := json.Marshal(map[string]any{
		"type":  "error",
		"error": map[string]string{"type": typ, "message": msg},
	})
	w.Header().Set("content-type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// CLIEnv is the quiet environment of docs/protocol.md §12 for running the
// CLI against baseURL with a fresh home: no telemetry, no update checks, and
// at most 2 API retries so failures surface within seconds.
func CLIEnv(baseURL, home string) []string {
	shell := "/bin/bash"
	if _, err := os.Stat(shell); err != nil {
		shell = "/bin/sh"
	}
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	return []string{
		"PATH=" + path,
		"HOME=" + home,
		"LANG=C.UTF-8",
		"SHELL=" + shell,
		"ANTHROPIC_BASE_URL=" + strings.TrimRight(baseURL, "/"),
		"ANTHROPIC_API_KEY=sk-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_MAX_RETRIES=2",
	}
}

var errClientGone = errors.New("client gone")
