//go:build !unix

package bot

import "time"

// cpuTime is unknown here: the benchmarks leave out their CPU metrics.
func cpuTime() time.Duration { return 0 }
