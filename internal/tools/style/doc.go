// Package style holds checks of the project's style rules over the whole
// repository that no compiler makes, such as comments that say why, not
// which issue or commit a thing came from. It has no code: its tests are
// the checks.
package style
