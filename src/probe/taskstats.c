// SPDX-License-Identifier: GPL-2.0-only
/*
 * taskstats over generic netlink, with libmnl. See taskstats.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "probe/source.h"
#include "probe/taskstats.h"
#include "util.h"

struct ts_listener {
	struct mnl_socket *nl;
	uint16_t family;
	char cpumask[32];
};

/* Enough for 16,000 exits of about 450 bytes each, with room to spare. */
#define RCVBUF (32 << 20)

/* A request: the netlink and genetlink headers in buf. */
static struct nlmsghdr *request(char *buf, uint16_t type, uint8_t cmd,
				uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static int family_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    !mnl_attr_validate(a, MNL_TYPE_U16))
		*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int family_msg(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr, data);
	return MNL_CB_OK;
}

/* Sends nlh and reads the answer up to its ack: 0, or -1 with errno. */
static int transact(struct mnl_socket *nl, struct nlmsghdr *nlh,
		    mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned port = mnl_socket_get_portid(nl);
	ssize_t n;
	int rc;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	do {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -1;
		rc = mnl_cb_run(buf, (size_t)n, 1, port, cb, data);
	} while (rc > 0);
	return rc < 0 ? -1 : 0;
}

static struct ts_listener *listen_exits(int *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct ts_listener *l = xcalloc(1, sizeof(*l));
	struct nlmsghdr *nlh;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int size = RCVBUF;

	l->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!l->nl || mnl_socket_bind(l->nl, 0, MNL_SOCKET_AUTOPID))
		goto fail;
	nlh = request(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, TASKSTATS_GENL_NAME);
	if (transact(l->nl, nlh, family_msg, &l->family))
		goto fail;
	if (!l->family) {
		errno = ENOENT;
		goto fail;
	}
	/* as root the limit of net.core.rmem_max does not apply */
	if (setsockopt(mnl_socket_get_fd(l->nl), SOL_SOCKET, SO_RCVBUFFORCE,
		       &size, sizeof(size)))
		setsockopt(mnl_socket_get_fd(l->nl), SOL_SOCKET, SO_RCVBUF,
			   &size, sizeof(size));
	snprintf(l->cpumask, sizeof(l->cpumask), "0-%ld",
		 ncpu > 1 ? ncpu - 1 : 0);
	nlh = request(buf, l->family, TASKSTATS_CMD_GET, TASKSTATS_GENL_VERSION);
	mnl_attr_put_strz(nlh, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, l->cpumask);
	if (transact(l->nl, nlh, NULL, NULL))
		goto fail;
	fcntl(mnl_socket_get_fd(l->nl), F_SETFL, O_NONBLOCK);
	return l;
fail:
	*err = errno;
	if (l->nl)
		mnl_socket_close(l->nl);
	free(l);
	return NULL;
}

static bool delayacct_on(void)
{
	char c = '0';
	int fd = open("/proc/sys/kernel/task_delayacct", O_RDONLY);

	if (fd < 0)
		return false;
	if (pread(fd, &c, 1, 0) != 1)
		c = '0';
	close(fd);
	return c == '1';
}

bool ts_available(char *why, size_t len)
{
	struct ts_listener *l;
	int err = 0;

	if (!delayacct_on()) {
		snprintf(why, len, "delay accounting is off (sysctl kernel.task_delayacct=1 turns it on)");
		return false;
	}
	l = listen_exits(&err);
	if (!l) {
		snprintf(why, len, "%s", err == EPERM ?
			 "needs CAP_NET_ADMIN (run as root)" :
			 err == ENOENT ? "kernel without CONFIG_TASKSTATS" :
			 strerror(err));
		return false;
	}
	ts_close(l);
	return true;
}

struct ts_listener *ts_open(void)
{
	int err;

	return delayacct_on() ? listen_exits(&err) : NULL;
}

