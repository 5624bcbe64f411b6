package stream

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// Requests Latch sends the CLI about its permission state, and their
// answers, as CLI 2.1.328 gives them (docs/protocol.md §4.1). A CLI that does
// not know a request answers with ErrorCode "unsupported_request".

// ErrUnsupported is the ErrorCode of a request the CLI does not know.
const ErrUnsupported = "unsupported_request"

type hostRequest struct {
	Subtype        string          `json:"subtype"`
	Mode           string          `json:"mode,omitempty"`
	Model          *string         `json:"model,omitempty"`
	WorkspaceTrust *workspaceTrust `json:"workspaceTrust,omitempty"`
}

type workspaceTrust struct {
	Accepted  bool   `json:"accepted"`
	Directory string `json:"directory"`
}

func request(requestID string, r hostRequest) []byte {
	return line1(controlRequestLine{Type: "control_request", RequestID: requestID, Request: r})
}

// ListPermissionRules asks for every rule in force, with its source.
func ListPermissionRules(requestID string) []byte {
	return request(requestID, hostRequest{Subtype: "list_permission_rules"})
}

// GetSettings asks for the effective settings and each layer's own.
func GetSettings(requestID string) []byte {
	return request(requestID, hostRequest{Subtype: "get_settings"})
}

// SetPermissionMode switches the session's permission mode.
func SetPermissionMode(requestID, mode string) []byte {
	return request(requestID, hostRequest{Subtype: "set_permission_mode", Mode: mode})
}

// SetModel switches the model for the next turn; "" asks for the
// default. The answer's body holds the model it resolved to (DecodeModel).
func SetModel(requestID, model string) []byte {
	r := hostRequest{Subtype: "set_model"}
	if model != "" {
		r.Model = &model
	}
	return request(requestID, r)
}

// DecodeModel reads the model a set_model answer resolved to.
func DecodeModel(body json.RawMessage) string { return gjson.GetBytes(body, "model").Str }

// Initialize asks for the CLI's capabilities (models, modes). The CLI
// takes the first initialize of a process; Latch sends one only where it
// has no trust to attest.
func Initialize(requestID string) []byte {
	return request(requestID, hostRequest{Subtype: "initialize"})
}

// InitializeTrust attests that the person accepted a trust dialog for dir;
// only send it after showing one. The CLI honours it on the first
// initialize of a process only.
func InitializeTrust(requestID, dir string) []byte {
	return request(requestID, hostRequest{Subtype: "initialize", WorkspaceTrust: &workspaceTrust{Accepted: true, Directory: dir}})
}

// CLIRule is one rule of a list_permission_rules answer.
type CLIRule struct {
	Behavior    string // allow, ask, deny
	Source      string // userSettings, projectSettings, localSettings, cliArg, policySettings, …
	Rule        string
	Reading     string // the CLI's description, joined: "Any Bash command starting with npm test"
	Editability string // "persistent", "session", …
}

// CLIFolder is one working folder of a list_permission_rules answer.
type CLIFolder struct {
	Path   string
	Source string
}

// CLIRules is a list_permission_rules answer.
type CLIRules struct {
	Rules       []CLIRule
	Folders     []CLIFolder
	OriginalCwd string
	ManagedOnly bool
}

// DecodeRules reads a list_permission_rules answer's body.
func DecodeRules(body json.RawMessage) (CLIRules, error) {
	var out CLIRules
	st := gjson.GetBytes(body, "state")
	if !st.IsObject() {
		return out, fmt.Errorf("list_permission_rules: no state in the answer")
	}
	st.Get("rules").ForEach(func(_, r gjson.Result) bool {
		d := r.Get("description")
		reading := d.Get("prefix").Str + d.Get("emphasis").Str + d.Get("suffix").Str
		if d.Type == gjson.String {
			reading = d.Str
		}
		out.Rules = append(out.Rules, CLIRule{
			Behavior:    r.Get("behavior").Str,
			Source:      r.Get("source").Str,
			Rule:        r.Get("rule").Str,
			Reading:     strings.TrimSpace(reading),
			Editability: r.Get("editability").Str,
		})
		return true
	})
	st.Get("workspaceDirectories").ForEach(func(_, f gjson.Result) bool {
		out.Folders = append(out.Folders, CLIFolder{Path: f.Get("path").Str, Source: f.Get("source").Str})
		return true
	})
	out.OriginalCwd = st.Get("originalCwd").Str
	out.ManagedOnly = st.Get("managedOnly").Bool()
	return out, nil
}

// CLISource is one layer of a get_settings answer: its permissions.
type CLISource struct {
	Source                        string
	Allow, Ask, Deny, Directories []string
	DefaultMode                   string
}

// DecodeSources reads the per-layer permissions of a get_settings answer.
func DecodeSources(body json.RawMessage) ([]CLISource, error) {
	srcs := gjson.GetBytes(body, "sources")
	if !srcs.IsArray() {
		return nil, fmt.Errorf("get_settings: no sources in the answer")
	}
	var out []CLISource
	srcs.ForEach(func(_, s gjson.Result) bool {
		p := s.Get("settings.permissions")
		out = append(out, CLISource{
			Source:      s.Get("source").Str,
			Allow:       texts(p.Get("allow")),
			Ask:         texts(p.Get("ask")),
			Deny:        texts(p.Get("deny")),
			Directories: texts(p.Get("additionalDirectories")),
			DefaultMode: p.Get("defaultMode").Str,
		})
		return true
	})
	return out, nil
}

func texts(v gjson.Result) []string {
	var out []string
	v.ForEach(func(_, s gjson.Result) bool {
		if s.Type == gjson.String {
			out = append(out, s.Str)
		}
		return true
	})
	return out
}

// DecodeMode reads the mode of a set_permission_mode answer.
func DecodeMode(body json.RawMessage) string { return gjson.GetBytes(body, "mode").Str }

// InitAnswer is what Latch reads of an initialize answer.
type InitAnswer struct {
	Mode string // current_permission_mode
	// TrustRecorded is workspace_trust_recorded: whether the attested
	// folder is now trusted on disk; TrustKnown says the CLI said either.
	TrustRecorded, TrustKnown bool
	// AutoMode is set when some model of the CLI offers auto mode.
	AutoMode bool
	// Models are the models it offers, in its order.
	Models []ModelInfo
}

// ModelInfo is one model of an initialize answer; every field is the
// CLI's text.
type ModelInfo struct {
	Value, DisplayName, Description string
}

// DecodeInit reads an initialize answer's body.
func DecodeInit(body json.RawMessage) InitAnswer {
	r := gjson.ParseBytes(body)
	a := InitAnswer{Mode: r.Get("current_permission_mode").Str}
	if t := r.Get("workspace_trust_recorded"); t.Exists() {
		a.TrustRecorded, a.TrustKnown = t.Bool(), true
	}
	r.Get("models").ForEach(func(_, m gjson.Result) bool {
		if m.Get("supportsAutoMode").Bool() {
			a.AutoMode = true
		}
		if v := m.Get("value").Str; v != "" {
			a.Models = append(a.Models, ModelInfo{Value: v, DisplayName: m.Get("displayName").Str, Description: m.Get("description").Str})
		}
		return true
	})
	return a
}
