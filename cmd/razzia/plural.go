package main

import "fmt"

// plural writes n with the English noun of its number, "1 game" or "2
// games": the command-line reports are in English.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
