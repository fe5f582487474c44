package ide

// The commands the editor features invoke (workspace/executeCommand): the
// one definition of their names; internal/lsp runs them.
const (
	CommandRunTool        = "plugin.runTool"
	CommandRunTests       = "plugin.runTests"
	CommandAcceptSnapshot = "plugin.acceptSnapshot"
	CommandGenerateTypes  = "plugin.generateTypes"
	CommandPin            = "plugin.pin"
	CommandReviewCard     = "plugin.reviewCard"
)

// Command is what a lens or a code action invokes: a command's name, its
// title and its one argument object, with the file as a plugin-relative
// path (lsp sends it as the file's URI).
type Command struct {
	Title string
	Name  string
	// File is the argument's "uri" (plugin-relative); Dir, when true, the
	// argument is the plugin directory ("dir") instead.
	File string
	Dir  bool
	Tool string // "tool" (plugin.runTool)
	Case string // "name" (plugin.runTests, plugin.acceptSnapshot): one test case
}
