// Package app runs the claude CLI for one working folder: it starts the
// process, pumps its stdout through core/stream, puts permission questions to
// a Surface, saves grants through core/grants and resumes the session after
// a turn that lost tool calls to a permission check. It knows nothing of Fyne.
package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/latch-app/latch/app/cliproc"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

// Config is what one Session runs with.
type Config struct {
	Workdir         string
	Command         []string // the claude command, split into argv
	AllowedTools    []string // proactive allow-list (baseline + configured)
	AddDirs         []string // configured folders; Workdir and os.TempDir() are added always
	Prompts         string   // "live" (default) or "after_turn"
	Experimental    bool     // append the "stop on Stream closed" instruction
	PhraseDetection bool
	DangerousSkip   bool
	UserSettings    string   // the user settings.json that user-scope grants go to
	Audit           *Audit   // the permission audit log; nil logs nothing
	Env             []string // the CLI's environment; nil = os.Environ()
	// Resume is the id of a session the CLI kept (the history's): the
	// first prompt continues it with --resume instead of starting one.
	Resume string
	// Model is the model to start the CLI with (--model); "" = the CLI's.
	Model string
}

// Prompt modes.
const (
	PromptsLive      = "live"
	PromptsAfterTurn = "after_turn"
)

// StopGrace is how long Stop waits for the CLI to end a turn after the
// interrupt before it kills the process group.
var StopGrace = 5 * time.Second

var (
	errBusy   = errors.New("a turn is already running")
	ErrClosed = cliproc.ErrClosed
)

// retireGrace is how long a process that makes way (new flags, grants on
// its command line) has to end after its stdin closes before it is killed.
const retireGrace = 3 * time.Second

// Instruction is what the experimental toggle appends to the system prompt.
const Instruction = `When a tool result says that a permission was denied, that a tool call needs approval, or that the stream was closed ("Stream closed"), do not retry the call and do not work around it with other tools or commands. Say in one short sentence that you are pausing for permission, and end your turn; the user will grant it and tell you to continue.`

// Session is one conversation with Claude Code in one folder. Its methods
// are safe to call from any goroutine.
type Session struct {
	// Where the session runs: set by NewSession and never changed, so
	// read without the lock.
	workdir      string
	userSettings string
	env          []string

	surf *outbox
	ctx  context.Context
	end  context.CancelFunc

	mu          sync.Mutex
	cfg         Config // a turn works from its own copy (turn.cfg)
	state       State
	sessionID   string
	established bool // the CLI knows sessionID, so later runs --resume it
	model       string
	permMode    string
	live        *cliproc.Proc // the long-lived process (live mode)
	cur         *cliproc.Proc // the process of the running turn
	extraTools  []string
	extraDirs   []string
	stopping    bool
	killTimer   *time.Timer
	pending     map[string]*pendingAsk
	asks        askLine    // live questions, one at a time in request order
	layer       grantLayer // grants in force in the running CLI (layer.go)
	grantLog    map[string]grantRecord
	grantNo     int
	denied      map[string]stream.Denial // refused calls that can be granted later
	lastTotal   float64
	sessCost    float64
	sessIn      int
	sessOut     int
	turnStart   time.Time
	seenTools   map[string]bool
	diffs       diffs // the FileDiff of each call until its result (diff.go)
	malformed   int
	closed      bool
	nextCfg     *Config // applied when the session is next idle
	turnDone    chan struct{}
	interruptNo int
	group       cliproc.Group // every process it started, until reaped

	// The permissions inspector's (permissions.go).
	reqNo        int           // Latch's own requests to the CLI
	wantMode     string        // a mode chosen while no process ran
	autoMode     bool          // the CLI offers auto mode
	inited       *cliproc.Proc // the process that had its one initialize
	untrusted    bool          // Claude Code does not trust workdir
	trustWarning string        // the CLI's words about what it ignored there
	audit        *Audit
	lastPrompt   string // for Retry
	// The model selector's (models.go).
	models      []ModelChoice // what the CLI's initialize offered
	chosenModel string        // the person's choice: --model for every process started after it
	// The rules as the files hold them, for the audit log (audit.go).
	ruleViewCache *grants.View
	ruleViewAt    time.Time
}

type pendingAsk struct {
	cancel context.CancelFunc
	req    *stream.CanUseTool
}

type answer struct {
	reqID string
	d     Decision
}

