package sandbox

import (
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/fastschema/qjs"
)

// The bridge, by concern: reading its arguments (bridgeArgs), dispatching
// an op (bridge), delivering host results into the sandbox (take, text),
// the timers and aborts (timer, cancel, clear), and writing an answer into
// the sandbox's memory (newString). The web globals' ops are webOp
// (web.go); log, call and done are the runState's (sandbox.go).

// bridgeArgs reads the bridge's arguments out of the sandbox, each once
// and only by an op that uses it (a read is two calls into wasm).
type bridgeArgs struct {
	args []*qjs.Value
	strs []*string
}

func newBridgeArgs(args []*qjs.Value) *bridgeArgs {
	return &bridgeArgs{args: args, strs: make([]*string, len(args))}
}

// arg is the i-th argument as a string; "" when there is none.
func (a *bridgeArgs) arg(i int) string {
	if i >= len(a.args) {
		return ""
	}
	if a.strs[i] == nil {
		s := a.args[i].String()
		a.strs[i] = &s
	}
	return *a.strs[i]
}

// bridge is the one Go function the prelude holds: bridge(op, a, b) → string.
func (sb *sandbox) bridge(this *qjs.This) (v *qjs.Value, err error) {
	c := this.Context()
	defer func() {
		// A Go panic here would become a JS error carrying the Go stack.
		if r := recover(); r != nil {
			v, err = nil, errors.New("host error")
		}
	}()
	sb.mu.Lock()
	rs := sb.run
	sb.mu.Unlock()
	args := newBridgeArgs(this.Args())
	arg := args.arg
	op := arg(0)
	if rs == nil && op == "random" {
		sb.mu.Lock()
		sb.stray++ // crypto random at a page's top level: no page image
		sb.mu.Unlock()
	}
	if s, ok := webOp(op, arg); ok {
		return sb.newString(c, []byte(s))
	}
	if rs == nil {
		// No run: a page image being made (pageimage.go) whose page
		// calls the host at its top level; it gets no image.
		sb.mu.Lock()
		sb.stray++
		sb.mu.Unlock()
		return sb.newString(c)
	}
	switch op {
	case "log":
		return sb.newString(c, []byte(rs.log(arg(1), arg(2))))
	case "input":
		if len(rs.job.Input) == 0 {
			return sb.newString(c, []byte("null"))
		}
		return sb.newString(c, rs.job.Input)
	case "done":
		rs.finish(arg(1), arg(2))
		return sb.newString(c)
	case "call":
		return sb.newString(c, []byte(rs.call(arg(1), arg(2))))
	case "sites": // does the job want the stack of each host call?
		if rs.job.CallSites {
			return sb.newString(c, []byte("1"))
		}
		return sb.newString(c)
	case "site": // the stack of the host call made next
		if rs.job.CallSites {
			rs.site = arg(1)
		}
		return sb.newString(c)
	case "take":
		return sb.newString(c, rs.take()...)
	case "text": // the text of the result taken last
		return sb.newString(c, rs.takeText())
	case "timer":
		rs.addTimer(arg(1), arg(2))
	case "cancel": // an AbortSignal fired: stop that host call
		rs.cancelCall(arg(1))
	case "clear":
		id, _ := strconv.Atoi(arg(1))
		rs.timers.remove(id)
	}
	return sb.newString(c)
}

