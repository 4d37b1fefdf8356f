// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB

// A Go program (no cgo: statically linked, every system call made by the
// Go runtime's own code) speaking the uverbs ABI by hand. Under rdma-sim
// it must see the simulated world as a C program does: sysfs, the uverbs
// device as a character device, GET_CONTEXT and QUERY_PORT ioctls, a
// QUERY_DEVICE write command, the uverbs fd's EINVAL and ESPIPE.
package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

const (
	rdmaVerbsIoctl = 0xc0181b01 // _IOWR(0x1b, 1, ib_uverbs_ioctl_hdr)
	objDevice      = 0
	methQueryPort  = 2
	methGetContext = 3
	attrUhwIn      = 0x1000
	attrUhwOut     = 0x1001
	attrMandatory  = 1
	driverMlx5     = 1
	cmdQueryDevice = 1
)

var failures int

func check(ok bool, format string, args ...interface{}) {
	if !ok {
		fmt.Fprintf(os.Stderr, "FAIL "+format+"\n", args...)
		failures++
	}
}

// cmd is an ib_uverbs_ioctl_hdr followed by its attributes.
type cmd struct {
	buf []byte
}

func newCmd(object, method uint16) *cmd {
	c := &cmd{buf: make([]byte, 24, 24+16*8)}
	binary.LittleEndian.PutUint16(c.buf[2:], object)
	binary.LittleEndian.PutUint16(c.buf[4:], method)
	binary.LittleEndian.PutUint32(c.buf[16:], driverMlx5)
	return c
}

func (c *cmd) attr(id, length uint16, data uint64) {
	a := make([]byte, 16)
	binary.LittleEndian.PutUint16(a[0:], id)
	binary.LittleEndian.PutUint16(a[2:], length)
	binary.LittleEndian.PutUint16(a[4:], attrMandatory)
	binary.LittleEndian.PutUint64(a[8:], data)
	c.buf = append(c.buf, a...)
	binary.LittleEndian.PutUint16(c.buf[0:], uint16(len(c.buf)))
	binary.LittleEndian.PutUint16(c.buf[6:], uint16((len(c.buf)-24)/16))
}

func ptr(b []byte) uint64 {
	return uint64(uintptr(unsafe.Pointer(&b[0])))
}

func (c *cmd) call(fd int) syscall.Errno {
	_, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd),
		rdmaVerbsIoctl, uintptr(unsafe.Pointer(&c.buf[0])))
	return e
}

func main() {
	node, err := os.ReadFile("/sys/class/infiniband/mlx5_0/node_type")
	check(err == nil && string(node) == "1: CA\n", "node_type %q %v",
		node, err)

	fd, err := syscall.Open("/dev/infiniband/uverbs0",
		syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	check(err == nil, "open uverbs0: %v", err)
	if err != nil {
		os.Exit(1)
	}
	var st syscall.Stat_t
	err = syscall.Fstat(fd, &st)
	check(err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFCHR &&
		st.Rdev == 231<<8|192, "fstat: mode %o rdev %#x %v",
		st.Mode, st.Rdev, err)

	// mlx5 v2 request: 16 bfregs, 4 low latency, CQE v1, 4K UAR, DYN_UAR
	req := make([]byte, 32)
	binary.LittleEndian.PutUint32(req[0:], 16)
	binary.LittleEndian.PutUint32(req[4:], 4)
	req[16] = 1
	binary.LittleEndian.PutUint32(req[24:], 1|2)
	resp := make([]byte, 72)
	vecs := make([]byte, 4)
	support := make([]byte, 8)
	c := newCmd(objDevice, methGetContext)
	c.attr(0, 4, ptr(vecs))
	c.attr(1, 8, ptr(support))
	c.attr(attrUhwIn, 32, ptr(req))
	c.attr(attrUhwOut, 72, ptr(resp))
	e := c.call(fd)
	check(e == 0 && resp[44] == 1, "GET_CONTEXT: %v cqe_version %d",
		e, resp[44])

	port := make([]byte, 48)
	c = newCmd(objDevice, methQueryPort)
	c.attr(0, 8, 1)
	c.attr(1, 48, ptr(port))
	e = c.call(fd)
	check(e == 0 && port[26] == 4, "QUERY_PORT: %v state %d", e, port[26])

	dev := make([]byte, 176)
	w := make([]byte, 16)
	binary.LittleEndian.PutUint32(w[0:], cmdQueryDevice)
	binary.LittleEndian.PutUint16(w[4:], 16/4)
	binary.LittleEndian.PutUint16(w[6:], 176/4)
	binary.LittleEndian.PutUint64(w[8:], ptr(dev))
	n, err := syscall.Write(fd, w)
	vendor := binary.LittleEndian.Uint32(dev[40:])
	check(n == 16 && err == nil && vendor == 0x02c9 && dev[171] == 1,
		"QUERY_DEVICE: %d %v vendor %#x ports %d", n, err, vendor,
		dev[171])

	_, err = syscall.Read(fd, make([]byte, 8))
	check(err == syscall.EINVAL, "read uverbs: %v, want EINVAL", err)
	_, err = syscall.Seek(fd, 0, 0)
	check(err == syscall.ESPIPE, "lseek uverbs: %v, want ESPIPE", err)
	check(syscall.Close(fd) == nil, "close")

	if failures > 0 {
		fmt.Fprintf(os.Stderr, "go_verbs: %d failure(s)\n", failures)
		os.Exit(1)
	}
	fmt.Println("go_verbs: all checks passed")
}
