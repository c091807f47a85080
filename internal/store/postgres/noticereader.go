package postgres

import (
	"bytes"
	"encoding/binary"
	"io"
	"slices"
)

// A noticeReader stands between the LISTEN connection and pgx's reading
// of it: it takes the notifications (NotificationResponse messages) out
// of the bytes read and hands each to hear, and gives pgx the other
// messages as they came. Every node hears several notifications a move,
// and pgx would decode each into two byte slices, two strings and a
// Notification; here a notification costs its payload's string, its
// channel being one of the few listened to.
//
// It reads the protocol's framing only (a type byte and a length that
// counts itself), which every message after the TLS negotiation has; a
// notification it cannot read is passed on for pgx to decode (the
// connection's OnNotification hears it then).
type noticeReader struct {
	r    io.Reader
	hear func(channel, payload string)

	buf   []byte // read from r and not yet handed on: buf[at:]
	at    int
	pass  int // the bytes of the current message still to hand to pgx
	names map[string]string
	empty int // reads in a row that returned nothing
}

// newNoticeReader returns a reader of r that hands the notifications in
// it to hear.
func newNoticeReader(r io.Reader, hear func(channel, payload string)) *noticeReader {
	return &noticeReader{r: r, hear: hear, buf: make([]byte, 0, 8192), names: map[string]string{}}
}

// notificationType is the type byte of a NotificationResponse, and
// maxNotification the longest one read here: PostgreSQL's payloads take
// less than 8000 bytes, its channels' names 63.
const (
	notificationType = 'A'
	maxNotification  = 1 << 14
)

// Read implements io.Reader: the messages that are not notifications.
func (n *noticeReader) Read(p []byte) (int, error) {
	for {
		if n.pass > 0 && n.at < len(n.buf) {
			c := copy(p, n.buf[n.at:min(len(n.buf), n.at+n.pass)])
			n.at += c
			n.pass -= c
			return c, nil
		}
		if n.pass == 0 && n.take() {
			continue
		}
		if err := n.fill(); err != nil {
			return 0, err
		}
	}
}

// take hands on or passes the message at the start of what was read, if
// its length is known: a notification read whole is heard, and true
// means that something was taken. Otherwise more must be read.
func (n *noticeReader) take() bool {
	head := n.buf[n.at:]
	if len(head) < 5 {
		return false
	}
	size := int(binary.BigEndian.Uint32(head[1:5])) // counting itself
	if head[0] != notificationType || size < 4 || size > maxNotification {
		n.pass = 1 + max(size, 4) // pgx's to judge
		return true
	}
	if len(head) < 1+size {
		return false
	}
	if !n.notify(head[5 : 1+size]) {
		n.pass = 1 + size
		return true
	}
	n.at += 1 + size
	return true
}

// notify hears the body of a notification: the sender's process id, the
// channel and the payload, each string ended by a zero byte. False if it
// is not one.
func (n *noticeReader) notify(body []byte) bool {
	if len(body) < 4 {
		return false
	}
	body = body[4:]
	end := bytes.IndexByte(body, 0)
	if end < 0 || len(body) == end+1 || body[len(body)-1] != 0 || bytes.IndexByte(body[end+1:len(body)-1], 0) >= 0 {
		return false
	}
	channel, ok := n.names[string(body[:end])]
	if !ok {
		channel = string(body[:end])
		if len(n.names) < 64 { // the channels listened to: a few
			n.names[channel] = channel
		}
	}
	n.hear(channel, string(body[end+1:len(body)-1]))
	return true
}

// fill reads more from r, keeping what was read and not handed on.
func (n *noticeReader) fill() error {
	if n.at == len(n.buf) {
		n.buf, n.at = n.buf[:0], 0
	} else if n.at > 0 && len(n.buf) == cap(n.buf) {
		kept := copy(n.buf, n.buf[n.at:])
		n.buf, n.at = n.buf[:kept], 0
	}
	if len(n.buf) == cap(n.buf) {
		n.buf = slices.Grow(n.buf, cap(n.buf)) // a notification longer than the buffer
	}
	m, err := n.r.Read(n.buf[len(n.buf):cap(n.buf)])
	n.buf = n.buf[:len(n.buf)+m]
	switch {
	case m > 0:
		n.empty = 0
		return nil // an error comes again at the next read
	case err != nil:
		return err
	}
	if n.empty++; n.empty >= 100 { // as bufio gives up
		return io.ErrNoProgress
	}
	return nil
}
