/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SCHEDLAB_VERSION_H
#define SCHEDLAB_VERSION_H
/* Set by the Makefile from git describe; a plain build says so. */
#ifndef SCHEDLAB_VERSION
#define SCHEDLAB_VERSION "0.1-unknown"
#endif
#endif
