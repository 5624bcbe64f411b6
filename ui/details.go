package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// inputField is one labelled value of a tool call's input, as the card's
// Details show it. Both strings are the model's: escaped where shown.
type inputField struct {
	label string
	value string
	prose bool // a sentence (a description, a prompt): proportional font
}

// fieldLabels names the input keys of Claude Code's tools; any other key
// is shown under its own name.
var fieldLabels = map[string]string{
	"command":           "Command",
	"description":       "Description",
	"timeout":           "Timeout",
	"run_in_background": "In background",
	"file_path":         "Path",
	"notebook_path":     "Notebook",
	"path":              "Path",
	"offset":            "Offset",
	"limit":             "Limit",
	"pattern":           "Pattern",
	"glob":              "Include",
	"type":              "File type",
	"output_mode":       "Output mode",
	"-i":                "Ignore case",
	"-n":                "Line numbers",
	"-A":                "Lines after",
	"-B":                "Lines before",
	"-C":                "Lines around",
	"multiline":         "Multiline",
	"head_limit":        "Head limit",
	"url":               "URL",
	"prompt":            "Prompt",
	"query":             "Query",
	"replace_all":       "Replace all",
	"allowed_domains":   "Allowed domains",
	"blocked_domains":   "Blocked domains",
	"subagent_type":     "Agent",
}

// proseKeys are shown in the proportional font.
var proseKeys = map[string]bool{"description": true, "prompt": true}

// maxFieldLabel caps a label made from an unknown key (the model's).
const maxFieldLabel = 32

// inputFields is a call's input as labelled fields, in the input's order:
// Claude Code's tools' keys by name, any other top-level key under its
// own name, objects and arrays pretty-printed. What the diff (fd) shows
// — a Write's content, an Edit's old and new text — is said in a line. An
// input that is not a JSON object (still streaming) is one Input field.
func inputFields(name, input string, fd *app.FileDiff) []inputField {
	if strings.TrimSpace(input) == "" {
		return []inputField{{label: "Input", value: "(not known yet)", prose: true}}
	}
	keys, vals, ok := objectFields(input)
	if !ok {
		return []inputField{{label: "Input", value: input}}
	}
	var out []inputField
	for i, k := range keys {
		raw := vals[i]
		if fd != nil {
			switch k {
			case "old_string", "new_string":
				continue // the diff shows them
			case "content":
				if s, ok := jsonString(raw); ok {
					out = append(out, inputField{label: "Content", prose: true,
						value: fmt.Sprintf("%s, %s (in the diff above; Copy as JSON has it whole)", plural(lineCount(s), "line", "lines"), byteSize(len(s)))})
					continue
				}
			case "edits":
				var edits []struct {
					ReplaceAll bool `json:"replace_all"`
				}
				if json.Unmarshal(raw, &edits) == nil {
					all := 0
					for _, e := range edits {
						if e.ReplaceAll {
							all++
						}
					}
					v := plural(len(edits), "edit", "edits") + " (in the diff above)"
					if all > 0 {
						v += fmt.Sprintf(", %d with replace_all", all)
					}
					out = append(out, inputField{label: "Edits", value: v, prose: true})
					continue
				}
			}
		}
		label, known := fieldLabels[k]
		if !known {
			label = keyLabel(k)
		}
		v := jsonValue(raw)
		if k == "timeout" && !strings.HasPrefix(strings.TrimSpace(string(raw)), `"`) {
			v += " ms"
		}
		out = append(out, inputField{label: label, value: v, prose: proseKeys[k]})
	}
	if len(out) == 0 {
		out = append(out, inputField{label: "Input", value: "(none)", prose: true})
	}
	return out
}

// objectFields is a JSON object's keys and values in their order; ok is
// false for anything else (or a partial object).
func objectFields(s string) (keys []string, vals []json.RawMessage, ok bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		k, isKey := t.(string)
		if err != nil || !isKey {
			return nil, nil, false
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return nil, nil, false
		}
		keys, vals = append(keys, k), append(vals, raw)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, nil, false
	}
	return keys, vals, true
}

func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonValue is a value as a field shows it: a string as it is, yes/no, a
// number as written, an object or array pretty-printed.
func jsonValue(raw json.RawMessage) string {
	if s, ok := jsonString(raw); ok {
		return s
	}
	switch t := strings.TrimSpace(string(raw)); t {
	case "true":
		return "yes"
	case "false":
		return "no"
	case "":
		return ""
	default:
		if t[0] == '{' || t[0] == '[' {
			var b bytes.Buffer
			if json.Indent(&b, raw, "", "  ") == nil {
				return b.String()
			}
		}
		return t
	}
}

