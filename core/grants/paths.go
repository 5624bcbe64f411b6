package grants

import (
	"errors"
	"os"
	"path/filepath"
)

// UserSettingsPath is Claude Code's user settings file:
// $CLAUDE_CONFIG_DIR/settings.json when that variable is set, else
// ~/.claude/settings.json.
func UserSettingsPath() (string, error) {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, "settings.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	if home == "" {
		return "", errors.New("no home folder to find ~/.claude/settings.json in")
	}
	return filepath.Join(home, ".claude", "settings.json"), nil
}

// ProjectSettingsPath is the project-local settings file of workdir, which
// Claude Code keeps out of version control.
func ProjectSettingsPath(workdir string) string {
	return filepath.Join(workdir, ".claude", "settings.local.json")
}

// ProjectStore is the store of workdir's settings.local.json. A project
// grant stays in the project: when .claude or the file is a link that
// resolves outside workdir, ProjectStore refuses, and so does every later
// write should such a link appear.
func ProjectStore(workdir string) (*Store, error) {
	if workdir == "" {
		return nil, errors.New("no project folder given")
	}
	abs, err := filepath.Abs(workdir)
	if err != nil {
		return nil, err
	}
	s := &Store{Path: ProjectSettingsPath(abs), root: resolveExisting(abs)}
	if err := escape(s.root, s.Path); err != nil {
		return nil, err
	}
	return s, nil
}