// take is the answer to "take": the next completed host result as the
// parts of {"id":N,"v":…} (or its error frame), or nothing when none is
// ready or when this delivery has taken enough.
func (rs *runState) take() [][]byte {
	rs.mu.Lock()
	if len(rs.completed) == 0 {
		rs.mu.Unlock()
		return nil
	}
	r := rs.completed[0]
	if rs.delivered > 0 && rs.delivered+r.size() > maxDeliverBytes {
		// Enough for one delivery: the page's reactions run (and drop
		// what they do not keep) before the next results enter the
		// sandbox. Taken all at once, 8 responses of 16 MiB were all
		// alive in its memory until the reactions ran.
		rs.mu.Unlock()
		select {
		case rs.wake <- struct{}{}:
		default:
		}
		return nil
	}
	rs.delivered += r.size()
	rs.completed[0] = hostResult{} // the backing array must not keep a 16 MiB result
	rs.completed = rs.completed[1:]
	rs.queued -= r.size()
	// "l": nothing else is waiting, so the prelude does not ask again
	// (a result finished after this sends its own wake: one more
	// __sb.deliver()).
	last := ""
	if len(rs.completed) == 0 {
		last = `,"l":1`
	}
	rs.mu.Unlock()
	select {
	case rs.taken <- struct{}{}:
	default:
	}
	if r.v == nil {
		// r.frame is a JSON object: "l" goes before its closing brace
		return [][]byte{[]byte(r.frame[:len(r.frame)-1]), []byte(last + "}")}
	}
	end := last + "}"
	if r.text != nil {
		// The prelude sets the text as the property r.textName of
		// the value: a small one comes in this answer as a JSON
		// string ("x"; one bridge call less per fetch), a larger one
		// is taken next ("text") as it is.
		name, _ := json.Marshal(r.textName)
		if len(r.text) <= inlineTextBytes {
			x, _ := json.Marshal(string(r.text))
			end = last + `,"t":` + string(name) + `,"x":` + string(x) + "}"
		} else {
			end = last + `,"t":` + string(name) + "}"
			rs.mu.Lock()
			rs.text = r.text
			rs.mu.Unlock()
		}
	}
	// {"id":N,"v":…} written straight into the sandbox's memory: the
	// value is not copied into one more Go string first.
	return [][]byte{[]byte(`{"id":` + strconv.Itoa(r.id) + `,"v":`), r.v, []byte(end)}
}

// takeText is the answer to "text": the text of the result taken last,
// handed over once.
func (rs *runState) takeText() []byte {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	text := rs.text
	rs.text = nil
	return text
}

// addTimer schedules timer id after ms milliseconds (both as the page
// wrote them), never later than just past the deadline.
func (rs *runState) addTimer(id, ms string) {
	n, _ := strconv.Atoi(id)
	d, _ := strconv.ParseFloat(ms, 64)
	if limit := float64(rs.job.Timeout/time.Millisecond) + 1000; !(d <= limit) {
		d = limit // past the deadline anyway: the deadline ends the run first
	}
	rs.seq++
	now := time.Now()
	if rs.job.VirtualTime {
		if rs.vnow.IsZero() {
			rs.vnow = now
		}
		now = rs.vnow
	}
	heap.Push(&rs.timers, &timer{id: n, due: now.Add(time.Duration(d * float64(time.Millisecond))), seq: rs.seq})
}

// cancelCall stops host call id (an AbortSignal fired).
func (rs *runState) cancelCall(id string) {
	n, _ := strconv.Atoi(id)
	rs.mu.Lock()
	cancel := rs.cancels[n]
	rs.mu.Unlock()
	if cancel != nil {
		cancel(ErrAborted)
	}
}

// newString makes the JavaScript string of the parts joined, as the
// bridge's answer. qjs's Context.NewString copies a Go string once more
// and never frees the C copy it writes into the sandbox's memory: 16 MiB
// of a taken fetch response stayed there for the rest of the run, and
// the memory grew by that much with every response. Here the parts are
// written once into the sandbox's memory (a small answer into one buffer
// the sandbox keeps, a large one into a buffer from malloc, freed as soon
// as QuickJS has copied it into its string).
func (sb *sandbox) newString(c *qjs.Context, parts ...[]byte) (*qjs.Value, error) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	var ptr uint64
	if n < scratchBytes {
		if sb.scratch == 0 {
			sb.scratch = c.Malloc(scratchBytes)
		}
		ptr = sb.scratch
	} else {
		ptr = c.Malloc(uint64(n) + 1)
		if ptr != 0 {
			defer c.FreeHandle(ptr)
		}
	}
	if ptr == 0 {
		return nil, fmt.Errorf("out of memory: a host answer of %d bytes does not fit in the sandbox (capped at %d MiB)", n, DefaultMemoryCapBytes>>20)
	}
	buf, ok := sb.mod.Memory().Read(uint32(ptr), uint32(n)+1)
	if !ok {
		return nil, errors.New("host error")
	}
	at := 0
	for _, p := range parts {
		at += copy(buf[at:], p)
	}
	buf[n] = 0 // QJS_NewString reads a C string, as in qjs's NewString
	return c.Call("QJS_NewString", c.Raw(), ptr), nil
}

// scratchBytes is the size of the buffer a sandbox keeps for the
// bridge's small answers (no malloc and free per answer).
const scratchBytes = 4 << 10

// inlineTextBytes: a SetText text up to this size is handed over inside
// the take's JSON answer; a larger one by its own "text" call, made
// straight from its bytes (no JSON escaping or parsing of a big body).
const inlineTextBytes = 16 << 10
