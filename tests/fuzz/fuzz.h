/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz: the one entry point every harness in tests/fuzz/ defines, the
 * libFuzzer one. `make fuzz` links a harness with libFuzzer
 * (-fsanitize=fuzzer, clang); `make check` links it with replay.c,
 * whose main() feeds it each file of its corpus, so the corpus is
 * replayed under ASan+UBSan without libFuzzer.
 *
 * A harness hands its parser exactly size bytes in a buffer of their
 * own (no NUL after them unless the parser's contract needs one), so a
 * read past the end is caught; it frees what the parser made, so a leak
 * is caught too. Messages are muted (error_mute()): a refused input is
 * the common case, and printing it would be most of the time spent.
 */
#ifndef SCHEDLAB_FUZZ_H
#define SCHEDLAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
