/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pgcluster: a throwaway PostgreSQL cluster for pgbench and sysbench.
 *
 * The schedlab process owns one temporary directory (made by
 * pg_prepare(), removed when schedlab exits: after the run, a failure or
 * Ctrl-C). In it each data set - "pgbench at scale 100", "sysbench with
 * 4 tables of 10000 rows" - has a cluster, created and loaded by the
 * first iteration that needs it and reused by the next ones, as one
 * would by hand: initdb, then pgbench -i once per scale.
 *
 * Each iteration starts postgres itself (not pg_ctl, which would put it
 * in a session of its own) in the workload process's group, listening
 * only on a unix socket in a private directory (listen_addresses = ''),
 * as the unprivileged user of ext_user() when schedlab is root, and
 * stops it (fast shutdown) when the iteration ends. The supervisor's
 * group kill covers every other ending; a cluster killed mid-load is
 * recognised as unfinished and made again.
 */
#ifndef SCHEDLAB_PGCLUSTER_H
#define SCHEDLAB_PGCLUSTER_H

#include <stdbool.h>
#include <sys/types.h>

#include "workload/workload.h"

#define PG_USER "schedlab"	/* the cluster's superuser */
#define PG_DB "postgres"

struct pg_server {
	pid_t pid;		/* the postmaster */
	char sock[256];		/* the unix socket's directory */
	char data[256];		/* the data directory */
	double setup_s;		/* initdb + start + load, when it was made now; else NaN */
};

/*
 * For prepare hooks, in the schedlab process: finds the PostgreSQL
 * programs and, unless conninfo is given, makes the run's directory
 * (once). Returns 0, or EXIT_USAGE after one message.
 */
int pg_prepare(const char *workload, bool need_server);

/* The full path of a PostgreSQL program ("pgbench", "initdb"). */
const char *pg_bin(const char *prog, char *buf, size_t len);

/* The directory the clusters live in, for a disk-space check. */
const char *pg_root(void);

/*
 * Starts the cluster called key; when it does not exist yet, makes it
 * and calls load(ctx, server, arg) to fill it, which must succeed for
 * the cluster to be kept. 0, or -1 after wl_fail() with nothing left
 * running.
 */
int pg_start(struct wl_ctx *ctx, const char *key,
	     int (*load)(struct wl_ctx *ctx, const struct pg_server *s,
			 void *arg),
	     void *arg, struct pg_server *s);

/* Fast shutdown; reaps the server and what it left. */
void pg_stop(struct pg_server *s);

/*
 * The postmaster's pid of the local server a conninfo ("host=DIR
 * port=N ...", keywords only; host a socket folder or this machine,
 * default $PGHOST, else /var/run/postgresql; port default $PGPORT, else
 * 5432) names, from its socket's lock file; -1 when it names another
 * machine or no lock file says.
 */
long pg_conninfo_server(const char *conninfo);

#endif
