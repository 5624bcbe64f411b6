package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/latch-app/latch/core/audit"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

// handle turns one CLI event into what the Surface shows, and questions into
// Asks. It returns the result when the event ends the turn.
func (t *turn) handle(ev stream.Event) *stream.Result {
	s := t.s
	if ev.Kind != stream.KindControlCancel {
		s.flushWithdrawn() // a burst of withdrawals is over: one notice, in place
	}
	switch ev.Kind {
	case stream.KindInit:
		in := ev.Init
		s.mu.Lock()
		if in.SessionID != "" {
			s.sessionID = in.SessionID
		}
		s.established = true
		s.model = in.Model
		s.permMode = in.PermissionMode
		s.mu.Unlock()
		if _, full := t.p.Stderr(); full != "" {
			t.trustWarning(full)
		}
		s.emitStatus()
	case stream.KindStatus:
		if ev.Status.PermissionMode != "" {
			s.mu.Lock()
			s.permMode = ev.Status.PermissionMode
			s.mu.Unlock()
			s.emitStatus()
		}
	case stream.KindAPIRetry:
		s.show(Event{Kind: EvRetry, Retry: retryInfo(ev.APIRetry)})
	case stream.KindBlockStart:
		if d := ev.Delta; d.BlockType == "tool_use" && d.ToolUseID != "" {
			s.toolCall(d.ToolUseID, d.ToolName, nil)
		}
	case stream.KindTextDelta:
		s.show(Event{Kind: EvText, BlockID: blockID(ev.Delta.MessageID, ev.Delta.Index), Text: ev.Delta.Text})
	case stream.KindThinkingDelta:
		s.show(Event{Kind: EvThinking, BlockID: blockID(ev.Delta.MessageID, ev.Delta.Index), Text: ev.Delta.Text})
	case stream.KindAssistant:
		s.assistant(ev.Block, ev.Line)
	case stream.KindToolResult:
		s.toolResult(ev.ToolResult)
	case stream.KindInterruptMarker:
		if !s.isStopping() { // a stop the person asked for ends in one row, at the result
			s.notice("Interrupted.")
		}
	case stream.KindControlRequest:
		t.request(ev.Request)
	case stream.KindControlResponse:
		s.layerAnswered(ev.Response)
	case stream.KindControlCancel:
		s.mu.Lock()
		pa := s.pending[ev.RequestID]
		delete(s.pending, ev.RequestID)
		n := len(s.pending)
		s.mu.Unlock()
		if pa != nil {
			pa.cancel()
			s.noteWithdrawn(pa.req.ToolName)
			s.auditAdd(audit.Entry{Kind: audit.KindAnswer, Decision: audit.AnswerWithdrawn, Tool: pa.req.ToolName, ToolUseID: pa.req.ToolUseID, Input: summarize(pa.req.ToolName, pa.req.Input), Decider: "cli"})
			if n == 0 {
				s.setState(Running)
			}
		}
	case stream.KindMalformed:
		s.mu.Lock()
		s.malformed++
		first := s.malformed == 1
		s.mu.Unlock()
		if first {
			s.notice(fmt.Sprintf("Claude Code printed a line Latch could not read (line %d: %s); it was skipped.", ev.Line, ev.Malformed.Err))
		}
	case stream.KindResult:
		if _, full := t.p.Stderr(); full != "" {
			t.trustWarning(full) // stderr may reach Latch after the init line
		}
		s.result(ev.Result)
		return ev.Result
	}
	return nil
}

func blockID(msgID string, index int) string { return fmt.Sprintf("%s:%d", msgID, index) }

func (s *Session) toolCall(id, name string, input []byte) {
	var diff *FileDiff
	if input != nil {
		diff = s.toolDiff(id, name, input)
	}
	s.showCall(id, name, input, diff)
}

