//go:build !linux

package puzzler

// lowerThread does nothing where a thread's priority is not its own: the
// search still waits for the bots before each position (Options.Spare).
func lowerThread() error { return nil }
