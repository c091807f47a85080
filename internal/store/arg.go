package store

// The statuses a move leaves its game in, as statement arguments: boxed
// once, not at every move.
var (
	playingArg  any = string(StatusPlaying)
	finishedArg any = string(StatusFinished)
)

// StatusArg returns s as a statement argument (a string), boxed once for
// the statuses of every move.
func StatusArg(s Status) any {
	switch s {
	case StatusPlaying:
		return playingArg
	case StatusFinished:
		return finishedArg
	}
	return string(s)
}
