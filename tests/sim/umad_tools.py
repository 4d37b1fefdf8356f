#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""umad under rdma-sim: the user_mad.c ABI, errno for errno, the SA's
MCMemberRecord joins and leaves status for status, and Debian's
unmodified infiniband-diags (ibstat, ibaddr, smpquery, perfquery) against
exact values, the PMA's counters moved by a known perftest load.

Runs inside rdma-sim:  umad_tools.py DRIVER NDEV PORT
"""
import ctypes
import errno
import fcntl
import os
import select
import struct
import subprocess
import sys

from judge_util import check, eq, finish, model, run

DRIVER, NDEV, PORT = sys.argv[1], int(sys.argv[2]), sys.argv[3]
IB, PREFIX, GUID = model(DRIVER)

REG = 0xc01c1b01
UNREG = 0x40041b02
ENABLE_PKEY = 0x00001b03
REG2 = 0xc0281b04
HDR_OLD = 56
MAD = 256


def fails(fn, err, what):
    try:
        fn()
    except OSError as e:
        eq(errno.errorcode.get(e.errno), errno.errorcode[err], what)
        return
    check(False, '%s succeeded, want %s' % (what, errno.errorcode[err]))


def reg(fd, qpn, cls):
    buf = bytearray(struct.pack('<I16sBBB3sB', 0, b'\xff' * 16, qpn, cls, 1,
                                b'\0\0\0', 0))
    fcntl.ioctl(fd, REG, buf)
    return struct.unpack_from('<I', buf)[0]


def hdr(agent, lid=0, qpn=0, timeout=0):
    """ib_user_mad_hdr_old: id, status, timeout_ms, retries, length, then
    the big-endian qpn, qkey, lid."""
    h = struct.pack('<IIIII', agent, 0, timeout, 0, 0)
    h += struct.pack('>IIH', qpn, 0, lid)
    return h + bytes(HDR_OLD - len(h))


def smp_dr(attr, hops=0, mod=0):
    """A SubnGet of attr over a directed route of hops hops."""
    m = struct.pack('>BBBBHBBQHHI', 1, 0x81, 1, 1, 0, 0, hops, 0x1234, attr,
                    0, mod)
    m += bytes(8) + struct.pack('>HH', 0xffff, 0xffff)
    return m + bytes(MAD - len(m))


def abi():
    dev0 = '/dev/infiniband/umad0'
    st = os.stat(dev0)
    eq((os.major(st.st_rdev), os.minor(st.st_rdev)), (231, 0), 'umad0 dev')
    check(not os.path.exists('/dev/infiniband/umad%d' % NDEV),
          'umad%d exists with %d device(s)' % (NDEV, NDEV))
    if IB:
        st = os.stat('/dev/infiniband/issm0')
        eq(os.minor(st.st_rdev), 64, 'issm0 minor')
    else:
        check(not os.path.exists('/dev/infiniband/issm0'),
              'issm0 on an Ethernet port')
    for f, want in (('ibdev', PREFIX + '0'), ('port', '1'), ('dev', '231:0')):
        with open('/sys/class/infiniband_mad/umad0/' + f) as fh:
            eq(fh.read().strip(), want, 'umad0/' + f)
    fd = os.open(dev0, os.O_RDWR | os.O_NONBLOCK)
    fails(lambda: reg(fd, 2, 0x04), errno.EINVAL, 'agent on QP 2')
    if not IB:
        fails(lambda: reg(fd, 0, 0x81), errno.EPROTONOSUPPORT,
              'QP0 agent on Ethernet')
        os.close(fd)
        return
    fails(lambda: reg(fd, 1, 0x01), errno.EINVAL, 'SMI class on QP1')
    eq(reg(fd, 0, 0x81), 0, 'first agent id')
    eq(reg(fd, 1, 0x04), 1, 'second agent id')
    fails(lambda: fcntl.ioctl(fd, ENABLE_PKEY), errno.EINVAL,
          'ENABLE_PKEY after a registration')
    fails(lambda: fcntl.ioctl(fd, UNREG, struct.pack('<I', 7)), errno.EINVAL,
          'unregister a free id')
    fcntl.ioctl(fd, UNREG, struct.pack('<I', 1))
    fails(lambda: fcntl.ioctl(fd, 0x1b09), errno.ENOTTY, 'unknown ioctl')
    fails(lambda: os.write(fd, bytes(HDR_OLD + 35)), errno.EINVAL,
          'write shorter than header + 36')
    fails(lambda: os.write(fd, hdr(40) + smp_dr(0x11)), errno.EINVAL,
          'agent id 40')
    fails(lambda: os.write(fd, hdr(1) + smp_dr(0x11)), errno.EIO,
          'unregistered agent')
    fails(lambda: os.read(fd, 4096), errno.EAGAIN, 'read of nothing')
    fails(lambda: os.read(fd, HDR_OLD - 1), errno.EINVAL, 'short read')
    p = select.poll()
    p.register(fd, select.POLLIN)
    eq(p.poll(0), [], 'poll with nothing queued')
    eq(os.write(fd, hdr(0) + smp_dr(0x11)), HDR_OLD + MAD, 'write count')
    eq(p.poll(0), [(fd, select.POLLIN)], 'poll with an answer queued')
    fails(lambda: os.read(fd, 100), errno.EINVAL, 'read too short for it')
    # a copy-out that faults puts the packet back (still readable)
    libc = ctypes.CDLL(None, use_errno=True)
    eq(libc.read(fd, ctypes.c_void_p(8), 4096), -1, 'read to address 8')
    eq(errno.errorcode.get(ctypes.get_errno()), 'EFAULT', 'its errno')
    eq(p.poll(0), [(fd, select.POLLIN)], 'poll after the EFAULT read')
    r = os.read(fd, 4096)
    eq(len(r), HDR_OLD + MAD, 'answer length')
    aid, status, _, _, length = struct.unpack_from('<5I', r)
    lid = struct.unpack_from('>H', r, 28)[0]
    eq((aid, status, length, lid), (0, 0, HDR_OLD + MAD, 0xffff),
       'answer header (agent, status, length, DrSLID)')
    m = r[HDR_OLD:]
    eq((m[1], m[3], struct.unpack_from('>H', m, 4)[0]), (0x81, 0x81, 0x8000),
       'GetResp with the D bit')
    eq(struct.unpack_from('>Q', m, 8)[0], 0x1234, 'TID echoed')
    eq(struct.unpack_from('>Q', m, 64 + 12)[0], GUID, 'NodeInfo NodeGUID')
    # a route leaving the port: nobody answers, back with ETIMEDOUT
    os.write(fd, hdr(0, timeout=50) + smp_dr(0x11, hops=1))
    r = os.read(fd, 4096)
    eq(len(r), HDR_OLD + 24, 'timed-out packet: header and MAD header')
    eq(struct.unpack_from('<I', r, 4)[0], errno.ETIMEDOUT, 'timeout status')
    ids = [reg(fd, 1, 0x04) for _ in range(31)]
    eq(ids[-1], 31, 'agent ids up to 31')
    fails(lambda: reg(fd, 1, 0x04), errno.ENOMEM, 'agent 33')
    os.close(fd)
    fd = os.open(dev0, os.O_RDWR)
    buf = bytearray(struct.pack('<IIBBHI16sIB3s', 0, 1, 0x04, 1, 0, 0x10,
                                bytes(16), 0, 0, bytes(3)))
    fails(lambda: fcntl.ioctl(fd, REG2, buf), errno.EINVAL, 'REG2 flag 0x10')
    eq(struct.unpack_from('<I', buf, 12)[0], 1, 'REG2 flags written back')
    os.close(fd)


def fields(out):
    """'Name:.....value' lines of smpquery/perfquery as a dict."""
    d = {}
    for line in out.splitlines():
        k, sep, v = line.partition(':')
        if sep and not k.startswith('#'):
            d[k.strip()] = v.lstrip('.').strip()
    return d


def guid(i):
    return '0x%016x' % (GUID + i)


def tools():
    eq(run('ibstat', '-p').split(), [guid(i) for i in range(NDEV)],
       'ibstat -p')
    if not IB:
        return
    eq(run('ibaddr').strip(),
       'GID fe80::c42:a103:b3:d0e0 LID start 0x1 end 0x1', 'ibaddr')
    node = {'NodeType': 'Channel Adapter', 'NumPorts': '1',
            'SystemGuid': guid(0), 'Guid': guid(0), 'PortGuid': guid(0),
            'PartCap': '4', 'DevId': '0x101d', 'LocalPort': '1',
            'VendorId': '0x0002c9'}
    for how in (('1',), ('-D', '0')):
        got = fields(run('smpquery', 'nodeinfo', *how))
        eq({k: got.get(k) for k in node}, node, 'smpquery nodeinfo %s' %
           ' '.join(how))
    port = {'Lid': '1', 'SMLid': '1', 'CapMask': '0x2651e848',
            'LinkState': 'Active', 'PhysLinkState': 'LinkUp', 'LMC': '0',
            'LinkWidthActive': '4X', 'LinkSpeedExtActive': '25.78125 Gbps',
            'NeighborMTU': '4096'}
    got = fields(run('smpquery', 'portinfo', '1'))
    eq({k: got.get(k) for k in port}, port, 'smpquery portinfo')
    eq(run('smpquery', 'nodedesc', '1').split(':', 1)[1].lstrip('.').strip(),
       'rdma-sim mlx5_0', 'smpquery nodedesc')
    if NDEV > 1:  # the other HCA, reached by its LID over the fabric
        got = fields(run('smpquery', 'nodeinfo', '2'))
        eq(got.get('Guid'), guid(1), 'smpquery nodeinfo of LID 2')
        got = fields(run('smpquery', '-C', 'mlx5_1', 'portinfo', '2'))
        eq(got.get('Lid'), '2', 'smpquery -C mlx5_1 portinfo')
    # the PMA: an RDMA WRITE load of 200 x 4 KiB between two processes
    run('perfquery', '-R')
    srv = subprocess.Popen(['ib_write_bw', '-n', '200', '-s', '4096', '-p',
                            PORT], stdout=subprocess.DEVNULL)
    for _ in range(50):
        cli = subprocess.run(['ib_write_bw', '-n', '200', '-s', '4096', '-p',
                              PORT, 'localhost'], capture_output=True)
        if cli.returncode == 0:
            break
    eq(cli.returncode, 0, 'ib_write_bw client')
    eq(srv.wait(), 0, 'ib_write_bw server')
    pc = fields(run('perfquery'))
    # both ends are port 1 of mlx5_0: what leaves it arrives at it
    eq(pc.get('PortXmitData'), str(200 * 4096 // 4), 'PortXmitData')
    eq(pc.get('PortRcvData'), str(200 * 4096 // 4), 'PortRcvData')
    check(int(pc.get('PortXmitPkts', 0)) >= 200 and
          pc.get('PortXmitPkts') == pc.get('PortRcvPkts'),
          'packets: %s out, %s in' % (pc.get('PortXmitPkts'),
                                      pc.get('PortRcvPkts')))
    ext = fields(run('perfquery', '-x'))
    eq(ext.get('PortXmitData'), str(200 * 4096 // 4), 'extended XmitData')
    run('perfquery', '-R')
    eq(fields(run('perfquery')).get('PortXmitData'), '0', 'after reset')


SA_SET, SA_DELETE = 0x02, 0x15
# ComponentMask: MGID, PortGID, Q_Key, TClass, P_Key, SL, FlowLabel,
# JoinState (what a new group needs, perftest's mask)
CREATE = 1 | 2 | 4 | 1 << 6 | 1 << 7 | 1 << 12 | 1 << 13 | 1 << 16
MGID = bytes([0xff, 0x12, 0x40, 0x1b]) + bytes(11) + b'\x07'


def mcm(method, port_guid, comp=CREATE, qkey=0x11111111, join=1,
        mgid=MGID, prefix=0xfe80000000000000, tid=0x77):
    """An SA MAD (class 3, version 2) with an MCMemberRecord."""
    m = struct.pack('>BBBBHHQHHI', 1, 3, 2, method, 0, 0, tid, 0x38, 0, 0)
    m += bytes(12) + bytes(8) + struct.pack('>HHQ', 0, 0, comp)
    rec = mgid + struct.pack('>QQIHBBHBBIBB', prefix, port_guid, qkey, 0, 0,
                             0, 0xffff, 0, 0, 0, join, 0)
    m += rec
    return m + bytes(MAD - len(m))


def sa_ask(fd, agent, mad):
    """Send mad to the SM LID's QP1; the answer's (method, status, MLID,
    JoinState)."""
    os.write(fd, hdr(agent, lid=1, qpn=1, timeout=100) + mad)
    r = os.read(fd, 4096)[HDR_OLD:]
    eq(struct.unpack_from('>Q', r, 8)[0], struct.unpack_from('>Q', mad, 8)[0],
       'SA answer TID')
    return (r[3], struct.unpack_from('>H', r, 4)[0],
            struct.unpack_from('>H', r, 56 + 36)[0], r[56 + 48] & 0xf)


def sa():
    """MCMemberRecord joins and leaves at the SM LID, as opensm answers."""
    fd = os.open('/dev/infiniband/umad0', os.O_RDWR)
    a = reg(fd, 1, 0x03)
    g0, g1 = GUID, GUID + NDEV - 1  # port GUIDs of the first and last
    eq(sa_ask(fd, a, mcm(SA_SET, g0, comp=CREATE & ~4)),
       (0x81, 0x0600, 0, 1), 'create without Q_Key: INSUFFICIENT_COMPONENTS')
    eq(sa_ask(fd, a, mcm(SA_SET, g0, join=2)), (0x81, 0x0200, 0, 2),
       'create as a non-member: REQ_INVALID')
    eq(sa_ask(fd, a, mcm(SA_SET, g0, prefix=0xfec0 << 48))[1], 0x0500,
       'PortGID outside the subnet prefix: INVALID_GID')
    eq(sa_ask(fd, a, mcm(SA_SET, GUID + NDEV))[1], 0x0200,
       'PortGID of no port: REQ_INVALID')
    eq(sa_ask(fd, a, mcm(SA_SET, g0, mgid=bytes(16)))[1], 0x0200,
       'zero MGID: REQ_INVALID (SA-assigned MGIDs not modelled)')
    eq(sa_ask(fd, a, mcm(SA_DELETE, g0)), (0x95, 0x0200, 0, 1),
       'leave a group that does not exist: REQ_INVALID')
    eq(sa_ask(fd, a, mcm(SA_SET, g0)), (0x81, 0, 0xc000, 1),
       'create: GetResp, the first MLID')
    eq(sa_ask(fd, a, mcm(SA_SET, g1, qkey=5))[1], 0x0200,
       'join with another Q_Key: REQ_INVALID')
    eq(sa_ask(fd, a, mcm(SA_SET, g1, comp=1 | 2 | 1 << 16, join=4)),
       (0x81, 0, 0xc000, 4 | (1 if NDEV == 1 else 0)),
       'join (send-only), fields wildcarded: the same MLID')
    other = MGID[:15] + b'\x08'
    eq(sa_ask(fd, a, mcm(SA_SET, g0, mgid=other))[2], 0xc001,
       'a second group: the next MLID')
    eq(sa_ask(fd, a, mcm(SA_DELETE, g0, mgid=other)), (0x95, 0, 0xc001, 1),
       'leave it: DeleteResp')
    eq(sa_ask(fd, a, mcm(SA_DELETE, g0, mgid=other))[1], 0x0200,
       'leave it again: REQ_INVALID (it went with its last member)')
    if NDEV > 1:
        eq(sa_ask(fd, a, mcm(SA_DELETE, g1, join=1))[1], 0x0200,
           'leave a JoinState bit the port does not hold: REQ_INVALID')
    eq(sa_ask(fd, a, mcm(SA_DELETE, g1, join=4))[:2], (0x95, 0),
       'the send-only member leaves')
    eq(sa_ask(fd, a, mcm(SA_DELETE, g0))[:2], (0x95, 0), 'the creator leaves')
    eq(sa_ask(fd, a, mcm(SA_SET, g0, mgid=other))[2], 0xc000,
       'MLIDs of gone groups are free again')
    sa_ask(fd, a, mcm(SA_DELETE, g0, mgid=other))
    m = bytearray(mcm(SA_SET, g0))
    m[2] = 1
    eq(sa_ask(fd, a, bytes(m))[1], 0x0004, 'SA class version 1: bad version')
    eq(sa_ask(fd, a, mcm(0x01, g0))[:2], (0x81, 0x000c),
       'SubnAdmGet of MCMemberRecord: unsupported')
    # the SA answers multicast membership only: a PathRecord times out
    p = bytearray(mcm(0x01, g0))
    p[17] = 0x35
    os.write(fd, hdr(a, lid=1, qpn=1, timeout=50) + bytes(p))
    eq(struct.unpack_from('<I', os.read(fd, 4096), 4)[0], errno.ETIMEDOUT,
       'PathRecord: unanswered')
    os.close(fd)


abi()
if IB:
    sa()
tools()
finish('umad_tools %s %d device(s)' % (DRIVER, NDEV))
