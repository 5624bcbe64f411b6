package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/latch-app/latch/core/audit"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

// The audit log's entries and filter, named here so ui needs only app.
type (
	AuditEntry  = audit.Entry
	AuditFilter = audit.Filter
)

// Audit entry kinds, for ui.
const (
	AuditAsk     = audit.KindAsk
	AuditAnswer  = audit.KindAnswer
	AuditDenial  = audit.KindDenial
	AuditAllowed = audit.KindAllowed
	AuditGrant   = audit.KindGrant
	AuditRevoke  = audit.KindRevoke
	AuditUndo    = audit.KindUndo
	AuditMode    = audit.KindMode
	AuditTrust   = audit.KindTrust
)

// Audit is Latch's permission audit log, shared by every session of the
// process. Appends never block; a write error is reported once. A nil
// *Audit logs nothing.
type Audit struct {
	log  *audit.Log
	path string
}

// OpenAudit opens the log at its default place ($XDG_STATE_HOME/latch/
// audit.jsonl). onError is called once, from any goroutine, for the first
// write error, and at once when there is no place for the log.
func OpenAudit(onError func(error)) *Audit {
	path, err := audit.DefaultPath()
	if err != nil {
		onError(err)
		return nil
	}
	return OpenAuditAt(path, onError)
}

// OpenAuditAt opens the log at path.
func OpenAuditAt(path string, onError func(error)) *Audit {
	var once sync.Once
	report := func(err error) { once.Do(func() { onError(err) }) }
	return &Audit{log: audit.Open(path, report), path: path}
}

// Path is where the log is written.
func (a *Audit) Path() string {
	if a == nil {
		return ""
	}
	return a.path
}

// Read returns every entry of the log, newest first (torn lines skipped).
// It blocks on I/O: call it off the UI goroutine.
func (a *Audit) Read(ctx context.Context) ([]AuditEntry, error) {
	if a == nil {
		return nil, errors.New("the audit log is off")
	}
	return audit.Read(a.path)
}

// Close writes what is queued and closes the log.
func (a *Audit) Close() error {
	if a == nil {
		return nil
	}
	return a.log.Close()
}

func (a *Audit) add(e audit.Entry) {
	if a != nil {
		a.log.Append(e)
	}
}

// auditAdd logs e as this session's: its CLI session id and folder.
func (s *Session) auditAdd(e audit.Entry) {
	if s.audit == nil {
		return
	}
	s.mu.Lock()
	if e.Session == "" {
		e.Session = s.sessionID
	}
	s.mu.Unlock()
	if e.Folder == "" {
		e.Folder = s.workdir
	}
	s.audit.add(e)
}

// scopeWord is a grant scope as the log spells it.
func scopeWord(sc Scope, saved bool) string {
	switch {
	case !saved || sc == ScopeOnce:
		return "session"
	case sc == ScopeProject:
		return "project"
	}
	return "user"
}

// answerWord is an answer as the log spells it.
func answerWord(a Action) string {
	switch a {
	case AllowOnce:
		return audit.AnswerOnce
	case AllowAlways:
		return audit.AnswerAlways
	case GrantFolder:
		return audit.AnswerFolder
	case Deny:
		return audit.AnswerDeny
	case DenyStop:
		return audit.AnswerDenyStop
	}
	return audit.AnswerWithdrawn
}

// decider reads who decided a call from the CLI's tool_result_meta, and
// for a denial from its class.
func decider(d *stream.Decided, class stream.Class) string {
	switch class {
	case stream.StreamClosed:
		return audit.ByChannelClose
	case stream.UserDenied:
		return audit.ByPerson
	case stream.DenyRule:
		return audit.ByRule
	}
	if d == nil {
		return ""
	}
	switch {
	case d.Source == "user_reject" || len(d.Source) > 5 && d.Source[:5] == "user_":
		return audit.ByPerson
	}
	switch d.ReasonType {
	case "rule", "subcommandResults":
		return audit.ByRule
	case "mode":
		return audit.ByMode
	case "hook":
		return audit.ByHook
	case "classifier":
		return audit.ByClassifier
	case "workingDir":
		return audit.ByWorkingDir
	case "permissionPromptTool":
		return audit.ByPerson
	}
	return audit.ByOther
}

