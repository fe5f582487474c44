//go:build !unix

package checker

const openNonBlock = 0
