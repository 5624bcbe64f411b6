package grants

// This file names the layered view of every permission rule that applies to
// a folder: which rules, from which layer and file, and what Latch may do
// with them. ComputeView (effective.go) builds it from the files; a live CLI
// gives the same shape through list_permission_rules, and app compares the
// two. Test (match.go) reads it the way Claude Code decides a call.

// Sources, as Claude Code names its settings layers. The order of Sources
// is the order the view shows them in: the layer that wins first.
const (
	SourcePolicy  = "policySettings"  // managed policy: /etc/claude-code/managed-settings.json
	SourceUser    = "userSettings"    // ~/.claude/settings.json
	SourceProject = "projectSettings" // <dir>/.claude/settings.json, shared with the team
	SourceLocal   = "localSettings"   // <dir>/.claude/settings.local.json, this person's own
	SourceFlags   = "flagSettings"    // --settings and apply_flag_settings: Latch's grant layer
	SourceCLI     = "cliArg"          // --allowedTools and --add-dir: Latch's own flags, the baseline
	SourceSession = "session"         // granted in this session only
)

// Sources lists every layer in the order the view shows them.
var Sources = []string{SourcePolicy, SourceUser, SourceProject, SourceLocal, SourceFlags, SourceCLI, SourceSession}

// Behaviors of a rule. Deny wins over ask, ask over allow.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// File states of a layer's settings file.
const (
	FileOK         = "ok"        // read and in force
	FileMissing    = "missing"   // no such file (or blank): nothing from it
	FileMalformed  = "malformed" // not JSON: Claude Code skips it, Latch never writes it
	FileUnreadable = "unreadable"
)

// RuleEntry is one rule as it applies to the folder.
type RuleEntry struct {
	Behavior string `json:"behavior"` // Allow, Ask or Deny
	Rule     string `json:"rule"`     // verbatim, as written in its file
	Source   string `json:"source"`   // one of Sources
	File     string `json:"file,omitempty"`
	// Reading is Latch's plain-language reading of the rule; CLIReading is
	// the CLI's own, when a live CLI gave one.
	Reading    string `json:"reading"`
	CLIReading string `json:"cli_reading,omitempty"`
	// Editable is set when Latch can remove the rule (a file it writes).
	Editable bool `json:"editable"`
	// Ignored says why Claude Code does not apply the rule although it is
	// written ("the workspace is not trusted"); "" when it applies.
	Ignored string `json:"ignored,omitempty"`
}

// FolderEntry is one working folder.
type FolderEntry struct {
	Path     string `json:"path"`
	Source   string `json:"source"`
	File     string `json:"file,omitempty"`
	Editable bool   `json:"editable"`
}

// Layer is one source with what it holds.
type Layer struct {
	Source string `json:"source"`
	Title  string `json:"title"` // "User settings"
	File   string `json:"file,omitempty"`
	State  string `json:"state"`           // File*; FileOK for layers without a file
	Error  string `json:"error,omitempty"` // file:line:column: why, for FileMalformed / FileUnreadable
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Editable is set when Latch can remove rules here; ReadOnly says why
	// not, in words, when it cannot.
	Editable bool          `json:"editable"`
	ReadOnly string        `json:"read_only,omitempty"`
	Rules    []RuleEntry   `json:"rules"`
	Folders  []FolderEntry `json:"folders"`
}

// View is every rule and working folder that applies in one folder.
type View struct {
	Workdir string `json:"workdir"`
	// Mode is the permission mode: the live one, else defaultMode from the
	// settings, else "default".
	Mode string `json:"mode"`
	// Trusted says whether Claude Code trusts the folder (its trust dialog
	// was accepted); TrustFile is where that is recorded.
	Trusted   bool   `json:"trusted"`
	TrustFile string `json:"trust_file,omitempty"`
	// Origin is "cli" when a live CLI process gave the rules, "files"
	// when Latch read them from the files.
	Origin string  `json:"origin"`
	Layers []Layer `json:"layers"`
	// Differences lists, in words, where the running CLI and the files
	// disagree (Origin "cli" only): a rule one has and the other lacks.
	Differences []string `json:"differences,omitempty"`
	// Home is the folder "~" means in rules (ViewInput.Home).
	Home string `json:"-"`
}

// ViewInput is what ComputeView reads besides the files.
type ViewInput struct {
	Workdir string
	// UserSettings, ManagedSettings and ClaudeJSON default to Claude
	// Code's own paths when empty (UserSettingsPath, ManagedSettingsPath,
	// ClaudeJSONPath).
	UserSettings    string
	ManagedSettings string
	ClaudeJSON      string
	// Home is the folder ~ means in rules; the user's home when empty.
	Home string
	// What Latch's own flags and grant layer hold.
	AllowedTools []string // --allowedTools
	AddDirs      []string // --add-dir
	FlagAllow    []string // apply_flag_settings: the grant layer's allow rules
	FlagAsk      []string //   … its ask rules (revoked allows)
	FlagDirs     []string //   … its additionalDirectories
	SessionRules []string // granted for this session only
	SessionDirs  []string
	Mode         string // the live mode, "" when none is known
}

// Verdict is what Test says of one call.
type Verdict struct {
	Behavior string `json:"behavior"` // Allow, Ask or Deny
	// Rule is the rule that decided, nil when none did and the default
	// for the tool and mode decided.
	Rule *RuleEntry `json:"rule,omitempty"`
	// Why is the reading in words: "denied by Bash(rm -rf:*) in
	// ~/.claude/settings.json", "asks: no rule allows Bash here".
	Why string `json:"why"`
}