void ts_close(struct ts_listener *l)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (!l)
		return;
	nlh = request(buf, l->family, TASKSTATS_CMD_GET, TASKSTATS_GENL_VERSION);
	nlh->nlmsg_flags = NLM_F_REQUEST;	/* no ack to wait for */
	mnl_attr_put_strz(nlh, TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK,
			  l->cpumask);
	mnl_socket_sendto(l->nl, nlh, nlh->nlmsg_len);
	mnl_socket_close(l->nl);
	free(l);
}

/* Reads a field of struct taskstats if the record is long enough for it. */
#define TS_FIELD(p, len, f, out)					\
	do {								\
		if ((len) >= offsetof(struct taskstats, f) +		\
			     sizeof(((struct taskstats *)0)->f))	\
			memcpy(&(out), (const char *)(p) +		\
			       offsetof(struct taskstats, f),		\
			       sizeof(((struct taskstats *)0)->f));	\
	} while (0)

struct parse {
	struct ts_task *t;
	bool pid, stats, aggr_pid;
};

static int inner_attr(const struct nlattr *a, void *data)
{
	struct parse *p = data;
	const void *v = mnl_attr_get_payload(a);
	size_t len = mnl_attr_get_payload_len(a);

	switch (mnl_attr_get_type(a)) {
	case TASKSTATS_TYPE_PID:
		if (len < sizeof(uint32_t))
			return MNL_CB_ERROR;
		p->pid = true;
		break;
	case TASKSTATS_TYPE_STATS:
		/* version 1's fields, up to the delays, at least */
		if (len < offsetof(struct taskstats, ac_comm))
			return MNL_CB_ERROR;
		TS_FIELD(v, len, ac_pid, p->t->pid);
		TS_FIELD(v, len, ac_ppid, p->t->ppid);
		TS_FIELD(v, len, ac_tgid, p->t->tgid);
		TS_FIELD(v, len, cpu_count, p->t->cpu_count);
		TS_FIELD(v, len, cpu_delay_total, p->t->cpu_delay_ns);
		TS_FIELD(v, len, cpu_run_real_total, p->t->run_real_ns);
		p->stats = true;
		break;
	}
	return MNL_CB_OK;
}

static int outer_attr(const struct nlattr *a, void *data)
{
	struct parse *p = data;

	switch (mnl_attr_get_type(a)) {
	case TASKSTATS_TYPE_AGGR_PID:
		p->aggr_pid = true;
		if (mnl_attr_parse_nested(a, inner_attr, p) != MNL_CB_OK)
			return MNL_CB_ERROR;
		break;
	case TASKSTATS_TYPE_AGGR_TGID:
		break;
	}
	return MNL_CB_OK;
}

int ts_parse(const void *payload, size_t len, struct ts_task *t)
{
	struct parse p = { .t = t };

	const struct nlattr *a = payload;
	int left = (int)len;

	memset(t, 0, sizeof(*t));
	/*
	 * By hand rather than mnl_attr_parse_payload(), which stops quietly
	 * at bytes that are no attribute: here they make the record bad.
	 */
	for (; mnl_attr_ok(a, left); a = mnl_attr_next(a)) {
		left -= (int)MNL_ALIGN(a->nla_len);
		if (outer_attr(a, &p) != MNL_CB_OK)
			return -1;
	}
	if (left > 0)
		return -1;
	if (!p.aggr_pid)
		return 1;
	return p.pid && p.stats ? 0 : -1;
}

/* An open-addressing set of pids, for the descendants of root. */
struct pidset {
	uint32_t *slot;
	size_t mask;
};

static void pidset_init(struct pidset *s, size_t n)
{
	size_t cap = 64;

	while (cap < 2 * n + 2)
		cap *= 2;
	s->slot = xcalloc(cap, sizeof(*s->slot));
	s->mask = cap - 1;
}

static bool pidset_has(const struct pidset *s, uint32_t pid)
{
	for (size_t i = (pid * 2654435761u) & s->mask; s->slot[i];
	     i = (i + 1) & s->mask)
		if (s->slot[i] == pid)
			return true;
	return false;
}

