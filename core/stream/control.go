package stream

import (
	"encoding/json"

	"github.com/tidwall/gjson"
)

func (d *Decoder) controlRequest(l *line, ev Event) {
	req := &ControlRequest{RequestID: l.requestID.Str}
	var c CanUseTool
	l.request.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "subtype":
			req.Subtype = v.Str
		case "tool_name":
			c.ToolName = v.Str
		case "display_name":
			c.DisplayName = v.Str
		case "input":
			c.Input = raw(v)
		case "description":
			c.Description = v.Str
		case "permission_suggestions":
			v.ForEach(func(_, s gjson.Result) bool {
				c.Suggestions = append(c.Suggestions, json.RawMessage(s.Raw))
				return true
			})
		case "blocked_path":
			c.BlockedPath = v.Str
		case "decision_reason":
			c.DecisionReason = reasonText(v)
		case "decision_reason_type":
			c.DecisionReasonType = v.Str
		case "tool_use_id":
			c.ToolUseID = v.Str
		case "requires_user_interaction":
			c.RequiresUserInteraction = v.Bool()
		case "suppress_always_allow_rule":
			c.SuppressAlwaysAllow = v.Bool()
		case "default_to_no":
			c.DefaultToNo = v.Bool()
		case "matched_ask_rule":
			c.MatchedAskRule = askRuleText(v)
		case "agent_id":
			c.AgentID = v.String()
		}
		return true
	})
	if req.Subtype == "can_use_tool" {
		req.CanUseTool = &c
		if c.ToolUseID != "" {
			// Normally known from the assistant event already; fill gaps only.
			if t, ok := d.tool(c.ToolUseID); !ok || t.Name == "" || len(t.Input) == 0 {
				d.register(c.ToolUseID, c.ToolName, c.Input)
			}
		}
	}
	ev.Kind, ev.Request = KindControlRequest, req
	d.emit(ev)
}

func (d *Decoder) controlResponse(l *line, ev Event) {
	resp := &ControlResponse{}
	l.response.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "subtype":
			resp.Subtype = v.Str
		case "request_id":
			resp.RequestID = v.Str
		case "error":
			resp.Error = v.String()
		case "error_code":
			resp.ErrorCode = v.String()
		case "response":
			if v.IsObject() {
				resp.Body = raw(v)
			}
		}
		return true
	})
	ev.Kind, ev.Response = KindControlResponse, resp
	d.emit(ev)
}

// askRuleText reads matched_ask_rule leniently: a rule string, or an object
// with the rule (ruleValue / rule / toolName+ruleContent) and its source.
func askRuleText(v gjson.Result) string {
	if !v.IsObject() {
		if v.Type == gjson.String {
			return v.Str
		}
		return ""
	}
	rule := v.Get("rule").String()
	if rule == "" || v.Get("rule").IsObject() {
		rv := v.Get("ruleValue")
		if !rv.Exists() {
			rv = v.Get("rule")
		}
		rule = rv.Get("toolName").Str
		if c := rv.Get("ruleContent").Str; c != "" {
			rule += "(" + c + ")"
		}
	}
	if src := v.Get("source").Str; src != "" && rule != "" {
		return rule + " in " + src
	}
	if rule == "" {
		return v.Raw
	}
	return rule
}
