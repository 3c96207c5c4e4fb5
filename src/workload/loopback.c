// SPDX-License-Identifier: GPL-2.0-only
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workload/loopback.h"

static int bind_any_port(int fd, struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);

	*sin = (struct sockaddr_in){ .sin_family = AF_INET };
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)sin, len) ||
	    getsockname(fd, (struct sockaddr *)sin, &len))
		return -1;
	return 0;
}

/* Closes the open ones, keeping the first failure's errno. */
static int close_all(int a, int b, int c)
{
	int saved = errno;

	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	if (c >= 0)
		close(c);
	errno = saved;
	return -1;
}

int tcp_loopback_pair(int fds[2])
{
	struct sockaddr_in sin;
	int lsn, cli = -1, srv = -1;

	lsn = socket(AF_INET, SOCK_STREAM, 0);
	if (lsn < 0)
		return -1;
	if (bind_any_port(lsn, &sin) || listen(lsn, 1))
		return close_all(lsn, cli, srv);
	cli = socket(AF_INET, SOCK_STREAM, 0);
	if (cli < 0 || connect(cli, (struct sockaddr *)&sin, sizeof(sin)))
		return close_all(lsn, cli, srv);
	srv = accept(lsn, NULL, NULL);
	if (srv < 0)
		return close_all(lsn, cli, srv);
	close(lsn);
	fds[0] = srv;
	fds[1] = cli;
	return 0;
}

int udp_loopback_pair(int fds[2])
{
	struct sockaddr_in a, b;
	int srv, cli = -1;

	srv = socket(AF_INET, SOCK_DGRAM, 0);
	if (srv < 0)
		return -1;
	cli = socket(AF_INET, SOCK_DGRAM, 0);
	if (cli < 0 || bind_any_port(srv, &a) || bind_any_port(cli, &b) ||
	    connect(srv, (struct sockaddr *)&b, sizeof(b)) ||
	    connect(cli, (struct sockaddr *)&a, sizeof(a)))
		return close_all(srv, cli, -1);
	fds[0] = srv;
	fds[1] = cli;
	return 0;
}