// NewSession makes a Session; no process starts until the first Send.
func NewSession(cfg Config, s Surface) *Session {
	if cfg.Prompts != PromptsAfterTurn {
		cfg.Prompts = PromptsLive
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := &outbox{to: s, id: fmt.Sprintf("session-%d", sessionNo.Add(1))}
	ss := &Session{workdir: cfg.Workdir, userSettings: cfg.UserSettings, env: cfg.Env, audit: cfg.Audit, cfg: cfg, surf: out, ctx: ctx, end: cancel, sessionID: newUUID(), pending: map[string]*pendingAsk{}, seenTools: map[string]bool{}, chosenModel: cfg.Model}
	if cfg.Resume != "" {
		ss.sessionID, ss.established = cfg.Resume, true
	}
	return ss
}

// outbox is the Surface a Session talks to. It stamps everything with the
// session's ID, and once the Session has said "closed", nothing more
// reaches the screen and nothing more is asked, whatever its goroutines
// still finish.
type outbox struct {
	to   Surface
	id   string
	mu   sync.Mutex
	done bool
}

func (o *outbox) Show(ev Event) {
	ev.Session = o.id
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return
	}
	o.to.Show(ev)
	if ev.Kind == EvStatus && ev.Status != nil && ev.Status.State == Closed {
		o.done = true
	}
}

func (o *outbox) closed() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.done
}

func (o *outbox) Ask(ctx context.Context, q Question) Decision {
	if o.closed() {
		return Decision{} // unanswered: a deny, never an allow
	}
	q.Session = o.id
	return o.to.Ask(ctx, q)
}

func (o *outbox) AskGrants(ctx context.Context, r GrantRequest) Decision {
	if o.closed() {
		return Decision{Action: NotNow}
	}
	r.Session = o.id
	return o.to.AskGrants(ctx, r)
}

// sessionNo numbers the Sessions of this Latch, for their IDs.
var sessionNo atomic.Int64

// ID is this Session's identity among the Sessions of this Latch; every
// event, question and grant request it raises carries it. It never changes,
// while the CLI's session id (SessionID) may.
func (s *Session) ID() string { return s.surf.id }

// show stamps ev with the process of the running turn, if any, and shows it.
func (s *Session) show(ev Event) {
	s.mu.Lock()
	if s.cur != nil {
		ev.Proc = s.cur.Serial
	}
	s.mu.Unlock()
	s.surf.Show(ev)
}

// SessionID is the CLI session this Session runs or will run.
func (s *Session) SessionID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessionID
}

// State is where the session is now.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Send starts a turn with prompt and returns at once; events tell the rest.
func (s *Session) Send(prompt string) error {
	prompt = strings.TrimSpace(prompt)
	if prompt == "" {
		return errors.New("the prompt is empty")
	}
	return s.startTurn(func() error {
		s.lastPrompt = prompt
		return nil
	}, func() {
		s.show(Event{Kind: EvPrompt, Text: prompt})
	}, func(t *turn) { t.prompt(prompt) })
}

// Retry sends the last prompt again: the Retry of a failed turn.
func (s *Session) Retry() error {
	s.mu.Lock()
	p := s.lastPrompt
	s.mu.Unlock()
	if p == "" {
		return errors.New("there is no prompt to send again")
	}
	return s.Send(p)
}

// startTurn makes the session Running when it is idle and check passes
// (check runs under the lock), then says so, calls shown, and runs body on
// the turn goroutine with the turn's driver. Close waits for body.
func (s *Session) startTurn(check func() error, shown func(), body func(*turn)) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	if err := check(); err != nil {
		s.mu.Unlock()
		return err
	}
	if s.state != Idle {
		s.mu.Unlock()
		return errBusy
	}
	s.state = Running
	s.stopping = false
	s.turnStart = time.Now()
	done := make(chan struct{})
	s.turnDone = done
	t := &turn{s: s, cfg: s.cfg}
	s.mu.Unlock()
	s.emitStatus()
	shown()
	go func() {
		defer close(done)
		body(t)
	}()
	return nil
}

