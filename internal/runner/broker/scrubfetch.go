package broker

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/plugin-lsp/plugin-lsp/internal/scrub"
)

// scrubResponse is the response the tool gets (internal/scrub): the body and
// the header names and values scrubbed, unless the provider already did
// it with this run's scrubber as it read them; a Content-Length that says
// the scrubbed length when scrubbing changed it; the body's share of the
// run's budget resized to it. A body that scrubbing made longer than the
// cap is refused, as one the server sent too long.
func (b *Broker) scrubResponse(ctx context.Context, resp *Response, url, shownURL, host string, max int64) (*Response, *Error) {
	clean := &Response{Status: resp.Status, Header: resp.Header, Body: resp.Body, URL: b.Redact(url), hold: resp.hold}
	if b.scrub != nil && resp.scrubbed != b.scrub {
		clean.Body = b.scrub.Bytes(resp.Body)
		clean.Header = b.scrub.Header(resp.Header)
	}
	if int64(len(clean.Body)) > max {
		return nil, &Error{Reason: ReasonTooLarge, Message: fmt.Sprintf("fetch %s failed: the response body is larger than %d bytes once its secrets are replaced (fetchMaxBytes of %s)", shownURL, max, host)}
	}
	received := resp.received
	if received == 0 {
		received = int64(len(resp.Body))
	}
	if n := int64(len(clean.Body)); n != received {
		if _, ok := clean.Header["Content-Length"]; ok {
			if b.scrub == nil || resp.scrubbed == b.scrub {
				clean.Header = clean.Header.Clone() // the provider's own map
			}
			clean.Header.Set("Content-Length", strconv.FormatInt(n, 10))
		}
	}
	if h := clean.hold; h != nil {
		if n := int64(len(clean.Body)); n < h.n {
			h.resize(n)
		} else if err := h.grow(ctx, n-h.n); err != nil {
			return nil, &Error{Reason: ReasonCancelled, Message: fmt.Sprintf("fetch %s stopped: %v", shownURL, err)}
		}
	}
	return clean, nil
}

// readScrubbed reads at most max+1 bytes of r, stopping when ctx ends,
// through a scrub stream, one read at a time: the raw body never sits
// whole in memory, and a secret split between two reads is still found
// (the stream keeps its window back). It returns the scrubbed body (nil
// when it went over max) and the number of bytes read.
func readScrubbed(ctx context.Context, r io.Reader, size, max int64, s *scrub.Scrubber) ([]byte, int64, error) {
	st := s.Stream(int(max), int(min(size, max)))
	chunk := make([]byte, min(256<<10, max+1))
	total := int64(0)
	for total <= max {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		n, err := r.Read(chunk[:min(int64(len(chunk)), max+1-total)])
		st.Write(chunk[:n])
		total += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, total, err
		}
	}
	return st.Close(), total, nil
}
