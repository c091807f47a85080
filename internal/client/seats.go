package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// A SavedSeat is a seat a person holds at a table on a server: the token
// is the only proof that the seat is theirs, so the terminal keeps it to
// take the seat back after quitting, a crash or a reboot.
type SavedSeat struct {
	Server string    `json:"server"` // the Client's URL
	Game   string    `json:"game"`
	Seat   int       `json:"seat"`
	Name   string    `json:"name"`
	Token  string    `json:"token"`
	Saved  time.Time `json:"saved"`
	// Creator is the token that may cancel the table while it waits for
	// players; empty for a seat joined at another's table.
	Creator string `json:"creator,omitempty"`
}

// A SeatStore keeps saved seats in one file, readable by its owner only
// (mode 0600), each write atomic (a temporary file renamed over it). Its
// methods are safe for concurrent use, across processes too where the
// system locks files.
type SeatStore struct {
	// Path is the file; DefaultSeatStore puts it in the user's
	// configuration folder.
	Path string
}

// maxSaved bounds the seats kept: the oldest go first.
const maxSaved = 200

// storeMu serialises the read-modify-write of the store in this process;
// lockFile does so between processes.
var storeMu sync.Mutex

// DefaultSeatStore returns the store in the user's configuration folder
// (os.UserConfigDir), razzia/seats.json.
func DefaultSeatStore() (*SeatStore, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("no folder to keep your seats in: %w", err)
	}
	return &SeatStore{Path: filepath.Join(dir, "razzia", "seats.json")}, nil
}

// Check reports whether the store can keep a seat: its file, if there is
// one, is a list of seats, and its folder exists (it is made if need be)
// and takes new files. Nothing the store keeps changes. A seat joined on
// a server and then not kept would be lost with its token, so callers
// check before they join.
func (s *SeatStore) Check() error {
	storeMu.Lock()
	defer storeMu.Unlock()
	cannot := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the folder or file the person knows is named below
		}
		return fmt.Errorf("cannot keep your seats in %s: %w", s.Path, err)
	}
	if _, err := s.read(); err != nil {
		if _, ok := errors.AsType[*fs.PathError](err); ok {
			return cannot(err)
		}
		return err // a file that is not a list of seats, which it names
	}
	made := missingDirs(filepath.Dir(s.Path))
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return cannot(err)
	}
	// Nothing is kept yet: the folders made to try go again (Save makes
	// them when there is a seat to keep), so a command that fails after
	// the check leaves nothing behind.
	defer func() {
		for _, d := range made {
			_ = os.Remove(d)
		}
	}()
	f, err := os.CreateTemp(filepath.Dir(s.Path), ".seats-*.json")
	if err != nil {
		return cannot(err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// missingDirs returns dir and its parents up to the first that exists,
// the innermost first: the folders os.MkdirAll(dir) would make.
func missingDirs(dir string) []string {
	var missing []string
	for {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = append(missing, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			return missing
		}
		dir = parent
	}
}

// Seats returns the seats saved for the server, the newest first.
func (s *SeatStore) Seats(server string) ([]SavedSeat, error) {
	storeMu.Lock()
	defer storeMu.Unlock()
	all, err := s.read()
	if err != nil {
		return nil, err
	}
	var out []SavedSeat
	for _, x := range all {
		if x.Server == server {
			out = append(out, x)
		}
	}
	return out, nil
}

// GameSeats returns the seats saved for the game on the server, the
// newest first: one person may hold several seats at a table (two people
// at one computer, or one in two terminals).
func (s *SeatStore) GameSeats(server, game string) ([]SavedSeat, error) {
	seats, err := s.Seats(server)
	return slices.DeleteFunc(seats, func(x SavedSeat) bool { return x.Game != game }), err
}

// Save keeps the seat, replacing the one saved for the same seat of the
// same game.
func (s *SeatStore) Save(seat SavedSeat) error {
	return s.update(func(all []SavedSeat) []SavedSeat {
		all = slices.DeleteFunc(all, func(x SavedSeat) bool {
			return x.Server == seat.Server && x.Game == seat.Game && x.Seat == seat.Seat
		})
		all = append([]SavedSeat{seat}, all...)
		return all[:min(len(all), maxSaved)]
	})
}

// Forget drops the seats saved for the game on the server, if any.
func (s *SeatStore) Forget(server, game string) error {
	return s.update(func(all []SavedSeat) []SavedSeat {
		return slices.DeleteFunc(all, func(x SavedSeat) bool { return x.Server == server && x.Game == game })
	})
}

// Drop drops one saved seat, the one with the seat's token, and keeps the
// others saved for its game.
func (s *SeatStore) Drop(seat SavedSeat) error {
	return s.update(func(all []SavedSeat) []SavedSeat {
		return slices.DeleteFunc(all, func(x SavedSeat) bool {
			return x.Server == seat.Server && x.Game == seat.Game && x.Token == seat.Token
		})
	})
}

// update changes the saved seats under the locks.
func (s *SeatStore) update(change func([]SavedSeat) []SavedSeat) error {
	storeMu.Lock()
	defer storeMu.Unlock()
	var unlock func()
	var err error
	// Another process's Check may take away the empty folder it made
	// between the two: made again, it holds the lock file and stays.
	for range 3 {
		if err = os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
			return fmt.Errorf("keeping your seat: %w", err)
		}
		if unlock, err = lockFile(s.Path + ".lock"); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("keeping your seat: %w", err)
	}
	defer unlock()
	all, err := s.read()
	if err != nil {
		return err
	}
	return s.write(change(all))
}

// read reads the file; a missing file holds no seats.
func (s *SeatStore) read() ([]SavedSeat, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading your seats: %w", err)
	}
	var all []SavedSeat
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("reading your seats: %s is not the list of seats razzia writes: %v", s.Path, err)
	}
	return all, nil
}

// write replaces the file atomically.
func (s *SeatStore) write(all []SavedSeat) error {
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(s.Path), ".seats-*.json")
	if err != nil {
		return fmt.Errorf("keeping your seat: %w", err)
	}
	defer os.Remove(f.Name()) // after a failure; a no-op once renamed
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("keeping your seat: %w", err)
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("keeping your seat: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("keeping your seat: %w", err)
	}
	if err := os.Rename(f.Name(), s.Path); err != nil {
		return fmt.Errorf("keeping your seat: %w", err)
	}
	return nil
}
