/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loopback: connected socket pairs over 127.0.0.1 on ports the kernel
 * picks, made before any worker starts, so that nothing is left
 * listening while the workers run.
 */
#ifndef SCHEDLAB_LOOPBACK_H
#define SCHEDLAB_LOOPBACK_H

/*
 * TCP: listen on an ephemeral port, connect, accept, close the listener.
 * fds[0] is the accepted (server) end, fds[1] the connecting (client)
 * end. Returns 0, or -1 with errno set and nothing left open.
 */
int tcp_loopback_pair(int fds[2]);

/*
 * UDP: two sockets, each bound to its own ephemeral port and connected
 * to the other, so both sides use plain send()/recv(). fds[0] is the
 * server end, fds[1] the client end.
 */
int udp_loopback_pair(int fds[2]);

#endif
