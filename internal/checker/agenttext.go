package checker

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Instructions aimed at the model (docs/agent-text.md): the one set of
// patterns of text-instructions, also used by the review card to mark a
// description's lines. A tool's description should describe the tool; text
// that addresses the model reading it (tells it what to ignore, what to
// keep from the user, which tools to call first, where to send what it
// knows) is the tool-poisoning pattern of agent tool ecosystems.
//
// The patterns are tuned against a corpus of ordinary tool descriptions
// that must stay clean and poisoned ones that must be flagged
// (testdata/agenttext, TestInstructionCorpus): they look for the phrase
// that addresses the model, not for words like "always", "never" or
// "ignore" alone.

// Instruction classes.
const (
	InstrImperative  = "imperative"   // orders aimed at the assistant itself
	InstrSecrecy     = "secrecy"      // keeping something from the user
	InstrToolOrder   = "tool-order"   // ordering calls of other tools, feeding them the conversation
	InstrExfiltrate  = "exfiltration" // sending data to a URL, reading secrets
	InstrHiddenBlock = "hidden-block" // <IMPORTANT>, <!-- -->, chat-template markers
)

// Instruction is one phrase of a string that addresses the model: bytes
// [Start, End) of the string, its class and what the pattern looks for.
type Instruction struct {
	Start, End int
	Class      string
	What       string
}

type instrPattern struct {
	// any is the lower-case text of which one must occur for the pattern
	// to match at all: Go's regexp has no DFA, so a pattern is run only on
	// text that holds one of its words.
	any         []string
	class, what string
	re          *regexp.Regexp
}

// sentence is a run of text within one sentence: no newline, and a period
// only when something other than a space follows it (a URL, a version).
const sentence = `(?:[^.\n]|\.[^\s])`

func within(n string) string { return sentence + `*?` }

