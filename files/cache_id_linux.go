//go:build linux

package files

import (
	"io/fs"
	"syscall"
)

// fileID is what tells a file apart from another of the same size, mode
// and modification time: its device and inode (a file replaced by rename)
// and its status change time (a file rewritten with its times restored,
// as cp -p, rsync -t and tar do, or on a file system whose times are
// fixed, as a Nix store's).
type fileID struct {
	dev, ino            uint64
	ctimeSec, ctimeNsec int64
}

// idOf returns the fileID of fi, the zero fileID when its file system
// gives none.
func idOf(fi fs.FileInfo) fileID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	return fileID{uint64(st.Dev), uint64(st.Ino), int64(st.Ctim.Sec), int64(st.Ctim.Nsec)}
}
