package presence

// An EventKind says how a person's presence changed.
type EventKind int

// The kinds of event.
const (
	Online  EventKind = iota // came online (was offline)
	Changed                  // online still, doing something else or away
	// Lingering: their last connection closed; Offline follows after
	// Linger unless one opens again (Changed then).
	Lingering
	Offline // gone: their Linger passed without a connection
)

// An Event is a change of a person's presence, as every node tells it.
// The Status of a Lingering or Offline event names the person's Key only.
type Event struct {
	Kind   EventKind
	Status Status
}

// A Feed delivers the events of every person, from when it is made, in
// order. A reader too slow to keep up loses events and is told so by
// Lost, after which it should read People again.
type Feed struct {
	s    *Service
	c    chan Event
	lost chan struct{}
	want func(Event) bool // nil: every event
}

// feedBuffer is how many events a Feed holds for its reader.
const feedBuffer = 64

// Feed starts a feed of events; Close ends it.
func (s *Service) Feed() *Feed { return s.FeedOf(nil) }

// FeedOf starts a feed of the events want accepts (nil: every event):
// the others cost its reader nothing. want is called with the service's
// lock held: it must be quick and call nothing of the service.
func (s *Service) FeedOf(want func(Event) bool) *Feed {
	f := &Feed{s: s, c: make(chan Event, feedBuffer), lost: make(chan struct{}, 1), want: want}
	s.mu.Lock()
	s.feeds[f] = struct{}{}
	s.mu.Unlock()
	return f
}

// Events returns the channel of events.
func (f *Feed) Events() <-chan Event { return f.c }

// Lost receives when events were dropped because the reader fell behind.
func (f *Feed) Lost() <-chan struct{} { return f.lost }

// Close ends the feed.
func (f *Feed) Close() {
	f.s.mu.Lock()
	delete(f.s.feeds, f)
	f.s.mu.Unlock()
}

// tell sends e to every feed; s.mu is held.
func (s *Service) tell(e Event) {
	s.version.Add(1)
	for f := range s.feeds {
		if f.want != nil && !f.want(e) {
			continue
		}
		select {
		case f.c <- e:
		default:
			select {
			case f.lost <- struct{}{}:
			default:
			}
		}
	}
}
