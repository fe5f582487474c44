package jspage

import (
	"github.com/dop251/goja/ast"

	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

func (a *analyzer) stringToken(s *ast.StringLiteral) {
	if kind := jslex.CredentialKind(s.Value.String()); kind != "" {
		a.page.Tokens = append(a.page.Tokens, Token{Span: a.tokSpan(s), Kind: kind})
	}
}

func (a *analyzer) templateTokens(t *ast.TemplateLiteral) {
	for _, el := range t.Elements {
		if kind := jslex.CredentialKind(el.Parsed.String()); kind != "" {
			a.page.Tokens = append(a.page.Tokens, Token{Span: a.tokSpan(t), Kind: kind})
			return
		}
	}
}
