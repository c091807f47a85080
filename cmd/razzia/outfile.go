package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkWritable reports whether a file can be written at path, before
// hours of work that end in writing it: its directory exists and takes
// new files, and the file, if it is there, is a file that can be written.
// Nothing at path changes.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s is a folder, not a file", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return writeError(path, err)
		}
		f.Close()
	}
	// A temporary file proves that the directory takes the new file
	// writeFileAtomic renames into place.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return writeError(path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeFileAtomic writes data to path through a temporary file renamed
// into place, so that an interrupted write leaves the old file whole.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return writeError(path, err)
	}
	defer os.Remove(f.Name()) // after the rename, nothing to remove
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// writeError says why a file cannot be written at path, in words and by
// the names the person gave: not by the temporary file's.
func writeError(path string, err error) error {
	dir := filepath.Dir(path)
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: there is no folder %s", path, dir)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot write %s: permission denied (in the folder %s)", path, dir)
	case errors.As(err, &pe):
		return fmt.Errorf("cannot write %s: %w", path, pe.Err)
	}
	return fmt.Errorf("cannot write %s: %w", path, err)
}
