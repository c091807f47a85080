//go:build !unix

package loadgen

// raiseFileLimit does nothing where there is no such limit to raise.
func raiseFileLimit(int) string { return "" }
