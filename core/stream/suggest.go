package stream

import (
	"encoding/json"

	"github.com/tidwall/gjson"
)

// SuggestedRule is the allow rule the CLI itself suggests for this call
// (the first rule of the first addRules suggestion), as settings write it:
// "Bash(touch made-by-bash.txt)", "Read(//abs/dir/**)" (the absolute "//"
// form kept verbatim). Without such a suggestion it is "": a bare tool name
// would allow far more than the call asked, so the host picks a narrow rule.
func (c *CanUseTool) SuggestedRule() string {
	for _, s := range c.Suggestions {
		r := gjson.ParseBytes(s)
		if r.Get("type").Str != "addRules" {
			continue
		}
		if b := r.Get("behavior").Str; b != "" && b != "allow" {
			continue
		}
		rule := r.Get("rules.0")
		name := rule.Get("toolName").Str
		if name == "" {
			continue
		}
		if content := rule.Get("ruleContent").Str; content != "" {
			return name + "(" + content + ")"
		}
		return name
	}
	return ""
}

// SuggestedDirs are the directories of the request's addDirectories
// suggestions, in order, without repeats.
func (c *CanUseTool) SuggestedDirs() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range c.Suggestions {
		r := gjson.ParseBytes(s)
		if r.Get("type").Str != "addDirectories" {
			continue
		}
		r.Get("directories").ForEach(func(_, v gjson.Result) bool {
			if v.Str != "" && !seen[v.Str] {
				seen[v.Str] = true
				out = append(out, v.Str)
			}
			return true
		})
	}
	return out
}

// Question is one AskUserQuestion question.
type Question struct {
	Question    string           `json:"question"`
	Header      string           `json:"header"`
	Options     []QuestionOption `json:"options"`
	MultiSelect bool             `json:"multiSelect"`
}

// QuestionOption is one choice of a Question.
type QuestionOption struct {
	Label string `json:"label"`
}

// AskQuestions parses the input of an AskUserQuestion request; nil for
// other tools or an input without questions.
func (c *CanUseTool) AskQuestions() []Question {
	if c.ToolName != "AskUserQuestion" {
		return nil
	}
	var in struct {
		Questions []Question `json:"questions"`
	}
	if json.Unmarshal(c.Input, &in) != nil {
		return nil
	}
	return in.Questions
}

// AnswerQuestions returns the updatedInput for an AskUserQuestion allow: the
// original input plus "answers" (question text -> chosen option label).
func AnswerQuestions(input json.RawMessage, answers map[string]string) json.RawMessage {
	m := map[string]json.RawMessage{}
	if len(input) > 0 && json.Unmarshal(input, &m) != nil {
		m = map[string]json.RawMessage{}
	}
	a, _ := json.Marshal(answers)
	m["answers"] = a
	out, _ := json.Marshal(m)
	return out
}
