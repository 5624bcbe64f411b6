// fakecli is a scripted stand-in for the claude CLI, for fast tests of app/.
// It records its argv and every stdin line, and plays the script named by
// FAKECLI_SCRIPT, one step a line:
//
//	print JSON       write JSON and a newline to stdout ($SID = the session id from argv)
//	wait SUBSTR      block until a stdin line containing SUBSTR arrives (exit 3 on EOF)
//	waiteof          block until stdin is closed
//	stderr TEXT      write TEXT to stderr
//	sleep DURATION   time.ParseDuration
//	big N            an assistant text line with N bytes of text
//	half TEXT        write TEXT without a newline, then exit 1 (dies mid-line)
//	exit N
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	dir := os.Getenv("FAKECLI_DIR")
	// Runs are numbered so a test can tell a resumed process from the first.
	run := 1
	for ; ; run++ {
		if _, err := os.Stat(fmt.Sprintf("%s/argv.%d", dir, run)); os.IsNotExist(err) {
			break
		}
	}
	os.WriteFile(fmt.Sprintf("%s/argv.%d", dir, run), []byte(strings.Join(os.Args[1:], "\n")+"\n"), 0o600)
	os.WriteFile(fmt.Sprintf("%s/env.%d", dir, run), []byte(strings.Join(os.Environ(), "\n")+"\n"), 0o600)
	sid := "00000000-0000-4000-8000-000000000000"
	for _, a := range os.Args[1:] {
		if v, ok := strings.CutPrefix(a, "--session-id="); ok {
			sid = v
		}
		if v, ok := strings.CutPrefix(a, "--resume="); ok {
			sid = v
		}
	}

	rec, _ := os.OpenFile(fmt.Sprintf("%s/stdin.%d", dir, run), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	var mu sync.Mutex
	var lines []string
	eof := false
	cond := sync.NewCond(&mu)
	go func() {
		r := bufio.NewReader(os.Stdin)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				rec.WriteString(l)
				mu.Lock()
				lines = append(lines, l)
				cond.Broadcast()
				mu.Unlock()
			}
			if err != nil {
				mu.Lock()
				eof = true
				cond.Broadcast()
				mu.Unlock()
				return
			}
		}
	}()

	script := os.Getenv("FAKECLI_SCRIPT")
	if s := os.Getenv(fmt.Sprintf("FAKECLI_SCRIPT_%d", run)); s != "" {
		script = s
	}
	data, err := os.ReadFile(script)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakecli:", err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	next := 0
	for _, step := range strings.Split(string(data), "\n") {
		verb, arg, _ := strings.Cut(strings.TrimSpace(step), " ")
		arg = strings.ReplaceAll(arg, "$SID", sid)
		switch verb {
		case "print":
			out.WriteString(arg + "\n")
			out.Flush()
		case "wait":
			mu.Lock()
			for {
				found := false
				for next < len(lines) {
					l := lines[next]
					next++
					if strings.Contains(l, arg) {
						found = true
						break
					}
				}
				if found {
					break
				}
				if eof {
					mu.Unlock()
					os.Exit(3)
				}
				cond.Wait()
			}
			mu.Unlock()
		case "waiteof":
			mu.Lock()
			for !eof {
				cond.Wait()
			}
			mu.Unlock()
		case "stderr":
			fmt.Fprintln(os.Stderr, arg)
		case "sleep":
			d, _ := time.ParseDuration(arg)
			time.Sleep(d)
		case "big":
			n, _ := strconv.Atoi(arg)
			fmt.Fprintf(out, `{"type":"assistant","message":{"id":"msg_big","role":"assistant","content":[{"type":"text","text":"%s"}]},"session_id":"%s"}`+"\n", strings.Repeat("x", n), sid)
			out.Flush()
		case "half":
			out.WriteString(arg)
			out.Flush()
			os.Exit(1)
		case "exit":
			n, _ := strconv.Atoi(arg)
			out.Flush()
			os.Exit(n)
		}
	}
	out.Flush()
}
