package jspage

// Reading esbuild's metafile: which files a bundle holds, and where
// each import of a page was written.

import (
	"encoding/json"
	"path"
	"strings"
)

// metafile is what the analysis reads of esbuild's metafile: every
// input's imports, and every output's inputs.
type metafile struct {
	Inputs map[string]struct {
		Imports []struct {
			Path     string `json:"path"`
			Original string `json:"original"`
			External bool   `json:"external"`
		} `json:"imports"`
	} `json:"inputs"`
	Outputs map[string]struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	} `json:"outputs"`
}

func readMetafile(text string) *metafile {
	var meta metafile
	if json.Unmarshal([]byte(text), &meta) != nil {
		return &metafile{}
	}
	return &meta
}

// bundleOf returns the plugin files of the output named name (its base
// name).
func (meta *metafile) bundleOf(name string) map[string]bool {
	out := map[string]bool{}
	for p, o := range meta.Outputs {
		if path.Base(p) != name {
			continue
		}
		for in := range o.Inputs {
			if rel, ok := strings.CutPrefix(in, pluginNS+":"); ok {
				out[rel] = true
			}
		}
	}
	return out
}

// importSites reads the metafile: for every file the page's bundle
// holds, the page's own import through which it is reached (breadth
// first).
func (meta *metafile) importSites(entry, entrySrc string) map[string]Span {
	name := func(p string) string { return strings.TrimPrefix(p, pluginNS+":") }
	via := map[string]Span{}
	type item struct {
		rel string
		sp  Span
	}
	var queue []item
	for _, im := range meta.Inputs[pluginNS+":"+entry].Imports {
		if im.External {
			continue
		}
		sp, ok := specifierSpan(entrySrc, im.Original)
		if !ok {
			continue
		}
		if _, seen := via[name(im.Path)]; !seen {
			via[name(im.Path)] = sp
			queue = append(queue, item{name(im.Path), sp})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		for _, im := range meta.Inputs[pluginNS+":"+it.rel].Imports {
			r := name(im.Path)
			if _, seen := via[r]; seen || im.External || r == entry {
				continue
			}
			via[r] = it.sp
			queue = append(queue, item{r, it.sp})
		}
	}
	return via
}

// specifierSpan finds the quoted module specifier spec in the page.
func specifierSpan(src, spec string) (Span, bool) {
	for _, q := range []string{"\"", "'"} {
		if i := strings.Index(src, q+spec+q); i >= 0 {
			return Span{Start: i, End: i + len(spec) + 2}, true
		}
	}
	return Span{}, false
}
