package checker

import (
	"fmt"
	"os"
	"path/filepath"
)

// ExpandPluginArgs turns the paths a command was given into the plugin
// directories it works on, in order: a plugin.json named directly stands
// for its directory; a directory stands for every plugin at or below it
// (FindPlugins; with every, FindEveryPlugin, which skips nothing). A
// plugin reached twice (the same absolute path) comes once. ordinary holds
// the directories the ordinary walk (FindPlugins) finds, the ones a
// command may write into. A path with no plugin.json at or below it is an
// error naming it.
func ExpandPluginArgs(args []string, every bool) (dirs []string, ordinary map[string]bool, err error) {
	seen := map[string]bool{}
	ordinary = map[string]bool{}
	for _, d := range args {
		if fi, err := os.Stat(d); err == nil && !fi.IsDir() && filepath.Base(d) == ManifestName {
			d = filepath.Dir(d)
		}
		found, err := FindPlugins(d)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range found {
			ordinary[f] = true
		}
		if every {
			if found, err = FindEveryPlugin(d); err != nil {
				return nil, nil, err
			}
		}
		if len(found) == 0 {
			return nil, nil, fmt.Errorf("no plugin.json at or below %s", d)
		}
		for _, f := range found {
			abs, _ := filepath.Abs(f)
			if !seen[abs] {
				seen[abs] = true
				dirs = append(dirs, f)
			}
		}
	}
	return dirs, ordinary, nil
}
