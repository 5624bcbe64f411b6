package app

import (
	"context"

	"github.com/latch-app/latch/core/stream"
)

// fallbackModels are the aliases every CLI takes with --model, offered
// until a live process's initialize says what it has.
var fallbackModels = [...]ModelChoice{
	{Value: "default", DisplayName: "Default"},
	{Value: "sonnet", DisplayName: "Sonnet"},
	{Value: "opus", DisplayName: "Opus"},
	{Value: "haiku", DisplayName: "Haiku"},
}

// Models are the models the model selector offers: the CLI's own list
// once a live process told it, else the aliases every CLI takes.
func (s *Session) Models() []ModelChoice {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.models) > 0 {
		return append([]ModelChoice(nil), s.models...)
	}
	return FallbackModels()
}

// FallbackModels are the models offered where no CLI has said what it
// has: the aliases every CLI takes with --model.
func FallbackModels() []ModelChoice { return append([]ModelChoice(nil), fallbackModels[:]...) }

// SetModel switches the model from the next turn on, and returns the model
// the CLI says it now uses. A live process is told at once (set_model);
// every process started later — a new one, a resumed one — is started with
// --model. An error is the CLI's refusal in words, and the model stays.
func (s *Session) SetModel(ctx context.Context, model string) (string, error) {
	p := s.liveProc()
	if p != nil {
		r, err := s.ask(ctx, p, func(id string) []byte { return stream.SetModel(id, model) })
		if err != nil {
			return s.currentModel(), err
		}
		got := stream.DecodeModel(r.Body)
		s.mu.Lock()
		s.chosenModel = model
		if got != "" {
			s.model = got
		}
		s.mu.Unlock()
		s.emitStatus()
		return s.currentModel(), nil
	}
	s.mu.Lock()
	s.chosenModel = model
	s.model = model // what the next process is started with; its init line says what it resolved to
	s.mu.Unlock()
	s.emitStatus()
	return model, nil
}

func (s *Session) currentModel() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

// initAnswered keeps what an initialize answer says the model selector
// and the mode selector may offer.
func (s *Session) initAnswered(in stream.InitAnswer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.autoMode = in.AutoMode
	if len(in.Models) == 0 {
		return
	}
	s.models = s.models[:0]
	for _, m := range in.Models {
		s.models = append(s.models, ModelChoice{Value: m.Value, DisplayName: m.DisplayName, Description: m.Description})
	}
}
