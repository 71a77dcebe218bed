/*
 * LD_PRELOAD shim for the ns-2 oracle runs (see regen.sh).  Written for the
 * Dumbbell project; it does not change what ns computes, only how two kinds
 * of results are printed and what the clock says:
 *
 *  - ns-2 returns RandomVariable values with Tcl::resultf("%6e") and
 *    `$rng normal/lognormal` with "%g", losing digits.  With
 *    NS_EXACT_DOUBLES=1, a vsprintf whose format is exactly "%6e" or "%g"
 *    prints "%.17g" instead, so every bit of the double reaches the script.
 *  - With NS_FAKE_SEC/NS_FAKE_USEC set, gettimeofday() returns that constant
 *    time, so HEURISTIC_SEED_SOURCE seeds are reproducible.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static const char *exact_fmt(const char *fmt)
{
	static int on = -1;
	if (on < 0)
		on = getenv("NS_EXACT_DOUBLES") != NULL;
	if (on && (strcmp(fmt, "%6e") == 0 || strcmp(fmt, "%g") == 0))
		return "%.17g";
	return fmt;
}

int vsprintf(char *s, const char *fmt, va_list ap)
{
	return vsnprintf(s, 1 << 20, exact_fmt(fmt), ap);
}

int __vsprintf_chk(char *s, int flag, size_t slen, const char *fmt, va_list ap)
{
	(void)flag;
	return vsnprintf(s, slen, exact_fmt(fmt), ap);
}

int gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	const char *s = getenv("NS_FAKE_SEC"), *u = getenv("NS_FAKE_USEC");
	if (s && u) {
		tv->tv_sec = atol(s);
		tv->tv_usec = atol(u);
		return 0;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}