// Stop interrupts the running turn. In live mode the process survives for
// the next prompt; without a result within StopGrace it is killed.
func (s *Session) Stop() {
	s.mu.Lock()
	p := s.cur
	if p == nil || s.stopping || (s.state != Running && s.state != Asking) {
		s.mu.Unlock()
		return
	}
	s.stopping = true
	s.state = Stopping
	s.interruptNo++
	id := fmt.Sprintf("req_int_%d", s.interruptNo)
	live := s.cfg.Prompts == PromptsLive
	if live {
		s.killTimer = time.AfterFunc(StopGrace, p.Kill)
	}
	s.mu.Unlock()
	s.emitStatus()
	if !live {
		// After-turn mode has no input channel left: the process is ended.
		p.Kill()
		return
	}
	go func() {
		if p.Write(stream.Interrupt(id)) != nil {
			p.Kill()
		}
	}()
}

// Close ends every process the session started and waits for them.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.end()
	done := s.turnDone
	s.mu.Unlock()
	// One budget for everything: Close returns within closeBudget whatever
	// the processes and the turn do; what is left finishes on its own.
	budget, cancel := context.WithTimeout(context.Background(), closeBudget)
	defer cancel()
	s.group.Close(budget, closeGrace)
	if done != nil {
		select {
		case <-done:
		case <-budget.Done():
		}
	}
	s.mu.Lock()
	s.state = Closed
	s.mu.Unlock()
	s.emitStatus() // the last event: nothing follows it
}

// Reconfigure makes cfg (Workdir, Env and UserSettings excepted) the
// session's configuration from the next prompt on. A live process is retired
// so the next prompt resumes the session under the new flags.
func (s *Session) Reconfigure(cfg Config) {
	s.mu.Lock()
	cfg.Workdir, cfg.Env, cfg.UserSettings = s.workdir, s.env, s.userSettings
	if cfg.Prompts != PromptsAfterTurn {
		cfg.Prompts = PromptsLive
	}
	s.nextCfg = &cfg
	if s.state == Idle {
		s.group.Retire(s.applyConfigLocked(), retireGrace)
	}
	s.mu.Unlock()
	s.emitStatus()
}

// applyConfigLocked switches to a pending configuration between turns and
// returns the live process that must make way.
func (s *Session) applyConfigLocked() *cliproc.Proc {
	if s.nextCfg == nil || s.closed {
		return nil
	}
	s.cfg = *s.nextCfg
	s.nextCfg = nil
	p := s.live
	s.live = nil
	return p
}

func (s *Session) idle() {
	s.mu.Lock()
	if s.killTimer != nil {
		s.killTimer.Stop()
		s.killTimer = nil
	}
	s.cur = nil
	if !s.closed {
		s.state = Idle
		retired := s.applyConfigLocked()
		if retired == nil && s.layer.retire && s.live != nil {
			retired, s.live = s.live, nil // grants taken back need a new process
		}
		s.group.Retire(retired, retireGrace)
		s.layer.retire = false
	}
	s.mu.Unlock()
	s.emitStatus()
}

// process returns the process to send the next user line to: the live one,
// or a new one resumed from the session.
func (s *Session) process(cfg Config) (*cliproc.Proc, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	if cfg.Prompts == PromptsLive && s.live != nil {
		p := s.live
		if !p.Exited() {
			s.mu.Unlock()
			return p, nil
		}
		// It ended between turns; what it still prints is nobody's.
		p.Discard()
		s.live = nil
	}
	if len(cfg.Command) == 0 {
		s.mu.Unlock()
		return nil, errors.New("no claude command is configured")
	}

	l := launch{
		Command:      cfg.Command,
		AllowedTools: dedupe(cfg.AllowedTools, s.extraTools),
		Dirs:         s.dirsLocked(),
		SessionID:    s.sessionID,
		Resume:       s.established,
		DangerSkip:   cfg.DangerousSkip,
		Model:        s.chosenModel,
	}
	s.mu.Unlock()
	var cleanup func()
	if cfg.Experimental {
		f, err := writeInstruction()
		if err != nil {
			return nil, fmt.Errorf("writing the instruction file: %w", err)
		}
		l.PromptFile = f
		cleanup = func() { os.Remove(f) }
	}
	p, err := s.group.Start(l.argv(), s.workdir, childEnv(s.env), stream.Options{PhraseDetection: cfg.PhraseDetection}, cleanup)
	if err != nil {
		if cleanup != nil {
			cleanup()
		}
		return nil, err
	}
	s.mu.Lock()
	if cfg.Prompts == PromptsLive {
		s.live = p
	}
	s.mu.Unlock()
	s.sendLayer(true) // this session's grants before its first prompt; tells whether it takes them
	if cfg.Prompts == PromptsLive {
		go s.started(p)
	}
	return p, nil
}

