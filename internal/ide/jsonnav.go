package ide

import (
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// nodeAt returns the deepest node whose key or value contains off. A
// container cut short by a syntax error contains everything up to its end,
// so completion works in a document being typed.
func nodeAt(root *jsonpos.Node, off int) *jsonpos.Node {
	if root == nil || !contains(root, off) {
		return nil
	}
	n := root
	for {
		var next *jsonpos.Node
		for _, c := range n.Children() {
			if contains(c, off) {
				next = c
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}

func contains(n *jsonpos.Node, off int) bool {
	if n.KeySpan.End > n.KeySpan.Start && n.KeySpan.Start <= off && off <= n.KeySpan.End {
		return true
	}
	if n.Kind == jsonpos.Object || n.Kind == jsonpos.Array {
		// inside the brackets (or up to the end of a truncated one)
		// a container cut short by a syntax error runs to the end: what
		// follows the error did not parse, and is where the author types
		return n.Span.Start < off && (off < n.Span.End || !n.Closed)
	}
	return n.Span.Start <= off && off <= n.Span.End
}

// onKey reports whether off is on n's key rather than its value.
func onKey(n *jsonpos.Node, off int) bool {
	return n != nil && n.KeySpan.End > n.KeySpan.Start && n.KeySpan.Start <= off && off <= n.KeySpan.End
}

// pathOfNode returns the keys and indexes from the root to n, indexes as
// "[]" (the shape, not the position, is what callers match on).
func pathOfNode(n *jsonpos.Node) []string {
	var rev []string
	for ; n != nil && n.Parent != nil; n = n.Parent {
		if n.Parent.Kind == jsonpos.Object {
			rev = append(rev, n.Key)
		} else {
			rev = append(rev, "[]")
		}
	}
	out := make([]string, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}

// ancestor returns the ancestor of n (or n) whose parent is the array at
// path under the root: e.g. the tool object of any node inside it.
func ancestorAt(n *jsonpos.Node, depth int) *jsonpos.Node {
	var chain []*jsonpos.Node
	for m := n; m != nil; m = m.Parent {
		chain = append(chain, m)
	}
	// chain[len-1] is the root (depth 0)
	i := len(chain) - 1 - depth
	if i < 0 || i >= len(chain) {
		return nil
	}
	return chain[i]
}

func matchPath(p []string, pattern ...string) bool {
	if len(p) < len(pattern) {
		return false
	}
	for i, s := range pattern {
		if s != "*" && p[i] != s {
			return false
		}
	}
	return true
}
