package main

import (
	"errors"
	"fmt"
	"strings"
)

// errHelp is -h/--help on any command.
var errHelp = errors.New("help requested")

// scanArgs is the one argument scanner of the commands. Flags may come
// before, between and after the positional arguments ("--format json",
// "--format=json", "-format json"); "--" ends the flags; "-" is
// positional. bools take no value; valued take one, given with "=" or as
// the next argument. set receives each flag with its value ("" for a
// bool); -h/--help returns errHelp.
func scanArgs(args []string, bools, valued []string, set func(name, val string) error) (pos []string, err error) {
	in := func(list []string, s string) bool {
		for _, x := range list {
			if x == s {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(pos, args[i+1:]...), nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name == "h" || name == "help":
			return pos, errHelp
		case in(bools, name):
			if hasVal {
				return pos, fmt.Errorf("flag --%s takes no value", name)
			}
		case in(valued, name):
			if !hasVal {
				if i+1 >= len(args) {
					return pos, fmt.Errorf("flag --%s needs a value", name)
				}
				i++
				val = args[i]
			}
		default:
			return pos, fmt.Errorf("unknown flag %s", a)
		}
		if err := set(name, val); err != nil {
			return pos, err
		}
	}
	return pos, nil
}