var instrPatterns = []instrPattern{
	// Imperatives aimed at the assistant.
	{[]string{"instruction", "prompt", "rules", "direction", "guideline", "guardrail", "polic", "constraint"}, InstrImperative, "tells the model to ignore its instructions",
		regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override|bypass|skip)\b` + within("40") + `\b(previous|prior|above|earlier|preceding|all|any|other|system|original|your|safety)\b` + within("20") + `\b(instructions?|prompts?|rules|directions|guidelines|guardrails|policies|constraints)\b`)},
	{[]string{"you are now", "from now on", "pretend", "your new", "your real", "your true", "new instruction", "system prompt"}, InstrImperative, "gives the model a new role or new instructions",
		regexp.MustCompile(`(?i)\b(you are now|from now on,? you|pretend (to be|you are)|your (new|real|true) (task|role|goal|instructions?|purpose)|new instructions?:|(reveal|print|repeat|output) (your|the) system prompt)\b`)},
	{[]string{"must", "shall", "required to", "has to", "have to", "should always", "should never", "will now", "needs to always"}, InstrImperative, "addresses the model by its role",
		regexp.MustCompile(`(?i)\b(AI|assistants?|the model|LLMs?|language models?|chatbots?|Claude|ChatGPT|GPT-?\d?|Copilot|Cursor)\b,?\s+(must|shall|is required to|are required to|has to|have to|should always|should never|will now|needs to always)\b`)},
	{[]string{"as an ai", "note to", "note for", "message to", "message for", "instruction", "dear ", "hey "}, InstrImperative, "addresses the model (\"as an AI\", \"note to the assistant\")",
		regexp.MustCompile(`(?i)\b(as an AI( assistant| model)?|(note|message|instructions?) (to|for) (the )?(AI|assistant|model|LLM|agent)|dear (AI|assistant|model|agent)|hey (AI|assistant|claude|model))\b`)},
	{[]string{"regardless of", "even if the user", "no matter what the user"}, InstrImperative, "orders the model to act regardless of the user",
		regexp.MustCompile(`(?i)\b(regardless of (what )?the user|even if the user (asks|says|refuses|objects)|no matter what the user)\b`)},
	// Secrecy towards the user.
	{[]string{"user"}, InstrSecrecy, "asks to keep something from the user",
		regexp.MustCompile(`(?i)\b(do not|don't|dont|never|must not|mustn't|should not|without)\b` + within("25") + `\b(tell|telling|inform|informing|mention|mentioning|reveal|revealing|disclose|disclosing|alert|alerting|show|showing|let)\b` + within("25") + `\b(the |your )?users?\b`)},
	{[]string{"secret", "hidden", "confidential", "private", "hide", "the user", "silently", "covertly", "quietly"}, InstrSecrecy, "asks to hide something from the user",
		regexp.MustCompile(`(?i)\b(keep|kept)\b` + within("25") + `\b(secret|hidden|confidential|private)\b\s+from\b|\bhide\b` + within("30") + `\bfrom (the |your )?users?\b|\bthe user (must|should|does|need|needs to) not (know|see|notice|find out|be (told|informed|aware))\b|\bwithout the user'?s? (knowing|knowledge|noticing|awareness|seeing)\b|\b(these|this|the following) (instructions?|steps?|directions?) (is|are) (secret|confidential|hidden|private)\b|\b(silently|secretly|covertly|quietly)\b` + within("30") + `\b(send|forward|copy|upload|call|include|add|exfiltrate|post)\b`)},
	// Ordering other tools and feeding them the conversation.
	{[]string{"before "}, InstrToolOrder, "orders a call before every answer",
		regexp.MustCompile(`(?i)\bbefore (answering|responding|replying|doing anything|you (answer|respond|reply|do anything)|(using|calling) any( other)? tools?|any other tools?|(every|each|any) (response|answer|reply|message|question|request|turn|conversation|task|tool call)s?)\b` + within("80") + `\b(call|use|invoke|run|execute)\b`)},
	{[]string{"other tool", "replaces", "supersedes", "overrides", "use this tool"}, InstrToolOrder, "tells the model to prefer this tool over others",
		regexp.MustCompile(`(?i)\b(do not|don't|never|instead of)\b` + within("15") + `\b(use|using|call|calling|invoke|invoking)\b` + within("15") + `\b(any |the )?other tools?\b|\b(this tool )?(replaces|supersedes|overrides) (the |all |any )?(other |built-in |existing )?([\w-]+ )?tools?\b|\b(always|only) use this tool\b`)},
	{[]string{"conversation", "chat", "dialog", "context", "previous messages", "system prompt", "instructions", "tool"}, InstrToolOrder, "asks for the conversation or the model's instructions",
		regexp.MustCompile(`(?i)\b(pass|send|include|append|attach|forward|copy|provide|put|add|paste|dump|summari[sz]e|collect)\w*\b` + within("40") + `\b((the |your )?(entire|full|whole|complete) (conversation|chat|dialog(ue)?|context)|(conversation|chat|message|dialog(ue)?) history|(all |the )?previous messages|(your |the )?system prompt|(your|the assistant'?s?) instructions|(the |all )?other tools'? (outputs?|results|descriptions)|tool descriptions)\b`)},
	// Exfiltration.
	{[]string{"://"}, InstrExfiltrate, "sends data to a URL",
		regexp.MustCompile(`(?i)\b(send|post|upload|forward|transmit|submit|report|exfiltrate|leak|beacon|mirror|copy|share|log)\w*\b` + within("80") + `\b(to|at|via)\s+<?(https?|wss?)://`)},
	{[]string{"ssh", "id_rsa", "id_ed25519", ".env", "passwd", "shadow", ".aws", "npmrc", "netrc", "git-credentials", "mcp.json", ".cursor", "claude_desktop", "keychain", "password", "api key", "secret", "credential", "private key", "session", "cookie"}, InstrExfiltrate, "reads secret files or credentials",
		regexp.MustCompile(`(?i)(~/\.ssh|\bid_rsa\b|\bid_ed25519\b|(^|[\s'"(])\.env\b|/etc/passwd|/etc/shadow|\.aws/credentials|\.npmrc|\.netrc|\.git-credentials|\bmcp\.json\b|\.cursor/|claude_desktop_config|\bkeychain\b)|\b(read|include|pass|send|collect|extract|gather|attach|copy|upload)\w*\b` + within("30") + `\b(the user'?s?|all|any|every|stored|saved) (passwords?|api keys?|secrets?|credentials|private keys?|session (tokens?|cookies)|cookies|ssh keys?)\b`)},
	{[]string{"://"}, InstrExfiltrate, "renders a URL that carries data (an image or a templated query)",
		regexp.MustCompile(`(?i)!\[[^\]]*\]\(\s*https?://[^)\s]*[?&][^)\s]*=|https?://[^\s)]*[?&=/](\{\{?|<|\$)\s*(conversation|chat|history|messages?|context|prompt|secrets?|tokens?|keys?|passwords?|summary|user_?data)\b`)},
	// Hidden-emphasis blocks.
	{[]string{"<"}, InstrHiddenBlock, "a tag aimed at the model (<IMPORTANT>, <SYSTEM>)",
		regexp.MustCompile(`(?i)<\s*/?\s*(important|system|instructions?|secret|hidden|admin|override|critical|sys|assistant|ai|prompt|note_to_\w+|hidden_\w+)\s*>`)},
	{[]string{"<!--"}, InstrHiddenBlock, "an HTML comment (hidden where Markdown is rendered)",
		regexp.MustCompile(`<!--`)},
	{[]string{"[inst", "[/inst", "[sys", "<|", "<<", "#"}, InstrHiddenBlock, "a chat-template marker",
		regexp.MustCompile(`(?i)\[/?(INST|SYS|SYSTEM)\]|<\|(im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id)\|>|<<\s*/?SYS\s*>>|(^|\n)\s*#{1,6}\s*(system( prompt)?|instructions? for (the )?(ai|assistant|model))\s*(\n|:|$)`)},
}

