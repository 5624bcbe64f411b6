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
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

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
	Env             []string // the CLI's environment; nil = os.Environ()
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
	ErrBusy   = errors.New("a turn is already running")
	ErrClosed = errors.New("the session is closed")
)

// Instruction is what the experimental toggle appends to the system prompt.
const Instruction = `When a tool result says that a permission was denied, that a tool call needs approval, or that the stream was closed ("Stream closed"), do not retry the call and do not work around it with other tools or commands. Say in one short sentence that you are pausing for permission, and end your turn; the user will grant it and tell you to continue.`

// Session is one conversation with Claude Code in one folder. Its methods
// are safe to call from any goroutine.
type Session struct {
	cfg  Config
	surf *outbox
	ctx  context.Context
	end  context.CancelFunc

	mu          sync.Mutex
	state       State
	sessionID   string
	established bool // the CLI knows sessionID, so later runs --resume it
	model       string
	permMode    string
	live        *proc // the long-lived process (live mode)
	cur         *proc // the process of the running turn
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
	malformed   int
	closed      bool
	nextCfg     *Config // applied when the session is next idle
	turnDone    chan struct{}
	interruptNo int
	procs       int // how many processes it has started
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
	return &Session{cfg: cfg, surf: out, ctx: ctx, end: cancel, sessionID: newUUID(), pending: map[string]*pendingAsk{}, seenTools: map[string]bool{}}
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
		ev.Proc = s.cur.serial
	}
	s.mu.Unlock()
	s.show(ev)
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
	return s.startTurn(func() error { return nil }, func() {
		s.show(Event{Kind: EvPrompt, Text: prompt})
	}, func() { s.turn(prompt) })
}

// startTurn makes the session Running when it is idle and check passes
// (check runs under the lock), then says so, calls shown, and runs body on
// the turn goroutine. Close waits for body.
func (s *Session) startTurn(check func() error, shown, body func()) error {
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
		return ErrBusy
	}
	s.state = Running
	s.stopping = false
	s.turnStart = time.Now()
	done := make(chan struct{})
	s.turnDone = done
	s.mu.Unlock()
	s.emitStatus()
	shown()
	go func() {
		defer close(done)
		body()
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
		s.killTimer = time.AfterFunc(StopGrace, p.kill)
	}
	s.mu.Unlock()
	s.emitStatus()
	if !live {
		// After-turn mode has no input channel left: the process is ended.
		p.kill()
		return
	}
	go func() {
		if p.write(stream.Interrupt(id)) != nil {
			p.kill()
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
	procs := []*proc{s.live}
	if s.cur != nil && s.cur != s.live {
		procs = append(procs, s.cur)
	}
	done := s.turnDone
	s.mu.Unlock()
	// One budget for everything: Close returns within closeBudget whatever
	// the processes and the turn do; what is left finishes on its own.
	budget, cancel := context.WithTimeout(context.Background(), closeBudget)
	defer cancel()
	var wg sync.WaitGroup
	for _, p := range procs {
		if p != nil {
			wg.Add(1)
			go func() { defer wg.Done(); p.stop(closeGrace) }()
		}
	}
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-budget.Done():
	}
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
	cfg.Workdir, cfg.Env, cfg.UserSettings = s.cfg.Workdir, s.cfg.Env, s.cfg.UserSettings
	if cfg.Prompts != PromptsAfterTurn {
		cfg.Prompts = PromptsLive
	}
	s.nextCfg = &cfg
	var retired *proc
	if s.state == Idle {
		retired = s.applyConfigLocked()
	}
	s.mu.Unlock()
	if retired != nil {
		go retired.stop(3 * time.Second)
	}
	s.emitStatus()
}

// applyConfigLocked switches to a pending configuration between turns and
// returns the live process that must make way.
func (s *Session) applyConfigLocked() *proc {
	if s.nextCfg == nil || s.closed {
		return nil
	}
	s.cfg = *s.nextCfg
	s.nextCfg = nil
	p := s.live
	s.live = nil
	return p
}

// turn runs one prompt and then the grant-and-retry rounds it needs.
func (s *Session) turn(prompt string) {
	defer s.idle()
	s.watchGrants()
	s.SyncGrants() // a settings file edited since the last prompt counts now
	s.rounds(prompt, 1)
}

