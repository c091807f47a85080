//go:build unix

package sqlite

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on the database file, creating it if
// need be, and returns the file that holds the lock, or ErrInUse. flock
// and SQLite's own fcntl locks do not meet on Linux; the file stays open
// until the store's connections are closed, since closing any descriptor
// of the file would drop the fcntl locks SQLite holds through others.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("sqlite: database %s: %w", path, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("sqlite: database %s: %w", path, ErrInUse)
		}
		return nil, fmt.Errorf("sqlite: lock database %s: %w", path, err)
	}
	return f, nil
}
