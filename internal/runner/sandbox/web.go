package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/plugin-lsp/plugin-lsp/internal/weburl"
)

// maxFormBytes bounds the form data one URLSearchParams call hands to Go
// (the host must not allocate what a page asks without limit).
const maxFormBytes = 1 << 20

// webOp answers the bridge operations of the web globals (web.js). They
// are pure functions of their arguments: no run state, no authority.
// arg reads the bridge's i-th argument out of the sandbox; it is called
// only for a web op (each read is a few calls into wasm).
func webOp(op string, arg func(int) string) (string, bool) {
	switch op {
	case "url.parse", "url.set", "random", "form.parse", "form.serialize":
	default:
		return "", false
	}
	a, b := arg(1), arg(2)
	switch op {
	case "url.parse": // a: JSON [input] or [input, base]
		if len(a) > 3*weburl.MaxInputBytes {
			return errJSON("the URL is longer than 1 MiB"), true
		}
		var args []string
		if json.Unmarshal([]byte(a), &args) != nil || len(args) == 0 || len(args) > 2 {
			return errJSON("bad arguments"), true
		}
		var base *weburl.URL
		if len(args) == 2 {
			var err error
			if base, err = weburl.Parse(args[1], nil); err != nil {
				return errJSON("the base " + quoteShort(args[1]) + " does not parse: " + err.Error()), true
			}
		}
		u, err := weburl.Parse(args[0], base)
		if err != nil {
			return errJSON(quoteShort(args[0]) + ": " + err.Error()), true
		}
		return componentsJSON(u), true
	case "url.set": // a: href, b: JSON [name, value]
		if len(a) > weburl.MaxInputBytes || len(b) > 3*weburl.MaxInputBytes {
			return errJSON("the value is longer than 1 MiB"), true
		}
		var nv []string
		u, err := weburl.Parse(a, nil)
		if err != nil || json.Unmarshal([]byte(b), &nv) != nil || len(nv) != 2 {
			return errJSON("bad arguments"), true
		}
		u2, err := u.Set(nv[0], nv[1])
		if err != nil {
			return errJSON(quoteShort(nv[1]) + ": " + err.Error()), true
		}
		return componentsJSON(u2), true
	case "random": // a: byte count (crypto.getRandomValues caps it at 65536)
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 || n > 65536 {
			return "", true
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return hex.EncodeToString(b), true
	case "form.parse":
		if len(a) > maxFormBytes {
			return errJSON(fmt.Sprintf("URLSearchParams: more than %d bytes of form data", maxFormBytes)), true
		}
		out, _ := json.Marshal(weburl.ParseForm(a))
		return string(out), true
	case "form.serialize":
		var pairs [][2]string
		if len(a) > maxFormBytes || json.Unmarshal([]byte(a), &pairs) != nil {
			return errJSON(fmt.Sprintf("URLSearchParams: more than %d bytes of form data", maxFormBytes)), true
		}
		out, _ := json.Marshal(weburl.SerializeForm(pairs))
		return string(out), true
	}
	return "", false
}

func componentsJSON(u *weburl.URL) string {
	out, _ := json.Marshal(u.Components())
	return string(out)
}

// quoteShort quotes s for an error message, cut to 200 bytes.
func quoteShort(s string) string {
	if len(s) > 200 {
		s = truncateUTF8(s, 200) + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}