// writeInstruction puts Instruction in a private file for
// --append-system-prompt-file. The name carries Latch's pid, so a file left
// by a Latch that died is recognised (CleanStaleInstructions).
func writeInstruction() (string, error) {
	f, err := os.CreateTemp("", fmt.Sprintf("%s%d-*.txt", instructionPrefix, os.Getpid())) // mode 0600
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(Instruction + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

func (s *Session) allowedTools() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return dedupe(s.cfg.AllowedTools, s.extraTools, s.layer.sessRules, s.layer.savedRules)
}

func (s *Session) dirs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return dedupe(s.dirsLocked(), s.layer.sessDirs, s.layer.savedDirs)
}

// dirsLocked: the working folder and the temp folder are trusted on every run.
// Every folder passed as --add-dir is absolute, clean and resolved through
// symlinks: what the CLI is given is what the person was shown.
func (s *Session) dirsLocked() []string { return launchDirs(s.workdir, s.cfg.AddDirs, s.extraDirs) }

// launchDirs is what a process in workdir gets as --add-dir: the working
// folder, the temp folder, the configured folders and extra ones, resolved.
func launchDirs(workdir string, configured, extra []string) []string {
	all := dedupe([]string{workdir, os.TempDir()}, configured, extra)
	for i, d := range all {
		all[i] = resolvePath(d, workdir)
	}
	return dedupe(all)
}

func (s *Session) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *Session) isStopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopping
}

func (s *Session) setState(st State) {
	s.mu.Lock()
	if s.closed || s.state == st || (s.stopping && st != Idle) {
		s.mu.Unlock()
		return
	}
	s.state = st
	s.mu.Unlock()
	s.emitStatus()
}

func (s *Session) emitStatus() {
	s.mu.Lock()
	st := Status{
		State:          s.state,
		SessionID:      s.sessionID,
		Model:          s.model,
		PermissionMode: s.permMode,
		Prompts:        s.cfg.Prompts,
		Workdir:        s.workdir,
		DangerousSkip:  s.cfg.DangerousSkip,
		Untrusted:      s.untrusted,
		TrustWarning:   s.trustWarning,
	}
	if !s.established {
		st.SessionID = ""
	}
	s.mu.Unlock()
	s.show(Event{Kind: EvStatus, Status: &st})
}

func (s *Session) notice(text string) { s.show(Event{Kind: EvNotice, Text: text}) }

func (s *Session) fail(title, detail string) {
	s.show(Event{Kind: EvError, Err: &ErrorInfo{Title: title, Detail: detail}})
}

// withdrawAll closes every question still open when a turn ends.
func (s *Session) withdrawAll() {
	s.mu.Lock()
	for id, pa := range s.pending {
		pa.cancel()
		delete(s.pending, id)
	}
	s.mu.Unlock()
	s.resetAsks()
}

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// How long Close lets the CLI finish after its input is closed, and how long
// Close takes at most in all.
var (
	closeGrace  = 1500 * time.Millisecond
	closeBudget = 2700 * time.Millisecond
)

// clipCommand is the claude command for an error message, at most a line.
func clipCommand(argv []string) string { return ellipsis(strings.Join(argv, " "), 200) }

// instructionPrefix starts the name of every instruction file:
// latch-instruction-<pid of the Latch that wrote it>-<random>.txt.
const instructionPrefix = "latch-instruction-"

// CleanStaleInstructions removes the instruction files (writeInstruction)
// that a Latch which has died left in os.TempDir(): those whose Latch
// process is gone, and those of the older unnumbered form older than a
// minute (the CLI reads the file when it starts). Call it at start-up.
func CleanStaleInstructions() {
	dir := os.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, instructionPrefix)
		if !ok || !strings.HasSuffix(rest, ".txt") || !e.Type().IsRegular() {
			continue
		}
		rest = strings.TrimSuffix(rest, ".txt")
		pidText, _, numbered := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 {
			continue
		}
		if numbered {
			if pid == os.Getpid() || processRunning(pid) {
				continue
			}
		} else {
			// latch-instruction-<random>.txt, written before the pid was in
			// the name: its owner cannot be known, so only its age counts.
			fi, err := e.Info()
			if err != nil || time.Since(fi.ModTime()) < time.Minute {
				continue
			}
		}
		os.Remove(filepath.Join(dir, name))
	}
}
