// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A stream of RDMA WRITEs between two processes (Debian's libibverbs and
 * libmlx5), the receiver a forked child with its own device context: every
 * WQE completes with success and the child reads back every byte. While
 * the sender streams, the sim leaves its UAR page writable and the engine
 * thread takes the WQEs from the doorbell records (hca_doorbell.c):
 * tests/sim/doorbell_stream.sh counts the passes the posts ran.
 *   stream N  N WRITEs of 4 KiB posted back to back while the receiver
 *             is stopped (no answer: the stream never pauses), then
 *             polled once it runs again.
 *   late      8 WRITEs as above; 20 ms later one more, which must complete
 *             within 10 s: run with RDMA_SIM_TEST_LATE_CLOSE=1000 it is
 *             rung while the engine thread is about to trap the page
 *             again and, if no pass looked after that, the thread sleeps
 *             for 30 s at a time.
 *   dereg     32 WRITEs of 64 KiB as above (half of them cannot be sent
 *             while the receiver is stopped: its ring is full), then the
 *             sender's MR deregistered, then the receiver runs: those sent
 *             before succeed, the next one completes with a local
 *             protection error, the rest are flushed.
 * Usage: debian_stream stream N | late | dereg
 */
#include <infiniband/verbs.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"
#include "rc_end.h"

#define MSG	   4096	 /* stream, late */
#define BIG	   65536 /* dereg: 32 of them do not fit the ring */
#define DEREG_N	   32
#define LATE_N	   8
#define LATE_BOUND 10.0 /* s: a lost doorbell waits many knob periods */
#define ACCESS	   (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE)

static uint32_t msg = MSG; /* bytes per WRITE */

/* What the child tells the parent: where to write. */
struct target {
	uint32_t qpn;
	uint16_t lid;
	uint32_t rkey;
	uint64_t addr;
};

static int link_to(struct rc_end *e, uint32_t qpn, uint16_t lid)
{
	struct qp_link l = qp_link_default(qpn);

	l.dlid = lid;
	return qp_link_up(e->qp, &l);
}

static uint8_t pattern(uint32_t msg, uint32_t off)
{
	return (uint8_t)(msg * 37 + off + 1);
}

static int full_read(int fd, void *p, size_t len)
{
	return read(fd, p, len) == (ssize_t)len ? 0 : -1;
}

/* The receiver: its QP up towards the parent's, then, when told how many
 * messages came, every byte checked. Exit status: 0 if all were right. */
static int child(int in, int out, uint32_t n)
{
	struct target t;
	struct rc_end e;
	uint32_t peer, m, k, bad = 0;

	if (rc_end_open(&e, "mlx5_0", (size_t)n * msg, ACCESS, 4))
		return 2;
	t.qpn = e.qp->qp_num;
	t.lid = e.lid;
	t.rkey = e.mr->rkey;
	t.addr = (uintptr_t)e.buf;
	if (write(out, &t, sizeof(t)) != sizeof(t) ||
	    full_read(in, &peer, sizeof(peer)) || link_to(&e, peer, e.lid) ||
	    write(out, "u", 1) != 1)
		return 3;
	if (full_read(in, &n, sizeof(n)))
		return 4;
	for (m = 0; m < n; m++)
		for (k = 0; k < msg; k++)
			bad += e.buf[(size_t)m * msg + k] != pattern(m, k);
	if (bad)
		fprintf(stderr, "FAIL child: %u bytes of %u messages wrong\n",
			bad, n);
	rc_end_close(&e);
	return bad ? 1 : 0;
}

static int post_write(struct rc_end *e, const struct target *t, uint32_t m)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf + (size_t)m * msg,
		.length = msg,
		.lkey = e->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = m,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma.remote_addr = t->addr + (size_t)m * msg,
		.wr.rdma.rkey = t->rkey,
	};
	struct ibv_send_wr *bad;

	return ibv_post_send(e->qp, &wr, &bad);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* n completions, each a success, within bound seconds (wall time). */
static void poll_n(struct rc_end *e, uint32_t n, double bound,
		   const char *what)
{
	double t0 = now_s();
	struct ibv_wc wc;
	uint32_t got = 0;
	int r;

	while (got < n && now_s() - t0 < bound) {
		r = ibv_poll_cq(e->cq, 1, &wc);
		if (r < 0)
			break;
		if (!r)
			continue;
		CHECK(wc.status == IBV_WC_SUCCESS &&
			      wc.opcode == IBV_WC_RDMA_WRITE,
		      "%s: wr %llu status %s opcode %d", what,
		      (unsigned long long)wc.wr_id,
		      ibv_wc_status_str(wc.status), wc.opcode);
		got++;
	}
	CHECK(got == n, "%s: %u of %u completions in %.1f s", what, got, n,
	      bound);
}

