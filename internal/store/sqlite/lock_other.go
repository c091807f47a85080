//go:build !unix

package sqlite

import "os"

// lockFile takes no lock where flock(2) is missing: Options.Sole then
// changes nothing, and the leases of an earlier process run out as they
// would on several nodes.
func lockFile(string) (*os.File, error) { return nil, nil }