static void pidset_add(struct pidset *s, uint32_t pid)
{
	size_t i = (pid * 2654435761u) & s->mask;

	while (s->slot[i] && s->slot[i] != pid)
		i = (i + 1) & s->mask;
	s->slot[i] = pid;
}

/*
 * The records of root's threads and descendants. A child can exit after
 * its parent or before, so the set grows until a pass adds nothing.
 */
static void sum_tree(const struct ts_task *t, size_t n, pid_t root,
		     struct ts_sum *out)
{
	struct pidset set;
	bool *in = xcalloc(n ? n : 1, sizeof(*in));
	bool grew = true;

	pidset_init(&set, n + 1);
	pidset_add(&set, (uint32_t)root);
	while (grew) {
		grew = false;
		for (size_t i = 0; i < n; i++) {
			if (in[i] || t[i].pid == (uint32_t)root)
				continue;
			if (!pidset_has(&set, t[i].ppid) &&
			    !pidset_has(&set, t[i].tgid))
				continue;
			in[i] = grew = true;
			pidset_add(&set, t[i].pid);
			out->tasks++;
			out->cpu_count += t[i].cpu_count;
			out->cpu_delay_ns += t[i].cpu_delay_ns;
			out->run_real_ns += t[i].run_real_ns;
		}
	}
	free(set.slot);
	free(in);
}

void ts_collect(struct ts_listener *l, pid_t root, struct ts_sum *out)
{
	static char buf[1 << 16];
	struct ts_task *tasks = NULL;
	size_t n = 0, cap = 0;
	int fd = mnl_socket_get_fd(l->nl);

	memset(out, 0, sizeof(*out));
	for (;;) {
		ssize_t len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		const struct nlmsghdr *nlh = (const void *)buf;
		int left;

		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				out->lost = true;
				continue;
			}
			break;
		}
		for (left = (int)len; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			size_t plen;

			if (nlh->nlmsg_type != l->family ||
			    nlh->nlmsg_len < MNL_NLMSG_HDRLEN +
					     MNL_ALIGN(sizeof(struct genlmsghdr)))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 1024;
				tasks = realloc(tasks, cap * sizeof(*tasks));
				if (!tasks) {
					out->lost = true;
					return;
				}
			}
			plen = mnl_nlmsg_get_payload_len(nlh) -
			       MNL_ALIGN(sizeof(struct genlmsghdr));
			if (!ts_parse(mnl_nlmsg_get_payload_offset(nlh,
					sizeof(struct genlmsghdr)), plen,
				      &tasks[n]))
				n++;
		}
	}
	sum_tree(tasks, n, root, out);
	free(tasks);
}

/* ---- as a probe source ---- */

struct ts_state {
	struct ts_listener *l;
	pid_t root;
};

static bool source_available(enum probe_level level, char *why, size_t len)
{
	(void)level;
	return ts_available(why, len);
}

/* In the workload process: the root of the tree it sums. */
static void *source_open(enum probe_level level)
{
	struct ts_listener *l = ts_open();
	struct ts_state *s;

	(void)level;
	if (!l)
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->l = l;
	s->root = getpid();
	return s;
}

/* The workers have exited (reaped or joined): their records are in. */
static void source_end(void *st, double *out)
{
	struct ts_state *s = st;
	struct ts_sum sum;

	ts_collect(s->l, s->root, &sum);
	if (sum.lost || !sum.tasks)
		return;		/* an incomplete sum would mislead */
	out[PM_TS_CPU_DELAY_S] = (double)sum.cpu_delay_ns / 1e9;
	out[PM_TS_CPU_COUNT] = (double)sum.cpu_count;
	out[PM_TS_TASKS] = sum.tasks;
}

static void source_close(void *st)
{
	struct ts_state *s = st;

	ts_close(s->l);
	free(s);
}

const struct probe_source probe_taskstats = {
	.name = "taskstats", .available = source_available,
	.open = source_open, .end = source_end, .close = source_close,
};