// auditResult logs who let a call run or refused it. A denial also
// carries what a grant of it would be, so the log can offer it later.
func (s *Session) auditResult(r *stream.ToolResult) {
	if s.audit == nil {
		return
	}
	e := audit.Entry{Tool: r.Tool, ToolUseID: r.ToolUseID, Input: summarize(r.Tool, r.Input)}
	if r.Decided != nil {
		e.Source = r.Decided.Source
		if r.Decided.ReasonType != "" {
			e.Source += "/" + r.Decided.ReasonType
		}
	}
	byRule := r.Decided != nil && r.Decided.ReasonType == "rule"
	switch {
	case r.Denial != nil:
		e.Kind, e.Class = audit.KindDenial, string(r.Denial.Class)
		e.Decider = decider(r.Decided, r.Denial.Class)
		byRule = byRule || r.Denial.Class == stream.DenyRule
		e.Message = resultText(r.Text)
		req := grantRequestOf([]stream.Denial{*r.Denial}, nil, nil, s.workdir, 1, false)
		for _, t := range req.Tools {
			e.Rules = append(e.Rules, t.Rule)
		}
		for _, f := range req.Folders {
			e.Folders = append(e.Folders, f.Path)
		}
		e.Path = r.Denial.Dir
	case r.Decided != nil && r.Decided.Decision == "accept":
		e.Kind, e.Decider = audit.KindAllowed, decider(r.Decided, "")
	default:
		return // a call the CLI said nothing about the permission of
	}
	if byRule {
		// The CLI does not say which rule; Latch's reading of the rules
		// does, labelled as such.
		if v := s.ruleView().Test(r.Tool, r.Input); v.Rule != nil {
			e.Rule = v.Rule.Rule
			e.File = v.Rule.File
			e.Source = strings.TrimPrefix(e.Source+", ", ", ") + "Latch's reading: " + v.Rule.Source
		}
	}
	s.auditAdd(e)
}

// ruleViewTTL is how long the rules read for the audit log are reused: a
// burst of calls reads the files once.
const ruleViewTTL = 2 * time.Second

// ruleView is the files' view of the rules, read at most once per
// ruleViewTTL (file I/O, on the turn's goroutine).
func (s *Session) ruleView() grants.View {
	s.mu.Lock()
	if time.Since(s.ruleViewAt) < ruleViewTTL && s.ruleViewCache != nil {
		v := *s.ruleViewCache
		s.mu.Unlock()
		return v
	}
	s.mu.Unlock()
	v := grants.ComputeView(s.viewInput())
	s.mu.Lock()
	s.ruleViewCache, s.ruleViewAt = &v, time.Now()
	s.mu.Unlock()
	return v
}

// GrantAndRetry offers the grant dialog for a denial from the log; what the
// person grants is saved, and when the denial is from the session this
// Session continues, the session is resumed with the retry message. It
// returns at once.
func (s *Session) GrantAndRetry(e AuditEntry) error {
	if e.Kind != audit.KindDenial {
		return errors.New("only a refused call can be granted")
	}
	s.mu.Lock()
	_, known := s.denied[e.ToolUseID]
	mine := e.Session == s.sessionID && s.established
	s.mu.Unlock()
	if mine && known {
		return s.GrantLater(e.ToolUseID)
	}
	req := GrantRequest{Round: 1, Workdir: s.workdir}
	for _, r := range e.Rules {
		if grants.ValidRule(r) == nil {
			req.Tools = append(req.Tools, ToolGrant{Rule: r, Tool: e.Tool, Reason: "refused earlier (" + VisibleLine(e.Class) + ")", Example: e.Input})
		}
	}
	for _, f := range e.Folders {
		req.Folders = append(req.Folders, FolderGrant{Path: f, Tool: e.Tool, Write: writes(e.Tool), Reason: "refused earlier", Example: e.Input})
	}
	if req.empty() {
		return errors.New("the log holds nothing Latch can grant for that call")
	}
	return s.startTurn(func() error { return nil }, func() {}, func(t *turn) {
		defer s.idle()
		if !t.askAndGrant(req) || !mine {
			return
		}
		s.show(Event{Kind: EvPrompt, Text: RetryMessage, Auto: true})
		t.rounds(RetryMessage, 2)
	})
}
