package native

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// redisServer is a loopback server speaking enough RESP for the example:
// PING, GET, SET.
func redisServer(t *testing.T) (port int, calls func() []string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	data := map[string]string{}
	var seen []string
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					args, err := readCommand(r)
					if err != nil {
						return
					}
					mu.Lock()
					seen = append(seen, strings.Join(args, " "))
					var reply string
					switch strings.ToUpper(args[0]) {
					case "PING":
						reply = "+PONG\r\n"
					case "SET":
						data[args[1]] = args[2]
						reply = "+OK\r\n"
					case "GET":
						if v, ok := data[args[1]]; ok {
							reply = fmt.Sprintf("$%d\r\n%s\r\n", len(v), v)
						} else {
							reply = "$-1\r\n"
						}
					default:
						reply = "-ERR unknown command '" + args[0] + "'\r\n"
					}
					mu.Unlock()
					if _, err := io.WriteString(c, reply); err != nil {
						return
					}
				}
			}()
		}
	}()
	_, p, _ := net.SplitHostPort(l.Addr().String())
	port, _ = strconv.Atoi(p)
	return port, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
}

func readCommand(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(line, "*") {
		return nil, fmt.Errorf("not an array: %q", line)
	}
	n, _ := strconv.Atoi(strings.TrimSpace(line[1:]))
	var out []string
	for range n {
		h, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		size, _ := strconv.Atoi(strings.TrimSpace(h[1:]))
		b := make([]byte, size+2)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		out = append(out, string(b[:size]))
	}
	return out, nil
}

// TestRedisExampleRealMode: the example's RESP client against a loopback
// server, with real providers: SET then GET round-trips, every connection
// went through and is recorded, needsApproval follows the input.
func TestRedisExampleRealMode(t *testing.T) {
	needNode(t)
	port, calls := redisServer(t)
	p, err := checker.Load(checker.OSFS{}, "../../../testdata/example/redis")
	if err != nil {
		t.Fatal(err)
	}
	in := func(s string) json.RawMessage {
		return json.RawMessage(strings.Replace(s, "PORT", strconv.Itoa(port), 1))
	}
	rec := run(t, Request{Plugin: p, Tool: "redis.set", Providers: "real", Input: in(`{"key": "note:1", "value": "buy milk", "overwrite": true, "port": PORT}`)})
	if !rec.OK || string(rec.Result) != `{"key":"note:1","stored":true}` || rec.Approval == nil || !rec.Approval.Required {
		t.Fatalf("set: %s", js(rec))
	}
	rec = run(t, Request{Plugin: p, Tool: "redis.get", Providers: "real", Input: in(`{"key": "note:1", "port": PORT}`)})
	if !rec.OK || string(rec.Result) != `{"key":"note:1","value":"buy milk"}` || rec.Approval.Required {
		t.Fatalf("get: %s", js(rec))
	}
	if len(rec.Connections) != 1 || rec.Connections[0] != (record.Connection{Protocol: "tcp", Host: "127.0.0.1", Port: port}) {
		t.Errorf("connections: %+v", rec.Connections)
	}
	if len(rec.Logs) != 1 || rec.Logs[0].Message != "GET note:1: 8 characters" {
		t.Errorf("logs: %+v", rec.Logs)
	}
	rec = run(t, Request{Plugin: p, Tool: "redis.get", Providers: "real", Input: in(`{"key": "nope", "port": PORT}`)})
	if !rec.OK || string(rec.Result) != `{"key":"nope","value":null}` {
		t.Fatalf("get missing: %s", js(rec))
	}
	rec = run(t, Request{Plugin: p, Tool: "redis.ping", Providers: "real", Input: in(`{"port": PORT}`)})
	if !rec.OK || string(rec.Result) != `{"reply":"PONG"}` {
		t.Fatalf("ping: %s", js(rec))
	}
	if got := strings.Join(calls(), "|"); got != "SET note:1 buy milk|GET note:1|GET nope|PING" {
		t.Errorf("the server saw %q", got)
	}
}
