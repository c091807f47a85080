package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

const versionSynopsis = `
usage: razzia version

Version prints razzia's version: the module version it was built as
("devel" when built from a work tree, as by go build or go run in the
repository), the revision of the source and its time, "modified" when
the work tree had changes, and the Go version and platform. "razzia
--version" is the same.
`

// runVersion is the version command.
func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("version")
	rest, status, done := parseFlags(fs, versionSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if len(rest) > 0 {
		return usageError(stderr, fs, versionSynopsis, "unexpected argument %q", rest[0])
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionLine(info))
	return 0
}

// versionLine describes a build in one line, such as
//
//	razzia v1.2.0 (revision 0123456789ab, 2026-11-23T18:00:00Z) go1.26 linux/amd64
//
// A build without information (nil) or from a work tree is "devel".
func versionLine(info *debug.BuildInfo) string {
	version := "devel"
	var vcs []string
	goVersion := runtime.Version()
	if info != nil {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
		goVersion = info.GoVersion
		settings := buildSettings(info)
		if rev := settings["vcs.revision"]; rev != "" {
			vcs = append(vcs, "revision "+rev[:min(len(rev), 12)])
		}
		if t := settings["vcs.time"]; t != "" {
			vcs = append(vcs, t)
		}
		if settings["vcs.modified"] == "true" {
			vcs = append(vcs, "modified")
		}
	}
	line := "razzia " + version
	if len(vcs) > 0 {
		line += " (" + strings.Join(vcs, ", ") + ")"
	}
	return fmt.Sprintf("%s %s %s/%s", line, goVersion, runtime.GOOS, runtime.GOARCH)
}

// buildSettings returns a build's settings (vcs.revision, ...) by key.
func buildSettings(info *debug.BuildInfo) map[string]string {
	settings := map[string]string{}
	if info != nil {
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
	}
	return settings
}

// buildRevision names the source a build was made from, for a log to
// tell its own work from another build's: the revision's first 12 hex
// digits, "+modified" when the work tree had changes, else the module's
// version, "" when unknown.
func buildRevision(info *debug.BuildInfo) string {
	settings := buildSettings(info)
	rev := settings["vcs.revision"]
	if rev == "" {
		if info != nil && info.Main.Version != "(devel)" {
			return info.Main.Version
		}
		return ""
	}
	rev = rev[:min(len(rev), 12)]
	if settings["vcs.modified"] == "true" {
		rev += "+modified"
	}
	return rev
}

// buildName says which build a buildRevision names, for people.
func buildName(rev string) string {
	if rev == "" {
		return "an unknown build"
	}
	return "the build of revision " + rev
}
