//go:build unix

// fakeclaude is a scripted stand-in for the claude CLI, for fast tests of
// app/; package fakecli builds it (fakecli.Path), writes its scripts
// (fakecli.Env) and reads what it records (fakecli.Records). It records its
// argv, environment and every stdin line, and plays the script named by
// FAKECLI_SCRIPT_<run> or else FAKECLI_SCRIPT, one step a line:
//
//	print JSON       write JSON and a newline to stdout ($SID = the session id from argv)
//	wait SUBSTR      block until a stdin line containing SUBSTR arrives (exit 3 on EOF)
//	waiteof          block until stdin is closed
//	stderr TEXT      write TEXT to stderr
//	sleep DURATION   time.ParseDuration
//	big N            an assistant text line with N bytes of text
//	half TEXT        write TEXT without a newline, then exit 1 (dies mid-line)
//	exit N           exit with code N (exit 0 ends without a result line)
//	kill9self        die by SIGKILL
//	lines N          print N small JSON lines of an unknown type, at full speed
//	bigstderr N      write N bytes to stderr, in lines of 1,000 bytes
//	spawn CMD ARG…   start CMD in fakeclaude's process group with its stdout
//	                 and stderr, and never wait for it
//	spawnsetsid      start a copy of fakeclaude that calls setsid (leaving the
//	                 process group) and holds stdout and stderr for 60 s
//	stamp NAME       write the time (Unix nanoseconds) to $FAKECLI_DIR/NAME.<run>
//
// Runs are numbered 1, 2, … in start order. In $FAKECLI_DIR, run N writes
// argv.N, env.N and stdin.N, its pid in pid.N, and the pid of every process
// spawn and spawnsetsid start, one a line, in spawned.N.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "__hold" {
		// spawnsetsid's child: it holds the inherited stdout and stderr.
		time.Sleep(60 * time.Second)
		return
	}
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
	os.WriteFile(fmt.Sprintf("%s/pid.%d", dir, run), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600)
	spawned := func(pid int) {
		f, err := os.OpenFile(fmt.Sprintf("%s/spawned.%d", dir, run), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err == nil {
			fmt.Fprintln(f, pid)
			f.Close()
		}
	}
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
		fmt.Fprintln(os.Stderr, "fakeclaude:", err)
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
		case "kill9self":
			out.Flush()
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		case "lines":
			n, _ := strconv.Atoi(arg)
			for i := 0; i < n; i++ {
				fmt.Fprintf(out, `{"type":"fakecli_noise","n":%d,"session_id":"%s"}`+"\n", i, sid)
			}
			out.Flush()
		case "bigstderr":
			n, _ := strconv.Atoi(arg)
			w := bufio.NewWriter(os.Stderr)
			for i := 0; n > 0; i++ {
				l := fmt.Sprintf("stderr noise %d ", i)
				l += strings.Repeat("x", max(0, 999-len(l)))
				if len(l)+1 > n {
					l = l[:max(0, n-1)]
				}
				w.WriteString(l + "\n")
				n -= len(l) + 1
			}
			w.Flush()
		case "spawn":
			f := strings.Fields(arg)
			c := exec.Command(f[0], f[1:]...)
			c.Stdout, c.Stderr = os.Stdout, os.Stderr
			if err := c.Start(); err != nil {
				fmt.Fprintln(os.Stderr, "fakeclaude: spawn:", err)
				os.Exit(2)
			}
			spawned(c.Process.Pid)
		case "spawnsetsid":
			self, _ := os.Executable()
			c := exec.Command(self, "__hold")
			c.Stdout, c.Stderr = os.Stdout, os.Stderr
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := c.Start(); err != nil {
				fmt.Fprintln(os.Stderr, "fakeclaude: spawnsetsid:", err)
				os.Exit(2)
			}
			spawned(c.Process.Pid)
		case "stamp":
			os.WriteFile(fmt.Sprintf("%s/%s.%d", dir, arg, run), []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o600)
		}
	}
	out.Flush()
}