// rounds sends msg, then offers what the turn was refused and retries,
// up to MaxRounds.
func (s *Session) rounds(msg string, round int) {
	for ; ; round++ {
		res := s.runOnce(msg)
		if res == nil || res.Turn == nil || s.isClosed() || s.isStopping() {
			return
		}
		denials := res.Turn.Grantable()
		if len(denials) == 0 {
			return
		}
		if round > MaxRounds {
			s.notice(fmt.Sprintf("Some tool calls are still blocked after %d rounds of grants; Latch stops retrying.", MaxRounds))
			return
		}
		req := grantRequest(denials, s.allowedTools(), s.dirs(), s.cfg.Workdir, round)
		if req.empty() || !s.askAndGrant(req) {
			return
		}
		msg = RetryMessage
		s.show(Event{Kind: EvPrompt, Text: msg, Auto: true})
	}
}

// askAndGrant puts a grant request to the person and puts what they grant
// in force: saved where they said, in the running CLI at once, or on the
// command line of a resumed process. It reports whether anything was
// granted.
func (s *Session) askAndGrant(req GrantRequest) bool {
	s.setState(Asking)
	d := s.surf.AskGrants(s.ctx, req)
	s.setState(Running)
	if d.Action != Grant || s.isClosed() {
		s.notice("Nothing granted; the blocked tool calls stay undone. “Grant…” on a refused call offers it again.")
		return false
	}
	rules, dirs, err := saveGrants(d, s.cfg.UserSettings, s.cfg.Workdir)
	if err != nil {
		s.fail("Some grants were not saved", err.Error()+"\nWhat could be checked is granted for this session only.")
	}
	if len(rules)+len(dirs) == 0 {
		return false
	}
	saved := err == nil && (d.Scope == ScopeUser || d.Scope == ScopeProject)
	file := s.savedFile(d.Scope, saved)
	what := VisibleLine(strings.Join(append(append([]string(nil), rules...), dirs...), ", "))
	if file != "" {
		s.grantMade("Saved "+what+" to "+file, rules, dirs, file)
	} else {
		s.grantMade("Allowed "+what+" for this session", rules, dirs, "")
	}
	if !s.grantRules(rules, dirs, saved) {
		s.mu.Lock()
		s.extraTools = dedupe(s.extraTools, rules)
		s.extraDirs = dedupe(s.extraDirs, dirs)
		live := s.live
		s.live = nil
		s.mu.Unlock()
		// New grants go on the command line: the live process makes way
		// for one resumed with them.
		if live != nil {
			live.stop(3 * time.Second)
		}
	}
	return true
}

func (s *Session) idle() {
	s.mu.Lock()
	if s.killTimer != nil {
		s.killTimer.Stop()
		s.killTimer = nil
	}
	s.cur = nil
	var retired *proc
	if !s.closed {
		s.state = Idle
		retired = s.applyConfigLocked()
		if retired == nil && s.layer.retire && s.live != nil {
			retired, s.live = s.live, nil // grants taken back need a new process
		}
		s.layer.retire = false
	}
	s.mu.Unlock()
	if retired != nil {
		go retired.stop(3 * time.Second)
	}
	s.emitStatus()
}

// runOnce sends msg to a CLI process and handles its events until the
// turn's result. It returns nil when the turn ended without one.
func (s *Session) runOnce(msg string) *stream.Result {
	p, err := s.process()
	if err != nil {
		s.startFailed(err)
		return nil
	}
	s.mu.Lock()
	s.cur = p
	s.turnStart = time.Now() // a retry round is a turn of its own
	stopping := s.stopping
	s.mu.Unlock()
	// Between runs (a grant dialog may be open) there is nothing to stop.
	defer func() {
		s.mu.Lock()
		s.cur = nil
		s.mu.Unlock()
	}()
	if stopping {
		return nil
	}
	// A failed write means the process is gone; why is read from its
	// output and exit below.
	_ = p.write(stream.UserMessage(msg))
	if s.cfg.Prompts == PromptsAfterTurn {
		p.closeStdin()
	}

	answers := make(chan answer)
	done := make(chan struct{})
	defer close(done)
	defer s.withdrawAll()
	sawInit := false
	for {
		select {
		case ev, ok := <-p.events:
			if !ok {
				<-p.done
				s.processEnded(p, sawInit)
				return nil
			}
			if ev.Kind == stream.KindInit {
				sawInit = true
			}
			if r := s.handle(p, ev, answers, done); r != nil {
				if s.cfg.Prompts == PromptsAfterTurn {
					p.discard() // whatever it prints after its result is nobody's, but is read
					<-p.done
				}
				return r
			}
		case a := <-answers:
			s.answer(p, a)
		}
	}
}

