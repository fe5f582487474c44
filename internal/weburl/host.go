package weburl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Percent-encode sets (URL Standard §1.3).
func inC0ControlSet(c rune) bool { return c < 0x20 || c > 0x7E }
func inFragmentSet(c rune) bool {
	return inC0ControlSet(c) || c == ' ' || c == '"' || c == '<' || c == '>' || c == '`'
}
func inQuerySet(c rune) bool {
	return inC0ControlSet(c) || c == ' ' || c == '"' || c == '#' || c == '<' || c == '>'
}
func inSpecialQuerySet(c rune) bool { return inQuerySet(c) || c == '\'' }
func inPathSet(c rune) bool {
	return inQuerySet(c) || c == '?' || c == '^' || c == '`' || c == '{' || c == '}'
}
func inUserinfoSet(c rune) bool {
	return inPathSet(c) || c == '/' || c == ':' || c == ';' || c == '=' || c == '@' || c == '[' || c == '\\' || c == ']' || c == '|'
}
func inComponentSet(c rune) bool {
	return inUserinfoSet(c) || c == '$' || c == '%' || c == '&' || c == '+' || c == ','
}

// InFormSet is the application/x-www-form-urlencoded percent-encode set.
func inFormSet(c rune) bool {
	return inComponentSet(c) || c == '!' || c == '\'' || c == '(' || c == ')' || c == '~'
}

const upperHex = "0123456789ABCDEF"

func percentEncodeRune(c rune, in func(rune) bool) string {
	if !in(c) {
		return string(c)
	}
	var b [4]byte
	n := utf8.EncodeRune(b[:], c)
	var sb strings.Builder
	for _, x := range b[:n] {
		sb.WriteByte('%')
		sb.WriteByte(upperHex[x>>4])
		sb.WriteByte(upperHex[x&15])
	}
	return sb.String()
}

func percentEncodeString(s string, in func(rune) bool) string {
	var sb strings.Builder
	for _, c := range s {
		sb.WriteString(percentEncodeRune(c, in))
	}
	return sb.String()
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 255
}

// PercentDecode decodes %XX sequences; a malformed one is kept as is.
func PercentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && unhex(s[i+1]) < 16 && unhex(s[i+2]) < 16 {
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		out = append(out, s[i])
	}
	return out
}

func isForbiddenHost(c rune) bool {
	switch c {
	case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

func isForbiddenDomain(c rune) bool {
	return isForbiddenHost(c) || c <= 0x1F || c == '%' || c == 0x7F
}

// parseHost is the host parser: the serialized host or a failure.
func parseHost(input string, notSpecial bool) (string, error) {
	if strings.HasPrefix(input, "[") {
		if !strings.HasSuffix(input, "]") {
			return "", fail("invalid IPv6 address (no closing ']')")
		}
		a, err := parseIPv6(input[1 : len(input)-1])
		if err != nil {
			return "", err
		}
		return "[" + serializeIPv6(a) + "]", nil
	}
	if notSpecial {
		for _, c := range input {
			if isForbiddenHost(c) {
				return "", fail(fmt.Sprintf("invalid host (forbidden code point %q)", c))
			}
		}
		return percentEncodeString(input, inC0ControlSet), nil
	}
	dec := PercentDecode(input)
	domain := strings.ToValidUTF8(strings.TrimPrefix(string(dec), "\uFEFF"), "\uFFFD")
	var b strings.Builder
	for _, c := range domain {
		if c >= 0x80 {
			return "", fail("invalid host: internationalized host names are not supported in the sandbox (write the xn-- form)")
		}
		if isForbiddenDomain(c) {
			return "", fail(fmt.Sprintf("invalid host (forbidden code point %q)", c))
		}
		b.WriteRune(toLower(c))
	}
	ascii := b.String()
	if ascii == "" {
		return "", fail("invalid URL (empty host)")
	}
	if endsInANumber(ascii) {
		v, err := parseIPv4(ascii)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d.%d.%d.%d", v>>24, v>>16&255, v>>8&255, v&255), nil
	}
	return ascii, nil
}

func endsInANumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	if len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X") {
		s, base = s[2:], 16
	} else if len(s) >= 2 && s[0] == '0' {
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, true
	}
	for i := 0; i < len(s); i++ {
		d := unhex(s[i])
		if d >= byte(base) {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return math.MaxUint64, true // valid digits, too large: fails below
	}
	return v, true
}

func parseIPv4(s string) (uint32, error) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return 0, fail("invalid IPv4 address (more than four parts)")
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return 0, fail("invalid IPv4 address")
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return 0, fail("invalid IPv4 address (a part is over 255)")
		}
	}
	last := nums[len(nums)-1]
	if last >= uint64(1)<<(8*(5-len(nums))) {
		return 0, fail("invalid IPv4 address (out of range)")
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return uint32(v), nil
}

func parseIPv6(s string) ([8]uint16, error) {
	var a [8]uint16
	in := []rune(s)
	piece, compress := 0, -1
	p := 0
	at := func(i int) rune {
		if i < len(in) {
			return in[i]
		}
		return -1
	}
	bad := fail("invalid IPv6 address")
	if at(p) == ':' {
		if at(p+1) != ':' {
			return a, bad
		}
		p += 2
		piece++
		compress = piece
	}
	for at(p) != -1 {
		if piece == 8 {
			return a, bad
		}
		if at(p) == ':' {
			if compress != -1 {
				return a, bad
			}
			p++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && at(p) != -1 && isASCIIHex(at(p)) {
			value = value*16 + int(unhex(byte(at(p))))
			p++
			length++
		}
		if at(p) == '.' {
			if length == 0 {
				return a, bad
			}
			p -= length
			if piece > 6 {
				return a, bad
			}
			seen := 0
			for at(p) != -1 {
				v4 := -1
				if seen > 0 {
					if at(p) == '.' && seen < 4 {
						p++
					} else {
						return a, bad
					}
				}
				if !isASCIIDigit(at(p)) {
					return a, bad
				}
				for isASCIIDigit(at(p)) {
					n := int(at(p) - '0')
					if v4 == -1 {
						v4 = n
					} else if v4 == 0 {
						return a, bad
					} else {
						v4 = v4*10 + n
					}
					if v4 > 255 {
						return a, bad
					}
					p++
				}
				a[piece] = a[piece]*0x100 + uint16(v4)
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			if seen != 4 {
				return a, bad
			}
			break
		} else if at(p) == ':' {
			p++
			if at(p) == -1 {
				return a, bad
			}
		} else if at(p) != -1 {
			return a, bad
		}
		a[piece] = uint16(value)
		piece++
	}
	if compress != -1 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			a[piece], a[compress+swaps-1] = a[compress+swaps-1], a[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return a, bad
	}
	return a, nil
}

func serializeIPv6(a [8]uint16) string {
	// the first longest run of two or more zero pieces is compressed
	best, bestLen := -1, 1
	for i := 0; i < 8; {
		if a[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && a[j] == 0 {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	var b strings.Builder
	ignore0 := false
	for i := 0; i < 8; i++ {
		if ignore0 && a[i] == 0 {
			continue
		}
		ignore0 = false
		if best == i {
			if i == 0 {
				b.WriteString("::")
			} else {
				b.WriteString(":")
			}
			ignore0 = true
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(a[i]), 16))
		if i != 7 {
			b.WriteByte(':')
		}
	}
	return b.String()
}