// maxInstructionText bounds the text the patterns run on (a description
// is a few hundred bytes; what lies past 16 KB of one is not read).
const maxInstructionText = 16 << 10

// Instructions returns the phrases of s that address the model, in order.
// The patterns run on s with its invisible characters removed (a
// zero-width space inside a word does not hide it); the findings are
// positions in s.
func Instructions(s string) []Instruction {
	if len(s) > maxInstructionText {
		s = s[:maxInstructionText]
	}
	runs := text.InvisibleRuns(s)
	if len(runs) == 0 {
		return instructions(s)
	}
	var b strings.Builder
	var idx []int // byte of the cleaned text → byte of s
	last := 0
	keep := func(from, to int) {
		for i := from; i < to; i++ {
			idx = append(idx, i)
		}
		b.WriteString(s[from:to])
	}
	for _, r := range runs {
		keep(last, r.Start)
		last = r.End
	}
	keep(last, len(s))
	idx = append(idx, len(s))
	found := instructions(b.String())
	for i := range found {
		st, en := found[i].Start, found[i].End
		found[i].Start = idx[st]
		if en > st {
			found[i].End = idx[en-1] + 1 // the end of the last byte kept
		} else {
			found[i].End = found[i].Start
		}
	}
	return found
}

func instructions(s string) []Instruction {
	var out []Instruction
	lower := asciiLower(s)
	for _, p := range instrPatterns {
		hit := false
		for _, w := range p.any {
			if strings.Contains(lower, w) {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		for _, m := range p.re.FindAllStringIndex(s, 4) {
			out = append(out, Instruction{Start: m[0], End: m[1], Class: p.class, What: p.what})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// AgentText is a function tool's agent-facing text: its description, a
// newline, and its input schema as JSON with the keys of every object
// sorted and no whitespace between tokens (so re-indenting plugin.json
// or reordering keys changes nothing); "" for an absent schema.
func AgentText(description string, schema any) string {
	s := ""
	if schema != nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(schema); err == nil { // maps: keys sorted
			s = strings.TrimSuffix(b.String(), "\n")
		}
	}
	return description + "\n" + s
}

// NativeAgentText is a native tool's agent-facing text: its description,
// a newline, and the source of its inputJsonSchema with the whitespace
// and comments outside string literals removed (the module is read, not
// run, so its keys stay in source order).
func NativeAgentText(description, schemaSource string) string {
	return description + "\n" + compactJS(schemaSource)
}

// compactJS drops whitespace and comments outside string and template
// literals.
func compactJS(s string) string {
	var b strings.Builder
	prevWord := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			b.WriteString(s[i:j])
			i, prevWord = j, false
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 4
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j := i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
				j++
			}
			// Keep one space between two words ("new Date"), none elsewhere.
			if prevWord && j < len(s) && isWordByte(s[j]) {
				b.WriteByte(' ')
			}
			i = j
		default:
			b.WriteByte(c)
			prevWord = isWordByte(c)
			i++
		}
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// ToolAgentText is the agent text of a manifest tool (AgentText of its
// description and input schema).
func ToolAgentText(t *Tool) string {
	desc, _ := Str(t.Description)
	var schema any
	if t.InputSchema != nil {
		schema = t.InputSchema.Interface()
	}
	return AgentText(desc, schema)
}

// asciiLower lowers A–Z only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