// showCall shows a tool call once, and its input (with diff) when known.
func (s *Session) showCall(id, name string, input []byte, diff *FileDiff) {
	s.mu.Lock()
	seen := s.seenTools[id]
	s.seenTools[id] = true
	s.mu.Unlock()
	if !seen {
		s.show(Event{Kind: EvToolCall, Tool: &ToolCall{ID: id, Name: name, Summary: summarize(name, input)}})
	}
	if input != nil {
		s.show(Event{Kind: EvToolUpdate, Tool: &ToolCall{ID: id, Name: name, Summary: summarize(name, input), Input: prettyJSON(input), Diff: diff}})
	}
}

func (s *Session) assistant(b *stream.Block, line int) {
	switch {
	case b.APIError:
		// The turn's result reports it as an error; no need to show it twice.
	case b.Type == "tool_use" && b.ToolUse != nil:
		s.toolCall(b.ToolUse.ID, b.ToolUse.Name, b.ToolUse.Input)
	case b.Streamed:
	case b.Type == "text" && b.Text != "":
		s.show(Event{Kind: EvText, BlockID: fmt.Sprintf("%s:line%d", b.MessageID, line), Text: b.Text})
	case b.Type == "thinking" && b.Text != "":
		s.show(Event{Kind: EvThinking, BlockID: fmt.Sprintf("%s:line%d", b.MessageID, line), Text: b.Text})
	}
}

func (s *Session) toolResult(r *stream.ToolResult) {
	tc := s.resultCall(r, s.resultDiff(r.ToolUseID, r.Tool, r.Input))
	s.auditResult(r)
	s.show(Event{Kind: EvToolResult, Tool: tc})
}

// resultCall is a tool result as its card shows it; a refusal is kept so
// it can be granted later from the card.
func (s *Session) resultCall(r *stream.ToolResult, diff *FileDiff) *ToolCall {
	tc := &ToolCall{ID: r.ToolUseID, Name: r.Tool, Summary: summarize(r.Tool, r.Input), Result: resultText(r.Text), IsError: r.IsError, Diff: diff}
	if r.Denial != nil {
		tc.Denial = denialWords(r.Denial.Class)
		// Every refusal but a stop can be granted later, from its card.
		tc.Grantable = r.Denial.Class != stream.Interrupted
		d := *r.Denial
		if d.ToolUseID == "" {
			d.ToolUseID = r.ToolUseID
		}
		if d.Tool == "" {
			d.Tool, d.Input = r.Tool, r.Input
		}
		s.noteDenial(&d)
	}
	return tc
}

