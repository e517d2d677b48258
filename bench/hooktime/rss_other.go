//go:build !unix

package main

import "os"

// maxRSSKB is unknown (0) where getrusage does not exist.
func maxRSSKB(*os.ProcessState) int64 { return 0 }

// pageFaults is unknown (0) where getrusage does not exist.
func pageFaults(*os.ProcessState) int64 { return 0 }

// selfMaxRSSKB is unknown (0) where getrusage does not exist.
func selfMaxRSSKB() int64 { return 0 }
