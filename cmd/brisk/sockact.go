package main

import (
	"fmt"
	"net"
	"os"
	"strconv"
)

// systemd socket activation (sd_listen_fds(3)): a service started by a
// .socket unit inherits the listening sockets as descriptors 3, 4, ...;
// LISTEN_FDS says how many and LISTEN_PID which process they are for (a
// child that inherits the environment must not take them).
const (
	envSystemdFDs     = "LISTEN_FDS"
	envSystemdPID     = "LISTEN_PID"
	envSystemdFDNames = "LISTEN_FDNAMES"
)

// systemdListeners returns the listeners systemd passed to this
// process, nil when it passed none, and unsets the variables so that no
// child (a SIGHUP restart) takes them for its own.
func systemdListeners() ([]net.Listener, error) {
	pid, fds := os.Getenv(envSystemdPID), os.Getenv(envSystemdFDs)
	if pid == "" || fds == "" {
		return nil, nil
	}
	defer func() {
		os.Unsetenv(envSystemdPID)
		os.Unsetenv(envSystemdFDs)
		os.Unsetenv(envSystemdFDNames)
	}()
	if pid != strconv.Itoa(os.Getpid()) {
		return nil, nil // for another process
	}
	n, err := strconv.Atoi(fds)
	if err != nil || n <= 0 {
		return nil, fmt.Errorf("%s=%q: not a count of sockets", envSystemdFDs, fds)
	}
	var lns []net.Listener
	for i := range n {
		f := os.NewFile(uintptr(firstInherited+i), "systemd socket")
		ln, err := net.FileListener(f)
		f.Close()
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return nil, fmt.Errorf("socket %d from systemd (%s): %w; brisk serve takes stream sockets (ListenStream=)", firstInherited+i, envSystemdFDs, err)
		}
		lns = append(lns, ln)
	}
	return lns, nil
}
