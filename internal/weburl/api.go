package weburl

import (
	"strconv"
	"strings"
)

// Href is the URL serializer.
func (u *URL) Href() string {
	var b strings.Builder
	b.WriteString(u.Scheme)
	b.WriteByte(':')
	if u.Host != nil {
		b.WriteString("//")
		if u.includesCredentials() {
			b.WriteString(u.Username)
			if u.Password != "" {
				b.WriteByte(':')
				b.WriteString(u.Password)
			}
			b.WriteByte('@')
		}
		b.WriteString(*u.Host)
		if u.Port >= 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(u.Port))
		}
	}
	if u.Host == nil && !u.Opaque && len(u.Path) > 1 && u.Path[0] == "" {
		b.WriteString("/.")
	}
	b.WriteString(u.Pathname())
	if u.Query != nil {
		b.WriteByte('?')
		b.WriteString(*u.Query)
	}
	if u.Fragment != nil {
		b.WriteByte('#')
		b.WriteString(*u.Fragment)
	}
	return b.String()
}

// Pathname is the URL path serializer.
func (u *URL) Pathname() string {
	if u.Opaque {
		return u.OpaquePath
	}
	var b strings.Builder
	for _, s := range u.Path {
		b.WriteByte('/')
		b.WriteString(s)
	}
	return b.String()
}

// Hostname is the serialized host, "" when null.
func (u *URL) Hostname() string {
	if u.Host == nil {
		return ""
	}
	return *u.Host
}

// HostPort is the host getter: hostname plus ":port" when there is a port.
func (u *URL) HostPort() string {
	if u.Host == nil {
		return ""
	}
	if u.Port < 0 {
		return *u.Host
	}
	return *u.Host + ":" + strconv.Itoa(u.Port)
}

// PortString is the port getter.
func (u *URL) PortString() string {
	if u.Port < 0 {
		return ""
	}
	return strconv.Itoa(u.Port)
}

// Search is the search getter: "" or "?" + query.
func (u *URL) Search() string {
	if u.Query == nil || *u.Query == "" {
		return ""
	}
	return "?" + *u.Query
}

// Hash is the hash getter: "" or "#" + fragment.
func (u *URL) Hash() string {
	if u.Fragment == nil || *u.Fragment == "" {
		return ""
	}
	return "#" + *u.Fragment
}

// Origin is the ASCII serialization of the URL's origin ("null" when opaque).
func (u *URL) Origin() string {
	switch u.Scheme {
	case "http", "https", "ws", "wss", "ftp":
		return u.Scheme + "://" + u.HostPort()
	case "blob":
		if inner, err := Parse(u.Pathname(), nil); err == nil && (inner.Scheme == "http" || inner.Scheme == "https") {
			return inner.Origin()
		}
	}
	return "null"
}

// Components is what the sandbox's URL object exposes.
type Components struct {
	Href     string `json:"href"`
	Origin   string `json:"origin"`
	Protocol string `json:"protocol"`
	Username string `json:"username"`
	Password string `json:"password"`
	Host     string `json:"host"`
	Hostname string `json:"hostname"`
	Port     string `json:"port"`
	Pathname string `json:"pathname"`
	Search   string `json:"search"`
	Hash     string `json:"hash"`
}

// Components returns every getter's value.
func (u *URL) Components() Components {
	return Components{
		Href: u.Href(), Origin: u.Origin(), Protocol: u.Scheme + ":",
		Username: u.Username, Password: u.Password,
		Host: u.HostPort(), Hostname: u.Hostname(), Port: u.PortString(),
		Pathname: u.Pathname(), Search: u.Search(), Hash: u.Hash(),
	}
}

func (u *URL) clone() *URL {
	c := *u
	c.Path = append([]string(nil), u.Path...)
	c.Host, c.Query, c.Fragment = copyp(u.Host), copyp(u.Query), copyp(u.Fragment)
	return &c
}

func (u *URL) cannotHaveCredentialsOrPort() bool {
	return u.Host == nil || *u.Host == "" || u.Scheme == "file"
}

// Set runs the setter of one URL attribute (href, protocol, username,
// password, host, hostname, port, pathname, search, hash) and returns the
// resulting URL. A value the setter ignores leaves the URL as it was; only
// href can fail (TypeError in the sandbox).
func (u *URL) Set(name, value string) (*URL, error) {
	if len(value) > MaxInputBytes {
		return nil, fail("the value is longer than 1 MiB")
	}
	if name == "href" {
		return Parse(value, nil)
	}
	c := u.clone()
	keep := func(r *URL, err error) (*URL, error) {
		if err != nil || r == nil {
			return u, nil
		}
		return r, nil
	}
	switch name {
	case "protocol":
		return keep(parse(value+":", nil, c, stSchemeStart))
	case "username":
		if c.cannotHaveCredentialsOrPort() {
			return u, nil
		}
		c.Username = percentEncodeString(value, inUserinfoSet)
		return c, nil
	case "password":
		if c.cannotHaveCredentialsOrPort() {
			return u, nil
		}
		c.Password = percentEncodeString(value, inUserinfoSet)
		return c, nil
	case "host":
		if c.Opaque {
			return u, nil
		}
		return keep(parse(value, nil, c, stHost))
	case "hostname":
		if c.Opaque {
			return u, nil
		}
		return keep(parse(value, nil, c, stHostname))
	case "port":
		if c.cannotHaveCredentialsOrPort() {
			return u, nil
		}
		if value == "" {
			c.Port = -1
			return c, nil
		}
		return keep(parse(value, nil, c, stPort))
	case "pathname":
		if c.Opaque {
			return u, nil
		}
		c.Path = nil
		return keep(parse(value, nil, c, stPathStart))
	case "search":
		if value == "" {
			c.Query = nil
			return c, nil
		}
		c.Query = strp("")
		return keep(parse(strings.TrimPrefix(value, "?"), nil, c, stQuery))
	case "hash":
		if value == "" {
			c.Fragment = nil
			return c, nil
		}
		c.Fragment = strp("")
		return keep(parse(strings.TrimPrefix(value, "#"), nil, c, stFragment))
	}
	return u, nil
}

// ParseForm is the application/x-www-form-urlencoded parser.
func ParseForm(s string) [][2]string {
	out := [][2]string{}
	for _, seq := range strings.Split(s, "&") {
		if seq == "" {
			continue
		}
		name, value, _ := strings.Cut(seq, "=")
		out = append(out, [2]string{formDecode(name), formDecode(value)})
	}
	return out
}

func formDecode(s string) string {
	s = strings.ReplaceAll(s, "+", " ")
	return string([]rune(string(PercentDecode(s)))) // each invalid byte → U+FFFD
}

// SerializeForm is the application/x-www-form-urlencoded serializer.
func SerializeForm(pairs [][2]string) string {
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(formEncode(p[0]))
		b.WriteByte('=')
		b.WriteString(formEncode(p[1]))
	}
	return b.String()
}

func formEncode(s string) string {
	var b strings.Builder
	for _, c := range strings.ToValidUTF8(s, "\uFFFD") {
		if c == ' ' {
			b.WriteByte('+')
			continue
		}
		b.WriteString(percentEncodeRune(c, inFormSet))
	}
	return b.String()
}
