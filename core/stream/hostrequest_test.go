package stream

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// answers decodes a captured stdout and returns its control responses by id.
func answers(t *testing.T, file string) map[string]*ControlResponse {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := NewDecoder(f, Options{})
	out := map[string]*ControlResponse{}
	for {
		ev, err := d.Next()
		if err != nil {
			break
		}
		if ev.Kind == KindControlResponse {
			out[ev.Response.RequestID] = ev.Response
		}
	}
	return out
}

func TestHostRequestAnswers(t *testing.T) {
	a := answers(t, "testdata/host-requests/stdout.ndjson")

	rules, err := DecodeRules(a["r1"].Body)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules.Rules {
		got = append(got, r.Behavior+" "+r.Source+" "+r.Rule+" | "+r.Reading)
	}
	want := []string{
		"allow userSettings Bash(npm test:*) | Any Bash command starting with npm test",
		"allow userSettings Read(~/notes/**) | ",
		"allow localSettings Edit(//tmp/x/**) | ",
		"allow cliArg Bash | Any Bash command",
		"allow cliArg Read | Any use of the Read tool",
		"ask userSettings WebFetch | Any use of the WebFetch tool",
		"deny userSettings Bash(rm -rf:*) | Any Bash command starting with rm -rf",
		"deny projectSettings Read(./secrets/**) | ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rules:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(rules.Folders) != 1 || rules.Folders[0] != (CLIFolder{Path: "/tmp", Source: "cliArg"}) || rules.OriginalCwd != "/tmp/probe/proj" {
		t.Errorf("folders %+v cwd %q", rules.Folders, rules.OriginalCwd)
	}

	srcs, err := DecodeSources(a["r2"].Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 3 || srcs[1].Source != "projectSettings" || !slices.Equal(srcs[1].Allow, []string{"Bash(make:*)"}) ||
		!slices.Equal(srcs[2].Directories, []string{"/opt/y"}) || !slices.Equal(srcs[0].Ask, []string{"WebFetch"}) {
		t.Errorf("sources: %+v", srcs)
	}

	if m := DecodeMode(a["r3"].Body); m != "acceptEdits" {
		t.Errorf("mode %q", m)
	}
	if r := a["r4"]; r.Subtype != "error" || r.ErrorCode != "bypass_not_launched" || r.Body != nil {
		t.Errorf("bypass answer %+v", r)
	}
	if r := a["r5"]; r.ErrorCode != ErrUnsupported {
		t.Errorf("unknown request answer %+v", r)
	}
	if in := DecodeInit(a["i1"].Body); in.Mode != "default" || !in.AutoMode || in.TrustKnown {
		t.Errorf("initialize %+v", in)
	}

	in := DecodeInit(a["i1"].Body)
	var values []string
	for _, m := range in.Models {
		values = append(values, m.Value)
	}
	if !slices.Equal(values, []string{"default", "opus", "fable", "sonnet", "haiku"}) || in.Models[0].DisplayName != "Default (recommended)" {
		t.Errorf("models %+v", in.Models)
	}

	m := answers(t, "testdata/host-requests/set-model.ndjson")
	if r := m["m1"]; r.Subtype != "success" || DecodeModel(r.Body) != "claude-sonnet-5-5" {
		t.Errorf("set_model sonnet answer %+v", r)
	}
	if r := m["m2"]; r.Subtype != "error" || r.ErrorCode == "" || r.Error == "" {
		t.Errorf("set_model of an unknown model answered %+v, want an error", r)
	}
	if r := m["m3"]; DecodeModel(r.Body) != "claude-opus-5-5" {
		t.Errorf("set_model without a model (the default) answered %+v", r)
	}

	b := answers(t, "testdata/host-requests/trust-stdout.ndjson")
	if in := DecodeInit(b["i1"].Body); !in.TrustKnown || !in.TrustRecorded {
		t.Errorf("initialize with trust %+v", in)
	}
	rules, _ = DecodeRules(b["r1"].Body)
	if !slices.ContainsFunc(rules.Rules, func(r CLIRule) bool { return r.Rule == "Bash(make:*)" && r.Source == "projectSettings" }) {
		t.Errorf("a trusted folder's project allow rule is missing: %+v", rules.Rules)
	}
}

func TestDecodeRulesRefusesAnswersWithoutState(t *testing.T) {
	for _, body := range []string{`{}`, `{"state":[]}`, `null`, ``} {
		if _, err := DecodeRules([]byte(body)); err == nil {
			t.Errorf("%q: no error", body)
		}
		if _, err := DecodeSources([]byte(body)); err == nil {
			t.Errorf("%q: no error from DecodeSources", body)
		}
	}
}

func TestHostRequestLines(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{string(ListPermissionRules("a")), `{"type":"control_request","request_id":"a","request":{"subtype":"list_permission_rules"}}` + "\n"},
		{string(GetSettings("b")), `{"type":"control_request","request_id":"b","request":{"subtype":"get_settings"}}` + "\n"},
		{string(SetPermissionMode("c", "plan")), `{"type":"control_request","request_id":"c","request":{"subtype":"set_permission_mode","mode":"plan"}}` + "\n"},
		{string(Initialize("e")), `{"type":"control_request","request_id":"e","request":{"subtype":"initialize"}}` + "\n"},
		{string(InitializeTrust("d", "/w/x")), `{"type":"control_request","request_id":"d","request":{"subtype":"initialize","workspaceTrust":{"accepted":true,"directory":"/w/x"}}}` + "\n"},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %s want %s", tc.got, tc.want)
		}
	}
}

// Who decided a call comes from the user line's tool_result_meta.
func TestToolResultsSayWhoDecided(t *testing.T) {
	for _, tc := range []struct {
		file string
		want Decided
	}{
		{"testdata/fixtures/live-deny/stdout.ndjson", Decided{Decision: "reject", Source: "user_reject", NonExecutionKind: "permission-rule"}},
		{"testdata/fixtures/resume-after-denial/step1/stdout.ndjson", Decided{Decision: "reject", Source: "config", NonExecutionKind: "user-rejected"}},
		{"testdata/fixtures/resume-after-denial/step2/stdout.ndjson", Decided{Decision: "accept", Source: "config", ReasonType: "rule"}},
		{"testdata/fixtures/stream-closed-print-mode/stdout.ndjson", Decided{Decision: "reject", Source: "config", ReasonType: "other", NonExecutionKind: "permission-rule"}},
	} {
		f, err := os.Open(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		d := NewDecoder(f, Options{})
		var got []Decided
		for {
			ev, err := d.Next()
			if err != nil {
				break
			}
			if ev.Kind == KindToolResult && ev.ToolResult.Decided != nil {
				got = append(got, *ev.ToolResult.Decided)
			}
		}
		f.Close()
		if len(got) == 0 || got[len(got)-1] != tc.want {
			t.Errorf("%s: %+v, want last %+v", tc.file, got, tc.want)
		}
	}
}
