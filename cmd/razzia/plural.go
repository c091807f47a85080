package main

import "github.com/razziagame/razzia/internal/textreport"

// plural is textreport.Plural: the command's reports are in English.
func plural(n int, one, many string) string { return textreport.Plural(n, one, many) }
