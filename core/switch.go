package core

// Switch names the front end a run serves, so that a hint tells its user
// how to turn the fuzzy ladder on in that front end's terms: the CLI has a
// flag, an MCP tool an argument, the editor a setting.
type Switch int

const (
	SwitchFlag     Switch = iota // the CLI's --fuzzy (the default)
	SwitchArgument               // an MCP tool's fuzzy: true
	SwitchSetting                // the language server's fuzzy setting
)

// name is the switch itself: "--fuzzy", "fuzzy: true", "the fuzzy setting".
func (s Switch) name() string {
	switch s {
	case SwitchArgument:
		return "fuzzy: true"
	case SwitchSetting:
		return "the fuzzy setting"
	}
	return "--fuzzy"
}

// on is what to do to turn it on, after "or".
func (s Switch) on() string {
	switch s {
	case SwitchArgument:
		return "call again with fuzzy: true"
	case SwitchSetting:
		return "turn on the fuzzy setting"
	}
	return "run with --fuzzy"
}