static void send_all(struct rc_end *e, const struct target *t, uint32_t from,
		     uint32_t to)
{
	uint32_t m;

	for (m = from; m < to; m++)
		CHECK(!post_write(e, t, m), "post %u", m);
}

/* Messages [0, n) while the receiver is stopped: none is answered
 * before the last is posted, so the page, once open, stays open for all
 * of them. With dereg, the sender's MR is deregistered before the
 * receiver runs again. */
static void burst(struct rc_end *e, const struct target *t, pid_t pid,
		  uint32_t n, int dereg)
{
	int st;

	CHECK(!kill(pid, SIGSTOP) && waitpid(pid, &st, WUNTRACED) == pid &&
		      WIFSTOPPED(st),
	      "stop the receiver");
	send_all(e, t, 0, n);
	usleep(50000);
	if (dereg) {
		CHECK(!ibv_dereg_mr(e->mr), "dereg the sender's MR");
		e->mr = NULL;
	}
	CHECK(!kill(pid, SIGCONT), "continue the receiver");
}

/*
 * After the dereg: what was sent before it succeeds, in order; the first
 * WQE sent after it meets no MR (local protection error) and the rest
 * are flushed. The number of successes.
 */
static uint32_t poll_dereg(struct rc_end *e, uint32_t n)
{
	uint32_t got = 0, ok = 0, prot = 0;
	double t0 = now_s();
	struct ibv_wc wc;
	int r;

	while (got < n && now_s() - t0 < 120) {
		r = ibv_poll_cq(e->cq, 1, &wc);
		if (r < 0)
			break;
		if (!r)
			continue;
		got++;
		if (!prot && wc.status == IBV_WC_SUCCESS && wc.wr_id == ok) {
			ok++;
			continue;
		}
		if (!prot && wc.status == IBV_WC_LOC_PROT_ERR &&
		    wc.wr_id == ok) {
			prot = 1;
			continue;
		}
		CHECK(prot && wc.status == IBV_WC_WR_FLUSH_ERR,
		      "wr %llu: status %s after %u successes%s",
		      (unsigned long long)wc.wr_id,
		      ibv_wc_status_str(wc.status), ok,
		      prot ? " and the protection error" : "");
	}
	CHECK(got == n, "dereg: %u of %u completions", got, n);
	CHECK(prot, "no local protection error after %u successes", ok);
	return ok;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int late = !strcmp(mode, "late"), dereg = !strcmp(mode, "dereg");
	uint32_t n = late    ? LATE_N + 1
		     : dereg ? DEREG_N
		     : argc == 3 && !strcmp(mode, "stream")
			     ? (uint32_t)atoi(argv[2])
			     : 0;
	int down[2], up[2], st;
	uint32_t m, k, good = n;
	struct target t;
	struct rc_end e;
	pid_t pid;
	char c;

	if (!n || n > 4096) {
		fprintf(stderr,
			"usage: debian_stream stream N | late | dereg\n");
		return 2;
	}
	if (dereg)
		msg = BIG;
	if (pipe(down) || pipe(up))
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid)
		_exit(child(down[0], up[1], n));
	if (rc_end_open(&e, "mlx5_0", (size_t)n * msg, ACCESS, n) ||
	    full_read(up[0], &t, sizeof(t)) ||
	    write(down[1], &e.qp->qp_num, 4) != 4 ||
	    link_to(&e, t.qpn, t.lid) || full_read(up[0], &c, 1)) {
		fprintf(stderr, "FAIL: the two QPs did not come up\n");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	for (m = 0; m < n; m++)
		for (k = 0; k < msg; k++)
			e.buf[(size_t)m * msg + k] = pattern(m, k);
	burst(&e, &t, pid, late ? LATE_N : n, dereg);
	if (dereg) {
		good = poll_dereg(&e, n);
	} else {
		poll_n(&e, late ? LATE_N : n, 120, "stream");
	}
	if (late) {
		usleep(20000);
		send_all(&e, &t, LATE_N, n);
		poll_n(&e, 1, LATE_BOUND, "late doorbell");
	}
	/* the receiver checks what completed with success */
	if (write(down[1], &good, sizeof(good)) != sizeof(good))
		failures++;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && !WEXITSTATUS(st), "the receiver: status %#x",
	      st);
	rc_end_close(&e);
	printf("%s %u WRITEs of %u bytes, %u succeeded: %s\n", mode, n, msg,
	       good, failures ? "FAILED" : "statuses right, bytes read back");
	return failures ? 1 : 0;
}
