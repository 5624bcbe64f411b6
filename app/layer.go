package app

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

// Grants reach a live CLI without a restart through its flag-settings layer
// (apply_flag_settings), which Latch owns and replaces whole on every
// change; so a grant taken back is gone before the next permission check.
// The layer holds:
//   - this session's grants;
//   - the persistent grants Latch saved, mirrored, because the CLI re-reads
//     settings files only some time after they change;
//   - as ask rules, the allow rules that left a settings file while this
//     process may still have them cached (ask wins over allow).
//
// A CLI that answers apply_flag_settings with an error gets the older way:
// grants on the command line, and a resumed process to take them back.

// flagSupport says whether the CLI takes apply_flag_settings.
type flagSupport int

const (
	flagsUnknown flagSupport = iota
	flagsWork
	flagsUnsupported
)

// grantPoll is how often the settings files are checked for hand edits
// and `latch grants revoke`.
var grantPoll = 300 * time.Millisecond

// grantLayer is Session state, guarded by Session.mu.
type grantLayer struct {
	sessRules, sessDirs   []string // this session's grants
	savedRules, savedDirs []string // persistent grants Latch saved (mirrored)
	revoked               []string // allow rules that left a settings file: ask again
	known                 map[string][]string
	knownDirs             map[string][]string
	flags                 flagSupport
	sent                  bool // the layer was sent non-empty at least once
	reqNo                 int
	retire                bool // the live process must make way at the next idle
	watching              bool
}

// settingsFiles are the files whose allow rules Latch follows.
func (s *Session) settingsFiles() []string {
	files := []string{s.userSettings}
	if s.workdir != "" {
		files = append(files, grants.ProjectSettingsPath(s.workdir), strings.TrimSuffix(grants.ProjectSettingsPath(s.workdir), ".local.json")+".json")
	}
	return slices.DeleteFunc(files, func(f string) bool { return f == "" })
}

// layerLocked is the flag-settings layer as it should be now.
func (s *Session) layerLocked() stream.FlagPermissions {
	g := &s.layer
	return stream.FlagPermissions{
		Allow:                 dedupe(g.sessRules, g.savedRules),
		Ask:                   dedupe(g.revoked),
		AdditionalDirectories: dedupe(g.sessDirs, g.savedDirs),
	}
}

// liveLayer reports whether grants go through the flag-settings layer.
func (s *Session) liveLayerLocked() bool {
	return s.cfg.Prompts == PromptsLive && s.layer.flags != flagsUnsupported
}

// pushLayer sends the layer to the live process, if there is one and it
// takes it. An empty layer is sent only to clear one sent before.
func (s *Session) pushLayer() { s.sendLayer(false) }

// sendLayer sends the layer; with probe even an empty one, so a new
// process says at once whether it takes apply_flag_settings.
func (s *Session) sendLayer(probe bool) {
	s.mu.Lock()
	p := s.live
	if p == nil || !s.liveLayerLocked() {
		s.mu.Unlock()
		return
	}
	l := s.layerLocked()
	empty := len(l.Allow)+len(l.Ask)+len(l.AdditionalDirectories) == 0
	if empty && !s.layer.sent && !probe {
		s.mu.Unlock()
		return
	}
	s.layer.sent = s.layer.sent || !empty
	s.layer.reqNo++
	id := fmt.Sprintf("latch_flags_%d", s.layer.reqNo)
	s.mu.Unlock()
	_ = p.Write(stream.ApplyFlagSettings(id, l)) // a dead process is reported by its reader
}

// layerAnswered handles the CLI's answer to an apply_flag_settings.
func (s *Session) layerAnswered(r *stream.ControlResponse) bool {
	if !strings.HasPrefix(r.RequestID, "latch_flags_") {
		return false
	}
	s.mu.Lock()
	if r.Subtype != "error" {
		s.layer.flags = flagsWork
		s.mu.Unlock()
		return true
	}
	already := s.layer.flags == flagsUnsupported
	s.layer.flags = flagsUnsupported
	// The older way: grants on the command line of a resumed process.
	s.extraTools = dedupe(s.extraTools, s.layer.sessRules)
	s.extraDirs = dedupe(s.extraDirs, s.layer.sessDirs)
	s.layer.retire = true
	s.mu.Unlock()
	if !already {
		s.notice("This Claude Code cannot take grants while it runs (" + VisibleLine(r.Error) + "); Latch resumes the session with them after this turn.")
	}
	return true
}

// grantRules puts rules and folders in force now: this session's, or, with
// saved, ones Latch saved to a settings file (mirrored until the CLI
// re-reads it). It reports whether the live layer carries them;
// when not, the caller uses the command line or updatedPermissions.
func (s *Session) grantRules(rules, dirs []string, saved bool) bool {
	s.mu.Lock()
	g := &s.layer
	g.revoked = slices.DeleteFunc(g.revoked, func(r string) bool { return slices.Contains(rules, r) })
	if saved {
		g.savedRules = dedupe(g.savedRules, rules)
		g.savedDirs = dedupe(g.savedDirs, dirs)
	} else {
		g.sessRules = dedupe(g.sessRules, rules)
		g.sessDirs = dedupe(g.sessDirs, dirs)
	}
	live := s.liveLayerLocked()
	if !live && !saved {
		s.extraTools = dedupe(s.extraTools, rules)
		s.extraDirs = dedupe(s.extraDirs, dirs)
	}
	s.mu.Unlock()
	if live {
		s.pushLayer()
	}
	return live
}

