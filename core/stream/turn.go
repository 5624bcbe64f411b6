package stream

import (
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
	text    []string
	pd      map[string]*PermissionDenied
	fails   map[string]string // failed, unclassified tool_results: id -> text
}

func (t *turnState) reset() {
	t.uses, t.denials, t.text = nil, nil, nil
	clear(t.useIdx)
	clear(t.denied)
	clear(t.pd)
	clear(t.fails)
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

func (t *turnState) permDenied(pd *PermissionDenied) {
	if t.pd == nil {
		t.pd = map[string]*PermissionDenied{}
	}
	t.pd[pd.ToolUseID] = pd
}

func (t *turnState) permDeniedFor(id string) (*PermissionDenied, bool) {
	pd, ok := t.pd[id]
	return pd, ok
}

func (t *turnState) failed(id, text string) {
	if t.fails == nil {
		t.fails = map[string]string{}
	}
	t.fails[id] = text
}

// result ends the turn: it decodes the result line, completes the turn's
// denials from permission_denials (and phrases, if enabled), and resets.
func (d *Decoder) result(l *line, ev Event) {
	r := &Result{
		Subtype:        l.subtype.Str,
		IsError:        l.isError.Bool(),
		Text:           l.result.Str,
		SessionID:      l.sessionID.Str,
		NumTurns:       int(l.numTurns.Int()),
		CostUSD:        l.cost.Float(),
		Errors:         strs(l.errors),
		TerminalReason: l.terminalReason.Str,
		APIErrorStatus: int(l.apiErrorStatus.Int()),
		ResultIndex:    int(l.resultIndex.Int()),
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
	l.permissionDenials.ForEach(func(_, v gjson.Result) bool {
		r.PermissionDenials = append(r.PermissionDenials, PermissionDenialEntry{
			ToolName:  v.Get("tool_name").Str,
			ToolUseID: v.Get("tool_use_id").Str,
			ToolInput: raw(v.Get("tool_input")),
		})
		return true
	})
	r.Turn = d.finishTurn(r)
	ev.Kind, ev.Result = KindResult, r
	d.emit(ev)
}

func (d *Decoder) finishTurn(r *Result) *Turn {
	t := &d.turn
	// The CLI lists every refusal of the turn; one whose tool_result did not
	// read as a denial (or never came) was still refused: nobody approved it.
	for _, e := range r.PermissionDenials {
		if t.denied[e.ToolUseID] {
			continue
		}
		tu, _ := d.Tool(e.ToolUseID)
		name, input := tu.Name, tu.Input
		if name == "" {
			name = e.ToolName
		}
		if len(input) == 0 {
			input = e.ToolInput
		}
		text := t.fails[e.ToolUseID]
		if pd, ok := t.pd[e.ToolUseID]; ok && text == "" {
			text = pd.Message
		}
		t.addDenial(Denial{
			Class: NotGranted, Tool: name, ToolUseID: e.ToolUseID, Input: input,
			Dir: grantDir(name, input, d.cwd, d.addDirs), Text: text,
		})
	}
	out := &Turn{Text: strings.Join(t.text, "\n")}
	for _, u := range t.uses {
		if reg, ok := d.Tool(u.ID); ok {
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
		if dn, ok := phraseDenial(out.Text, d.cwd, d.addDirs); ok {
			out.Denials = append(out.Denials, dn)
		}
	}
	t.reset()
	return out
}