// keyLabel is an unknown key as a label: "max_results" → "Max results",
// cut at maxFieldLabel characters.
func keyLabel(k string) string {
	k = strings.ReplaceAll(k, "_", " ")
	if k != "" && k[0] >= 'a' && k[0] <= 'z' {
		k = strings.ToUpper(k[:1]) + k[1:]
	}
	return clipEnd(k, maxFieldLabel)
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// byteSize is a size the way a person reads it.
func byteSize(n int) string {
	switch {
	case n < 1000:
		return plural(n, "byte", "bytes")
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1000*1000))
}

// exitCode is what a Bash result says of the command's exit code: Claude
// Code starts a failed command's result with "Exit code N"; "exit status
// N" is read too. ok is false when the result does not say.
func exitCode(result string) (code string, ok bool) {
	for i := 0; i < 5 && result != ""; i++ {
		line, rest, _ := strings.Cut(result, "\n")
		result = rest
		l := strings.TrimSpace(line)
		for _, p := range []string{"exit code", "exit status"} {
			if len(l) > len(p) && strings.EqualFold(l[:len(p)], p) {
				n := strings.TrimLeft(l[len(p):], ": ")
				end := 0
				for end < len(n) && (n[end] >= '0' && n[end] <= '9' || end == 0 && n[end] == '-') {
					end++
				}
				if end > 0 && n[:end] != "-" && end <= 12 {
					return n[:end], true
				}
			}
		}
	}
	return "", false
}

// callJSON is the call in its raw form, for Copy as JSON: the input
// exactly as it came (as a string when it is not JSON yet), and the result.
func callJSON(tc *app.ToolCall) string {
	q := func(s string) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		return strings.TrimSuffix(b.String(), "\n")
	}
	var b strings.Builder
	b.WriteString("{\n  \"tool\": " + q(tc.Name) + ",\n  \"id\": " + q(tc.ID) + ",\n  \"input\": ")
	if json.Valid([]byte(tc.Input)) {
		b.WriteString(tc.Input)
	} else {
		b.WriteString(q(tc.Input))
	}
	b.WriteString(",\n  \"result\": " + q(tc.Result))
	if tc.Denial != "" {
		b.WriteString(",\n  \"denial\": " + q(tc.Denial))
	}
	fmt.Fprintf(&b, ",\n  \"is_error\": %t\n}\n", tc.IsError)
	return b.String()
}

// setFields shows fields in box: labels in a column, values beside them,
// each value whole (wrapped pieces of at most wholePiece bytes) and
// escaped (app.Visible).
func setFields(box *fyne.Container, fields []inputField) {
	objs := make([]fyne.CanvasObject, 0, 2*len(fields))
	for _, f := range fields {
		l := widget.NewLabel(app.VisibleLine(f.label))
		l.Importance = widget.LowImportance
		objs = append(objs, l, fieldValue(f.value, f.prose))
	}
	// Not container.New, which lays the values out at once at no width.
	box.Objects = []fyne.CanvasObject{&fyne.Container{Layout: fieldsLayout{layout.NewFormLayout()}, Objects: objs}}
	box.Refresh()
}

// fieldValue is s whole, escaped, in monospace unless prose.
func fieldValue(s string, prose bool) fyne.CanvasObject {
	if !prose {
		return wholeText(s, false)
	}
	var objs []fyne.CanvasObject
	for _, piece := range pieces(app.Visible(strings.TrimRight(s, "\n")), wholePiece) {
		rt := widget.NewRichText(&widget.TextSegment{Text: piece, Style: widget.RichTextStyle{
			ColorName: theme.ColorNameForeground, Inline: false,
		}})
		rt.Wrapping = fyne.TextWrapWord
		objs = append(objs, rt)
	}
	if len(objs) == 1 {
		return objs[0]
	}
	return container.NewVBox(objs...)
}

// fieldsLayout is the form layout, except at no width (a card not shown
// yet), where it does nothing: laying a long wrapped value out there
// breaks it a character a line, which takes seconds for 100 KB.
type fieldsLayout struct{ form fyne.Layout }

func (l fieldsLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width < 1 {
		return
	}
	l.form.Layout(objs, size)
}

func (l fieldsLayout) MinSize(objs []fyne.CanvasObject) fyne.Size { return l.form.MinSize(objs) }
