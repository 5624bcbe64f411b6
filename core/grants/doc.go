// Package grants owns the Claude Code settings files Latch writes grants
// into (user settings and a project's settings.local.json) and Latch's own
// config file.
//
// Users keep hooks, env, plugins and hand-written rules in the same settings
// file, so edits never decode and re-encode it: gjson locates the edited
// array, sjson replaces it, and every other byte stays as it was. Writes are
// locked, re-read under the lock, atomic (temp file, fsync, rename), backed up
// and verified.
package grants