// revoke takes grants back from the running session at once: from this
// session's grants and from the mirror of saved ones. With ask, the rules
// also become ask rules, for those that were in a settings file the CLI
// may still have cached. The caller removes saved grants from their file.
func (s *Session) revoke(rules, dirs []string, ask bool) {
	s.mu.Lock()
	g := &s.layer
	drop := func(list []string, gone []string) []string {
		return slices.DeleteFunc(list, func(x string) bool { return slices.Contains(gone, x) })
	}
	g.sessRules, g.sessDirs = drop(g.sessRules, rules), drop(g.sessDirs, dirs)
	g.savedRules, g.savedDirs = drop(g.savedRules, rules), drop(g.savedDirs, dirs)
	if ask && s.cfg.Prompts == PromptsLive {
		g.revoked = dedupe(g.revoked, rules)
	}
	onArgv := slices.ContainsFunc(rules, func(r string) bool { return slices.Contains(s.extraTools, r) }) ||
		slices.ContainsFunc(dirs, func(d string) bool { return slices.Contains(s.extraDirs, d) })
	s.extraTools, s.extraDirs = drop(s.extraTools, rules), drop(s.extraDirs, dirs)
	retire := onArgv && s.live != nil
	if retire {
		// Only a new process forgets its command line.
		if s.state == Idle {
			s.group.Retire(s.live, retireGrace)
			s.live = nil
		} else {
			g.retire = true
		}
	}
	s.mu.Unlock()
	s.pushLayer()
}

// syncGrants follows the settings files: an allow rule or folder that left
// one is revoked in the running session at once (an ask rule covers the
// time until the CLI re-reads the file); a rule that came back is no longer
// asked about. It runs at every prompt and while the session is open.
func (s *Session) syncGrants() {
	files := s.settingsFiles()
	now := map[string][]string{}
	nowDirs := map[string][]string{}
	for _, f := range files {
		p, err := grants.NewStore(f).Read()
		if err != nil {
			continue // a malformed file is reported where it is edited; the CLI skips it
		}
		now[f], nowDirs[f] = p.Allow, p.AdditionalDirectories
	}
	s.mu.Lock()
	g := &s.layer
	first := g.known == nil
	var goneRules, goneDirs, back []string
	if !first {
		for f, old := range g.known {
			if _, ok := now[f]; !ok {
				continue
			}
			for _, r := range old {
				if !slices.Contains(now[f], r) {
					goneRules = append(goneRules, r)
				}
			}
		}
		for f, old := range g.knownDirs {
			if _, ok := nowDirs[f]; !ok {
				continue
			}
			for _, d := range old {
				if !slices.Contains(nowDirs[f], d) {
					goneDirs = append(goneDirs, resolvePath(d, s.workdir))
				}
			}
		}
	}
	for _, rules := range now {
		for _, r := range g.revoked {
			if slices.Contains(rules, r) {
				back = append(back, r)
			}
		}
	}
	g.known, g.knownDirs = now, nowDirs
	g.revoked = slices.DeleteFunc(g.revoked, func(r string) bool { return slices.Contains(back, r) })
	// A rule still allowed by another file stays allowed.
	still := func(r string) bool {
		for _, rules := range now {
			if slices.Contains(rules, r) {
				return true
			}
		}
		return false
	}
	goneRules = slices.DeleteFunc(goneRules, still)
	changed := len(back) > 0
	s.mu.Unlock()
	if len(goneRules)+len(goneDirs) > 0 {
		s.revoke(goneRules, goneDirs, true)
		s.notice("A settings file no longer allows " + VisibleLine(strings.Join(append(goneRules, goneDirs...), ", ")) + "; Claude Code asks again from now on.")
	} else if changed {
		s.pushLayer()
	}
}

// watchGrants starts following the settings files for the session's life;
// the turn's own syncGrants takes the first look.
func (s *Session) watchGrants() {
	s.mu.Lock()
	if s.layer.watching {
		s.mu.Unlock()
		return
	}
	s.layer.watching = true
	s.mu.Unlock()
	for _, f := range s.settingsFiles() {
		grants.NewStore(f).Watch(s.ctx, grantPoll, s.syncGrants)
	}
}

// forget drops rules and folders Latch itself removes from file from what
// syncGrants knows, so they are not reported as someone else's edit.
func (s *Session) forget(file string, rules, dirs []string) {
	s.mu.Lock()
	if s.layer.known != nil {
		gone := func(list, x []string) []string {
			return slices.DeleteFunc(slices.Clone(list), func(v string) bool { return slices.Contains(x, v) })
		}
		s.layer.known[file] = gone(s.layer.known[file], rules)
		s.layer.knownDirs[file] = gone(s.layer.knownDirs[file], dirs)
	}
	s.mu.Unlock()
}
