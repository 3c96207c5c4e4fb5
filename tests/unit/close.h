/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * assert_close(got, want): cmocka check that a double equals a literal
 * worked out elsewhere, within 1e-9 relative (the literals are printed
 * doubles; the last digits may round differently). Include after
 * <cmocka.h> and <math.h>.
 */
#ifndef SCHEDLAB_TEST_CLOSE_H
#define SCHEDLAB_TEST_CLOSE_H

static inline int close_to(double got, double want)
{
	return got == want || fabs(got - want) <= 1e-9 * fabs(want);
}

#define assert_close(got, want)						\
	do {								\
		double g_ = (got), w_ = (want);				\
		if (!close_to(g_, w_))					\
			fail_msg("%s = %.17g, expected %.17g", #got,	\
				 g_, w_);				\
	} while (0)

#endif