// process returns the process to send the next user line to: the live one,
// or a new one resumed from the session.
func (s *Session) process() (*proc, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	if s.cfg.Prompts == PromptsLive && s.live != nil {
		p := s.live
		if !p.exited() {
			s.mu.Unlock()
			return p, nil
		}
		// It ended between turns; what it still prints is nobody's.
		p.discard()
		s.live = nil
	}
	if len(s.cfg.Command) == 0 {
		s.mu.Unlock()
		return nil, errors.New("no claude command is configured")
	}
	l := launch{
		Command:      s.cfg.Command,
		AllowedTools: dedupe(s.cfg.AllowedTools, s.extraTools),
		Dirs:         s.dirsLocked(),
		SessionID:    s.sessionID,
		Resume:       s.established,
		DangerSkip:   s.cfg.DangerousSkip,
	}
	s.mu.Unlock()
	var cleanup func()
	if s.cfg.Experimental {
		f, err := writeInstruction()
		if err != nil {
			return nil, fmt.Errorf("writing the instruction file: %w", err)
		}
		l.PromptFile = f
		cleanup = func() { os.Remove(f) }
	}
	p, err := startProc(l.argv(), s.cfg.Workdir, childEnv(s.cfg.Env), stream.Options{PhraseDetection: s.cfg.PhraseDetection}, cleanup)
	if err != nil {
		if cleanup != nil {
			cleanup()
		}
		return nil, err
	}
	s.mu.Lock()
	s.procs++
	p.serial = s.procs
	if s.cfg.Prompts == PromptsLive {
		s.live = p
	}
	closed := s.closed
	s.mu.Unlock()
	if closed {
		p.stop(time.Second)
		return nil, ErrClosed
	}
	s.sendLayer(true) // this session's grants before its first prompt; tells whether it takes them
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
func (s *Session) dirsLocked() []string {
	all := dedupe([]string{s.cfg.Workdir, os.TempDir()}, s.cfg.AddDirs, s.extraDirs)
	for i, d := range all {
		all[i] = resolvePath(d, s.cfg.Workdir)
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
		Workdir:        s.cfg.Workdir,
		DangerousSkip:  s.cfg.DangerousSkip,
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

// startFailed explains a process that could not be started at all.
func (s *Session) startFailed(err error) {
	if errors.Is(err, ErrClosed) {
		return
	}
	name := "claude"
	if len(s.cfg.Command) > 0 {
		name = s.cfg.Command[0]
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		where := "on your PATH"
		if strings.ContainsRune(name, os.PathSeparator) {
			where = "there"
		}
		s.fail("Claude Code CLI not found",
			fmt.Sprintf("Latch found no program %q %s.\nInstall Claude Code (npm install -g @anthropic-ai/claude-code) or set the claude command in Preferences (Ctrl+,).", name, where))
		return
	}
	s.fail("Claude Code could not be started", fmt.Sprintf("%s: %v\nCheck the claude command in Preferences (Ctrl+,).", name, err))
}

// processEnded explains a process whose stdout ended before the turn's result.
func (s *Session) processEnded(p *proc, sawInit bool) {
	s.mu.Lock()
	if s.live == p {
		s.live = nil
	}
	stopping, closed := s.stopping, s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	if stopping {
		if s.cfg.Prompts == PromptsAfterTurn {
			s.notice("Stopped. In after-the-turn mode Claude Code has no input channel to interrupt, so its process was ended; the next prompt resumes the session.")
		} else {
			s.notice("Stopped. Claude Code did not end the turn in time, so its process was ended; the next prompt resumes the session.")
		}
		s.show(Event{Kind: EvTurnEnd, Turn: s.turnInfo(nil, true, "Stopped")})
		return
	}
	// The reason is at the end of stderr: Detail shows its last lines, short
	// enough to be shown whole; Full keeps all of it for copying.
	head := fmt.Sprintf("%s (%s).", clipCommand(s.cfg.Command), p.exitMsg)
	info := &ErrorInfo{Title: "Claude Code stopped in the middle of the turn", Detail: head, Full: head}
	if t := p.stderr.String(); t != "" {
		info.Detail += "\n\n" + t
		info.Full += "\n\n" + p.stderr.Full()
	}
	if !sawInit {
		info.Title = "Claude Code exited before it started the turn"
		info.Detail += "\n\nCheck the claude command in Preferences (Ctrl+,)."
	}
	s.show(Event{Kind: EvError, Err: info})
	s.show(Event{Kind: EvTurnEnd, Turn: s.turnInfo(nil, true, "Claude Code exited")})
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
func clipCommand(argv []string) string {
	c := strings.Join(argv, " ")
	if r := []rune(c); len(r) > 200 {
		c = string(r[:199]) + "…"
	}
	return c
}

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

// processRunning says whether a process with this pid exists (a process of
// another user counts).
func processRunning(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
