package esm

import "github.com/dop251/goja/unistring"

func unistr(s string) unistring.String { return unistring.NewFromString(s) }