// request serves a control request from the CLI: can_use_tool goes to the
// person; anything else gets an error answer so the CLI never waits.
func (t *turn) request(r *stream.ControlRequest) {
	s, p := t.s, t.p
	if r.Subtype != "can_use_tool" || r.CanUseTool == nil {
		p.Write(stream.ErrorAnswer(r.RequestID, "Latch does not serve "+r.Subtype+" requests"))
		return
	}
	c := r.CanUseTool
	s.mu.Lock()
	if s.stopping {
		s.mu.Unlock()
		p.Write(stream.Deny(r.RequestID, "The user stopped the turn.", true))
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.pending[r.RequestID] = &pendingAsk{cancel: cancel, req: c}
	s.mu.Unlock()
	s.setState(Asking)
	q := question(r.RequestID, c, s.workdir, s.dirs())
	s.auditAdd(audit.Entry{Kind: audit.KindAsk, Tool: c.ToolName, ToolUseID: c.ToolUseID, Input: q.Summary, Path: q.Folder, Rule: q.Rule, Message: c.DecisionReason, Source: c.MatchedAskRule})
	s.enqueueAsk(t, r.RequestID, ctx, q)
}

// answer sends the person's decision, unless the question was withdrawn.
func (t *turn) answer(a answer) {
	s, p := t.s, t.p
	s.askAnswered(a.reqID)
	defer s.nextAsk(t)
	s.mu.Lock()
	pa := s.pending[a.reqID]
	delete(s.pending, a.reqID)
	n := len(s.pending)
	s.mu.Unlock()
	if pa == nil {
		return // withdrawn: the answer to it is never sent
	}
	pa.cancel()
	c, d := pa.req, a.d
	entry := audit.Entry{Kind: audit.KindAnswer, Decision: answerWord(d.Action), Tool: c.ToolName, ToolUseID: c.ToolUseID, Input: summarize(c.ToolName, c.Input), Decider: audit.ByPerson}
	switch d.Action {
	case AllowAlways:
		entry.Rule, entry.Scope = d.Rule, scopeWord(d.Scope, true)
	case GrantFolder:
		entry.Folders, entry.Scope = []string{d.Folder}, scopeWord(d.Scope, true)
	case Deny, DenyStop:
		entry.Message = d.Message
	case NoAnswer:
		entry.Decider = ""
	}
	s.auditAdd(entry)
	switch d.Action {
	case AllowOnce:
		input := c.Input
		if len(d.Answers) > 0 {
			input = stream.AnswerQuestions(c.Input, d.Answers)
		}
		p.Write(stream.Allow(a.reqID, input, nil))
	case AllowAlways:
		s.allowAlways(p, a.reqID, c, d)
	case GrantFolder:
		dir, err := grants.CheckDir(strings.TrimSpace(d.Folder), d.Force)
		if err != nil {
			s.fail("The folder was not granted", err.Error())
			p.Write(stream.Deny(a.reqID, "The folder could not be granted: "+err.Error(), false))
			break
		}
		rules, dirs, err := saveGrants(Decision{Folders: []string{dir}, ReadOnly: d.ReadOnly, Scope: d.Scope, Force: true}, s.userSettings, s.workdir)
		if err != nil {
			s.fail("The folder was not saved", err.Error()+"\nIt is granted for this session only.")
		}
		saved := err == nil && (d.Scope == ScopeUser || d.Scope == ScopeProject)
		file := s.savedFile(d.Scope, saved)
		access := "reading and writing"
		if len(dirs) == 0 {
			access = "reading"
		}
		s.grantMade("Granted the folder "+VisibleLine(dir)+" for "+access+grantWhere(d.Scope, saved), rules, dirs, file)
		if s.grantRules(rules, dirs, saved) {
			p.Write(stream.Allow(a.reqID, c.Input, nil))
			break
		}
		var ups []json.RawMessage
		for _, r := range rules {
			ups = append(ups, addRulesUpdate(r, "session"))
		}
		if len(dirs) > 0 {
			ups = append(ups, addDirsUpdate(dir, "session"))
		}
		p.Write(stream.Allow(a.reqID, c.Input, ups))
	case Deny, DenyStop:
		msg := strings.TrimSpace(d.Message)
		if msg == "" {
			msg = DefaultDenyMessage
		}
		p.MarkUserDenied(c.ToolUseID)
		if msg != DefaultDenyMessage {
			s.notice("Denied " + VisibleLine(c.ToolName) + ": " + VisibleLine(msg))
		}
		if d.Action == DenyStop {
			s.mu.Lock()
			s.stopping = true
			s.mu.Unlock()
		}
		p.Write(stream.Deny(a.reqID, msg, d.Action == DenyStop))
	default:
		// No answer (the dialog went away): refuse rather than allow.
		p.MarkUserDenied(c.ToolUseID)
		p.Write(stream.Deny(a.reqID, DefaultDenyMessage, false))
	}
	if n == 0 {
		s.setState(Running)
	}
}

// result reports the end of a turn.
func (s *Session) result(r *stream.Result) {
	interrupted := strings.HasPrefix(r.TerminalReason, "aborted")
	s.mu.Lock()
	stopping := s.stopping
	if s.killTimer != nil {
		s.killTimer.Stop()
		s.killTimer = nil
	}
	s.mu.Unlock()
	errText := ""
	switch {
	case interrupted || stopping:
		// The person stopped it: one neutral row, never a failure.
		t := s.turnInfo(r, false, "")
		t.Stopped = true
		s.show(Event{Kind: EvTurnEnd, Turn: t})
		return
	case !r.IsError:
	case r.APIErrorStatus != 0 || r.TerminalReason == "api_error":
		title := "The Anthropic API failed"
		if r.APIErrorStatus != 0 {
			title = fmt.Sprintf("The Anthropic API failed (HTTP %d)", r.APIErrorStatus)
		}
		errText = firstNonEmpty(r.Text, strings.Join(r.Errors, "\n"), title)
		s.show(Event{Kind: EvError, Err: &ErrorInfo{Title: title, Detail: errText, Hint: apiHint(r.APIErrorStatus, errText), Retry: true}})
	case anyContains(r.Errors, "No conversation found"):
		errText = strings.Join(r.Errors, "\n")
		s.mu.Lock()
		s.established = false
		s.sessionID = newUUID()
		// The process ends after this; the next prompt starts a new one.
		gone := s.live
		s.live = nil
		s.group.Retire(gone, retireGrace)
		s.mu.Unlock()
		s.fail("Claude Code no longer knows this session", errText+"\nIts file was removed, or it was kept for another folder. The next prompt starts a new session here; Claude will not remember this one.")
	default:
		errText = firstNonEmpty(r.Text, strings.Join(r.Errors, "\n"), "The turn ended with an error.")
		s.show(Event{Kind: EvError, Err: &ErrorInfo{Title: "The turn failed", Detail: errText, Hint: apiHint(0, errText), Retry: true}})
	}
	s.show(Event{Kind: EvTurnEnd, Turn: s.turnInfo(r, r.IsError, errText)})
}

// retryInfo is the CLI's retry in the words of the turn's retry row.
func retryInfo(r *stream.APIRetry) *RetryInfo {
	ri := &RetryInfo{Attempt: r.Attempt, Max: r.MaxRetries, Delay: time.Duration(r.RetryDelayMS) * time.Millisecond, Status: r.ErrorStatus, Error: r.Error}
	why := "no connection"
	if r.ErrorStatus != 0 {
		why = fmt.Sprintf("HTTP %d", r.ErrorStatus)
	}
	delay := ri.Delay.Round(100 * time.Millisecond)
	if delay >= 2*time.Second {
		delay = ri.Delay.Round(time.Second)
	}
	ri.Text = fmt.Sprintf("Retrying in %v — attempt %d of %d (%s)", delay, r.Attempt, r.MaxRetries, why)
	return ri
}

// apiHint is what to do about an API failure, when it is known.
func apiHint(status int, text string) string {
	lower := strings.ToLower(text)
	switch {
	case status == 401 || status == 403 || strings.Contains(lower, "authentication") || strings.Contains(lower, "invalid api key") || strings.Contains(lower, "/login"):
		return "Log in with claude in a terminal (claude /login), or set ANTHROPIC_API_KEY for Latch."
	case status == 429 || status == 529 || strings.Contains(lower, "overloaded") || strings.Contains(lower, "rate limit"):
		return "The API is overloaded or rate-limited. Try again in a minute."
	case strings.Contains(lower, "connection") || strings.Contains(lower, "network") || strings.Contains(lower, "enotfound") || strings.Contains(lower, "econnrefused"):
		return "Latch could not reach the API. Check the network connection (and ANTHROPIC_BASE_URL, if set)."
	case status >= 500:
		return "The API had a problem of its own. Try again shortly."
	}
	return ""
}

func anyContains(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// turnInfo counts a turn into the session totals. total_cost_usd is the
// session's running total (it survives --resume), so a turn costs the
// difference.
func (s *Session) turnInfo(r *stream.Result, isErr bool, errText string) *TurnInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &TurnInfo{IsError: isErr, ErrorText: errText, Duration: time.Since(s.turnStart)}
	if r != nil {
		cost := r.CostUSD
		if cost >= s.lastTotal {
			cost -= s.lastTotal
		}
		s.lastTotal = r.CostUSD
		s.sessCost += cost
		u := r.Usage
		t.CostUSD = cost
		t.InputTokens = u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
		t.OutputTokens = u.OutputTokens
		s.sessIn += t.InputTokens
		s.sessOut += t.OutputTokens
		if r.Turn != nil {
			t.Denials = len(r.Turn.Denials)
		}
	}
	t.SessionCostUSD, t.SessionInputTokens, t.SessionOutputTokens = s.sessCost, s.sessIn, s.sessOut
	return t
}
