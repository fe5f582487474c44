//go:build !unix

package analysis

const openNonBlock = 0
