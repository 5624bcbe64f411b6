package stream

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/tidwall/gjson"
)

// turnState gathers one turn, from its system/init to its result.
type turnState struct {
	uses    []ToolUse
	useIdx  map[string]int
	denials []Denial
	denied  map[string]bool
	text    []string        // the assistant's text blocks, for phrase detection only
	pd      map[string]bool // tool_use_ids a system/permission_denied named
}

func (t *turnState) reset() {
	t.uses, t.denials, t.text = nil, nil, nil
	clear(t.useIdx)
	clear(t.denied)
	clear(t.pd)
}

func (t *turnState) addUse(u ToolUse) {
	if t.useIdx == nil {
		t.useIdx = map[string]int{}
	}
	if i, ok := t.useIdx[u.ID]; ok {
		t.uses[i] = u
		return
	}
	t.useIdx[u.ID] = len(t.uses)
	t.uses = append(t.uses, u)
}

func (t *turnState) addDenial(dn Denial) {
	if t.denied == nil {
		t.denied = map[string]bool{}
	}
	if dn.ToolUseID != "" && t.denied[dn.ToolUseID] {
		return
	}
	t.denied[dn.ToolUseID] = true
	t.denials = append(t.denials, dn)
}

func (t *turnState) addText(s string) { t.text = append(t.text, s) }

func (t *turnState) permDenied(toolUseID string) {
	if t.pd == nil {
		t.pd = map[string]bool{}
	}
	t.pd[toolUseID] = true
}

// result ends the turn: it decodes the result line, completes the turn's
// denials from permission_denials (and phrases, if enabled), and resets.
func (d *Decoder) result(l *line, ev Event) {
	r := &Result{
		Subtype:        l.subtype.Str,
		IsError:        l.isError.Bool(),
		Text:           l.result.Str,
		SessionID:      l.sessionID.Str,
		CostUSD:        l.cost.Float(),
		Errors:         strs(l.errors),
		TerminalReason: l.terminalReason.Str,
		APIErrorStatus: int(l.apiErrorStatus.Int()),
	}
	l.usage.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "input_tokens":
			r.Usage.InputTokens = int(v.Int())
		case "output_tokens":
			r.Usage.OutputTokens = int(v.Int())
		case "cache_creation_input_tokens":
			r.Usage.CacheCreationInputTokens = int(v.Int())
		case "cache_read_input_tokens":
			r.Usage.CacheReadInputTokens = int(v.Int())
		}
		return true
	})
	var refused []permissionDenial
	l.permissionDenials.ForEach(func(_, v gjson.Result) bool {
		refused = append(refused, permissionDenial{
			toolName:  v.Get("tool_name").Str,
			toolUseID: v.Get("tool_use_id").Str,
			toolInput: raw(v.Get("tool_input")),
		})
		return true
	})
	r.Turn = d.finishTurn(refused)
	ev.Kind, ev.Result = KindResult, r
	d.emit(ev)
}

// permissionDenial is one entry of a result's permission_denials.
type permissionDenial struct {
	toolName, toolUseID string
	toolInput           json.RawMessage
}

// finishTurn gathers the turn; refused is its result's permission_denials.
func (d *Decoder) finishTurn(refused []permissionDenial) *Turn {
	t := &d.turn
	// The CLI lists every refusal of the turn; one whose tool_result did not
	// read as a denial (or never came) was still refused: nobody approved it.
	for _, e := range refused {
		if t.denied[e.toolUseID] {
			continue
		}
		tu, _ := d.tool(e.toolUseID)
		name, input := tu.Name, tu.Input
		if name == "" {
			name = e.toolName
		}
		if len(input) == 0 {
			input = e.toolInput
		}
		t.addDenial(Denial{
			Class: NotGranted, Tool: name, ToolUseID: e.toolUseID, Input: input,
			Dir: grantDir(name, input, d.cwd, d.addDirs),
		})
	}
	out := &Turn{}
	for _, u := range t.uses {
		if reg, ok := d.tool(u.ID); ok {
			u = reg // inputs may have completed after the call was first seen
		}
		out.ToolUses = append(out.ToolUses, u)
	}
	out.Denials = t.denials
	// Denials in the order of the calls; ones for unseen calls go last.
	order := func(dn Denial) int {
		if i, ok := t.useIdx[dn.ToolUseID]; ok {
			return i
		}
		return len(t.uses)
	}
	sort.SliceStable(out.Denials, func(i, j int) bool { return order(out.Denials[i]) < order(out.Denials[j]) })
	if d.opt.PhraseDetection && len(out.Denials) == 0 {
		if dn, ok := phraseDenial(strings.Join(t.text, "\n"), d.cwd, d.addDirs); ok {
			out.Denials = append(out.Denials, dn)
		}
	}
	t.reset()
	return out
}
